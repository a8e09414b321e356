/**
 * Embeddings-on figures for one workspace, in two processes of their own (bench.ts starts both
 * with `--expose-gc`, one after the other, on the same cache folder):
 *
 * 1. {@link prepareVectors} puts every section's vectors in the cache folder. `model`: a real
 *    cold embed with the packaged model (fresh cache folder: lexical pass, then embedding, timed
 *    apart). `standin`: stand-in vectors written straight into the vector cache (fillVectors.ts),
 *    no model.
 * 2. {@link measureMeaning} starts a fresh engine with embeddings on over that cache: the first
 *    pass attaches every section's vectors from the cache and builds the vector index (checked:
 *    nothing embedded) -> memory after GC, model not loaded -> per question: query embedding,
 *    nearest sections by meaning (`engine.meaningSource`: the HNSW search) and
 *    `rankWorkspaceContext` with that meaning, timed apart; the same ranking without meaning on
 *    the same state -> memory with the model loaded -> the whole `workspace_context` call ->
 *    snapshot with vectors saved, then fresh engines restore it until the budget is spent.
 *
 * `quick`: the model never runs; query vectors are held-out stand-in vectors and the figures that
 * need the model say they were skipped.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { Engine, snapshotFileFor } from '../server/src/engine/engine';
import { DEFAULT_EMBEDDING_SETTINGS } from '../server/src/engine/embeddings/embedder';
import { VectorCache } from '../server/src/engine/embeddings/vectorCache';
import type { WorkspaceFolder } from '../server/src/engine/indexState';
import { rankWorkspaceContext, type MeaningSource } from '../server/src/engine/ranking/workspaceContextRanker';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { TOOLS } from '../server/src/tools/registry';
import { fillVectorCache, planWindows } from './fillVectors';
import { sectionPassages } from './measure';
import { makeQueries } from './queries';
import { grownVector, heldOutVector, loadPool, type StandinSource } from './standinVectors';
import { memoryAfterGc, summarize, type MemoryReading, type Summary } from './stats';

export type VectorMode = 'model' | 'standin';

export interface MeaningSpec {
  name: string;
  dir: string;
  folderName: string;
  /** Cache folder both steps share; empty before step 1. */
  cacheDir: string;
  mode: VectorMode;
  standin: StandinSource | 'auto';
  /** No model at all: query vectors are held-out stand-ins. */
  quick: boolean;
  queries: number;
  runs: number;
  seed: number;
  budgetMs: number;
}

/** A figure, or why it was not measured. */
export type Maybe<T> = T | { skipped: string };

export function measured<T extends object>(figure: Maybe<T> | undefined): T | undefined {
  return figure && !('skipped' in figure) ? (figure as T) : undefined;
}

export interface PrepareFigures {
  mode: VectorMode;
  sections: number;
  /** Windows over all sections, and distinct window texts (what is embedded or filled). */
  windows: number;
  distinctWindows: number;
  /** `model`: the cold embed. */
  coldEmbed?: {
    lexicalMs: number;
    embeddingMs: number;
    embedded: number;
    windowsPerSecond: number;
    sectionsPerSecond: number;
    workers: number;
  };
  /** `standin`: where the vectors came from. */
  standin?: { source: StandinSource; describe: string; fillMs: number };
}

