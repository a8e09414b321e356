/**
 * The PostgreSQL store at scale: a generated workspace (generate.ts) indexed in memory, written
 * to a store, and the bench's own queries (queries.ts) asked both ways.
 *
 *   npx tsx bench/benchStore.ts [--size 100k[,1m]] [--queries N] [--seed N] [--url postgresql://...]
 *                               [--pglite] [--standin auto|scifact|generated|synthetic] [--words-only]
 *                               [--ranked-only] [--keep-namespace]
 *   npm run bench -- --store 100k      (the same, after the main tables)
 *
 * The server: `--url`, else $WSCTX_BENCH_POSTGRES_URL, else a throwaway server from the local
 * PostgreSQL binaries (scripts/postgres/start-temp.sh), else PGlite (slower; the table says which).
 * `--pglite` takes PGlite with pgvector even where PostgreSQL is installed (Debian's has no
 * pgvector): the HNSW path. `--ranked-only` asks only the read workspace_context uses (at 1M
 * each question's full read takes minutes); `--keep-namespace` leaves the namespace an earlier
 * run wrote to the same server (`--url`) in place, so its write is an unchanged one (the table
 * says so) and the questions start without the first write's half hour at 1M.
 *
 * Per size: the in-memory cold index, the first write (sections and postings per second), a
 * second write of the unchanged workspace, then per query, read two ways (every section holding
 * an asked term; and told the ranking, only what can be among its passages: candidateBound.ts),
 * the time in the store's queries (counts, postings, the candidates' sections, documents and
 * commits, in read-only transactions), the whole answer from the store (candidates, state,
 * ranking, the kept passages' texts), the sections read, and the in-memory ranking, p50 and p95;
 * and how many answers are identical (ids, order, scores, why[]).
 *
 * Then the meaning half (unless `--words-only`): stand-in vectors (standinVectors.ts, pool by
 * `--standin`) in the engine's vector cache give every section its windows without the model;
 * they are written as a second write (documents unchanged: only vectors go, so its time is the
 * vectors' alone), the reader's copy is loaded, and the same questions are asked hybrid with
 * held-out pool rows as question vectors: the candidate queries (nearest windows from pgvector
 * where it exists, then the candidates' rows), the whole answer, the in-memory hybrid ranking on
 * the exact backend, how many answers are identical, and, on the HNSW path, the recall of its
 * nearest sections against the exact scan.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
import type { IndexState } from '../server/src/engine/indexState';
import type { IndexStore } from '../server/src/engine/store/indexStore';
import { StoreReader } from '../server/src/engine/store/storeReader';
import { workspaceRows } from '../server/src/engine/store/storeRows';
import { rankWorkspaceContext, type RankResult } from '../server/src/engine/ranking/workspaceContextRanker';
import { openPostgresStore, type PostgresStore } from '../server/src/store/postgres/pgStore';
import { int, ms, table } from './format';
import { generateWorkspace, parseSize } from './generate';
import { makeQueries } from './queries';
import { percentile } from './stats';
import { fillVectorCache } from './fillVectors';
import { grownVector, heldOutVector, loadPool, type StandinSource, type VectorPool } from './standinVectors';

const REPO_ROOT = path.resolve(__dirname, '..');
const NOW = Date.parse('2026-06-01T00:00:00Z');

interface Server {
  url: string;
  label: string;
  stop(): Promise<void>;
}

async function startServer(given: string | undefined, pglite: boolean): Promise<Server> {
  const url = given ?? process.env.WSCTX_BENCH_POSTGRES_URL;
  if (url) return { url, label: 'PostgreSQL (given)', stop: async () => undefined };
  const bin = '/usr/lib/postgresql';
  if (!pglite && existsSync(bin) && readdirSync(bin).some((v) => existsSync(path.join(bin, v, 'bin', 'initdb')))) {
    // Its own folder under the temp dir: as root the server runs as `postgres`, which cannot enter `scratch` (0700).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-pg-'));
    const started = execFileSync('bash', [path.join(REPO_ROOT, 'scripts/postgres/start-temp.sh'), dir], { encoding: 'utf8' }).trim();
    const version = readdirSync(bin).sort().at(-1);
    return { url: started, label: `PostgreSQL ${version} (Debian, fsync off)`, stop: async () => void spawnSync('bash', [path.join(REPO_ROOT, 'scripts/postgres/stop-temp.sh'), dir]) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
  await server.start();
  process.env.WSCTX_STORE_CONNECTIONS = '1';
  return {
    url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    label: pglite ? 'PGlite with pgvector' : 'PGlite (no PostgreSQL binaries here)',
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** Times every read a question makes of the store it wraps (counts, postings, candidates, nearest windows; `spentMs`, reset per question). */
class TimedStore implements IndexStore {
  spentMs = 0;
  constructor(private readonly inner: PostgresStore) {}
  namespaces = () => this.inner.namespaces();
  write: IndexStore['write'] = (rows) => this.inner.write(rows);
  generation = (ns: string) => this.inner.generation(ns);
  readBase = (ns: string) => this.inner.readBase(ns);
  sectionTexts = (ns: string, ids: readonly string[]) => this.inner.sectionTexts(ns, ids);
  libraryRows = (ns: string) => this.inner.libraryRows(ns);
  documentFrequencies: IndexStore['documentFrequencies'] = (ns, terms, generation) => this.timed(this.inner.documentFrequencies(ns, terms, generation));
  readWindows: IndexStore['readWindows'] = (ns, after, onPage) => this.inner.readWindows(ns, after, onPage);
  nearestWindows: IndexStore['nearestWindows'] = async (ns, query, k) => {
    const started = performance.now();
    const found = await this.inner.nearestWindows(ns, query, k);
    this.spentMs += performance.now() - started;
    return found;
  };
  loadNamespace: IndexStore['loadNamespace'] = (ns, since, sink) => this.inner.loadNamespace(ns, since, sink);
  watch: IndexStore['watch'] = (onChange, onLost) => this.inner.watch(onChange, onLost);
  close = () => this.inner.close();
  candidates: IndexStore['candidates'] = (ns, terms, named, also) => this.timed(this.inner.candidates(ns, terms, named, also));
  termPostings: IndexStore['termPostings'] = (ns, terms) => this.timed(this.inner.termPostings(ns, terms));
  sectionCandidates: IndexStore['sectionCandidates'] = (ns, ordinals, terms, named) => this.timed(this.inner.sectionCandidates(ns, ordinals, terms, named));

