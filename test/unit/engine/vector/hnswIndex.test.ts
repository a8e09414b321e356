import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExactIndex } from '../../../../server/src/engine/vector/exactIndex';
import { HnswIndex, loadHnswlib } from '../../../../server/src/engine/vector/hnswIndex';
import {
  loadVectorIndex,
  loadVectorIndexAsync,
  type VectorIndex,
} from '../../../../server/src/engine/vector/vectorIndex';
import { clusteredVectors } from './syntheticVectors';

const DIM = 64;
const COUNT = 3000;
const K = 10;

function recallAt(
  k: number,
  approx: VectorIndex,
  exact: ExactIndex,
  queries: Float32Array[],
  filter?: (l: number) => boolean,
): number {
  let found = 0;
  for (const q of queries) {
    const truth = new Set(exact.search(q, k, filter).map((h) => h.label));
    for (const h of approx.search(q, k, filter)) if (truth.has(h.label)) found++;
  }
  return found / (queries.length * k);
}

describe('engine/vector/hnswIndex', function () {
  const loaded = loadHnswlib();
  if (!('lib' in loaded)) throw new Error(`these tests need the hnswlib-node addon: ${loaded.error}`);
  const lib = loaded.lib;
  const vectors = clusteredVectors(COUNT, DIM, 200, 0.3, 7);
  const queries = clusteredVectors(100, DIM, 200, 0.3, 7_001);
  let hnsw: HnswIndex;
  let exact: ExactIndex;
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-hnsw-'));
    // Small initial capacity so the build crosses several resizes.
    hnsw = new HnswIndex(lib, DIM, { initialCapacity: 64 });
    exact = new ExactIndex(DIM);
    vectors.forEach((v, label) => {
      hnsw.add(label, v);
      exact.add(label, v);
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds what the exact scan finds: recall@10 >= 0.95 with the default ef', () => {
    assert.equal(hnsw.size, COUNT);
    const recall = recallAt(K, hnsw, exact, queries);
    assert.ok(recall >= 0.95, `recall@10 was ${recall}`);
  });

  it('uses efSearch: a candidate list of only k finds clearly less', () => {
    const narrow = new HnswIndex(lib, DIM, { efSearch: 10 });
    vectors.forEach((v, label) => narrow.add(label, v));
    const recall = recallAt(K, narrow, exact, queries);
    assert.ok(recall < 0.9, `recall@10 with ef=10 was ${recall}`);
  });

  it("scores are cosines, equal to the exact scan's for the same labels within int8 rounding", () => {
    const q = queries[0];
    // The exact scan and `similarity` read the int8 store; hnswlib scores its float32 copy.
    const truth = new Map(exact.search(q, K).map((h) => [h.label, h.score]));
    const hits = hnsw.search(q, K);
    assert.equal(hits.length, K);
    let compared = 0;
    for (const h of hits) {
      if (truth.has(h.label)) {
        compared++;
        assert.ok(Math.abs(h.score - truth.get(h.label)!) < 0.005, `${h.score} vs ${truth.get(h.label)}`);
      }
      const viaStore = hnsw.similarity(h.label, q)!;
      assert.ok(Math.abs(h.score - viaStore) < 0.005, `similarity ${viaStore} vs hnswlib ${h.score}`);
      assert.equal(viaStore, exact.similarity(h.label, q));
    }
    assert.ok(compared >= K - 1);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
  });

  it('never returns removed labels, and a removed label can come back', () => {
    const q = queries[1];
    const top = hnsw.search(q, K).map((h) => h.label);
    for (const label of top.slice(0, 5)) {
      assert.equal(hnsw.remove(label), true);
      exact.remove(label);
    }
    assert.equal(hnsw.remove(top[0]), false);
    assert.equal(hnsw.size, COUNT - 5);
    assert.equal(hnsw.deletedCount, 5);
    assert.equal(hnsw.similarity(top[0], q), null);
    const after = hnsw.search(q, K).map((h) => h.label);
    for (const label of top.slice(0, 5)) assert.equal(after.includes(label), false);
    assert.ok(recallAt(K, hnsw, exact, queries) >= 0.95);

    hnsw.add(top[0], vectors[top[0]]);
    exact.add(top[0], vectors[top[0]]);
    assert.equal(hnsw.size, COUNT - 4);
    assert.equal(hnsw.deletedCount, 4);
    assert.equal(hnsw.search(q, 1)[0].label, exact.search(q, 1)[0].label);
  });

  it('honours a filter', () => {
    const even = (l: number) => l % 2 === 0;
    const hits = hnsw.search(queries[2], K, even);
    assert.equal(hits.length, K);
    assert.ok(hits.every((h) => h.label % 2 === 0));
    assert.ok(recallAt(K, hnsw, exact, queries.slice(0, 20), even) >= 0.9);
  });

  it('saves and loads: same answers and cosines, removals kept', () => {
    const file = path.join(dir, 'index.hnsw');
    hnsw.save(file);
    // hnswlib's own file and the int8 store beside it; no temporary file left.
    assert.deepEqual(fs.readdirSync(dir).sort(), ['index.hnsw', 'index.hnsw.int8']);
    const back = loadVectorIndex(file, { backend: 'hnswlib' });
    for (const q of queries.slice(0, 5))
      for (let label = 0; label < COUNT; label += 97)
        assert.equal(back.similarity(label, q), hnsw.similarity(label, q));
    assert.equal(back.kind, 'hnswlib');
    assert.equal(back.size, hnsw.size);
    assert.equal((back as HnswIndex).deletedCount, hnsw.deletedCount);
    for (const q of queries.slice(0, 10)) assert.deepEqual(back.search(q, K), hnsw.search(q, K));
    const removed = [...Array(COUNT).keys()].filter((l) => !hnsw.has(l));
    assert.equal(removed.length, 4);
    for (const l of removed) assert.equal(back.has(l), false);
    // The loaded index keeps working: add beyond its saved capacity.
    back.add(COUNT + 1, vectors[0]);
    assert.equal(back.search(vectors[0], 1)[0].score > 0.999, true);
  });

  it('loads without blocking (hnswlib reads on the thread pool) to the same index', async () => {
    const file = path.join(dir, 'index.hnsw');
    const back = await loadVectorIndexAsync(file, { backend: 'hnswlib' });
    assert.equal(back.kind, 'hnswlib');
    assert.equal(back.size, hnsw.size);
    for (const q of queries.slice(0, 10)) assert.deepEqual(back.search(q, K), hnsw.search(q, K));
    for (let label = 0; label < COUNT; label += 101)
      assert.equal(back.similarity(label, queries[3]), hnsw.similarity(label, queries[3]));
    await assert.rejects(loadVectorIndexAsync(path.join(dir, 'none.hnsw')), /cannot read .*none\.hnsw/);
  });

  it('refuses an index whose store file is missing, damaged or from another save', () => {
    const file = path.join(dir, 'index.hnsw');
    const other = path.join(dir, 'other.hnsw');
    const small = new HnswIndex(lib, DIM);
    vectors.slice(0, 50).forEach((v, label) => small.add(label, v));
    small.save(other);
    const store = fs.readFileSync(`${file}.int8`);
    fs.copyFileSync(`${other}.int8`, `${file}.int8`);
    assert.throws(
      () => loadVectorIndex(file, { backend: 'hnswlib' }),
      /index\.hnsw does not match .*index\.hnsw\.int8/,
    );
    fs.writeFileSync(`${file}.int8`, store.subarray(0, store.length - 10));
    assert.throws(() => loadVectorIndex(file, { backend: 'hnswlib' }), /index\.hnsw\.int8 is truncated or damaged/);
    fs.rmSync(`${file}.int8`);
    assert.throws(
      () => loadVectorIndex(file, { backend: 'hnswlib' }),
      /has no readable store file .*index\.hnsw\.int8/,
    );
    // Where the built-in graph is wanted the store file is what it is rebuilt from: the same error.
    assert.throws(() => loadVectorIndex(file), /has no readable store file .*index\.hnsw\.int8/);
  });
});
