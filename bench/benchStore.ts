/**
 * The PostgreSQL store at org scale, as it is deployed: generated workspaces (generate.ts), one
 * namespace each, written by this process (the writer), served by `wsctx serve --store` (readers
 * that hold the namespaces in memory) and, beside it in the same run, by the in-memory
 * `wsctx serve` over the same folders; every question asked of both over HTTP with the MCP client.
 *
 *   npx tsx bench/benchStore.ts [--size 100k[,1m]] [--namespaces N] [--queries N] [--seed N]
 *                               [--url postgresql://...] [--pglite] [--standin auto|scifact|generated|synthetic]
 *                               [--words-only] [--per-question N] [--split] [--all-queries N] [--edits N]
 *   npm run bench -- --store 100k,1m      (the same, after the main tables)
 *
 * The server: `--url`, else $WSCTX_BENCH_POSTGRES_URL, else a throwaway server from the local
 * PostgreSQL binaries (scripts/postgres/start-temp.sh, fsync off), else PGlite (`--pglite` takes
 * it even where PostgreSQL is installed). Needs `npm run build` (the servers are the built CLI).
 *
 * Per size, `--namespaces` folders (default: one per 10,000 sections, so 1M is 100) of size / N
 * sections each, seeds seed..seed+N-1:
 * - each folder indexed in memory alone (the writer's own engine), the in-memory answers to its
 *   questions taken there (the reference: every field, ids and counts included), then written:
 *   "first write" is the sum of the store's writes, "rows" the time making their rows;
 * - every folder written again unchanged ("unchanged rewrite": one digest comparison each);
 * - a reader (`serve --store`, memory mode) started: "cold load" is spawn to serving, every
 *   namespace loaded; its resident memory (RSS) after loading and after the questions, and the
 *   estimate it printed before loading; with `--split`, two readers each serving half the
 *   namespaces (a config file's `namespaces` list), their loads and RSS;
 * - the in-memory `serve` over all the folders, started and waited for (its cold index) and its RSS;
 * - `--queries` questions (3-8 words drawn by corpus frequency from one namespace, asked of that
 *   namespace), each asked of both servers in turn: whole-answer time as the MCP client sees it,
 *   p50 / p95, and how many of the reader's answers are identical to the reference (all fields);
 *   `--all-queries` more asked of every namespace at once (workspace left out), each folder's
 *   passages in the reader's answer checked against that folder's own answer in memory (the
 *   same passages, scores and order, merged by score);
 * - `--edits` writes of one changed page each: the time from the write's commit to the reader
 *   answering with the new text (polled every 10 ms), p50 and max;
 * - with `--per-question N`, a reader with `--store-mode per-question` asks the first N questions.
 * Hybrid (unless `--words-only`): every window gets a stand-in vector (standinVectors.ts) through
 * the vector cache, written with the documents; both servers embed the question with the packaged
 * model and the in-memory server scans its vectors exactly (`vectorIndex: exact`), as the reader does.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
import type { IndexState } from '../server/src/engine/indexState';
import { workspaceRows } from '../server/src/engine/store/storeRows';
import { formatBytes } from '../server/src/engine/store/memoryEstimate';
import { openPostgresStore, type PostgresStore } from '../server/src/store/postgres/pgStore';
import { createServices } from '../server/src/services/services';
import { callTool } from '../server/src/tools/callTool';
import { findTool } from '../server/src/tools/registry';
import { int, ms, table } from './format';
import { generateWorkspace, parseSize } from './generate';
import { makeQueries } from './queries';
import { percentile } from './stats';
import { fillVectorCache } from './fillVectors';
import { grownVector, loadPool, type StandinSource, type VectorPool } from './standinVectors';
import { startServe, timedCall, untilWarm, type BenchServer } from './storeServers';

const REPO_ROOT = path.resolve(__dirname, '..');

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
    const started = execFileSync('bash', [path.join(REPO_ROOT, 'scripts/postgres/start-temp.sh'), dir], {
      encoding: 'utf8',
    }).trim();
    const version = readdirSync(bin).sort().at(-1);
    return {
      url: started,
      label: `PostgreSQL ${version} (Debian, fsync off)`,
      stop: async () => void spawnSync('bash', [path.join(REPO_ROOT, 'scripts/postgres/stop-temp.sh'), dir]),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 20 });
  await server.start();
  process.env.WSCTX_STORE_CONNECTIONS = '1';
  return {
    url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    label: pglite ? 'PGlite' : 'PGlite (no PostgreSQL binaries here)',
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

interface RunOptions {
  queries: number;
  allQueries: number;
  edits: number;
  seed: number;
  namespaces: number | undefined;
  perQuestion: number;
  split: boolean;
  pool: VectorPool | undefined;
}

/** A question of one namespace, and the in-memory engine's answer to it (that folder alone). */
interface Question {
  namespace: string;
  question: string;
  reference: unknown;
}