export interface MeaningFigures {
  name: string;
  mode: VectorMode;
  model: string;
  backend: string;
  prepare: PrepareFigures;
  /** Fresh engine, every vector in the cache: the indexer's pass, then attaching vectors (vector index build). */
  withCache: { totalMs: number; passMs: number; attachMs: number; embedded: number };
  memory: {
    before: MemoryReading;
    noModel: MemoryReading;
    withModel: Maybe<MemoryReading>;
    /** Engine heap and typed arrays after GC, model not loaded, minus `before`. */
    heapBytes: number;
    arrayBufferBytes: number;
  };
  query: {
    count: number;
    embedQuery: Maybe<Summary>;
    /** `engine.meaningSource`: vector index search and mapping to sections. */
    nearest: Summary;
    /** `rankWorkspaceContext` with that meaning. */
    rank: Summary;
    /** nearest + rank, per question: the ranking with embeddings on, query embedding excluded. */
    total: Summary;
    /** `rankWorkspaceContext` without meaning, same state and questions. */
    wordsOnly: Summary;
    /** `rankWorkspaceContext` with meaning, every cosine replaced by the model's "unrelated" value: the meaning path without its vector reads. */
    noCosine: Summary;
    /** Stand-ins only: the ranking (nearest + rank) with held-out pool vectors as the questions' vectors. */
    heldOutQuestions: Maybe<{ total: Summary; cosines: Summary }>;
    /** Cosines the ranking computed per question, and the time they took (instrumented pass). */
    cosines: Summary;
    cosineMs: Summary;
    candidates: Summary;
    /** The whole `workspace_context` call with embeddings on (query embedding, ranking, rendering). */
    tool: Maybe<Summary>;
  };
  snapshot: {
    bytes: number;
    vectorIndexBytes: number;
    vectorCacheBytes: number;
    saveMs: number;
    load: Summary;
    savedIndexUsed: boolean;
  };
  notes: string[];
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const WARMUP_QUERIES = 20;
const LIMIT = 10;
/** Snapshots are written only when asked, never by a timer mid-figure. */
const SETTINGS = { updateDebounceMs: 0, refreshAfterMs: 0, snapshotDelayMs: 2 ** 31 - 1 };

function folders(spec: MeaningSpec): WorkspaceFolder[] {
  return [{ name: spec.folderName, absPath: spec.dir }];
}

/** Step 1: every section's vectors into `spec.cacheDir`. */
export async function prepareVectors(spec: MeaningSpec): Promise<PrepareFigures> {
  if (spec.mode === 'standin') {
    const engine = new Engine({ folders: folders(spec), settings: SETTINGS, embeddings: { provider: 'off' } });
    const state = await engine.waitForIndex();
    engine.dispose();
    const pool = await loadPool(spec.standin, spec.seed, log);
    const t = performance.now();
    const plan = fillVectorCache(state, spec.cacheDir, (i) => grownVector(pool, i, spec.seed));
    const fillMs = performance.now() - t;
    log(
      `${spec.name}: ${plan.digests.length} stand-in window vectors written in ${(fillMs / 1000).toFixed(1)} s (${pool.source})`,
    );
    return {
      mode: 'standin',
      sections: plan.sections,
      windows: plan.windows,
      distinctWindows: plan.digests.length,
      standin: { source: pool.source, describe: pool.describe, fillMs },
    };
  }

  const engine = new Engine({
    folders: folders(spec),
    settings: SETTINGS,
    cacheDir: spec.cacheDir,
    embeddings: { provider: 'local' },
  });
  const t0 = performance.now();
  const state = await engine.waitForIndex();
  const lexicalMs = performance.now() - t0;
  const pending = engine.status().meaning!.sectionsPending;
  log(`${spec.name}: cold embed of ${pending} sections with the packaged model (fresh cache)`);
  let last = performance.now();
  const unsubscribe = engine.onDidChangeMeaning(() => {
    const p = engine.status().meaning?.embedding;
    if (!p || performance.now() - last < 15_000) return;
    last = performance.now();
    log(`${spec.name}: embedded ${p.done}/${p.total} sections (${((last - t0) / 1000).toFixed(0)} s)`);
  });
  const t1 = performance.now();
  await engine.waitForMeaning();
  const embeddingMs = performance.now() - t1;
  unsubscribe();
  const status = engine.status().meaning!;
  engine.dispose();
  if (status.lastError || status.sectionsWithVectors !== state.counts.sections) {
    throw new Error(
      `bench: ${spec.name}: the cold embed stopped with ${status.sectionsWithVectors}/${state.counts.sections} sections (${status.lastError})`,
    );
  }
  const cache = VectorCache.open({ dir: path.join(spec.cacheDir, 'vectors'), modelId: status.model });
  const embedded = cache.size;
  cache.close();
  const plan = planWindows(state);
  log(
    `${spec.name}: cold embed: ${embedded} windows in ${(embeddingMs / 1000).toFixed(0)} s (${(embedded / (embeddingMs / 1000)).toFixed(1)}/s)`,
  );
  return {
    mode: 'model',
    sections: plan.sections,
    windows: plan.windows,
    distinctWindows: plan.digests.length,
    coldEmbed: {
      lexicalMs,
      embeddingMs,
      embedded,
      windowsPerSecond: embedded / (embeddingMs / 1000),
      sectionsPerSecond: state.counts.sections / (embeddingMs / 1000),
      workers: DEFAULT_EMBEDDING_SETTINGS.workers,
    },
  };
}

/** Step 2: a fresh engine over the prepared cache. */
export async function measureMeaning(spec: MeaningSpec, prepare: PrepareFigures): Promise<MeaningFigures> {
  const notes: string[] = [];
  const engineLog: string[] = [];
  const options = {
    folders: folders(spec),
    settings: SETTINGS,
    cacheDir: spec.cacheDir,
    embeddings: { provider: 'local' as const },
  };
  if (existsSync(snapshotFileFor(spec.cacheDir, options.folders)))
    throw new Error(`bench: ${spec.name}: a snapshot exists before the first engine started`);

  const before = memoryAfterGc();
  let t = performance.now();
  const engine = new Engine({ ...options, log: (m) => engineLog.push(m) });
  const state = await engine.waitForIndex();
  const pending = engine.status().meaning!.sectionsPending;
  await engine.waitForMeaning();
  const totalMs = performance.now() - t;
  const passMs = engine.status().lastPass!.durationMs;
  const status = engine.status().meaning!;
  if (pending !== 0 || status.sectionsWithVectors !== state.counts.sections) {
    throw new Error(
      `bench: ${spec.name}: ${pending} sections were not in the prepared cache (${status.sectionsWithVectors}/${state.counts.sections} attached)`,
    );
  }
  log(
    `${spec.name}: engine with every vector cached: ${totalMs.toFixed(0)} ms (pass ${passMs.toFixed(0)} ms), backend ${status.backend}`,
  );
  const noModel = memoryAfterGc();

  const texts = sectionPassages(state).map((p) => p.text);
  const questions = makeQueries(texts, spec.queries, spec.seed);
  const warmups = makeQueries(texts, WARMUP_QUERIES, spec.seed + 1);
  const vectors = await queryVectors(spec, engine, questions, warmups);

  const now = Date.now();
  const rank = (question: string, meaning: MeaningSource | null) =>
    rankWorkspaceContext(state, { question, limit: LIMIT, now, meaning });
  for (let i = 0; i < warmups.length; i++) {
    rank(warmups[i], engine.meaningSource(state, vectors.warmups[i]));
    rank(warmups[i], null);
  }
  const timeRanking = (vectorAt: (i: number) => Float32Array, wrap: (m: MeaningSource) => MeaningSource = (m) => m) => {
    const nearest: number[] = [];
    const ranking: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < questions.length; i++) {
      const t0 = performance.now();
      const source = engine.meaningSource(state, vectorAt(i))!;
      const t1 = performance.now();
      rank(questions[i], wrap(source));
      const t2 = performance.now();
      nearest.push(t1 - t0);
      ranking.push(t2 - t1);
      total.push(t2 - t0);
    }
    return { nearest: summarize(nearest), rank: summarize(ranking), total: summarize(total) };
  };
  const main = timeRanking((i) => vectors.questions[i]);
  const wordsOnly = summarize(questions.map((q) => timeSync(() => rank(q, null))));
  // Diagnostics, each its own pass so the figures above carry no instrumentation: the ranking
  // with every cosine replaced by the model's "unrelated" value (no vector read: what the meaning
  // path costs besides cosines), and a pass counting the cosines and timing them.
  const noCosine = timeRanking(
    (i) => vectors.questions[i],
    (m) => ({ ...m, cosine: (o) => (m.hasVector(o) ? m.anchors.unrelated : null) }),
  ).rank;
  const counts = countCosines((i) => vectors.questions[i]);
  log(
    `${spec.name}: ranking with meaning p50 ${main.total.median.toFixed(2)} ms, p95 ${main.total.p95.toFixed(2)} ms (nearest p95 ${main.nearest.p95.toFixed(2)}, rank p95 ${main.rank.p95.toFixed(2)}; ${counts.cosines.median} cosines)`,
  );

