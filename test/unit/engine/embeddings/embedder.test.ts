import * as assert from 'node:assert/strict';
import {
  createEmbedder,
  DEFAULT_EMBEDDING_SETTINGS,
  defaultWorkerCount,
  type EmbeddingSettings,
} from '../../../../server/src/engine/embeddings/embedder';
import { LocalUseEmbedder } from '../../../../server/src/engine/embeddings/localUseEmbedder';
import { OpenAiEmbedder } from '../../../../server/src/engine/embeddings/openAiEmbedder';

const settings = (over: Partial<EmbeddingSettings>): EmbeddingSettings => ({ ...DEFAULT_EMBEDDING_SETTINGS, ...over });

describe('engine/embeddings/embedder', () => {
  it('defaults to the local model with min(2, cores - 1) workers, at least one', () => {
    assert.equal(DEFAULT_EMBEDDING_SETTINGS.provider, 'local');
    assert.equal(DEFAULT_EMBEDDING_SETTINGS.batchSize, 16);
    assert.deepEqual([1, 2, 3, 4, 16].map((cores) => defaultWorkerCount(cores)), [1, 1, 2, 2, 2]);
  });

  it('creates the embedder the settings name, loading nothing yet', async () => {
    assert.equal(createEmbedder(settings({ provider: 'off' })), null);

    const local = createEmbedder(settings({ provider: 'local', workers: 0, batchSize: Number.NaN }));
    assert.ok(local instanceof LocalUseEmbedder);
    assert.equal(local.id, 'local:universal-sentence-encoder-lite@0.2.0');
    assert.equal(local.dimension, 512);
    assert.equal(local.maxInputTokens, 256);
    assert.equal(local.runningWorkers, 0);
    await local.dispose();

    const remote = createEmbedder(settings({ provider: 'openai', baseUrl: 'http://127.0.0.1:1234/v1/', model: 'text-embedding-3-small', maxInputTokens: 8191 }));
    assert.ok(remote instanceof OpenAiEmbedder);
    assert.equal(remote.id, 'openai:http://127.0.0.1:1234/v1#text-embedding-3-small');
    assert.equal(remote.dimension, 0);
    assert.equal(remote.maxInputTokens, 8191);
  });

  it('names an unknown provider', () => {
    assert.throws(() => createEmbedder(settings({ provider: 'cohere' as never })), /unknown provider 'cohere' \(expected local, openai or off\)/);
  });
});
