import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExactIndex } from '../../../../server/src/engine/vector/exactIndex';
import { GraphIndex } from '../../../../server/src/engine/vector/graphIndex';
import { loadVectorIndex, loadVectorIndexAsync } from '../../../../server/src/engine/vector/vectorIndex';
import { clusteredVectors } from './syntheticVectors';

const DIM = 64;
const COUNT = 3000;

/** Share of the exact scan's top k that `index` returns, over `queries`. */
function recallAt(
  k: number,
  index: GraphIndex,
  exact: ExactIndex,
  queries: Float32Array[],
  filter?: (l: number) => boolean,
): number {
  let found = 0;
  let wanted = 0;
  for (const q of queries) {
    const truth = new Set(exact.search(q, k, filter).map((h) => h.label));
    wanted += truth.size;
    for (const h of index.search(q, k, filter)) if (truth.has(h.label)) found++;
  }
  return found / wanted;
}

describe('engine/vector/graphIndex (the built-in HNSW over the int8 store)', function () {
  const vectors = clusteredVectors(COUNT, DIM, 200, 0.3, 7);
  const queries = clusteredVectors(100, DIM, 200, 0.3, 7_001);
  let graph: GraphIndex;
  let exact: ExactIndex;
  let dir: string;

  before(() => {
    // A small initial capacity, so the build crosses several growths of the store and the links.
    graph = new GraphIndex(DIM, { initialCapacity: 16 });
    exact = new ExactIndex(DIM);
    vectors.forEach((v, label) => {
      graph.add(label, v);
      exact.add(label, v);
    });
  });
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-graph-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds what the exact scan finds: recall@10 and recall@150 >= 0.95 on clustered vectors', () => {
    assert.equal(graph.size, COUNT);
    assert.equal(graph.kind, 'hnsw');
    const at10 = recallAt(10, graph, exact, queries);
    const at150 = recallAt(150, graph, exact, queries);
    assert.ok(at10 >= 0.95, `recall@10 was ${at10}`);
    assert.ok(at150 >= 0.95, `recall@150 was ${at150}`);
  });

  it("scores are the exact scan's cosines bit for bit, best first, and a query's own vector comes first at ~1", () => {
    for (const q of queries.slice(0, 20)) {
      const hits = graph.search(q, 25);
      assert.equal(hits.length, 25);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score, 'best first');
      for (const h of hits) assert.equal(h.score, exact.similarity(h.label, q));
    }
    const own = graph.search(vectors[1234], 1)[0];
    assert.equal(own.label, 1234);
    assert.ok(Math.abs(own.score - 1) < 1e-6, `${own.score}`);
  });

  it('keeps level-0 lists within 2M and links every vector to some other', () => {
    for (let label = 0; label < COUNT; label += 37) {
      const links = graph.neighboursOf(label)!;
      assert.ok(links.length >= 1 && links.length <= 2 * graph.m, `${label}: ${links.length} links`);
      assert.ok(!links.includes(label), 'no self link');
    }
    assert.equal(graph.neighboursOf(COUNT + 5), null);
  });

  it('builds the same graph from the same additions (seeded levels), and another seed builds another', () => {
    const small = vectors.slice(0, 500);
    // A short candidate list, so the links depend on the path a search takes, hence on the levels.
    const build = (seed?: number) => {
      const index = new GraphIndex(
        DIM,
        seed === undefined ? { efConstruction: 16 } : { efConstruction: 16, randomSeed: seed },
      );
      small.forEach((v, label) => index.add(label, v));
      return index;
    };
    const [a, b, c] = [build(), build(), build(7)];
    const links = (index: GraphIndex) => small.map((_, label) => index.neighboursOf(label));
    assert.deepEqual(links(a), links(b));
    assert.deepEqual(a.search(queries[0], 10), b.search(queries[0], 10));
    assert.notDeepEqual(links(a), links(c));
  });

  it('filters the labels it returns with the same recall', () => {
    const even = (label: number) => label % 2 === 0;
    const hits = graph.search(queries[3], 40, even);
    assert.equal(hits.length, 40);
    assert.ok(hits.every((h) => even(h.label)));
    const recall = recallAt(10, graph, exact, queries, even);
    assert.ok(recall >= 0.95, `filtered recall@10 was ${recall}`);
  });

  it('removes (never returned, kept as a waypoint), replaces a vector in place, and revives a removed label', () => {
    const index = new GraphIndex(DIM);
    const truth = new ExactIndex(DIM);
    vectors.forEach((v, label) => {
      index.add(label, v);
      truth.add(label, v);
    });
    // Every third label removed: the graph still reaches the rest through them.
    for (let label = 0; label < COUNT; label += 3) {
      assert.equal(index.remove(label), true);
      truth.remove(label);
    }
    assert.equal(index.remove(0), false, 'already removed');
    assert.equal(index.remove(COUNT + 1), false, 'never added');
    assert.equal(index.size, COUNT - Math.ceil(COUNT / 3));
    assert.equal(index.deletedCount, Math.ceil(COUNT / 3));
    assert.equal(index.has(3), false);
    assert.equal(index.similarity(3, queries[0]), null);
    assert.equal(index.quantized(3), null);
    for (const q of queries)
      assert.ok(
        index.search(q, 50).every((h) => h.label % 3 !== 0),
        'a removed label is never returned',
      );
    const recall = recallAt(10, index, truth, queries);
    assert.ok(recall >= 0.95, `recall@10 among the live labels was ${recall}`);

    // Replace: label 10 takes a query's vector, and is that query's nearest from then on.
    index.add(10, queries[5]);
    const [top] = index.search(queries[5], 1);
    assert.equal(top.label, 10);
    assert.ok(Math.abs(top.score - 1) < 1e-6);
    assert.equal(index.size, COUNT - Math.ceil(COUNT / 3), 'a replacement adds no label');

    // Revive: a removed label added again is live with its new vector.
    index.add(3, queries[6]);
    assert.equal(index.has(3), true);
    assert.equal(index.search(queries[6], 1)[0].label, 3);
    assert.equal(index.deletedCount, Math.ceil(COUNT / 3) - 1);
  });

  it('saves and loads: the same answers, the same links, and later additions build what they would have built', () => {
    const file = path.join(dir, 'index.vectors');
    const first = new GraphIndex(DIM);
    vectors.slice(0, 2000).forEach((v, label) => first.add(label, v));
    first.remove(17);
    first.save(file);
    const back = loadVectorIndex(file) as GraphIndex;
    assert.ok(back instanceof GraphIndex);
    assert.deepEqual(
      [back.kind, back.size, back.dimension, back.m, back.efConstruction, back.deletedCount],
      ['hnsw', 1999, DIM, 16, 200, 1],
    );
    for (const q of queries) assert.deepEqual(back.search(q, 30), first.search(q, 30));
    assert.equal(back.has(17), false);
    assert.deepEqual(back.quantized(5), first.quantized(5));
    // The level generator's state is saved: additions after a load give the same graph.
    vectors.slice(2000).forEach((v, i) => {
      first.add(2000 + i, v);
      back.add(2000 + i, v);
    });
    for (const label of [0, 999, 2500, 2999]) assert.deepEqual(back.neighboursOf(label), first.neighboursOf(label));
    for (const q of queries.slice(0, 10)) assert.deepEqual(back.search(q, 30), first.search(q, 30));
    // One file holds it all: no temporary file or int8 store is left beside it.
    assert.deepEqual(fs.readdirSync(dir), ['index.vectors']);
  });

  it('loads without blocking to the same index, with the same errors', async () => {
    const file = path.join(dir, 'index.vectors');
    graph.save(file);
    const back = await loadVectorIndexAsync(file);
    assert.ok(back instanceof GraphIndex);
    assert.deepEqual([back.size, back.m, back.efConstruction], [graph.size, graph.m, graph.efConstruction]);
    for (const q of queries.slice(0, 20)) assert.deepEqual(back.search(q, 30), graph.search(q, 30));
    for (const label of [0, 1500, 2999]) assert.deepEqual(back.neighboursOf(label), graph.neighboursOf(label));
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 4));
    await assert.rejects(loadVectorIndexAsync(file), /index\.vectors is truncated or damaged/);
    const damaged = Buffer.from(bytes);
    damaged.writeUInt32LE(COUNT + 7, damaged.length - 4 * (damaged.readUInt32LE(32) + COUNT * 32));
    fs.writeFileSync(file, damaged);
    await assert.rejects(loadVectorIndexAsync(file), /index\.vectors is truncated or damaged/);
    await assert.rejects(loadVectorIndexAsync(path.join(dir, 'none.vectors')), /cannot read .*none\.vectors/);
  });

  it('names the file when it is truncated, damaged or not an index', () => {
    const file = path.join(dir, 'graph.vectors');
    const index = new GraphIndex(8);
    clusteredVectors(300, 8, 5, 0.3, 2).forEach((v, label) => index.add(label, v));
    index.save(file);
    const bytes = fs.readFileSync(file);

    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    assert.throws(
      () => GraphIndex.load(file),
      new RegExp(`vector index: ${escapeRegExp(file)} is truncated or damaged`),
    );
    fs.writeFileSync(file, bytes.subarray(0, 20));
    assert.throws(() => loadVectorIndex(file), /graph\.vectors is not an HNSW graph index file/);

    // A link pointing past the last slot (the last u32 of the file is a link of the upper levels or level 0).
    const damaged = Buffer.from(bytes);
    const linksAt = damaged.length - 4 * (damaged.readUInt32LE(32) + 300 * 32);
    damaged.writeUInt32LE(300, linksAt);
    fs.writeFileSync(file, damaged);
    assert.throws(() => loadVectorIndex(file), /graph\.vectors is truncated or damaged/);

    const otherFormat = Buffer.from(bytes);
    otherFormat.writeUInt32LE(99, 4);
    fs.writeFileSync(file, otherFormat);
    assert.throws(() => loadVectorIndex(file), /graph\.vectors has format 99, expected 1/);
    assert.throws(() => GraphIndex.load(path.join(dir, 'missing.vectors')), /cannot read .*missing\.vectors/);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
