/**
 * The vector index alone, in a process of its own: HNSW (hnswlib-node, the engine's defaults)
 * against the exact cosine scan, over `count` stand-in vectors (standinVectors.ts), asked the
 * pool's held-out vectors as queries.
 *
 * Order: the grown vectors are made first (not timed) -> HNSW build, vector by vector as the
 * engine adds them (RSS after GC before and after: hnswlib's memory is native) -> saved, and read
 * back with a lower efSearch -> exact index build (its int8 store's bytes) -> searches: each
 * query once untimed per index, then timed; recall@k is the share of the exact top k found.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MEANING_CANDIDATES } from '../server/src/engine/meaning/sectionVectors';
import { HnswIndex, hnswStorePath } from '../server/src/engine/vector/hnswIndex';
import { createVectorIndex, loadVectorIndex, type VectorIndex } from '../server/src/engine/vector/vectorIndex';
import { grownVector, heldOutVector, loadPool, type StandinSource } from './standinVectors';
import { memoryAfterGc, summarize, type Summary } from './stats';

export interface VectorSpec {
  size: string;
  /** Vectors in the index. */
  count: number;
  /** Held-out query vectors asked (at most the pool's held-out rows). */
  queries: number;
  seed: number;
  standin: StandinSource | 'auto';
}

/** efSearch of an engine index (vector/hnswIndex.ts default; M and efConstruction are read from the saved index). */
export const ENGINE_EF_SEARCH = 64;
/** The lower efSearch reported next to the default. */
export const LOW_EF_SEARCH = 10;
/** What the engine asks the index for one question: 3 windows per wanted section (sectionVectors.ts `nearest`). */
export const ENGINE_K = MEANING_CANDIDATES * 3;

export interface SearchFigure {
  efSearch: number;
  k: number;
  /** Mean share of the exact top k that the index returned. */
  recall: number;
  latency: Summary;
}

export interface VectorFigures {
  size: string;
  vectors: number;
  dimension: number;
  source: StandinSource;
  describe: string;
  queries: number;
  hnsw: {
    m: number;
    efConstruction: number;
    buildMs: number;
    /** hnswlib's index file plus the int8 store file beside it, bytes. */
    fileBytes: number;
    saveMs: number;
    loadMs: number;
    /** Process RSS growth over the build, after GC: hnswlib's native graph and float copy plus the int8 store. */
    rssBytes: number;
    /** recall@10 at the default efSearch and at {@link LOW_EF_SEARCH}, then the engine's own request (k = {@link ENGINE_K}). */
    searches: SearchFigure[];
  };
  exact: { buildMs: number; bytes: number; latency: Summary; engineK: Summary };
  notes: string[];
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const WARMUP = 20;

export async function measureVectors(spec: VectorSpec): Promise<VectorFigures> {
  const pool = await loadPool(spec.standin, spec.seed, log);
  const d = pool.dimension;
  const corpus = new Float32Array(spec.count * d);
  for (let j = 0; j < spec.count; j++) corpus.set(grownVector(pool, j, spec.seed), j * d);
  const queries = Array.from({ length: Math.min(spec.queries, pool.heldOut) }, (_, q) => heldOutVector(pool, q));
  const row = (j: number) => corpus.subarray(j * d, (j + 1) * d);
  const notes: string[] = [];
  if (spec.count > pool.rows) notes.push(`${spec.size}: ${pool.rows} pool vectors, the other ${spec.count - pool.rows} are noisy copies`);

  const before = memoryAfterGc();
  const hnsw = createVectorIndex(d, { backend: 'hnsw' });
  let t = performance.now();
  let lastLog = t;
  for (let j = 0; j < spec.count; j++) {
    hnsw.add(j, row(j));
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      log(`${spec.size}: HNSW build ${j}/${spec.count}`);
    }
  }
  const buildMs = performance.now() - t;
  const afterHnsw = memoryAfterGc();
  log(`${spec.size}: HNSW build of ${spec.count} x ${d} in ${(buildMs / 1000).toFixed(1)} s`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-hnsw-'));
  const file = path.join(dir, 'index.vectors');
  let lowEf: VectorIndex;
  let saveMs: number;
  let loadMs: number;
  let fileBytes: number;
  let graph: { m: number; efConstruction: number };
  try {
    t = performance.now();
    hnsw.save(file);
    saveMs = performance.now() - t;
    fileBytes = statSync(file).size + statSync(hnswStorePath(file)).size;
    if (!(hnsw instanceof HnswIndex)) throw new Error('bench: the HNSW index is not hnswlib-node');
    graph = { m: hnsw.m, efConstruction: hnsw.efConstruction };
    t = performance.now();
    lowEf = loadVectorIndex(file, { hnsw: { efSearch: LOW_EF_SEARCH } });
    loadMs = performance.now() - t;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const exact = createVectorIndex(d, { backend: 'exact' });
  t = performance.now();
  for (let j = 0; j < spec.count; j++) exact.add(j, row(j));
  const exactBuildMs = performance.now() - t;

  const truth10 = queries.map((q) => exact.search(q, 10).map((h) => h.label));
  const truthK = queries.map((q) => exact.search(q, ENGINE_K).map((h) => h.label));
  const timed = (index: VectorIndex, k: number): { latency: Summary; found: number[][] } => {
    for (let w = 0; w < WARMUP; w++) index.search(queries[w % queries.length], k);
    const times: number[] = [];
    const found = queries.map((q) => {
      const s = performance.now();
      const hits = index.search(q, k);
      times.push(performance.now() - s);
      return hits.map((h) => h.label);
    });
    return { latency: summarize(times), found };
  };
  const search = (index: VectorIndex, efSearch: number, k: number, truth: number[][]): SearchFigure => {
    const { latency, found } = timed(index, k);
    return { efSearch: Math.max(efSearch, k), k, recall: meanRecall(found, truth), latency };
  };
  const searches = [
    search(hnsw, ENGINE_EF_SEARCH, 10, truth10),
    search(lowEf, LOW_EF_SEARCH, 10, truth10),
    search(hnsw, ENGINE_EF_SEARCH, ENGINE_K, truthK),
  ];
  const exactLatency = timed(exact, 10).latency;
  const exactEngineK = timed(exact, ENGINE_K).latency;
  for (const s of searches) log(`${spec.size}: HNSW ef ${s.efSearch} k ${s.k}: recall ${s.recall.toFixed(3)}, p50 ${s.latency.median.toFixed(3)} ms`);
  log(`${spec.size}: exact scan k 10: p50 ${exactLatency.median.toFixed(2)} ms`);

  return {
    size: spec.size,
    vectors: spec.count,
    dimension: d,
    source: pool.source,
    describe: pool.describe,
    queries: queries.length,
    hnsw: {
      m: graph.m,
      efConstruction: graph.efConstruction,
      buildMs,
      fileBytes,
      saveMs,
      loadMs,
      rssBytes: afterHnsw.rss - before.rss,
      searches,
    },
    exact: { buildMs: exactBuildMs, bytes: exact.bytes, latency: exactLatency, engineK: exactEngineK },
    notes,
  };
}

/** Mean over queries of |found ∩ truth| / |truth|. */
export function meanRecall(found: readonly (readonly number[])[], truth: readonly (readonly number[])[]): number {
  let sum = 0;
  for (let q = 0; q < truth.length; q++) {
    const want = new Set(truth[q]);
    let hit = 0;
    for (const label of found[q]) if (want.has(label)) hit++;
    sum += want.size === 0 ? 1 : hit / want.size;
  }
  return truth.length === 0 ? NaN : sum / truth.length;
}