  private async timed<T>(call: Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await call;
    } finally {
      this.spentMs += performance.now() - started;
    }
  }
}

/** What must be equal: the passages, their scores and why[] (not the count of candidates, which is what each path read). */
function comparable(result: RankResult) {
  return result.passages.map((p) => ({ id: p.entry.section.id, score: p.score, why: p.why }));
}

/**
 * One way of reading a question's candidates: `all` every section holding an asked term (what
 * get_context's entity excerpts read), `ranked` told how the question will be ranked
 * (workspace_context's path: engine/store/candidateBound.ts).
 */
interface ReadFigures {
  /** Time in the store's queries per question (counts, candidates, nearest windows). */
  readP50: number;
  readP95: number;
  /** The whole answer from the store: candidates, state, ranking, the kept passages' texts. */
  answerP50: number;
  answerP95: number;
  /** Sections read per question, mean. */
  sections: number;
  /** Answers identical to the in-memory one (for `ranked`: all but the count of candidates read). */
  equal: number;
}

/** Per-question timings and counts of one read, summarised into {@link ReadFigures}. */
class ReadTally {
  private readonly read: number[] = [];
  private readonly answer: number[] = [];
  private sections = 0;
  equal = 0;
  add(readMs: number, answerMs: number, sections: number): void {
    this.read.push(readMs);
    this.answer.push(answerMs);
    this.sections += sections;
  }
  /** Null when the read was not asked for (`--ranked-only`). */
  figures(): ReadFigures | null {
    if (this.read.length === 0) return null;
    const r = [...this.read].sort((a, b) => a - b);
    const a = [...this.answer].sort((x, y) => x - y);
    return { readP50: percentile(r, 50), readP95: percentile(r, 95), answerP50: percentile(a, 50), answerP95: percentile(a, 95), sections: this.sections / Math.max(1, r.length), equal: this.equal };
  }
}

/** One list of questions asked words only at one size. */
interface MixRow {
  label: string;
  queries: number;
  /** Null with `--ranked-only`. */
  all: ReadFigures | null;
  ranked: ReadFigures;
  memoryP50: number;
  memoryP95: number;
}

interface SizeRow {
  size: string;
  sections: number;
  postings: number;
  indexMs: number;
  writeMs: number;
  /** True when the namespace was kept from an earlier run (`--keep-namespace`): `writeMs` is then an unchanged write. */
  writeKept: boolean;
  rewriteMs: number;
  mixes: MixRow[];
  hybrid?: HybridRow;
}