/** p50 / p95 of a list of milliseconds. */
interface Percentiles {
  p50: number;
  p95: number;
}

interface ReaderFigures {
  label: string;
  namespaces: number;
  loadMs: number;
  estimatedBytes: number;
  rssLoaded: number;
  rssAfter: number;
  peak: number;
}

interface SizeRow {
  size: string;
  namespaces: number;
  sections: number;
  postings: number;
  windows: number;
  indexMs: number;
  rowsMs: number;
  writeMs: number;
  rewriteMs: number;
  readers: ReaderFigures[];
  memoryServer: { indexMs: number; rss: number; peak: number };
  named: { store: Percentiles; memory: Percentiles; identical: number; asked: number };
  all: { store: Percentiles; memory: Percentiles; identical: number; asked: number } | null;
  visible: { p50: number; max: number; edits: number } | null;
  perQuestion: (Percentiles & { asked: number; identical: number }) | null;
  hybrid: boolean;
}

function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** What must be equal between a reader's answer and the reference (the answers of one folder alone): all of it. */
function sameAnswer(got: unknown, want: unknown): boolean {
  try {
    assert.deepEqual(got, want);
    return true;
  } catch {
    return false;
  }
}

/**
 * An answer asked of every namespace holds, for each folder, the head of that folder's own answer
 * (same passages, same scores, same order), merged in score order (test/mcp/severalFolders.test.ts
 * checks the same of the in-memory engine).
 */
function mergedAsAlone(answer: Record<string, unknown>, alone: ReadonlyMap<string, [string, number][]>): boolean {
  const passages = answer.passages as { id: string; folder: string; score: number }[];
  for (const [folder, own] of alone) {
    const mine = passages.filter((p) => p.folder === folder).map((p): [string, number] => [p.id, p.score]);
    if (!sameAnswer(mine, own.slice(0, mine.length))) return false;
  }
  const scores = passages.map((p) => p.score);
  return passages.length > 0 && scores.every((x, i) => i === 0 || scores[i - 1] >= x);
}