  function countCosines(vectorAt: (i: number) => Float32Array) {
    const cosines: number[] = [];
    const cosineMs: number[] = [];
    const candidates: number[] = [];
    for (let i = 0; i < questions.length; i++) {
      const source = engine.meaningSource(state, vectorAt(i))!;
      let calls = 0;
      let spent = 0;
      const counted: MeaningSource = {
        ...source,
        cosine: (ordinal) => {
          calls++;
          const s = performance.now();
          const c = source.cosine(ordinal);
          spent += performance.now() - s;
          return c;
        },
      };
      candidates.push(rank(questions[i], counted).candidates);
      cosines.push(calls);
      cosineMs.push(spent);
    }
    return { cosines: summarize(cosines), cosineMs: summarize(cosineMs), candidates: summarize(candidates) };
  }

  // Stand-in sections meet real question vectors at low cosines, which weakens the ranker's
  // pruning; held-out pool vectors have close neighbours among the stand-ins, as a question with
  // relevant passages has. Both are reported: the truth for real vectors lies between.
  let heldOut: MeaningFigures['query']['heldOutQuestions'] = {
    skipped: "not applicable: the section vectors are the model's own",
  };
  if (spec.mode === 'standin') {
    const pool = await loadPool(spec.standin, spec.seed, log);
    const at = (i: number) => heldOutVector(pool, i);
    heldOut = { total: timeRanking(at).total, cosines: countCosines(at).cosines };
  }

