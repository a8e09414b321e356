import * as assert from 'node:assert/strict';
import {
  createEmbedder,
  DEFAULT_EMBEDDING_SETTINGS,
  defaultWorkerCount,
  type EmbeddingSettings,
} from '../../../../server/src/engine/embeddings/embedder';
import { defaultOnnxThreads, LocalEmbedder } from '../../../../server/src/engine/embeddings/localEmbedder';
import { OpenAiEmbedder } from '../../../../server/src/engine/embeddings/openAiEmbedder';

const settings = (over: Partial<EmbeddingSettings>): EmbeddingSettings => ({ ...DEFAULT_EMBEDDING_SETTINGS, ...over });

describe('engine/embeddings/embedder', () => {
  it('defaults to the local MiniLM model with min(2, cores) bulk workers, one thread each on two cores', () => {
    assert.equal(DEFAULT_EMBEDDING_SETTINGS.provider, 'local');
    assert.equal(DEFAULT_EMBEDDING_SETTINGS.localModel, 'minilm');
    assert.equal(DEFAULT_EMBEDDING_SETTINGS.batchSize, 16);
    assert.deepEqual(
      [1, 2, 3, 4, 16].map((cores) => defaultWorkerCount(cores)),
      [1, 2, 2, 2, 2],
    );
    assert.deepEqual(
      [1, 2, 4].map((cores) => defaultOnnxThreads(defaultWorkerCount(cores), cores)),
      [1, 1, 2],
    );
  });

  it('creates the embedder the settings name, loading nothing yet', async () => {
    assert.equal(createEmbedder(settings({ provider: 'off' })), null);

    const local = createEmbedder(settings({ provider: 'local', workers: 0, batchSize: Number.NaN }));
    assert.ok(local instanceof LocalEmbedder);
    assert.deepEqual(
      [local.model, local.id, local.dimension, local.maxInputTokens, local.runningWorkers],
      ['minilm', 'local:all-minilm-l6-v2+onnx-int8-g3@0.1.0', 384, 160, 0],
    );
    assert.equal(local.startedWorkers, 0);
    await local.dispose();

    // The WASM engine, where asked for (and where onnxruntime-node cannot load): another id, since its vectors differ slightly.
    const wasm = createEmbedder(settings({ provider: 'local', runtime: 'wasm' }));
    assert.ok(wasm instanceof LocalEmbedder);
    assert.deepEqual([wasm.id, wasm.runtime], ['local:all-minilm-l6-v2@0.1.0', 'wasm']);
    await wasm.dispose();
    const fp32 = createEmbedder(settings({ provider: 'local', precision: 'fp32', workers: 2, threads: 1 }));
    assert.deepEqual(
      [fp32?.id, fp32?.runtime],
      ['local:all-minilm-l6-v2+onnx-fp32-g3@0.1.0', 'onnxruntime-node 1.30.0, fp32, 2 x 1 threads'],
    );
    await fp32?.dispose();

    const use = createEmbedder(settings({ provider: 'local', localModel: 'use-lite' }));
    assert.ok(use instanceof LocalEmbedder);
    assert.deepEqual(
      [use.model, use.id, use.dimension, use.maxInputTokens, use.runningWorkers],
      ['use-lite', 'local:universal-sentence-encoder-lite@0.2.0', 512, 256, 0],
    );
    await use.dispose();

    // Settings read from JSON may lack the key: the default model.
    const { localModel: _omitted, ...withoutModel } = DEFAULT_EMBEDDING_SETTINGS;
    const fallback = createEmbedder(withoutModel as EmbeddingSettings);
    assert.equal(fallback?.id, 'local:all-minilm-l6-v2+onnx-int8-g3@0.1.0');
    await fallback?.dispose();

    const remote = createEmbedder(
      settings({
        provider: 'openai',
        baseUrl: 'http://127.0.0.1:1234/v1/',
        model: 'text-embedding-3-small',
        maxInputTokens: 8191,
      }),
    );
    assert.ok(remote instanceof OpenAiEmbedder);
    assert.equal(remote.id, 'openai:http://127.0.0.1:1234/v1#text-embedding-3-small');
    assert.equal(remote.dimension, 0);
    assert.equal(remote.maxInputTokens, 8191);
  });

  it('names an unknown provider or local model', () => {
    assert.throws(
      () => createEmbedder(settings({ provider: 'cohere' as never })),
      /unknown provider 'cohere' \(expected local, openai or off\)/,
    );
    assert.throws(() => createEmbedder(settings({ localModel: 'e5' as never })), {
      message: "embeddings: unknown local model 'e5' (expected minilm or use-lite)",
    });
    // The local model is not looked at when another provider is chosen.
    assert.equal(createEmbedder(settings({ provider: 'off', localModel: 'e5' as never })), null);
  });
});
