/**
 * The PostgreSQL store at scale: a generated workspace (generate.ts) indexed in memory, written
 * to a store, and the bench's own queries (queries.ts) asked both ways.
 *
 *   npx tsx bench/benchStore.ts [--size 100k[,1m]] [--queries N] [--seed N] [--url postgresql://...]
 *                               [--pglite] [--standin auto|scifact|generated|synthetic] [--words-only]
 *   npm run bench -- --store 100k      (the same, after the main tables)
 *
 * The server: `--url`, else $WSCTX_BENCH_POSTGRES_URL, else a throwaway server from the local
 * PostgreSQL binaries (scripts/postgres/start-temp.sh), else PGlite (slower; the table says which).
 * `--pglite` takes PGlite with pgvector even where PostgreSQL is installed (Debian's has no
 * pgvector): the HNSW path.
 *
 * Per size: the in-memory cold index, the first write (sections and postings per second), a
 * second write of the unchanged workspace, then per query the candidate query alone (the store's
 * SQL: postings of the question's terms, the candidates' sections, documents and commits in one
 * read-only transaction), the whole answer from the store (candidates, state, ranking, the kept
 * passages' texts) and the in-memory ranking, p50 and p95; and how many answers are identical
 * (ids, order, scores, why[]).
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
import type { CandidateRows } from '../server/src/engine/store/rows';
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

/** Times every `candidates` and `nearestWindows` call of the store it wraps (`spentMs`, reset per question). */
class TimedStore implements IndexStore {
  readonly candidateMs: number[] = [];
  spentMs = 0;
  constructor(private readonly inner: PostgresStore) {}
  namespaces = () => this.inner.namespaces();
  write: IndexStore['write'] = (rows) => this.inner.write(rows);
  generation = (ns: string) => this.inner.generation(ns);
  readBase = (ns: string) => this.inner.readBase(ns);
  sectionTexts = (ns: string, ids: readonly string[]) => this.inner.sectionTexts(ns, ids);
  libraryRows = (ns: string) => this.inner.libraryRows(ns);
  documentFrequencies: IndexStore['documentFrequencies'] = (ns, terms, generation) => this.inner.documentFrequencies(ns, terms, generation);
  readWindows: IndexStore['readWindows'] = (ns, after, onPage) => this.inner.readWindows(ns, after, onPage);
  nearestWindows: IndexStore['nearestWindows'] = async (ns, query, k) => {
    const started = performance.now();
    const found = await this.inner.nearestWindows(ns, query, k);
    this.spentMs += performance.now() - started;
    return found;
  };
  close = () => this.inner.close();
  async candidates(ns: string, terms: readonly string[], named: readonly string[], also?: readonly number[]): Promise<CandidateRows> {
    const started = performance.now();
    const rows = await this.inner.candidates(ns, terms, named, also);
    this.candidateMs.push(performance.now() - started);
    this.spentMs += performance.now() - started;
    return rows;
  }
}

function comparable(result: RankResult) {
  return result.passages.map((p) => ({ id: p.entry.section.id, score: p.score, why: p.why }));
}

interface SizeRow {
  size: string;
  sections: number;
  postings: number;
  indexMs: number;
  writeMs: number;
  rewriteMs: number;
  candidateP50: number;
  candidateP95: number;
  storeP50: number;
  storeP95: number;
  memoryP50: number;
  memoryP95: number;
  meanCandidates: number;
  equal: number;
  queries: number;
  hybrid?: HybridRow;
}

/** The meaning half's figures at one size. */
interface HybridRow {
  windows: number;
  vectorWriteMs: number;
  readerLoadMs: number;
  path: 'pgvector HNSW' | 'exact scan';
  candidateP50: number;
  candidateP95: number;
  storeP50: number;
  storeP95: number;
  memoryP50: number;
  memoryP95: number;
  equal: number;
  queries: number;
  /** Nearest sections of the HNSW path found by the exact scan too (null on the exact path). */
  recall: number | null;
  pool: string;
}