async function benchSize(size: string, options: RunOptions, server: Server, scratch: string): Promise<SizeRow> {
  const total = parseSize(size);
  const count = options.namespaces ?? Math.max(1, Math.round(total / 10_000));
  const root = path.join(scratch, `ws-${size}`);
  const cacheDir = path.join(scratch, `cache-${size}`);
  mkdirSync(root);
  const folders: { name: string; absPath: string }[] = [];
  progress(`store ${size}: generating ${count} workspaces of ${int(total / count)} sections`);
  for (let i = 0; i < count; i++) {
    const name = `ns-${String(i).padStart(3, '0')}`;
    const dir = path.join(root, name);
    mkdirSync(dir);
    generateWorkspace({ dir, sections: Math.max(100, Math.round(total / count)), seed: options.seed + i, git: false });
    folders.push({ name, absPath: dir });
  }
  const store = await openPostgresStore(server.url);
  for (const f of folders) await store.drop(f.name);
  const questions: Question[] = [];
  // Asked of every namespace at once: drawn from the first namespace; each namespace's own answer kept.
  let everywhere: string[] = [];
  const alone = new Map<string, Map<string, [string, number][]>>();
  let sections = 0;
  let postings = 0;
  let windows = 0;
  let indexMs = 0;
  let rowsMs = 0;
  let writeMs = 0;
  // Questions spread over the namespaces: namespace i asks questions i, i + N, ...
  const perNamespace = (i: number) => Math.floor(options.queries / count) + (i < options.queries % count ? 1 : 0);
  for (const [i, folder] of folders.entries()) {
    const started = performance.now();
    const { engine, state } = await indexFolder(folder, cacheDir, options.pool, options.seed + i);
    indexMs += performance.now() - started;
    const asked = makeQueries(textsOf(state), perNamespace(i), options.seed + i);
    const services = createServices({ engine });
    for (const question of asked)
      questions.push({
        namespace: folder.name,
        question,
        reference: await referenceAnswer(services, folder.name, question),
      });
    if (i === 0) everywhere = makeQueries(textsOf(state), options.allQueries, options.seed + 7919);
    for (const question of everywhere) {
      const own = (await referenceAnswer(services, folder.name, question)) as {
        passages: { id: string; score: number }[];
      };
      if (!alone.has(question)) alone.set(question, new Map());
      alone.get(question)!.set(
        folder.name,
        own.passages.map((p) => [p.id, p.score]),
      );
    }
    const t0 = performance.now();
    const rows = workspaceRows(state, engine.meaningRows(state));
    rowsMs += performance.now() - t0;
    const report = await store.write(rows);
    writeMs += report.durationMs;
    sections += report.sectionsWritten;
    postings += report.postingsWritten;
    windows += report.windowsWritten;
    engine.dispose();
    if ((i + 1) % 10 === 0 || i === count - 1)
      progress(
        `store ${size}: ${i + 1} of ${count} namespaces indexed and written (${int(sections)} sections, writes ${(writeMs / 1000).toFixed(1)} s so far)`,
      );
  }
  let rewriteMs = 0;
  for (const [i, folder] of folders.entries()) {
    const { engine, state } = await indexFolder(folder, cacheDir, options.pool, options.seed + i);
    const report = await store.write(workspaceRows(state, engine.meaningRows(state)));
    assert.equal(report.unchanged, true, `${folder.name} written again unchanged`);
    rewriteMs += report.durationMs;
    engine.dispose();
  }
  progress(`store ${size}: unchanged rewrite of ${count} namespaces in ${(rewriteMs / 1000).toFixed(1)} s`);

  const env: NodeJS.ProcessEnv = {
    WSCTX_CACHE_DIR: cacheDir,
    XDG_CONFIG_HOME: path.join(scratch, 'config'),
    WSCTX_EMBEDDINGS: options.pool ? 'local' : 'off',
  };
  writeUserConfig(env.XDG_CONFIG_HOME!);
  const readers: ReaderFigures[] = [];
  if (options.split && count >= 2) {
    // Two readers, each serving half the namespaces by a config list: each one's load and memory.
    const half = Math.ceil(count / 2);
    for (const [k, names] of [folders.slice(0, half), folders.slice(half)].map(
      (list, k) => [k, list.map((f) => f.name)] as const,
    )) {
      const config = path.join(scratch, `reader-${size}-${k}.yaml`);
      writeFileSync(config, `namespaces: [${names.join(', ')}]\n`);
      const reader = running(
        await startServe(`reader ${k + 1} of 2`, ['--store', server.url, '--config', config], env),
      );
      readers.push(await readerFigures(reader, names.length));
      await reader.stop();
    }
  }
  progress(`store ${size}: starting the reader (serve --store)`);
  const reader = running(await startServe('serve --store', ['--store', server.url], env));
  const main = await readerFigures(reader, count);
  progress(
    `store ${size}: reader serving ${count} namespaces after ${(main.loadMs / 1000).toFixed(1)} s, RSS ${formatBytes(main.rssLoaded)} (estimated ${formatBytes(main.estimatedBytes)})`,
  );

  progress(`store ${size}: starting the in-memory serve over the same ${count} folders`);
  const memoryStarted = performance.now();
  const memory = running(
    await startServe(
      'serve (in memory)',
      folders.flatMap((f) => ['--workspace', f.absPath]),
      env,
    ),
  );
  await untilWarm(memory, folders[0].name);
  const memoryIndexMs = performance.now() - memoryStarted;
  const memoryRss = memory.rss();
  progress(
    `store ${size}: in-memory serve warm after ${(memoryIndexMs / 1000).toFixed(1)} s, RSS ${formatBytes(memoryRss.rss)}`,
  );

  // One warm-up call each: the first call of a session pays for things no later one does.
  await timedCall(reader, 'workspace_context', { workspace: folders[0].name, question: 'warm up' });
  const named = { store: [] as number[], memory: [] as number[], identical: 0 };
  for (const q of questions) {
    const args = { workspace: q.namespace, question: q.question, limit: 10 };
    const fromStore = await timedCall(reader, 'workspace_context', args);
    const fromMemory = await timedCall(memory, 'workspace_context', args);
    named.store.push(fromStore.ms);
    named.memory.push(fromMemory.ms);
    if (sameAnswer(fromStore.answer, q.reference)) named.identical++;
    else
      progress(
        `store ${size}: the reader's answer differs from the in-memory one for "${q.question}" (${q.namespace})`,
      );
  }
  let all: SizeRow['all'] = null;
  if (everywhere.length > 0) {
    const store = [] as number[];
    const mem = [] as number[];
    let identical = 0;
    for (const question of everywhere) {
      const args = { question, limit: 10 };
      const fromStore = await timedCall(reader, 'workspace_context', args);
      const fromMemory = await timedCall(memory, 'workspace_context', args);
      store.push(fromStore.ms);
      mem.push(fromMemory.ms);
      if (mergedAsAlone(fromStore.answer, alone.get(question)!)) identical++;
      else
        progress(
          `store ${size}: asked of every namespace, a folder's passages differ from its own answer for "${question}"`,
        );
    }
    all = { store: percentiles(store), memory: percentiles(mem), identical, asked: store.length };
  }
  main.rssAfter = reader.rss().rss;
  main.peak = reader.rss().peak;
  await memory.stop();

  let perQuestion: SizeRow['perQuestion'] = null;
  if (options.perQuestion > 0) {
    const slow = running(
      await startServe(
        'serve --store --store-mode per-question',
        ['--store', server.url, '--store-mode', 'per-question'],
        env,
      ),
    );
    const times: number[] = [];
    let identical = 0;
    // Before the edits below: every answer is compared with its reference.
    for (const q of questions.slice(0, options.perQuestion)) {
      const { answer, ms: spent } = await timedCall(slow, 'workspace_context', {
        workspace: q.namespace,
        question: q.question,
        limit: 10,
      });
      times.push(spent);
      const { candidates: _read, ...rest } = answer;
      const { candidates: _all, ...want } = q.reference as Record<string, unknown>;
      if (sameAnswer(rest, want)) identical++;
    }
    await slow.stop();
    perQuestion = { ...percentiles(times), asked: times.length, identical };
  }
  const visible = options.edits > 0 ? await writeToVisible(size, folders, cacheDir, options, store, reader) : null;
  readers.unshift(main);
  await reader.stop();

  await store.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  return {
    size,
    namespaces: count,
    sections,
    postings,
    windows,
    indexMs,
    rowsMs,
    writeMs,
    rewriteMs,
    readers,
    memoryServer: { indexMs: memoryIndexMs, rss: memoryRss.rss, peak: memoryRss.peak },
    named: {
      store: percentiles(named.store),
      memory: percentiles(named.memory),
      identical: named.identical,
      asked: questions.length,
    },
    all,
    visible,
    perQuestion,
    hybrid: options.pool !== undefined,
  };
}

