/**
 * Stand-in vectors: grown sets are seeded, normalised and as close to their pool row as the
 * documented noise makes them; the SciFact pool is read from a real vector cache file without
 * ever changing it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { localModelId } from '../../../server/src/engine/embeddings/localModels';
import { textDigest, VectorCache, vectorCacheFileName } from '../../../server/src/engine/embeddings/vectorCache';
import {
  grownVector,
  HELD_OUT,
  heldOutVector,
  normalise,
  scifactPool,
  syntheticPool,
  type VectorPool,
} from '../../../bench/standinVectors';
import { Random } from '../../../bench/random';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

describe('bench stand-in vectors', () => {
  let pool: VectorPool;
  before(() => {
    pool = syntheticPool(7);
  });

  it('grows a set: pool rows first, then noisy normalised copies at cosine ~0.90 to their row', () => {
    assert.equal(pool.rows, 2000);
    assert.equal(pool.heldOut, HELD_OUT);
    assert.deepEqual(grownVector(pool, 5, 1), pool.data.slice(5 * 384, 6 * 384));
    const cosines: number[] = [];
    for (let j = pool.rows; j < pool.rows + 50; j++) {
      const v = grownVector(pool, j, 1);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5, `copy ${j} is normalised`);
      cosines.push(dot(v, grownVector(pool, j % pool.rows, 1)));
    }
    const mean = cosines.reduce((a, b) => a + b, 0) / cosines.length;
    assert.ok(mean > 0.88 && mean < 0.92, `mean cosine to the row ${mean}`);
    assert.ok(
      cosines.every((c) => c < 0.999),
      'every copy differs from its row',
    );
  });

  it('is the same for the same seed and differs for another', () => {
    const j = pool.rows * 3 + 11;
    assert.deepEqual(grownVector(pool, j, 1), grownVector(pool, j, 1));
    assert.deepEqual(syntheticPool(7).data, pool.data);
    assert.notDeepEqual(grownVector(pool, j, 1), grownVector(pool, j, 2));
    assert.notDeepEqual(syntheticPool(8).data.slice(0, 384), pool.data.slice(0, 384));
  });

  it('keeps the held-out query rows out of every grown set', () => {
    const q = heldOutVector(pool, 3);
    assert.deepEqual(q, pool.data.slice((pool.rows + 3) * 384, (pool.rows + 4) * 384));
    for (let j = 0; j < pool.rows; j++)
      assert.ok(dot(q, grownVector(pool, j, 1)) < 0.999, `row ${j} is a held-out query`);
  });

  it('reads the SciFact pool from a vector cache file in digest order, held-out rows last', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-standin-'));
    try {
      const modelId = localModelId('minilm');
      const cache = VectorCache.open({ dir, modelId, dimension: 384 });
      const random = new Random(3);
      const texts = Array.from({ length: 450 }, (_, i) => `passage ${i}`);
      const vectors = texts.map(() => normalise(Float32Array.from({ length: 384 }, () => random.next() - 0.5)));
      cache.putMany(texts.map((t, i) => [textDigest(t), [vectors[i]]] as const));
      cache.close();
      const file = path.join(dir, vectorCacheFileName(modelId));
      const bytes = readFileSync(file);

      const read = scifactPool(dir);
      assert.ok(typeof read !== 'string', String(read));
      assert.equal(read.source, 'scifact');
      assert.equal(read.rows, 250);
      const byDigest = texts.map((t, i) => [textDigest(t), i] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      for (const r of [0, 249, 250, 449]) {
        const expected = vectors[byDigest[r][1]];
        const got = read.data.subarray(r * 384, (r + 1) * 384);
        assert.ok(Math.abs(dot(got, expected) - 1) < 1e-5, `row ${r} is the vector of the ${r}th digest`);
      }
      assert.deepEqual(readFileSync(file), bytes, 'the cache file is left as it was');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says why there is no SciFact pool, and leaves another model's cache file alone", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-standin-'));
    try {
      assert.match(scifactPool(dir) as string, /^no SciFact vector cache at .*npm run eval/);
      // A file under the MiniLM name but written for another model id (a renamed or stale file).
      const other = VectorCache.open({ dir, modelId: 'local:other@1', dimension: 384 });
      other.put(textDigest('x'), [new Float32Array(384).fill(0.05)]);
      other.close();
      const file = path.join(dir, vectorCacheFileName(localModelId('minilm')));
      const bytes = readFileSync(path.join(dir, vectorCacheFileName('local:other@1')));
      renameSync(path.join(dir, vectorCacheFileName('local:other@1')), file);
      assert.match(scifactPool(dir) as string, /was written by local:other@1 \(384 dimensions\)/);
      assert.deepEqual(readFileSync(file), bytes, 'not deleted, not changed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