async function benchSize(size: string, queries: number, seed: number, server: Server, scratch: string, pool: VectorPool | undefined): Promise<SizeRow> {
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
  await store.drop(`ws-${size}`);
  const timed = new TimedStore(store);
  const rows = workspaceRows(state);
  const write = await store.write(rows);
  progress(`store ${size}: wrote ${write.sectionsWritten} sections, ${write.postingsWritten} postings in ${(write.durationMs / 1000).toFixed(1)} s`);
  const rewrite = await store.write(rows);
  assert.equal(rewrite.documentsWritten, 0);

  const texts = (function* () {
    for (const entry of state.sections) if (entry) yield entry.section.text;
  })();
  const asked = makeQueries(texts, queries, seed);
  const reader = new StoreReader(timed);
  const storeMs: number[] = [];
  const memoryMs: number[] = [];
  let equal = 0;
  let candidates = 0;
  // One warm-up question: the base (catalog, graph) is read once per generation.
  await reader.questionState(`ws-${size}`, asked[0]);
  timed.candidateMs.length = 0;
  for (const question of asked) {
    let started = performance.now();
    const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW });
    memoryMs.push(performance.now() - started);
    started = performance.now();
    const scoped = (await reader.questionState(`ws-${size}`, question))!;
    const stored = rankWorkspaceContext(scoped, { question, limit: 10, now: NOW });
    await reader.completeTexts(`ws-${size}`, stored.passages.map((p) => p.entry));
    storeMs.push(performance.now() - started);
    candidates += stored.candidates;
    try {
      assert.deepEqual(comparable(stored), comparable(memory));
      equal++;
    } catch {
      progress(`store ${size}: answers differ for "${question}"`);
    }
  }
  const hybrid = pool ? await benchHybrid(size, state, engine, store, asked, pool) : undefined;
  engine.dispose();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const c = sorted(timed.candidateMs);
  const s = sorted(storeMs);
  const m = sorted(memoryMs);
  return {
    size,
    sections: state.counts.sections,
    postings: write.postingsWritten,
    indexMs,
    writeMs: write.durationMs,
    rewriteMs: rewrite.durationMs,
    candidateP50: percentile(c, 50),
    candidateP95: percentile(c, 95),
    storeP50: percentile(s, 50),
    storeP95: percentile(s, 95),
    memoryP50: percentile(m, 50),
    memoryP95: percentile(m, 95),
    meanCandidates: candidates / asked.length,
    equal,
    queries: asked.length,
    ...(hybrid ? { hybrid } : {}),
  };
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
  const candidateMs: number[] = [];
  const storeMs: number[] = [];
  const memoryMs: number[] = [];
  let equal = 0;
  let found = 0;
  let wanted = 0;
  const nearestIds = (s: IndexState, r: StoreReader) => new Set(r.meaningOf(s)!.nearest.map((o) => s.sections[o]!.section.id));
  for (const [q, question] of asked.entries()) {
    const vector = heldOutVector(pool, q);
    started = performance.now();
    const memory = rankWorkspaceContext(state, { question, limit: 10, now: NOW, meaning: engine.meaningSource(state, vector) });
    memoryMs.push(performance.now() - started);
    timed.spentMs = 0;
    started = performance.now();
    const scoped = (await reader.questionState(ns, question, { vector, model }))!;
    const stored = rankWorkspaceContext(scoped, { question, limit: 10, now: NOW, meaning: reader.meaningOf(scoped) });
    await reader.completeTexts(ns, stored.passages.map((p) => p.entry));
    storeMs.push(performance.now() - started);
    candidateMs.push(timed.spentMs);
    try {
      assert.deepEqual(comparable(stored), comparable(memory));
      equal++;
    } catch {
      progress(`store ${size}: hybrid answers differ for "${question}"`);
    }
    if (hnsw) {
      const want = nearestIds((await exact.questionState(ns, question, { vector, model }))!, exact);
      const got = nearestIds(scoped, reader);
      wanted += want.size;
      for (const id of want) if (got.has(id)) found++;
    }
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const c = sorted(candidateMs);
  const s = sorted(storeMs);
  const m = sorted(memoryMs);
  return {
    windows: write.windowsWritten,
    vectorWriteMs: write.durationMs,
    readerLoadMs,
    path: hnsw ? 'pgvector HNSW' : 'exact scan',
    candidateP50: percentile(c, 50),
    candidateP95: percentile(c, 95),
    storeP50: percentile(s, 50),
    storeP95: percentile(s, 95),
    memoryP50: percentile(m, 50),
    memoryP95: percentile(m, 95),
    equal,
    queries: asked.length,
    recall: hnsw ? found / Math.max(1, wanted) : null,
    pool: pool.describe,
  };
}