/** The meaning half's figures at one size. */
interface HybridRow {
  windows: number;
  vectorWriteMs: number;
  readerLoadMs: number;
  path: 'pgvector HNSW' | 'exact scan';
  all: ReadFigures;
  ranked: ReadFigures;
  memoryP50: number;
  memoryP95: number;
  queries: number;
  /** Nearest sections of the HNSW path found by the exact scan too (null on the exact path). */
  recall: number | null;
  pool: string;
}

/** What a run asks beyond its sizes (the command line's options). */
interface RunOptions {
  queries: number;
  seed: number;
  /** Ask only the read workspace_context uses (at 1M, reading every candidate takes minutes per question). */
  rankedOnly: boolean;
  /** Leave a namespace an earlier run wrote (same size and seed) in place instead of dropping it. */
  keepNamespace: boolean;
}

async function benchSize(size: string, options: RunOptions, server: Server, scratch: string, pool: VectorPool | undefined): Promise<SizeRow> {
  const { queries, seed } = options;
  const dir = path.join(scratch, `ws-${size}`);
  mkdirSync(dir);
  progress(`store ${size}: generating`);
  generateWorkspace({ dir, sections: parseSize(size), seed, git: false });
  const cacheDir = path.join(scratch, `cache-${size}`);
  const folders = [{ name: `ws-${size}`, absPath: dir }];
  let engine = new Engine({ folders, cacheDir });
  const indexStarted = performance.now();
  let state = await engine.waitForIndex();
  const indexMs = performance.now() - indexStarted;
  if (pool) {
    // The stand-in vectors go into the vector cache before an engine with embeddings starts (it
    // reads the cache once), and that engine restores the snapshot rather than indexing again.
    await engine.saveSnapshot();
    const plan = fillVectorCache(state, cacheDir, (i) => grownVector(pool, i, seed));
    engine.dispose();
    progress(`store ${size}: ${int(plan.windows)} windows given stand-in vectors`);
    engine = new Engine({ folders, cacheDir, embeddings: { provider: 'local' }, embedInBackground: false, vectorBackend: 'exact' });
    state = await engine.waitForIndex();
  }
  await engine.waitForMeaning();
  progress(`store ${size}: ${state.counts.sections} sections indexed in memory in ${(indexMs / 1000).toFixed(1)} s; writing`);
  const store = await openPostgresStore(server.url);
  if (!options.keepNamespace) await store.drop(`ws-${size}`);
  const timed = new TimedStore(store);
  const rows = workspaceRows(state);
  const write = await store.write(rows);
  const writeKept = options.keepNamespace && write.documentsWritten === 0;
  progress(`store ${size}: wrote ${write.sectionsWritten} sections, ${write.postingsWritten} postings in ${(write.durationMs / 1000).toFixed(1)} s`);
  const rewrite = await store.write(rows);
  assert.equal(rewrite.documentsWritten, 0);

  const texts = () =>
    (function* () {
      for (const entry of state.sections) if (entry) yield entry.section.text;
    })();
  const reader = new StoreReader(timed);
  const mixes: MixRow[] = [];
  for (const mix of QUERY_MIXES) {
    const asked = makeQueries(texts(), queries, seed, mix.skipCommonest);
    mixes.push(await askWordsOnly(`ws-${size}`, mix.label, asked, state, reader, timed, options.rankedOnly));
  }
  const asked = makeQueries(texts(), queries, seed);
  const hybrid = pool ? await benchHybrid(size, state, engine, store, asked, pool) : undefined;
  engine.dispose();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  return {
    size,
    sections: state.counts.sections,
    postings: write.postingsWritten,
    indexMs,
    writeMs: write.durationMs,
    writeKept,
    rewriteMs: rewrite.durationMs,
    mixes,
    ...(hybrid ? { hybrid } : {}),
  };
}

/**
 * The question lists each size is asked, words only: drawn by frequency (mostly words nearly
 * every section holds: the store's worst case), and without the 100 commonest words (closer to
 * real questions, which usually hold a word few sections do).
 */
const QUERY_MIXES = [
  { label: 'drawn by frequency', skipCommonest: 0 },
  { label: 'without the 100 commonest words', skipCommonest: 100 },
] as const;

