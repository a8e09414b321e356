/** The vector index figures: recall arithmetic, and one small real run over synthetic vectors. */
import assert from 'node:assert/strict';
import { ENGINE_K, LOW_EF_SEARCH, meanRecall, measureVectors } from '../../../bench/measureVectors';

describe('bench vector index figures', function () {
  this.timeout(60_000);

  it('recall is the mean share of each exact top k found', () => {
    assert.equal(meanRecall([[1, 2, 3]], [[3, 2, 1]]), 1);
    assert.equal(
      meanRecall(
        [
          [1, 9, 8],
          [4, 5, 6],
        ],
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
      ),
      (1 / 3 + 1) / 2,
    );
    assert.equal(meanRecall([[7]], [[1, 2]]), 0);
    assert.ok(Number.isNaN(meanRecall([], [])));
  });

  it('builds both HNSW backends and the exact scan over the grown set and asks every held-out query', async () => {
    const f = await measureVectors({ size: 'tiny', count: 300, queries: 30, seed: 1, standin: 'synthetic' });
    assert.equal(f.vectors, 300);
    assert.equal(f.dimension, 384);
    assert.equal(f.source, 'synthetic');
    assert.equal(f.queries, 30);
    assert.equal(f.hnsw.m, 16);
    assert.equal(f.hnsw.efConstruction, 200);
    assert.deepEqual(
      f.hnsw.searches.map((s) => [s.efSearch, s.k, s.latency.n]),
      [
        [64, 10, 30],
        [LOW_EF_SEARCH, 10, 30],
        [ENGINE_K, ENGINE_K, 30],
      ],
    );
    for (const s of f.hnsw.searches) assert.ok(s.recall >= 0 && s.recall <= 1);
    // The built-in graph saves the int8 codes and links; hnswlib-node a float32 copy besides.
    assert.equal(f.hnsw.backend, 'hnsw');
    assert.ok(
      f.hnsw.fileBytes > 300 * 384 && f.hnsw.fileBytes < 300 * 384 * 4,
      `the saved graph holds every int8 vector (${f.hnsw.fileBytes} bytes)`,
    );
    assert.ok(!('skipped' in f.hnswlib), 'hnswlib-node measured beside it');
    const hnswlib = f.hnswlib as Exclude<typeof f.hnswlib, { skipped: string }>;
    assert.equal(hnswlib.backend, 'hnswlib');
    assert.deepEqual(
      hnswlib.searches.map((s) => [s.efSearch, s.k, s.latency.n]),
      [
        [64, 10, 30],
        [LOW_EF_SEARCH, 10, 30],
        [ENGINE_K, ENGINE_K, 30],
      ],
    );
    assert.ok(hnswlib.fileBytes > 300 * 384 * 4, 'the hnswlib file holds every float32 vector');
    assert.ok(Number.isFinite(f.hnsw.buildCpuMs) && Number.isFinite(hnswlib.buildCpuMs));
    assert.ok(
      Number.isFinite(f.exact.bytes) && Number.isFinite(f.hnsw.rssBytes),
      'memory figures (exact only under --expose-gc)',
    );
    assert.equal(f.exact.latency.n, 30);
  });
});