export function renderStoreBench(rows: readonly SizeRow[], serverLabel: string): string {
  const lines = [`### PostgreSQL store, words only (${serverLabel})`, ''];
  lines.push(
    ...table(
      ['size', 'sections', 'postings', 'in-memory index', 'first write', 'write rate', 'unchanged rewrite', 'candidates/query', 'candidate query p50 / p95', 'store answer p50 / p95', 'in-memory p50 / p95', 'identical answers'],
      rows.map((r) => [
        r.size,
        int(r.sections),
        int(r.postings),
        `${(r.indexMs / 1000).toFixed(1)} s`,
        `${(r.writeMs / 1000).toFixed(1)} s`,
        `${int(r.sections / (r.writeMs / 1000))} sections/s, ${int(r.postings / (r.writeMs / 1000))} postings/s`,
        `${(r.rewriteMs / 1000).toFixed(1)} s`,
        int(r.meanCandidates),
        `${ms(r.candidateP50)} / ${ms(r.candidateP95)}`,
        `${ms(r.storeP50)} / ${ms(r.storeP95)}`,
        `${ms(r.memoryP50)} / ${ms(r.memoryP95)}`,
        `${r.equal} / ${r.queries}`,
      ]),
    ),
  );
  const hybrid = rows.filter((r) => r.hybrid);
  if (hybrid.length) {
    lines.push('', `### PostgreSQL store, hybrid (${serverLabel}; ${hybrid[0].hybrid!.pool})`, '');
    lines.push(
      ...table(
        ['size', 'windows', 'vector write', 'vector write rate', 'reader load', 'nearest by', 'candidate queries p50 / p95', 'store answer p50 / p95', 'in-memory (exact) p50 / p95', 'identical answers', 'HNSW recall'],
        hybrid.map(({ size, hybrid: h }) => [
          size,
          int(h!.windows),
          `${(h!.vectorWriteMs / 1000).toFixed(1)} s`,
          `${int(h!.windows / (h!.vectorWriteMs / 1000))} windows/s`,
          `${(h!.readerLoadMs / 1000).toFixed(1)} s`,
          h!.path,
          `${ms(h!.candidateP50)} / ${ms(h!.candidateP95)}`,
          `${ms(h!.storeP50)} / ${ms(h!.storeP95)}`,
          `${ms(h!.memoryP50)} / ${ms(h!.memoryP95)}`,
          `${h!.equal} / ${h!.queries}`,
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
  const queries = Number(value('--queries') ?? 100);
  const seed = Number(value('--seed') ?? 1);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-store-'));
  const server = await startServer(value('--url'), argv.includes('--pglite'));
  const pool = argv.includes('--words-only') ? undefined : await loadPool((value('--standin') ?? 'auto') as StandinSource | 'auto', seed, progress);
  try {
    const rows: SizeRow[] = [];
    for (const size of sizes) rows.push(await benchSize(size, queries, seed, server, scratch, pool));
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