/** Asks `asked` words only, from memory and from the store both ways, and compares the answers. */
async function askWordsOnly(ns: string, label: string, asked: readonly string[], state: IndexState, reader: StoreReader, timed: TimedStore, rankedOnly: boolean): Promise<MixRow> {
  const memoryMs: number[] = [];
  const all = new ReadTally();
  const ranked = new ReadTally();
  // One warm-up question: the base (catalog, graph) is read once per generation.
  await reader.questionState(ns, asked[0]);
  for (const question of asked) {
    const started = performance.now();
    const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
    memoryMs.push(performance.now() - started);
    const reads = [[all, undefined], [ranked, { limit: 10, now: NOW }]] as const;
    for (const [tally, scope] of rankedOnly ? reads.slice(1) : reads) {
      timed.spentMs = 0;
      const t0 = performance.now();
      const scoped = (await reader.questionState(ns, question, undefined, scope))!;
      const stored = rankWorkspaceContext(scoped, { question, limit: 10, now: NOW });
      await reader.completeTexts(ns, stored.passages.map((p) => p.entry));
      tally.add(timed.spentMs, performance.now() - t0, scoped.sections.length);
      try {
        assert.deepEqual(comparable(stored), comparable(memory));
        tally.equal++;
      } catch {
        progress(`store ${ns}: answers ${scope ? '(as ranked) ' : ''}differ for "${question}"`);
      }
    }
  }
  const m = [...memoryMs].sort((a, b) => a - b);
  return { label, queries: asked.length, all: all.figures(), ranked: ranked.figures()!, memoryP50: percentile(m, 50), memoryP95: percentile(m, 95) };
}

/** Writes the vectors, loads a reader's copy and asks `asked` hybrid both ways. */
async function benchHybrid(size: string, state: IndexState, engine: Engine, store: PostgresStore, asked: readonly string[], pool: VectorPool): Promise<HybridRow> {
  const ns = `ws-${size}`;
  const meaning = engine.meaningRows(state)!;
  const write = await store.write(workspaceRows(state, meaning));
  assert.equal(write.documentsWritten, 0);
  progress(`store ${size}: wrote the vectors of ${int(write.vectorSectionsWritten)} sections (${int(write.windowsWritten)} windows) in ${(write.durationMs / 1000).toFixed(1)} s`);
  const timed = new TimedStore(store);
  const reader = new StoreReader(timed);
  const exact = new StoreReader(store, { vectorSearch: 'exact' });
  const model = meaning.model;
  let started = performance.now();
  await reader.base(ns);
  const readerLoadMs = performance.now() - started;
  const hnsw = (await store.readBase(ns))?.meaning?.hnsw ?? false;
  if (hnsw) await exact.base(ns);
  const memoryMs: number[] = [];
  const all = new ReadTally();
  const ranked = new ReadTally();
  let found = 0;
  let wanted = 0;
  const nearestIds = (s: IndexState, r: StoreReader) => new Set(r.meaningOf(s)!.nearest.map((o) => s.sections[o]!.section.id));
  for (const [q, question] of asked.entries()) {
    const vector = heldOutVector(pool, q);
    started = performance.now();
    const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW, meaning: engine.meaningSource(state, vector) });
    memoryMs.push(performance.now() - started);
    let proposed: IndexState | undefined;
    for (const [tally, scope] of [[all, undefined], [ranked, { limit: 10, now: NOW }]] as const) {
      timed.spentMs = 0;
      const t0 = performance.now();
      const scoped = (await reader.questionState(ns, question, { vector, model }, scope))!;
      const stored = rankWorkspaceContext(scoped, { question, limit: 10, now: NOW, meaning: reader.meaningOf(scoped) });
      await reader.completeTexts(ns, stored.passages.map((p) => p.entry));
      tally.add(timed.spentMs, performance.now() - t0, scoped.sections.length);
      proposed ??= scoped;
      try {
        assert.deepEqual(comparable(stored), comparable(memory));
        tally.equal++;
      } catch {
        progress(`store ${size}: hybrid answers ${scope ? '(as ranked) ' : ''}differ for "${question}"`);
      }
    }
    if (hnsw) {
      const want = nearestIds((await exact.questionState(ns, question, { vector, model }))!, exact);
      const got = nearestIds(proposed!, reader);
      wanted += want.size;
      for (const id of want) if (got.has(id)) found++;
    }
  }
  const m = [...memoryMs].sort((a, b) => a - b);
  return {
    windows: write.windowsWritten,
    vectorWriteMs: write.durationMs,
    readerLoadMs,
    path: hnsw ? 'pgvector HNSW' : 'exact scan',
    all: all.figures()!,
    ranked: ranked.figures()!,
    memoryP50: percentile(m, 50),
    memoryP95: percentile(m, 95),
    queries: asked.length,
    recall: hnsw ? found / Math.max(1, wanted) : null,
    pool: pool.describe,
  };
}

/** The read columns of a table: sections read, store time, whole answer and identical answers, each `all` / `as ranked`. */
const READ_HEADERS = ['sections read per question: all / as ranked', 'store queries p50 / p95: all', 'as ranked', 'store answer p50 / p95: all', 'as ranked'];