/** The folder indexed alone in memory (from its snapshot when it has one), with its stand-in vectors when `pool`. */
async function indexFolder(
  folder: { name: string; absPath: string },
  cacheDir: string,
  pool: VectorPool | undefined,
  seed: number,
): Promise<{ engine: Engine; state: IndexState }> {
  let engine = new Engine({ folders: [folder], cacheDir });
  let state = await engine.waitForIndex();
  await engine.saveSnapshot();
  if (!pool) return { engine, state };
  // The stand-in vectors go into the vector cache before an engine with embeddings starts (it
  // reads the cache once); that engine restores the snapshot rather than indexing again.
  fillVectorCache(state, cacheDir, (i) => grownVector(pool, i, seed));
  engine.dispose();
  engine = new Engine({
    folders: [folder],
    cacheDir,
    embeddings: { provider: 'local' },
    embedInBackground: false,
    vectorBackend: 'exact',
  });
  state = await engine.waitForIndex();
  await engine.waitForMeaning();
  return { engine, state };
}

function* textsOf(state: IndexState): Generator<string> {
  for (const entry of state.sections) if (entry) yield entry.section.text;
}

/** The in-memory engine's answer, as the MCP server puts it in `structuredContent`. */
async function referenceAnswer(
  services: ReturnType<typeof createServices>,
  workspace: string,
  question: string,
): Promise<unknown> {
  const tool = findTool('workspace_context')!;
  const output = await callTool(services, tool, { workspace, question, limit: 10 }, { sessionId: 'bench' });
  return JSON.parse(JSON.stringify(tool.structuredContent ? tool.structuredContent(output) : output)) as unknown;
}

