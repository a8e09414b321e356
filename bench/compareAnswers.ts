/**
 * Every tool's answers, written to a folder, so a change that must not change answers (moving
 * files, a refactor, a formatter) can be checked byte for byte:
 *
 *   npx tsx bench/compareAnswers.ts --out DIR [--big DIR] [--only fernhill,argocd,cert-manager,goreleaser,big] [--dist DIR] [--store]
 *   npx tsx bench/compareAnswers.ts --diff BEFORE AFTER
 *
 * It runs the BUILT programs (`npm run build` first), as a user would: each `wsctx` command as a
 * process (`dist/wsctx.js`), and each MCP tool over the MCP SDK's stdio client against
 * `dist/mcp.js`, on the example workspace, Argo CD's docs (test/fixtures/argocd-docs), the two
 * labelled corpora of `npm run eval` (bench/corpora/cert-manager and goreleaser) and, with
 * `--big`, a generated workspace (`npx tsx bench/generate.ts --size 100k --git --out DIR`).
 * Words only (WSCTX_EMBEDDINGS=off): embedding 100k sections takes hours, and the vectors are the
 * embedder's, not the code this compares. Each workspace gets a fresh cache folder at a fixed
 * path, so a snapshot of one run never answers for the next.
 *
 * With `--store`, each workspace is also written to a PostgreSQL store (a throwaway server from
 * the local binaries, scripts/postgres/start-temp.sh, one per run so both runs write a fresh one)
 * and the commands and MCP tools a store serves are asked again through `--store`, read per
 * question and held in memory.
 *
 * The inputs come from the workspace itself (its questions files where it has them, else its
 * entities and library pages), so the script needs nothing but the repository. What changes from
 * run to run by nature (the time a state was indexed, durations, the cache folder's contents) is
 * replaced by a placeholder before writing; `--diff` then compares two folders file by file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseYaml } from 'yaml';

const ROOT = path.resolve(__dirname, '..');
/** The built programs: `--dist DIR` compares a copy of another build (the one before a change). */
const DIST = distArg(process.argv) ?? path.join(ROOT, 'dist');
const WSCTX = path.join(DIST, 'wsctx.js');
const MCP = path.join(DIST, 'mcp.js');
const SCRATCH = path.join(os.tmpdir(), 'wsctx-compare-answers');

function distArg(argv: string[]): string | undefined {
  const i = argv.indexOf('--dist');
  return i >= 0 ? path.resolve(argv[i + 1]) : undefined;
}

interface Workspace {
  name: string;
  dir: string;
  questions: string[];
  tasks: string[];
}

interface Inputs {
  entityRefs: string[];
  pageIds: string[];
  sectionIds: string[];
  tocQueries: string[];
}

/** Keys whose values are a clock's or a machine's, not an answer's. */
const VOLATILE_KEYS = new Set([
  'indexedAt',
  'seconds',
  'elapsedMs',
  'durationMs',
  'ms',
  'tookMs',
  'startedAt',
  'finishedAt',
  'at',
  'timing',
  'timings',
  'cpuSeconds',
]);

function normalise(text: string): string {
  let out = text;
  // ISO timestamps and durations printed in text.
  out = out.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>');
  out = out.replace(/\b\d+(?:\.\d+)?\s?(?:ms|s)\b(?!\w)/g, '<duration>');
  out = out.split(SCRATCH).join('<scratch>');
  // A throwaway store's port is the run's, not the answer's.
  out = out.replace(/postgresql:\/\/[^\s/]+@127\.0\.0\.1:\d+\/\w+/g, '<store>');
  return out;
}

function normaliseJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, VOLATILE_KEYS.has(k) ? '<volatile>' : normaliseJson(v)]),
    );
  }
  return typeof value === 'string' ? normalise(value) : value;
}

/**
 * A fixed clock for the programs run (preloaded with `node -r`): recency weighs a passage by the
 * days since its last commit, so an answer read a minute later differs in its 7th digit. Only
 * `Date` is fixed; durations (performance.now) and timers run as usual.
 */
const FIXED_CLOCK = `const FIXED = Date.parse('2026-12-04T12:00:00Z');
const RealDate = Date;
class FixedDate extends RealDate {
  constructor(...args) { if (args.length === 0) super(FIXED); else super(...args); }
  static now() { return FIXED; }
}
globalThis.Date = FixedDate;
`;