function readCells(all: ReadFigures | null, ranked: ReadFigures): string[] {
  return [
    `${all ? int(all.sections) : '-'} / ${int(ranked.sections)}`,
    all ? `${ms(all.readP50)} / ${ms(all.readP95)}` : 'not asked',
    `${ms(ranked.readP50)} / ${ms(ranked.readP95)}`,
    all ? `${ms(all.answerP50)} / ${ms(all.answerP95)}` : 'not asked',
    `${ms(ranked.answerP50)} / ${ms(ranked.answerP95)}`,
  ];
}

export function renderStoreBench(rows: readonly SizeRow[], serverLabel: string): string {
  const lines = [`### PostgreSQL store, words only (${serverLabel})`, ''];
  lines.push(
    '"all": every section holding an asked term is read (get_context\'s entity excerpts); "as ranked": the reader is told the ranking (limit 10) and reads only what can be among its passages (workspace_context, engine/store/candidateBound.ts).',
    '',
    ...table(
      ['size', 'sections', 'postings', 'in-memory index', 'first write', 'write rate', 'unchanged rewrite'],
      rows.map((r) => [
        r.size,
        int(r.sections),
        r.writeKept ? 'kept' : int(r.postings),
        `${(r.indexMs / 1000).toFixed(1)} s`,
        r.writeKept ? `kept from an earlier run (this run's unchanged write: ${(r.writeMs / 1000).toFixed(1)} s)` : `${(r.writeMs / 1000).toFixed(1)} s`,
        r.writeKept ? '-' : `${int(r.sections / (r.writeMs / 1000))} sections/s, ${int(r.postings / (r.writeMs / 1000))} postings/s`,
        `${(r.rewriteMs / 1000).toFixed(1)} s`,
      ]),
    ),
    '',
    ...table(
      ['size', 'questions', ...READ_HEADERS, 'in-memory p50 / p95', 'identical answers: all / as ranked'],
      rows.flatMap((r) =>
        r.mixes.map((m) => [r.size, `${m.queries} ${m.label}`, ...readCells(m.all, m.ranked), `${ms(m.memoryP50)} / ${ms(m.memoryP95)}`, `${m.all ? m.all.equal : '-'} / ${m.ranked.equal} of ${m.queries}`]),
      ),
    ),
  );
  const hybrid = rows.filter((r) => r.hybrid);
  if (hybrid.length) {
    lines.push('', `### PostgreSQL store, hybrid (${serverLabel}; ${hybrid[0].hybrid!.pool})`, '');
    lines.push(
      ...table(
        ['size', 'windows', 'vector write', 'vector write rate', 'reader load', 'nearest by', ...READ_HEADERS, 'in-memory (exact) p50 / p95', 'identical answers: all / as ranked', 'HNSW recall'],
        hybrid.map(({ size, hybrid: h }) => [
          size,
          int(h!.windows),
          `${(h!.vectorWriteMs / 1000).toFixed(1)} s`,
          `${int(h!.windows / (h!.vectorWriteMs / 1000))} windows/s`,
          `${(h!.readerLoadMs / 1000).toFixed(1)} s`,
          h!.path,
          ...readCells(h!.all, h!.ranked),
          `${ms(h!.memoryP50)} / ${ms(h!.memoryP95)}`,
          `${h!.all.equal} / ${h!.ranked.equal} of ${h!.queries}`,
          h!.recall === null ? '-' : h!.recall.toFixed(3),
        ]),
      ),
    );
  }
  return lines.join('\n') + '\n';
}

function progress(message: string): void {
  process.stderr.write(`[bench-store] ${message}\n`);
}

async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = (value('--size') ?? '100k').split(',').filter(Boolean);
  for (const size of sizes) parseSize(size);
  const options: RunOptions = {
    queries: Number(value('--queries') ?? 100),
    seed: Number(value('--seed') ?? 1),
    rankedOnly: argv.includes('--ranked-only'),
    keepNamespace: argv.includes('--keep-namespace'),
  };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-store-'));
  const server = await startServer(value('--url'), argv.includes('--pglite'));
  const pool = argv.includes('--words-only') ? undefined : await loadPool((value('--standin') ?? 'auto') as StandinSource | 'auto', options.seed, progress);
  try {
    const rows: SizeRow[] = [];
    for (const size of sizes) rows.push(await benchSize(size, options, server, scratch, pool));
    process.stdout.write(renderStoreBench(rows, server.label));
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`bench-store: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  });
}
