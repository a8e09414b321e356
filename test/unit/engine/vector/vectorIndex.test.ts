import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GraphIndex } from '../../../../server/src/engine/vector/graphIndex';
import {
  createVectorIndex,
  loadVectorIndex,
  loadVectorIndexAsync,
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

  it('uses the built-in HNSW graph by default, hnswlib-node or the exact scan when chosen, and says which', () => {
    assert.deepEqual(vectorBackendStatus(), {
      backend: 'hnsw',
      reason: 'the built-in HNSW graph over the int8 vector store',
    });
    assert.deepEqual(vectorBackendStatus('hnsw'), vectorBackendStatus());
    assert.deepEqual(vectorBackendStatus('hnswlib'), {
      backend: 'hnswlib',
      reason: 'hnswlib-node loaded, as configured (a float32 copy of every vector besides the int8 store)',
    });
    assert.deepEqual(vectorBackendStatus('exact'), {
      backend: 'exact',
      reason: 'the exact cosine scan, as configured',
    });
    const kinds = (['auto', 'hnsw', 'hnswlib', 'exact'] as const).map((backend) => createVectorIndex(8, { backend }));
    assert.deepEqual(
      kinds.map((index) => [index.kind, index.dimension]),
      [
        ['hnsw', 8],
        ['hnsw', 8],
        ['hnswlib', 8],
        ['exact', 8],
      ],
    );
    assert.ok(kinds[0] instanceof GraphIndex);
  });

  it('runs the built-in graph, with a log line, where hnswlib is chosen but the addon does not load, and says why', () => {
    const logged: string[] = [];
    const index = createVectorIndex(16, { backend: 'hnswlib', loader: missingAddon, log: (m) => logged.push(m) });
    assert.equal(index.kind, 'hnsw');
    const reason =
      "hnswlib configured, but hnswlib-node could not be loaded (Cannot find module './build/Release/addon.node'); using the built-in HNSW graph over the int8 vector store";
    assert.deepEqual(logged, [`vector index: ${reason}`]);
    assert.deepEqual(vectorBackendStatus('hnswlib', missingAddon), { backend: 'hnsw', reason });
    const bogus = (() => ({})) as unknown as HnswLoader;
    assert.match(vectorBackendStatus('hnswlib', bogus).reason, /has no HierarchicalNSW class/);
    // A working index without the addon, not a stub.
    const vectors = clusteredVectors(200, 16, 10, 0.3, 3);
    vectors.forEach((v, label) => index.add(label, v));
    const hits = index.search(vectors[42], 3);
    assert.equal(hits[0].label, 42);
    assert.ok(Math.abs(hits[0].score - 1) < 1e-6);
    assert.equal(hits.length, 3);
  });

  it("every backend answers a label's cosine from the same int8 store, within 0.005 of the float cosine", () => {
    const vectors = clusteredVectors(300, 384, 10, 0.3, 5);
    const query = clusteredVectors(1, 384, 10, 0.3, 99)[0];
    const [graph, hnswlib, exact] = (['hnsw', 'hnswlib', 'exact'] as const).map((backend) =>
      createVectorIndex(384, { backend }),
    );
    vectors.forEach((v, label) => {
      for (const index of [graph, hnswlib, exact]) index.add(label, v);
    });
    let worst = 0;
    for (let label = 0; label < vectors.length; label++) {
      const truth = floatCosine(query, vectors[label]);
      const got = graph.similarity(label, query)!;
      worst = Math.max(worst, Math.abs(got - truth));
      // Same codes, same query codes: the same number, not merely close.
      assert.equal(exact.similarity(label, query), got);
      assert.equal(hnswlib.similarity(label, query), got);
    }
    assert.ok(worst < 0.005, `worst int8 vs float32 cosine error ${worst}`);
    for (const index of [graph, hnswlib, exact]) assert.equal(index.similarity(1000, query), null);
    // The exact scan's scores are those cosines, and so are the graph's (hnswlib scores its float copy).
    assert.deepEqual(graph.search(query, 20), exact.search(query, 20));
    assert.equal(hnswlib.search(query, 1)[0].label, exact.search(query, 1)[0].label);
  });

  it('loads each kind from disk, and names the problem when it cannot', () => {
    const vectors = clusteredVectors(50, 8, 5, 0.3, 11);
    const files = {
      exact: path.join(dir, 'exact.idx'),
      hnsw: path.join(dir, 'graph.idx'),
      hnswlib: path.join(dir, 'hnswlib.idx'),
    };
    const built = {
      exact: createVectorIndex(8, { backend: 'exact' }),
      hnsw: createVectorIndex(8),
      hnswlib: createVectorIndex(8, { backend: 'hnswlib' }),
    };
    for (const kind of ['exact', 'hnsw', 'hnswlib'] as const) {
      vectors.forEach((v, label) => built[kind].add(label, v));
      built[kind].save(files[kind]);
    }
    const exactBack = loadVectorIndex(files.exact, { backend: 'exact' });
    assert.equal(exactBack.kind, 'exact');
    assert.deepEqual(exactBack.search(vectors[3], 5), built.exact.search(vectors[3], 5));
    const graphBack = loadVectorIndex(files.hnsw);
    assert.equal(graphBack.kind, 'hnsw');
    assert.deepEqual(graphBack.search(vectors[3], 5), built.hnsw.search(vectors[3], 5));
    const hnswlibBack = loadVectorIndex(files.hnswlib, { backend: 'hnswlib' });
    assert.equal(hnswlibBack.kind, 'hnswlib');
    assert.deepEqual(hnswlibBack.search(vectors[3], 5), built.hnswlib.search(vectors[3], 5));

    // Without the addon every file loads, as the built-in graph where hnswlib is chosen.
    assert.equal(loadVectorIndex(files.exact, { backend: 'exact', loader: missingAddon }).kind, 'exact');
    assert.equal(loadVectorIndex(files.hnsw, { loader: missingAddon, backend: 'hnswlib' }).kind, 'hnsw');
    assert.equal(loadVectorIndex(files.hnswlib, { backend: 'hnswlib', loader: missingAddon }).kind, 'hnsw');
    assert.throws(() => loadVectorIndex(path.join(dir, 'none.idx')), /cannot read .*none\.idx/);
  });

  it('rebuilds an index saved by hnswlib-node into the built-in graph from its int8 store, with a log line, without the addon', async () => {
    const vectors = clusteredVectors(400, 16, 20, 0.3, 13);
    const file = path.join(dir, 'old.vectors');
    const old = createVectorIndex(16, { backend: 'hnswlib' });
    const exact = createVectorIndex(16, { backend: 'exact' });
    vectors.forEach((v, label) => {
      old.add(label, v);
      exact.add(label, v);
    });
    old.remove(7);
    exact.remove(7);
    old.save(file);
    type Log = (message: string) => void;
    for (const read of [
      (log: Log) => loadVectorIndex(file, { loader: missingAddon, log }),
      (log: Log) => loadVectorIndexAsync(file, { loader: missingAddon, log }),
    ]) {
      const logged: string[] = [];
      const index = await read((m) => logged.push(m));
      assert.equal(index.kind, 'hnsw');
      assert.deepEqual(logged, [
        `vector index: ${file} was saved by the hnswlib-node index; building the built-in HNSW graph from its int8 vectors (399), once`,
      ]);
      assert.equal(index.size, 399);
      assert.equal(index.has(7), false);
      // The codes are carried over as they are: the same cosines as the hnswlib index's store.
      for (const label of [0, 100, 399])
        assert.equal(index.similarity(label, vectors[5]), old.similarity(label, vectors[5]));
      for (const q of vectors.slice(0, 10)) assert.deepEqual(index.search(q, 10), exact.search(q, 10));
    }
  });

  it('loads a file another backend saved as the chosen one, rebuilt from the same int8 codes, with a log line', async () => {
    const vectors = clusteredVectors(300, 16, 20, 0.3, 17);
    const queries = clusteredVectors(10, 16, 20, 0.3, 18);
    const saved = { exact: path.join(dir, 'e.idx'), hnsw: path.join(dir, 'g.idx'), hnswlib: path.join(dir, 'l.idx') };
    const truth = createVectorIndex(16, { backend: 'exact' });
    vectors.forEach((v, label) => truth.add(label, v));
    for (const kind of ['exact', 'hnsw', 'hnswlib'] as const) {
      const index = createVectorIndex(16, { backend: kind });
      vectors.forEach((v, label) => index.add(label, v));
      index.remove(9);
      index.save(saved[kind]);
    }
    truth.remove(9);
    const names = { exact: 'exact scan', hnsw: 'built-in HNSW graph', hnswlib: 'hnswlib-node index' };
    for (const from of ['exact', 'hnsw', 'hnswlib'] as const) {
      for (const to of ['exact', 'hnsw', 'hnswlib'] as const) {
        if (from === to) continue;
        const logged: string[] = [];
        const index =
          from === 'hnsw' && to === 'exact'
            ? await loadVectorIndexAsync(saved[from], { backend: to, log: (m) => logged.push(m) })
            : loadVectorIndex(saved[from], { backend: to, log: (m) => logged.push(m) });
        assert.equal(index.kind, to, `${from} -> ${to}`);
        assert.deepEqual(logged, [
          `vector index: ${saved[from]} was saved by the ${names[from]}; building the ${names[to]} from its int8 vectors (299), once`,
        ]);
        assert.deepEqual([index.size, index.has(9)], [299, false]);
        for (const label of [0, 150, 299])
          assert.deepEqual(index.quantized(label), truth.quantized(label), `${from} -> ${to}: the same codes`);
        if (to !== 'hnswlib') for (const q of queries) assert.deepEqual(index.search(q, 10), truth.search(q, 10));
      }
    }
  });

  it('rejects a dimension that is not a positive integer', () => {
    assert.throws(() => createVectorIndex(0), /dimension must be a positive integer \(got 0\)/);
  });
});