/** The user config both servers read: the in-memory engine scans its vectors exactly, as the reader does. */
function writeUserConfig(home: string): void {
  mkdirSync(path.join(home, 'wsctx'), { recursive: true });
  writeFileSync(path.join(home, 'wsctx', 'config.yaml'), 'vectorIndex: exact\n');
}

async function readerFigures(reader: BenchServer, namespaces: number): Promise<ReaderFigures> {
  const status = await reader.status();
  const rss = reader.rss();
  return {
    label: reader.label,
    namespaces,
    loadMs: reader.startMs,
    estimatedBytes: Number(status.estimatedBytes ?? 0),
    rssLoaded: rss.rss,
    rssAfter: rss.rss,
    peak: rss.peak,
  };
}

/**
 * `edits` writes of one changed page each (a new section with a word nowhere else), each timed
 * from the write's commit to the reader answering with it.
 */
async function writeToVisible(
  size: string,
  folders: readonly { name: string; absPath: string }[],
  cacheDir: string,
  options: RunOptions,
  store: PostgresStore,
  reader: BenchServer,
): Promise<{ p50: number; max: number; edits: number }> {
  const times: number[] = [];
  for (let k = 0; k < options.edits; k++) {
    const i = (k * 7) % folders.length;
    const folder = folders[i];
    const { engine, state } = await indexFolder(folder, cacheDir, undefined, options.seed + i);
    const doc = [...state.docs.values()].find((d) => d.path.endsWith('.md') && d.sourceKind !== 'library')!;
    const word = `quokkaedit${k}`;
    const abs = path.join(folder.absPath, doc.path);
    appendFileSync(abs, `\n\n## The ${word} drill\n\nThe ${word} drill is rehearsed before each release.\n`);
    await engine.update([abs]);
    const current = engine.current()!;
    // Vectors are the stored ones: a words-only write leaves them as they are.
    const report = await store.write(workspaceRows(current));
    engine.dispose();
    const committed = performance.now();
    for (;;) {
      const { answer } = await timedCall(reader, 'workspace_context', {
        workspace: folder.name,
        question: `${word} drill`,
        limit: 1,
      });
      const top = (answer.passages as { text: string }[])[0];
      if (top?.text.includes(word)) break;
      if (performance.now() - committed > 120_000)
        throw new Error(`bench: ${folder.name}'s write (generation ${report.generation}) not visible after 120 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    times.push(performance.now() - committed);
  }
  progress(`store ${size}: ${times.length} writes visible after ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), max: sorted[sorted.length - 1], edits: times.length };
}

const pair = (p: Percentiles) => `${ms(p.p50)} / ${ms(p.p95)}`;
const ratio = (store: Percentiles, memory: Percentiles) => `${(store.p95 / Math.max(memory.p95, 1e-9)).toFixed(2)}x`;

export function renderStoreBench(rows: readonly SizeRow[], serverLabel: string): string {
  const lines = [
    `### PostgreSQL store, readers in memory (${serverLabel}${rows.some((r) => r.hybrid) ? '; hybrid: stand-in vectors, exact scan both sides' : '; words only'})`,
    '',
  ];
  lines.push(
    ...table(
      [
        'size',
        'namespaces',
        'sections',
        'postings',
        'windows',
        'in-memory index (writer)',
        'rows',
        'first write',
        'write rate',
        'unchanged rewrite',
      ],
      rows.map((r) => [
        r.size,
        int(r.namespaces),
        int(r.sections),
        int(r.postings),
        int(r.windows),
        `${(r.indexMs / 1000).toFixed(1)} s`,
        `${(r.rowsMs / 1000).toFixed(1)} s`,
        `${(r.writeMs / 1000).toFixed(1)} s`,
        `${int(r.sections / (r.writeMs / 1000))} sections/s, ${int(r.postings / (r.writeMs / 1000))} postings/s`,
        `${(r.rewriteMs / 1000).toFixed(1)} s`,
      ]),
    ),
    '',
    ...table(
      [
        'size',
        'reader',
        'namespaces',
        'cold load',
        'estimated',
        'RSS loaded',
        'RSS after questions',
        'peak RSS',
        'in-memory serve: cold index, RSS',
      ],
      rows.flatMap((r) =>
        r.readers.map((x, k) => [
          r.size,
          x.label,
          int(x.namespaces),
          `${(x.loadMs / 1000).toFixed(1)} s`,
          formatBytes(x.estimatedBytes),
          formatBytes(x.rssLoaded),
          k === 0 ? formatBytes(x.rssAfter) : '-',
          formatBytes(x.peak),
          k === 0 ? `${(r.memoryServer.indexMs / 1000).toFixed(1)} s, ${formatBytes(r.memoryServer.rss)}` : '-',
        ]),
      ),
    ),
    '',
    ...table(
      [
        'size',
        'questions',
        'serve --store p50 / p95',
        'in-memory serve p50 / p95',
        'p95 ratio',
        'identical answers',
        'write visible p50 / max',
      ],
      rows.flatMap((r) => [
        [
          r.size,
          `${r.named.asked}, one namespace each`,
          pair(r.named.store),
          pair(r.named.memory),
          ratio(r.named.store, r.named.memory),
          `${r.named.identical} / ${r.named.asked}`,
          r.visible ? `${ms(r.visible.p50)} / ${ms(r.visible.max)} (${r.visible.edits} writes)` : '-',
        ],
        ...(r.all
          ? [
              [
                r.size,
                `${r.all.asked}, every namespace at once`,
                pair(r.all.store),
                pair(r.all.memory),
                ratio(r.all.store, r.all.memory),
                `${r.all.identical} / ${r.all.asked} (each folder's head as alone)`,
                '-',
              ],
            ]
          : []),
        ...(r.perQuestion
          ? [
              [
                r.size,
                `${r.perQuestion.asked}, --store-mode per-question`,
                pair(r.perQuestion),
                '-',
                '-',
                `${r.perQuestion.identical} / ${r.perQuestion.asked} (but the count read)`,
                '-',
              ],
            ]
          : []),
      ]),
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** Servers started and not stopped yet: stopped when a run fails (main). */
const started = new Set<BenchServer>();

function running(server: BenchServer): BenchServer {
  started.add(server);
  const stop = server.stop;
  server.stop = async () => {
    started.delete(server);
    await stop();
  };
  return server;
}

function progress(message: string): void {
  process.stderr.write(`[bench-store] ${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = (value('--size') ?? '100k').split(',').filter(Boolean);
  for (const size of sizes) parseSize(size);
  const seed = Number(value('--seed') ?? 1);
  const options: RunOptions = {
    queries: Number(value('--queries') ?? 100),
    allQueries: Number(value('--all-queries') ?? 10),
    edits: Number(value('--edits') ?? 5),
    seed,
    namespaces: value('--namespaces') === undefined ? undefined : Number(value('--namespaces')),
    perQuestion: Number(value('--per-question') ?? 0),
    split: argv.includes('--split'),
    pool: argv.includes('--words-only')
      ? undefined
      : await loadPool((value('--standin') ?? 'auto') as StandinSource | 'auto', seed, progress),
  };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-store-'));
  const server = await startServer(value('--url'), argv.includes('--pglite'));
  progress(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; server ${server.label}`,
  );
  try {
    const rows: SizeRow[] = [];
    for (const size of sizes) {
      rows.push(await benchSize(size, options, server, scratch));
      process.stderr.write(renderStoreBench(rows.slice(-1), server.label));
    }
    process.stdout.write(renderStoreBench(rows, server.label));
    progress(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } catch (error) {
    for (const s of [...started]) await s.stop().catch(() => undefined);
    // Said before the clean-up, which a server still writing into the scratch folder can fail.
    process.stderr.write(`bench-store: ${(error as Error).stack ?? error}\n`);
    throw error;
  } finally {
    await server.stop();
    try {
      rmSync(scratch, { recursive: true, force: true });
    } catch (error) {
      progress(`could not remove ${scratch}: ${(error as Error).message}`);
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`bench-store: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  });
}
