/**
 * The vector index alone, in a process of its own: both HNSW backends (the built-in graph over
 * the int8 store, the engine's default, then hnswlib-node; the engine's defaults for both)
 * against the exact cosine scan, over `count` stand-in vectors (standinVectors.ts), asked the
 * pool's held-out vectors as queries.
 *
 * Order: the grown vectors are made first (not timed) -> per backend: build, vector by vector as
 * the engine adds them (RSS after GC before and after: hnswlib's memory is native, the graph's is
 * typed arrays and WebAssembly memory), CPU time of the build, saved, and read back with a lower
 * efSearch -> exact index build (its int8 store's bytes) -> searches: each query once untimed per
 * index, then timed; recall@k is the share of the exact top k found.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MEANING_CANDIDATES } from '../server/src/engine/meaning/sectionVectors';
import { GraphIndex } from '../server/src/engine/vector/graphIndex';
import { HnswIndex, hnswStorePath, loadHnswlib } from '../server/src/engine/vector/hnswIndex';
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
  /** The built-in graph (the engine's default backend). */
  hnsw: GraphFigures;
  /** hnswlib-node, or why it was not measured (the addon does not load). */
  hnswlib: GraphFigures | { skipped: string };
  exact: { buildMs: number; bytes: number; latency: Summary; engineK: Summary };
  notes: string[];
}

export interface GraphFigures {
  backend: 'hnsw' | 'hnswlib';
  m: number;
  efConstruction: number;
  buildMs: number;
  /** Process CPU time (all threads) over the build: steadier than wall time on a shared machine. */
  buildCpuMs: number;
  /** The saved index: the graph's one file, or hnswlib's file plus the int8 store file beside it, bytes. */
  fileBytes: number;
  saveMs: number;
  loadMs: number;
  /** Process RSS growth over the build, after GC: the int8 store and the links (hnswlib: its native graph and float copy besides). */
  rssBytes: number;
  /** recall@10 at the default efSearch and at {@link LOW_EF_SEARCH}, then the engine's own request (k = {@link ENGINE_K}). */
  searches: SearchFigure[];
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
  if (spec.count > pool.rows)
    notes.push(`${spec.size}: ${pool.rows} pool vectors, the other ${spec.count - pool.rows} are noisy copies`);

  const built: {
    backend: 'hnsw' | 'hnswlib';
    index: VectorIndex;
    lowEf: VectorIndex;
    figures: Omit<GraphFigures, 'searches'>;
  }[] = [];
  for (const backend of ['hnsw', 'hnswlib'] as const) {
    if (backend === 'hnswlib' && !('lib' in loadHnswlib())) continue;
    built.push(buildGraph(backend, spec, d, row));
  }
  const exact = createVectorIndex(d, { backend: 'exact' });
  const t = performance.now();
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
  const graphs = built.map(({ backend, index, lowEf, figures }): GraphFigures => {
    const searches = [
      search(index, ENGINE_EF_SEARCH, 10, truth10),
      search(lowEf, LOW_EF_SEARCH, 10, truth10),
      search(index, ENGINE_EF_SEARCH, ENGINE_K, truthK),
    ];
    for (const s of searches)
      log(
        `${spec.size}: ${backend} ef ${s.efSearch} k ${s.k}: recall ${s.recall.toFixed(3)}, p50 ${s.latency.median.toFixed(3)} ms`,
      );
    return { ...figures, searches };
  });
  const exactLatency = timed(exact, 10).latency;
  const exactEngineK = timed(exact, ENGINE_K).latency;
  log(`${spec.size}: exact scan k 10: p50 ${exactLatency.median.toFixed(2)} ms`);

  return {
    size: spec.size,
    vectors: spec.count,
    dimension: d,
    source: pool.source,
    describe: pool.describe,
    queries: queries.length,
    hnsw: graphs[0],
    hnswlib: graphs[1] ?? {
      skipped: `hnswlib-node does not load here (${(loadHnswlib() as { error: string }).error})`,
    },
    exact: { buildMs: exactBuildMs, bytes: exact.bytes, latency: exactLatency, engineK: exactEngineK },
    notes,
  };
}

/** Builds one HNSW backend's index vector by vector, saves it and reads it back with efSearch {@link LOW_EF_SEARCH}. */
function buildGraph(backend: 'hnsw' | 'hnswlib', spec: VectorSpec, d: number, row: (j: number) => Float32Array) {
  const before = memoryAfterGc();
  const index = createVectorIndex(d, { backend });
  const cpu = process.cpuUsage();
  let t = performance.now();
  let lastLog = t;
  for (let j = 0; j < spec.count; j++) {
    index.add(j, row(j));
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      log(`${spec.size}: ${backend} build ${j}/${spec.count}`);
    }
  }
  const buildMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const after = memoryAfterGc();
  log(
    `${spec.size}: ${backend} build of ${spec.count} x ${d} in ${(buildMs / 1000).toFixed(1)} s (CPU ${((used.user + used.system) / 1e6).toFixed(1)} s)`,
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-hnsw-'));
  const file = path.join(dir, 'index.vectors');
  try {
    t = performance.now();
    index.save(file);
    const saveMs = performance.now() - t;
    const fileBytes = statSync(file).size + (existsSync(hnswStorePath(file)) ? statSync(hnswStorePath(file)).size : 0);
    if (!(index instanceof HnswIndex || index instanceof GraphIndex))
      throw new Error(`bench: the ${backend} index is not HNSW`);
    t = performance.now();
    const lowEf = loadVectorIndex(file, { backend, hnsw: { efSearch: LOW_EF_SEARCH } });
    const loadMs = performance.now() - t;
    const figures = {
      backend,
      m: index.m,
      efConstruction: index.efConstruction,
      buildMs,
      buildCpuMs: (used.user + used.system) / 1000,
      fileBytes,
      saveMs,
      loadMs,
      rssBytes: after.rss - before.rss,
    };
    return { backend, index, lowEf, figures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
