import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createVectorIndex,
  loadVectorIndex,
  vectorBackendStatus,
  type HnswLoader,
} from '../../../../server/src/engine/vector/vectorIndex';
import { clusteredVectors, floatCosine } from './syntheticVectors';

/** A platform where the addon is missing: the loader throws what `require` throws there. */
const missingAddon: HnswLoader = () => {
  throw new Error("Cannot find module './build/Release/addon.node'\nRequire stack: ...");
};

describe('engine/vector/vectorIndex', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-vindex-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('uses HNSW where hnswlib-node loads, and says so', () => {
    assert.deepEqual(vectorBackendStatus(), { backend: 'hnsw', reason: 'hnswlib-node loaded' });
    const index = createVectorIndex(8);
    assert.equal(index.kind, 'hnsw');
    assert.equal(index.dimension, 8);
  });

  it('falls back to the exact scan when the addon cannot load, and says why', () => {
    const logged: string[] = [];
    const index = createVectorIndex(16, { loader: missingAddon, log: (m) => logged.push(m) });
    assert.equal(index.kind, 'exact');
    assert.deepEqual(logged, [
      "vector index: using the exact scan: hnswlib-node could not be loaded (Cannot find module './build/Release/addon.node')",
    ]);
    assert.deepEqual(vectorBackendStatus(missingAddon), {
      backend: 'exact',
      reason: "hnswlib-node could not be loaded (Cannot find module './build/Release/addon.node'); using the exact cosine scan",
    });
    // The fallback is a working index, not a stub.
    const vectors = clusteredVectors(200, 16, 10, 0.3, 3);
    vectors.forEach((v, label) => index.add(label, v));
    const hits = index.search(vectors[42], 3);
    assert.equal(hits[0].label, 42);
    assert.ok(Math.abs(hits[0].score - 1) < 1e-6);
    assert.equal(hits.length, 3);
  });

  it('both backends answer a label\'s cosine from the same int8 store, within 0.005 of the float cosine', () => {
    const vectors = clusteredVectors(300, 384, 10, 0.3, 5);
    const query = clusteredVectors(1, 384, 10, 0.3, 99)[0];
    const hnsw = createVectorIndex(384);
    // The fallback where the addon does not load is the exact scan over the same kind of store.
    const fallback = createVectorIndex(384, { loader: missingAddon });
    assert.deepEqual([hnsw.kind, fallback.kind], ['hnsw', 'exact']);
    vectors.forEach((v, label) => {
      hnsw.add(label, v);
      fallback.add(label, v);
    });
    let worst = 0;
    for (let label = 0; label < vectors.length; label++) {
      const truth = floatCosine(query, vectors[label]);
      const got = hnsw.similarity(label, query)!;
      worst = Math.max(worst, Math.abs(got - truth));
      // Same codes, same query codes: the same number, not merely close.
      assert.equal(fallback.similarity(label, query), got);
    }
    assert.ok(worst < 0.005, `worst int8 vs float32 cosine error ${worst}`);
    assert.equal(hnsw.similarity(1000, query), null);
    assert.equal(fallback.similarity(1000, query), null);
    // The exact scan's scores are those cosines.
    const [top] = fallback.search(query, 1);
    assert.ok(Math.abs(top.score - fallback.similarity(top.label, query)!) < 1e-6);
    assert.equal(top.label, hnsw.search(query, 1)[0].label);
  });

  it('treats a loader that returns something else as a failed load', () => {
    const bogus = (() => ({})) as unknown as HnswLoader;
    assert.equal(createVectorIndex(4, { loader: bogus }).kind, 'exact');
    assert.match(vectorBackendStatus(bogus).reason, /has no HierarchicalNSW class/);
  });

  it('refuses HNSW explicitly requested on a platform without the addon', () => {
    assert.throws(() => createVectorIndex(4, { backend: 'hnsw', loader: missingAddon }), /HNSW requested but hnswlib-node could not be loaded/);
    assert.equal(createVectorIndex(4, { backend: 'exact' }).kind, 'exact');
  });

  it('loads either kind from disk, and names the problem when it cannot', () => {
    const vectors = clusteredVectors(50, 8, 5, 0.3, 11);
    const exactFile = path.join(dir, 'exact.idx');
    const hnswFile = path.join(dir, 'hnsw.idx');
    const exact = createVectorIndex(8, { backend: 'exact' });
    const hnsw = createVectorIndex(8);
    vectors.forEach((v, label) => {
      exact.add(label, v);
      hnsw.add(label, v);
    });
    exact.save(exactFile);
    hnsw.save(hnswFile);

    const exactBack = loadVectorIndex(exactFile);
    assert.equal(exactBack.kind, 'exact');
    assert.deepEqual(exactBack.search(vectors[3], 5), exact.search(vectors[3], 5));
    const hnswBack = loadVectorIndex(hnswFile);
    assert.equal(hnswBack.kind, 'hnsw');
    assert.deepEqual(hnswBack.search(vectors[3], 5), hnsw.search(vectors[3], 5));

    // An exact file needs no addon; an HNSW file does, and the error says so.
    assert.equal(loadVectorIndex(exactFile, { loader: missingAddon }).kind, 'exact');
    assert.throws(() => loadVectorIndex(hnswFile, { loader: missingAddon }), /hnsw\.idx is an HNSW index but hnswlib-node could not be loaded/);
    assert.throws(() => loadVectorIndex(path.join(dir, 'none.idx')), /cannot read .*none\.idx/);
  });

  it('rejects a dimension that is not a positive integer', () => {
    assert.throws(() => createVectorIndex(0), /dimension must be a positive integer \(got 0\)/);
  });
});