  let withModel: Maybe<MemoryReading> = { skipped: 'skipped in --quick: the model is not loaded' };
  let tool: Maybe<Summary> = { skipped: 'skipped in --quick: every call embeds its question with the model' };
  if (!spec.quick) {
    withModel = memoryAfterGc();
    tool = await timeTool(engine, spec, questions, warmups);
    log(`${spec.name}: workspace_context with embeddings on p50 ${tool.median.toFixed(1)} ms`);
  }

  t = performance.now();
  if (!(await engine.saveSnapshot())) throw new Error(`bench: ${spec.name}: the engine did not write its snapshot`);
  const saveMs = performance.now() - t;
  engine.dispose();
  const files = snapshotFiles(spec.cacheDir, options.folders);
  if (files.vectorIndexBytes === 0) throw new Error(`bench: ${spec.name}: the snapshot has no vector index beside it`);

  const loads: number[] = [];
  let savedIndexUsed = true;
  const started = performance.now();
  for (let run = 0; run <= spec.runs; run++) {
    memoryAfterGc();
    const messages: string[] = [];
    let loaded = NaN;
    let ready = false;
    const t0 = performance.now();
    // The vector cache is read in the constructor: the clock starts before it.
    const e = new Engine({ ...options, log: (m) => messages.push(m) });
    e.onDidChangeState((s) => {
      if (!Number.isNaN(loaded) || !e.status().fromSnapshot) return;
      loaded = performance.now() - t0;
      const m = e.status().meaning;
      ready =
        m !== null && m.sectionsPending === 0 && m.sectionsWithVectors === s.counts.sections && m.backend !== null;
    });
    await e.waitForIndex();
    e.dispose();
    if (Number.isNaN(loaded)) throw new Error(`bench: ${spec.name}: the snapshot was not restored`);
    if (!ready) throw new Error(`bench: ${spec.name}: the restored engine did not have every section's vector at once`);
    if (messages.some((m) => m.includes('saved vector index not used'))) savedIndexUsed = false;
    if (run > 0 || performance.now() - started > spec.budgetMs) loads.push(loaded);
    if (performance.now() - started > spec.budgetMs) break;
  }
  if (!savedIndexUsed)
    notes.push(`${spec.name}: the saved vector index was not used; the load rebuilt it from the vector cache`);
  if (loads.length < spec.runs)
    notes.push(
      `${spec.name}: snapshot load with vectors over ${loads.length} run(s) (budget ${Math.round(spec.budgetMs / 1000)} s)`,
    );
  log(`${spec.name}: snapshot with vectors: load median ${summarize(loads).median.toFixed(0)} ms`);