function clockFile(): string {
  const file = path.join(SCRATCH, 'fixedClock.cjs');
  // Written once: runs side by side share it, and a program must never start on a half-written file.
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== FIXED_CLOCK) {
    fs.mkdirSync(SCRATCH, { recursive: true });
    const temp = `${file}.${process.pid}`;
    fs.writeFileSync(temp, FIXED_CLOCK);
    fs.renameSync(temp, file);
  }
  return file;
}

function env(cacheDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WSCTX_CACHE_DIR: cacheDir,
    XDG_CONFIG_HOME: path.join(SCRATCH, 'config'),
    WSCTX_EMBEDDINGS: 'off',
    COLUMNS: '120',
  };
}

function cli(args: string[], cacheDir: string): { code: number; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['-r', clockFile(), WSCTX, ...args], {
    env: env(cacheDir),
    encoding: 'utf8',
    timeout: 900_000,
    maxBuffer: 1 << 30,
  });
  return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

function write(dir: string, file: string, text: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, file), text.endsWith('\n') ? text : `${text}\n`);
}

function cliRecord(run: { code: number; stdout: string; stderr: string }, json: boolean): string {
  let stdout = run.stdout;
  if (json) {
    try {
      stdout = JSON.stringify(normaliseJson(JSON.parse(run.stdout)), null, 2);
    } catch {
      stdout = normalise(run.stdout);
    }
  } else stdout = normalise(stdout);
  // stderr carries progress and timing: only its lines without numbers that move are kept.
  const stderr = normalise(run.stderr);
  return `exit ${run.code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`;
}

function slug(text: string, i: number): string {
  return `${String(i).padStart(2, '0')}-${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)}`;
}

