import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAbortError } from '../../../../server/src/engine/embeddings/abort';
import { embedSectionWindows, embedTextsCached } from '../../../../server/src/engine/embeddings/cachedEmbedding';
import { textDigest, VectorCache } from '../../../../server/src/engine/embeddings/vectorCache';
import { dot } from '../../../../server/src/engine/embeddings/vectorMath';
import { splitWindows } from '../../../../server/src/engine/embeddings/windows';
import { sharedLocalEmbedder } from './sharedLocalEmbedder';

const paragraph = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Step ${i + 1} of the ${topic} procedure is written down in this paragraph.`,
  ).join(' ');

describe('engine/embeddings/cachedEmbedding', function () {
  // Loading a model in a worker takes seconds on a busy machine (mocha's default is 2 s).
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-cached-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps the chunks finished before a cancel, and embeds only the rest next time', async () => {
    const embedder = sharedLocalEmbedder();
    const cache = VectorCache.open({ dir, modelId: embedder.id, dimension: embedder.dimension });
    const texts = Array.from({ length: 10 }, (_, i) => `note ${i} about the billing worker`);
    const controller = new AbortController();
    const run = embedTextsCached(embedder, texts, {
      cache,
      signal: controller.signal,
      chunkSize: 2,
      onProgress: (done) => done > 0 && controller.abort(),
    });
    await assert.rejects(run, (err) => isAbortError(err));
    assert.equal(cache.size, 2);
    assert.equal(cache.has(textDigest(texts[0])), true);
    assert.equal(cache.has(textDigest(texts[1])), true);

    const rest = await embedTextsCached(embedder, texts, { cache, chunkSize: 2 });
    assert.equal(rest.cached, 2);
    assert.equal(rest.embedded, 8);
    assert.equal(cache.size, 10);
  });

  it('embeds every window of every section, tagged with its ordinal, through the cache', async () => {
    const embedder = sharedLocalEmbedder();
    const long = [paragraph('deployment', 8), paragraph('rollback', 8), paragraph('billing retry', 8)].join('\n\n');
    const sections = ['A short section about TLS certificates.', long];
    const options = { maxTokens: 64 };
    const cache = VectorCache.open({ dir, modelId: embedder.id });
    const first = await embedSectionWindows(embedder, sections, options, { cache });
    const longWindows = splitWindows(long, options);
    assert.ok(longWindows.length >= 3);
    assert.deepEqual(
      first.windows.map((w) => [w.ordinal, w.window]),
      [[0, 0], ...longWindows.map((_, i) => [1, i])],
    );
    assert.equal(first.embedded, 1 + longWindows.length);
    const [direct] = await embedder.embed([longWindows[1].text]);
    // Alone vs in a batch: equal up to int8 activation quantization, which ONNX Runtime does per batch.
    assert.ok(dot(direct, first.windows[2].vector) > 0.98, `${dot(direct, first.windows[2].vector)}`);

    const second = await embedSectionWindows(embedder, sections, options, { cache });
    assert.equal(second.embedded, 0);
    assert.equal(second.cached, 1 + longWindows.length);
  });
});