  const s = (xs: number[]) => summarize(xs);
  return {
    name: spec.name,
    mode: spec.mode,
    model: status.model,
    backend: status.backend ?? 'none',
    prepare,
    withCache: { totalMs, passMs, attachMs: totalMs - passMs, embedded: pending },
    memory: {
      before,
      noModel,
      withModel,
      heapBytes: noModel.heapUsed - before.heapUsed,
      arrayBufferBytes: noModel.arrayBuffers - before.arrayBuffers,
    },
    query: {
      count: questions.length,
      embedQuery: vectors.embedQuery,
      ...main,
      wordsOnly,
      noCosine,
      ...counts,
      heldOutQuestions: heldOut,
      tool,
    },
    snapshot: { ...files, saveMs, load: s(loads), savedIndexUsed },
    notes,
  };
}

/** The questions' vectors: embedded by the model (timed), or held-out stand-ins in `quick`. */
async function queryVectors(
  spec: MeaningSpec,
  engine: Engine,
  questions: readonly string[],
  warmups: readonly string[],
): Promise<{ questions: Float32Array[]; warmups: Float32Array[]; embedQuery: Maybe<Summary> }> {
  if (spec.quick) {
    const pool = await loadPool(spec.standin, spec.seed, log);
    return {
      questions: questions.map((_, i) => heldOutVector(pool, i)),
      warmups: warmups.map((_, i) => heldOutVector(pool, questions.length + i)),
      embedQuery: { skipped: 'skipped in --quick: the model is not loaded (query vectors are held-out stand-ins)' },
    };
  }
  const embed = async (q: string) => {
    const v = await engine.embedQuery(q);
    if (!v) throw new Error(`bench: ${spec.name}: the model did not embed "${q}"`);
    return v;
  };
  const warm: Float32Array[] = [];
  for (const q of warmups) warm.push(await embed(q)); // the first loads the model
  const times: number[] = [];
  const out: Float32Array[] = [];
  for (const q of questions) {
    const t = performance.now();
    out.push(await embed(q));
    times.push(performance.now() - t);
  }
  return { questions: out, warmups: warm, embedQuery: summarize(times) };
}

async function timeTool(
  engine: Engine,
  spec: MeaningSpec,
  questions: readonly string[],
  warmups: readonly string[],
): Promise<Summary> {
  const tool = TOOLS.find((t) => t.name === 'workspace_context');
  if (!tool) throw new Error('bench: workspace_context is not in TOOLS');
  const services = createServices({ engine });
  const call = (question: string) =>
    callTool(services, tool, { workspace: spec.folderName, question }, { sessionId: 'bench' });
  for (const q of warmups) await call(q);
  const times: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    const out = await call(q);
    times.push(performance.now() - t);
    if (out.meaning === null) throw new Error(`bench: ${spec.name}: workspace_context answered with embeddings off`);
  }
  return summarize(times);
}

/** Bytes of the snapshot, of the vector index saved beside it, and of the vector cache it reads. */
function timeSync(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

function snapshotFiles(
  cacheDir: string,
  list: readonly WorkspaceFolder[],
): { bytes: number; vectorIndexBytes: number; vectorCacheBytes: number } {
  const snapshot = snapshotFileFor(cacheDir, list);
  const base = path.basename(snapshot).replace(/\.snapshot$/, '.vectors');
  const dir = path.join(cacheDir, 'vectors');
  let vectorIndexBytes = 0;
  let vectorCacheBytes = 0;
  for (const name of readdirSync(dir)) {
    const size = statSync(path.join(dir, name)).size;
    if (name.startsWith(base)) vectorIndexBytes += size;
    else if (name.endsWith('.bin')) vectorCacheBytes += size;
  }
  return { bytes: statSync(snapshot).size, vectorIndexBytes, vectorCacheBytes };
}