function workspaces(bigDir: string | undefined, only: Set<string> | null): Workspace[] {
  const list: Workspace[] = [];
  const fernhillCases = parseYaml(fs.readFileSync(path.join(ROOT, 'examples/fernhill-cases.yaml'), 'utf8')) as
    | { question: string }[]
    | { cases: { question: string }[] };
  const caseList = Array.isArray(fernhillCases) ? fernhillCases : fernhillCases.cases;
  const taskFile = parseYaml(fs.readFileSync(path.join(ROOT, 'examples/fernhill-context-tasks.yaml'), 'utf8')) as
    | { task: string }[]
    | { tasks: { task: string }[] };
  const taskList = Array.isArray(taskFile) ? taskFile : taskFile.tasks;
  list.push({
    name: 'fernhill',
    dir: path.join(ROOT, 'examples/fernhill'),
    questions: caseList.map((c) => c.question).slice(0, 30),
    tasks: taskList.map((t) => t.task).slice(0, 12),
  });
  // The labelled documentation corpora: their own questions, every 4th asked, every 9th a task.
  for (const [name, dir] of [
    ['argocd', 'test/fixtures/argocd-docs'],
    ['cert-manager', 'bench/corpora/cert-manager'],
    ['goreleaser', 'bench/corpora/goreleaser'],
  ]) {
    const questions = fs
      .readFileSync(path.join(ROOT, dir, 'questions.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { question: string }).question);
    list.push({
      name,
      dir: path.join(ROOT, dir),
      questions: questions.filter((_, i) => i % 4 === 0).slice(0, 30),
      tasks: questions.filter((_, i) => i % 9 === 1).slice(0, 8),
    });
  }
  if (bigDir) list.push({ name: 'big', dir: path.resolve(bigDir), questions: [], tasks: [] });
  return only ? list.filter((w) => only.has(w.name)) : list;
}

/** Inputs drawn from the workspace's own graph and library (ids, refs), the same every run. */
function inputsOf(ws: Workspace, graphJson: string, tocJson: string): Inputs {
  const graph = JSON.parse(graphJson) as {
    entities: { ref: string; name: string; title?: string; description?: string }[];
  };
  const toc = JSON.parse(tocJson) as {
    namespaces?: { documents: { id: string; title: string; sections?: { id: string }[] }[] }[];
  };
  const entities = graph.entities;
  const step = Math.max(1, Math.floor(entities.length / 12));
  const picked = entities.filter((_, i) => i % step === 0).slice(0, 12);
  const docs = (toc.namespaces ?? []).flatMap((n) => n.documents);
  const docStep = Math.max(1, Math.floor(docs.length / 8));
  // Every Nth page, and the pages most likely to carry an attached file (tables, templates).
  const attached = docs.filter((d) => /code|table|template/i.test(d.title)).slice(0, 2);
  const pickedDocs = [...docs.filter((_, i) => i % docStep === 0).slice(0, 8), ...attached];
  if (ws.questions.length === 0) {
    // A generated workspace has no labelled questions: ask about its own entities and pages.
    ws.questions = [
      ...picked.slice(0, 8).map((e) => `who owns ${e.name}?`),
      ...picked.slice(0, 8).map((e) => e.description ?? e.title ?? e.name),
      ...pickedDocs.map((d) => d.title),
    ];
    ws.tasks = pickedDocs
      .slice(0, 6)
      .map((d) => `change ${d.title.toLowerCase()} for ${picked[0]?.name ?? 'the service'}`);
  }
  return {
    entityRefs: picked.map((e) => e.ref),
    pageIds: pickedDocs.map((d) => d.id),
    sectionIds: pickedDocs.flatMap((d) => (d.sections ?? []).slice(0, 2).map((s) => s.id)),
    tocQueries: pickedDocs.slice(0, 3).map((d) => d.title.split(/\s+/).slice(0, 3).join(' ')),
  };
}

/**
 * A copy of a workspace kept in this repository, as a git repository of its own with one commit
 * at a fixed date: answers name the commit a passage was read at and weigh its age, and this
 * repository's own commits (the very change being compared) must not move either.
 */
function pinnedCopy(dir: string): string {
  const copy = path.join(SCRATCH, 'workspaces', path.basename(dir));
  fs.rmSync(copy, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.cpSync(dir, copy, { recursive: true });
  const date = '2026-11-30T12:00:00Z';
  const gitEnv = {
    ...process.env,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_SYSTEM: '/dev/null',
  };
  const git = (...args: string[]) => {
    const run = spawnSync(
      'git',
      [
        '-c',
        'user.name=compare',
        '-c',
        'user.email=compare@example.invalid',
        '-c',
        'commit.gpgsign=false',
        '-c',
        'init.defaultBranch=main',
        ...args,
      ],
      { cwd: copy, env: gitEnv, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'snapshot');
  return copy;
}

async function runWorkspace(ws: Workspace, outDir: string, storeUrl: string | undefined): Promise<void> {
  if (path.resolve(ws.dir).startsWith(ROOT + path.sep)) ws.dir = pinnedCopy(ws.dir);
  const cacheDir = path.join(SCRATCH, 'cache', ws.name);
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  const out = path.join(outDir, ws.name);
  const w = ['--workspace', ws.dir];
  const started = Date.now();
  const log = (what: string) =>
    process.stderr.write(`[${ws.name} ${((Date.now() - started) / 1000).toFixed(0)}s] ${what}\n`);

  // The index first: it leaves the snapshot every later command starts from.
  log('index');
  write(out, 'cli-index.txt', cliRecord(cli(['index', ...w, '--json'], cacheDir), true));
  write(out, 'cli-index-text.txt', cliRecord(cli(['index', ...w, '--verbose'], cacheDir), false));
  const graph = cli(['graph', ...w, '--json'], cacheDir);
  write(out, 'cli-graph.json.txt', cliRecord(graph, true));
  write(out, 'cli-graph-dot.txt', cliRecord(cli(['graph', ...w, '--format', 'dot'], cacheDir), false));
  write(out, 'cli-graph-text.txt', cliRecord(cli(['graph', ...w], cacheDir), false));
  const toc = cli(['toc', ...w, '--json'], cacheDir);
  write(out, 'cli-toc.json.txt', cliRecord(toc, true));
  write(out, 'cli-toc-text.txt', cliRecord(cli(['toc', ...w], cacheDir), false));
  const inputs = inputsOf(ws, graph.stdout, toc.stdout);
  write(out, 'inputs.json', JSON.stringify({ questions: ws.questions, tasks: ws.tasks, ...inputs }, null, 2));

  // The CLI: every command, text and JSON, on a few inputs each (each run loads the snapshot).
  log('cli');
  const cliQuestions = ws.questions.slice(0, 4);
  cliQuestions.forEach((q, i) => {
    write(out, `cli-ask-${slug(q, i)}.txt`, cliRecord(cli(['ask', q, ...w, '--why'], cacheDir), false));
    write(
      out,
      `cli-ask-${slug(q, i)}.json.txt`,
      cliRecord(cli(['ask', q, ...w, '--json', '--limit', '5'], cacheDir), true),
    );
  });
  inputs.entityRefs.slice(0, 3).forEach((ref, i) => {
    write(
      out,
      `cli-expand-${slug(ref, i)}.txt`,
      cliRecord(cli(['expand', ref, ...w, '--depth', '2', '--direction', 'both'], cacheDir), false),
    );
    write(out, `cli-expand-${slug(ref, i)}.json.txt`, cliRecord(cli(['expand', ref, ...w, '--json'], cacheDir), true));
  });
  inputs.tocQueries
    .slice(0, 2)
    .forEach((q, i) =>
      write(out, `cli-toc-query-${slug(q, i)}.txt`, cliRecord(cli(['toc', q, ...w], cacheDir), false)),
    );
  inputs.sectionIds
    .slice(0, 2)
    .forEach((id, i) =>
      write(out, `cli-section-${slug(id, i)}.txt`, cliRecord(cli(['section', id, ...w], cacheDir), false)),
    );
  inputs.pageIds.slice(0, 2).forEach((id, i) => {
    write(out, `cli-page-${slug(id, i)}.txt`, cliRecord(cli(['page', id, ...w], cacheDir), false));
    write(out, `cli-file-${slug(id, i)}.txt`, cliRecord(cli(['file', id, ...w], cacheDir), false));
  });
  ws.tasks.slice(0, 3).forEach((t, i) => {
    write(out, `cli-search-${slug(t, i)}.txt`, cliRecord(cli(['search', t, ...w], cacheDir), false));
    write(out, `cli-try-${slug(t, i)}.txt`, cliRecord(cli(['try', t, ...w], cacheDir), false));
    write(out, `cli-context-${slug(t, i)}.txt`, cliRecord(cli(['context', t, ...w], cacheDir), false));
    write(out, `cli-context-${slug(t, i)}.json.txt`, cliRecord(cli(['context', t, ...w, '--json'], cacheDir), true));
  });
  // The call log's latency table is the machine's: its figures (and so its column widths) are replaced, the rows kept.
  write(
    out,
    'cli-diagnostics.txt',
    cliRecord(cli(['diagnostics', ...w], cacheDir), false)
      .replace(/\b\d+\.\d\b */g, '<ms> ')
      .replace(/ {2,}/g, '  '),
  );
  // Refusals: bad input is part of the answer.
  write(
    out,
    'cli-refuse-depth.txt',
    cliRecord(cli(['expand', inputs.entityRefs[0] ?? 'component:x', ...w, '--depth', '9'], cacheDir), false),
  );
  write(out, 'cli-refuse-ask.txt', cliRecord(cli(['ask', ...w], cacheDir), false));
  write(out, 'cli-refuse-section.txt', cliRecord(cli(['section', 'zz', ...w], cacheDir), false));
  write(out, 'cli-refuse-unknown.txt', cliRecord(cli(['frobnicate', ...w], cacheDir), false));

  // MCP: the stdio executable, every tool over one session (the engine stays warm).
  log('mcp');
  await mcpSession(['-r', clockFile(), MCP, ...w], cacheDir, out, 'mcp', async (call, client) => {
    const tools = await client.listTools();
    write(out, 'mcp-tools.json', JSON.stringify(tools, null, 2));
    write(out, 'mcp-instructions.txt', client.getInstructions() ?? '');
    for (const [i, q] of ws.questions.entries()) {
      await call(`workspace_context-${slug(q, i)}`, 'workspace_context', { question: q });
      if (i < 5)
        await call(`workspace_context-library-${slug(q, i)}`, 'workspace_context', {
          question: q,
          limit: 3,
          sourceKinds: ['library'],
        });
    }
    for (const [i, ref] of inputs.entityRefs.entries()) {
      await call(`workspace_expand-${slug(ref, i)}`, 'workspace_expand', {
        workspace: path.basename(ws.dir),
        entityRef: ref,
      });
      if (i < 4)
        await call(`workspace_expand-deep-${slug(ref, i)}`, 'workspace_expand', {
          workspace: path.basename(ws.dir),
          entityRef: ref,
          depth: 3,
          direction: 'both',
        });
    }
    for (const [i, t] of ws.tasks.entries()) {
      await call(`get_context-${slug(t, i)}`, 'get_context', { task: t });
      await call(`search_instructions-${slug(t, i)}`, 'search_instructions', { plan: t });
    }
    await call('get_toc', 'get_toc', {});
    for (const [i, q] of inputs.tocQueries.entries()) await call(`get_toc-${slug(q, i)}`, 'get_toc', { query: q });
    for (const [i, id] of inputs.pageIds.entries()) {
      await call(`get_toc-document-${slug(id, i)}`, 'get_toc', { document_id: id });
      await call(`read_page-${slug(id, i)}`, 'read_page', { page_id: id });
      await call(`get_file-${slug(id, i)}`, 'get_file', { page_id: id });
    }
    for (const [i, id] of inputs.sectionIds.entries()) await call(`get_section-${slug(id, i)}`, 'get_section', { id });
    // Refusals and unknowns over MCP.
    await call('refuse-expand-depth', 'workspace_expand', {
      workspace: path.basename(ws.dir),
      entityRef: inputs.entityRefs[0] ?? 'component:x',
      depth: 9,
    });
    await call('refuse-expand-unknown', 'workspace_expand', {
      workspace: path.basename(ws.dir),
      entityRef: 'component:default/no-such-thing',
    });
    await call('refuse-section', 'get_section', { id: 'zz' });
    await call('refuse-context-empty', 'workspace_context', { question: '' });
  });
  if (storeUrl) await runStore(ws, inputs, outDir, storeUrl);
  log('done');
}

type ToolCall = (file: string, name: string, args: Record<string, unknown>) => Promise<void>;

/**
 * One MCP session over stdio (`args` after node): `body` calls tools through `call`, which asks
 * again while the answer is `index-cold` and writes each answer, normalised, as `PREFIX-FILE.json`.
 */
async function mcpSession(
  args: string[],
  cacheDir: string,
  out: string,
  prefix: string,
  body: (call: ToolCall, client: Client) => Promise<void>,
): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: env(cacheDir) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'compare-answers', version: '1.0.0' });
  await client.connect(transport);
  const call: ToolCall = async (file, name, toolArgs) => {
    let result = await client.callTool({ name, arguments: toolArgs }, undefined, { timeout: 600_000 });
    for (
      let i = 0;
      i < 600 &&
      ((result.structuredContent as { degraded?: string[] } | undefined)?.degraded ?? []).includes('index-cold');
      i++
    ) {
      await new Promise((r) => setTimeout(r, 200));
      result = await client.callTool({ name, arguments: toolArgs }, undefined, { timeout: 600_000 });
    }
    write(out, `${prefix}-${file}.json`, JSON.stringify(normaliseJson(result), null, 2));
  };
  try {
    await body(call, client);
  } finally {
    await client.close();
  }
}

/**
 * The workspace written to `storeUrl` (`wsctx index --store`), then what a store serves asked
 * through it: the CLI's commands read per question and in memory, and the MCP tools of
 * `wsctx mcp --store` (which holds the namespaces in memory).
 */
async function runStore(ws: Workspace, inputs: Inputs, outDir: string, storeUrl: string): Promise<void> {
  const cacheDir = path.join(SCRATCH, 'cache', `${ws.name}-store`);
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  const out = path.join(outDir, ws.name, 'store');
  const s = ['--store', storeUrl, '--workspace', ws.dir];
  process.stderr.write(`[${ws.name}] store\n`);
  write(out, 'cli-index.txt', cliRecord(cli(['index', ...s], cacheDir), false));
  for (const mode of ['per-question', 'memory']) {
    const m = [...s, '--store-mode', mode];
    ws.questions.slice(0, 4).forEach((q, i) => {
      write(out, `${mode}-ask-${slug(q, i)}.txt`, cliRecord(cli(['ask', q, ...m, '--why'], cacheDir), false));
      write(out, `${mode}-ask-${slug(q, i)}.json.txt`, cliRecord(cli(['ask', q, ...m, '--json'], cacheDir), true));
    });
    inputs.entityRefs.slice(0, 3).forEach((ref, i) => {
      write(
        out,
        `${mode}-expand-${slug(ref, i)}.txt`,
        cliRecord(cli(['expand', ref, ...m, '--depth', '2', '--direction', 'both'], cacheDir), false),
      );
    });
    write(out, `${mode}-toc.txt`, cliRecord(cli(['toc', ...m], cacheDir), false));
    inputs.sectionIds
      .slice(0, 2)
      .forEach((id, i) =>
        write(out, `${mode}-section-${slug(id, i)}.txt`, cliRecord(cli(['section', id, ...m], cacheDir), false)),
      );
    inputs.pageIds.slice(0, 2).forEach((id, i) => {
      write(out, `${mode}-page-${slug(id, i)}.txt`, cliRecord(cli(['page', id, ...m], cacheDir), false));
      write(out, `${mode}-file-${slug(id, i)}.txt`, cliRecord(cli(['file', id, ...m], cacheDir), false));
    });
    ws.tasks.slice(0, 3).forEach((t, i) => {
      write(out, `${mode}-search-${slug(t, i)}.txt`, cliRecord(cli(['search', t, ...m], cacheDir), false));
      write(out, `${mode}-context-${slug(t, i)}.txt`, cliRecord(cli(['context', t, ...m], cacheDir), false));
    });
    // Refused: what a store cannot answer.
    write(out, `${mode}-refuse-as-of.txt`, cliRecord(cli(['ask', 'x', ...m, '--as-of', 'HEAD'], cacheDir), false));
    write(
      out,
      `${mode}-refuse-why-not.txt`,
      cliRecord(cli(['why-not', 'x', ...m, '--expect', 'a.md'], cacheDir), false),
    );
  }
  await mcpSession(['-r', clockFile(), WSCTX, 'mcp', ...s], cacheDir, out, 'mcp', async (call, client) => {
    write(out, 'mcp-tools.json', JSON.stringify(await client.listTools(), null, 2));
    for (const [i, q] of ws.questions.entries())
      await call(`workspace_context-${slug(q, i)}`, 'workspace_context', { question: q });
    for (const [i, ref] of inputs.entityRefs.slice(0, 6).entries())
      await call(`workspace_expand-${slug(ref, i)}`, 'workspace_expand', { entityRef: ref, depth: 2 });
    for (const [i, t] of ws.tasks.entries()) {
      await call(`get_context-${slug(t, i)}`, 'get_context', { task: t });
      await call(`search_instructions-${slug(t, i)}`, 'search_instructions', { plan: t });
    }
    await call('get_toc', 'get_toc', {});
    for (const [i, id] of inputs.pageIds.entries())
      await call(`read_page-${slug(id, i)}`, 'read_page', { page_id: id });
    for (const [i, id] of inputs.sectionIds.entries()) await call(`get_section-${slug(id, i)}`, 'get_section', { id });
    await call('refuse-as-of', 'workspace_context', { question: 'x', asOf: 'HEAD' });
  });
}

/** A throwaway PostgreSQL server from the local binaries (scripts/postgres/), stopped at the end. */
function startStore(): { url: string; stop: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-compare-pg-'));
  const scripts = path.join(ROOT, 'scripts', 'postgres');
  const url = execFileSync('bash', [path.join(scripts, 'start-temp.sh'), dir], { encoding: 'utf8' }).trim();
  return { url, stop: () => void spawnSync('bash', [path.join(scripts, 'stop-temp.sh'), dir]) };
}

function diff(before: string, after: string): number {
  const list = (dir: string): string[] =>
    (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .sort();
  const a = list(before);
  const b = list(after);
  const onlyA = a.filter((f) => !b.includes(f));
  const onlyB = b.filter((f) => !a.includes(f));
  const changed = a.filter(
    (f) => b.includes(f) && !fs.readFileSync(path.join(before, f)).equals(fs.readFileSync(path.join(after, f))),
  );
  for (const f of onlyA) console.log(`only in ${before}: ${f}`);
  for (const f of onlyB) console.log(`only in ${after}: ${f}`);
  for (const f of changed) console.log(`differs: ${f}`);
  console.log(
    `${a.length} files before, ${b.length} after; ${a.length - onlyA.length - changed.length} byte-identical, ${changed.length} differ, ${onlyA.length + onlyB.length} missing on one side`,
  );
  return onlyA.length + onlyB.length + changed.length === 0 ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv[0] === '--diff') return diff(argv[1], argv[2]);
  const outDir = arg('--out');
  if (!outDir)
    throw new Error(
      'usage: compareAnswers.ts --out DIR [--big DIR] [--only fernhill,argocd,cert-manager,goreleaser,big] [--dist DIR] [--store] | --diff BEFORE AFTER',
    );
  if (!fs.existsSync(WSCTX) || !fs.existsSync(MCP))
    throw new Error('dist/wsctx.js or dist/mcp.js is missing: run `npm run build` first');
  const only = arg('--only') ? new Set(arg('--only')!.split(',')) : null;
  fs.mkdirSync(outDir, { recursive: true });
  const store = argv.includes('--store') ? startStore() : undefined;
  try {
    for (const ws of workspaces(arg('--big'), only)) await runWorkspace(ws, path.resolve(outDir), store?.url);
  } finally {
    store?.stop();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exit(2);
  },
);
