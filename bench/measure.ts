/**
 * Measures one workspace, in a process of its own (bench.ts starts it with `--expose-gc`), so that
 * memory figures hold this workspace's engine and nothing else.
 *
 * Order: cold index runs (the first is the warm-up; the last engine stays alive) -> memory after
 * GC -> tool query latencies -> postings match latency -> update latencies -> snapshot save, load
 * and warm start in this process, then in new processes (restarts, warmStart.ts) -> the engine is
 * dropped -> each baseline is built over the engine's own sections and timed on the same queries.
 * Repeated figures (cold index, update, snapshot, baseline builds) stop early when their time
 * budget is spent (at least one run is always kept); every figure records how many runs it is made
 * of. Query latencies always run the whole query list.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine, snapshotFileFor } from '../server/src/engine/engine';
import type { IndexState, WorkspaceFolder } from '../server/src/engine/indexState';
import type { EngineSettings } from '../server/src/engine/settings';
import { MAX_MATCH_UNITS } from '../server/src/engine/lexical/postings';
import { documentContextText } from '../server/src/engine/indexing/sectionTerms';
import { analyzeQuery } from '../server/src/engine/text/analyzer';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { TOOLS } from '../server/src/tools/registry';
import { BASELINES, type Passage, type SearchEngine } from './baselines/engines';
import { makeQueries } from './queries';
import { Random } from './random';
import { memoryAfterGc, summarize, type MemoryReading, type Summary } from './stats';
import { planToolInput, type ToolInputPlan, type ToolInputPools } from './toolInputs';

export interface MeasureSpec {
  /** Row label: `fernhill`, `1k`, ... */
  name: string;
  /** Absolute path of the workspace folder. */
  dir: string;
  /** Folder name the engine serves it as (the tools' `workspace` argument). */
  folderName: string;
  /** Wanted runs per repeated figure (cold index runs after the warm-up; baseline builds). */
  runs: number;
  /** Queries per latency figure (the same list for every engine). */
  queries: number;
  /** Timed edits per update probe. */
  updates: number;
  seed: number;
  /** Time one repeated figure may take before it stops repeating, ms. */
  budgetMs: number;
  /** Workspace-relative files the update probes edit. */
  probes: { docsPage: string; catalogFile: string };
}

export interface LatencyFigure extends Summary {
  /** What the inputs were, for the notes. */
  describe?: string;
}

export interface WorkspaceFigures {
  name: string;
  counts: { files: number; documents: number; sections: number; entities: number; relations: number; problems: number };
  coldIndex: { firstRunMs: number; runs: Summary; sectionsPerSecond: number; warmedUp: boolean };
  update: {
    docsPage: Summary & { file: string; warmedUp: boolean };
    catalogFile: Summary & { file: string; warmedUp: boolean };
    /**
     * The first call of a tool on the state a docs page edit put into service (ms), each timed
     * edit followed by one call of one tool in turn: what the first question after an edit pays
     * for the state's per-state structures (ranking tables, library view and index) on top of
     * its answer, in a process with no host preparing them.
     */
    firstAnswer: Record<string, Summary>;
  };
  /**
   * The index snapshot (lexical; no vectors yet): bytes on disk, save time, and for a new engine
   * on the same cache folder, the time until the snapshot's state is in service (`load`) and
   * until its first pass has checked every file against it (`warmStart`): as a restart has them
   * (a new process), and in the process that indexed cold.
   */
  snapshot: {
    bytes: number;
    saveMs: number;
    /** A restart: each in a new process, the cold engine's process still running beside it. */
    load: Summary;
    warmStart: Summary;
    /** In the process that indexed cold, its engine alive (heap and GC shared with it). */
    inProcess: { load: Summary; warmStart: Summary };
  };
  /** Per tool in TOOLS: latency, or why it was not timed. */
  tools: Record<string, { latency?: LatencyFigure; skipped?: string }>;
  postingsMatch: LatencyFigure;
  memory: {
    before: MemoryReading;
    after: MemoryReading;
    /** Engine's share: heap and array buffers after GC minus before, bytes. */
    heapBytes: number;
    arrayBufferBytes: number;
    bytesPerSection: number;
    postingsByteSize: number;
  };
  /** Which figure the baselines are compared with: `workspace_context` when it exists. */
  ourQueryFigure: 'workspace_context' | 'postings match';
  baselines: Record<
    string,
    { label: string; buildMs: Summary; query: Summary; heapBytes: number; arrayBufferBytes: number }
  >;
  queries: { count: number; meanWords: number; seed: number };
  notes: string[];
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
/** The tools whose first call after a docs edit is timed (`update.firstAnswer`), in turn. */
export const FIRST_ANSWER_TOOLS = ['workspace_context', 'get_context'] as const;
const WARMUP_QUERIES = 20;
const TOP_K = 10;

export async function measureWorkspace(spec: MeasureSpec): Promise<WorkspaceFigures> {
  const notes: string[] = [];
  const folders = [{ name: spec.folderName, absPath: spec.dir }];
  // Snapshots are written only when the bench asks (saveSnapshot), never by a timer mid-figure.
  const settings = { updateDebounceMs: 0, refreshAfterMs: 0, snapshotDelayMs: 2 ** 31 - 1 };
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-cache-'));

  // Cold index: run 0 warms the process up (JIT, token memo, file cache); runs 1..n are the figure.
  const before = memoryAfterGc();
  let engine: Engine | undefined;
  const coldRuns: number[] = [];
  let firstRunMs = 0;
  const coldStarted = performance.now();
  for (let run = 0; run <= spec.runs; run++) {
    engine?.dispose();
    engine = undefined;
    if (run > 0) memoryAfterGc();
    // No snapshot exists until the cold runs are over, so every run here starts from nothing.
    const e = new Engine({ folders, settings, cacheDir, log: () => undefined });
    const t = performance.now();
    await e.waitForIndex();
    const ms = performance.now() - t;
    engine = e;
    if (run === 0) firstRunMs = ms;
    else coldRuns.push(ms);
    log(`${spec.name}: cold index run ${run}${run === 0 ? ' (warm-up)' : ''}: ${ms.toFixed(0)} ms`);
    if (performance.now() - coldStarted > spec.budgetMs) break;
  }
  const warmedUp = coldRuns.length > 0;
  if (!warmedUp) {
    coldRuns.push(firstRunMs);
    notes.push(
      `${spec.name}: cold index is the first run in the process (no warm-up): one run spent the ${fmtS(spec.budgetMs)} budget`,
    );
  } else if (coldRuns.length < spec.runs) {
    notes.push(
      `${spec.name}: cold index median of ${coldRuns.length} run(s) after the warm-up (budget ${fmtS(spec.budgetMs)})`,
    );
  }
  const state = engine!.current()!;
  const after = memoryAfterGc();
  const sections = state.counts.sections;
  const cold = summarize(coldRuns);

  const passages = sectionPassages(state);
  const queries = makeQueries(
    passages.map((p) => p.text),
    spec.queries,
    spec.seed,
  );
  const warmups = makeQueries(
    passages.map((p) => p.text),
    WARMUP_QUERIES,
    spec.seed + 1,
  );
  const pools = toolPools(state, spec, queries);

  const tools: WorkspaceFigures['tools'] = {};
  const services = createServices({ engine: engine! });
  const plans = new Map<string, ToolInputPlan>();
  for (const tool of TOOLS) {
    const plan = planToolInput(tool, pools);
    plans.set(tool.name, plan);
    if (plan.kind === 'skip') {
      tools[tool.name] = { skipped: plan.reason };
      continue;
    }
    try {
      await callTool(services, tool, plan.input(0), { sessionId: 'bench' });
    } catch (error) {
      tools[tool.name] = { skipped: `first call failed: ${(error as Error).message}` };
      continue;
    }
    const call = async (i: number): Promise<number | Error> => {
      const input = plan.input(i);
      const t = performance.now();
      try {
        await callTool(services, tool, input, { sessionId: 'bench' });
      } catch (error) {
        return error as Error;
      }
      return performance.now() - t;
    };
    for (let i = 0; i < WARMUP_QUERIES; i++) await call(queries.length + i);
    const times: number[] = [];
    const errors: Error[] = [];
    // Every query of the list, whatever the budget: latency percentiles need the whole list.
    for (let i = 0; i < queries.length; i++) {
      const result = await call(i);
      if (result instanceof Error) errors.push(result);
      else times.push(result);
    }
    if (errors.length > 0)
      notes.push(
        `${spec.name}: ${tool.name}: ${errors.length} call(s) refused and left out of the timing, e.g. "${errors[0].message}"`,
      );
    if (times.length === 0) {
      tools[tool.name] = { skipped: `every call failed: ${errors[0]?.message}` };
      continue;
    }
    tools[tool.name] = { latency: { ...summarize(times), describe: plan.describe } };
    log(`${spec.name}: ${tool.name} p50 ${tools[tool.name].latency!.median.toFixed(3)} ms over ${times.length} calls`);
  }

  // get_context given a change: CHANGE_FILES files spread over as many entities, another set each call.
  const change = await timeChangeContext(services, state, queries.length);
  tools[CHANGE_FIGURE] = change.figure;
  if (change.note) notes.push(`${spec.name}: ${change.note}`);
  if (change.figure.latency)
    log(
      `${spec.name}: ${CHANGE_FIGURE} p50 ${change.figure.latency.median.toFixed(3)} ms over ${change.figure.latency.n} calls`,
    );

  const lexical = state.lexical;
  const match = (q: string) =>
    lexical.match(
      analyzeQuery(q)
        .slice(0, MAX_MATCH_UNITS)
        .map((u) => [u.key]),
    );
  for (const q of warmups) match(q);
  const postingsMatch = summarize(queries.map((q) => timeSync(() => match(q))));

  const firstAnswers = new Map<string, number[]>();
  const firstAnswer = async (run: number): Promise<void> => {
    const name = FIRST_ANSWER_TOOLS[run % FIRST_ANSWER_TOOLS.length];
    const tool = TOOLS.find((t) => t.name === name);
    const plan = plans.get(name);
    if (!tool || plan?.kind !== 'ok') return;
    const t = performance.now();
    await callTool(services, tool, plan.input(run), { sessionId: 'bench' });
    const ms = performance.now() - t;
    firstAnswers.set(name, [...(firstAnswers.get(name) ?? []), ms]);
  };
  const update = {
    docsPage: {
      ...(await timeUpdates(engine!, spec, spec.probes.docsPage, editMarkdown, firstAnswer)),
      file: spec.probes.docsPage,
    },
    catalogFile: {
      ...(await timeUpdates(engine!, spec, spec.probes.catalogFile, editCatalog)),
      file: spec.probes.catalogFile,
    },
    firstAnswer: Object.fromEntries([...firstAnswers].map(([name, times]) => [name, summarize(times)])),
  };
  for (const [probe, figure] of Object.entries({ docsPage: update.docsPage, catalogFile: update.catalogFile })) {
    if (!figure.warmedUp)
      notes.push(
        `${spec.name}: update (${probe}) is one edit with no warm-up: one edit spent the ${fmtS(spec.budgetMs)} budget`,
      );
    else if (figure.n < spec.updates)
      notes.push(`${spec.name}: update (${probe}) over ${figure.n} edit(s) (budget ${fmtS(spec.budgetMs)})`);
  }

  const counts = {
    files: state.counts.files,
    documents: state.counts.documents,
    sections,
    entities: state.entities.length,
    relations: state.relations.length,
    problems: state.counts.problems,
  };
  const memory = {
    before,
    after,
    heapBytes: after.heapUsed - before.heapUsed,
    arrayBufferBytes: after.arrayBuffers - before.arrayBuffers,
    bytesPerSection:
      (after.heapUsed - before.heapUsed + after.arrayBuffers - before.arrayBuffers) / Math.max(1, sections),
    postingsByteSize: lexical.byteSize(),
  };
  const ourQueryFigure = tools.workspace_context?.latency ? 'workspace_context' : 'postings match';
  const snapshot = await timeSnapshot(engine!, spec, folders, settings, cacheDir, notes);
  engine!.dispose();
  engine = undefined;
  rmSync(cacheDir, { recursive: true, force: true });

  const baselines: WorkspaceFigures['baselines'] = {};
  for (const baseline of BASELINES) {
    baseline.build(passages.slice(0, 8)); // loads the library's code paths before timing
    const base = memoryAfterGc();
    const builds: number[] = [];
    let built: SearchEngine | undefined;
    const started = performance.now();
    for (let run = 0; run < Math.max(1, spec.runs); run++) {
      built = undefined;
      if (run > 0) memoryAfterGc();
      const t = performance.now();
      built = baseline.build(passages);
      builds.push(performance.now() - t);
      if (performance.now() - started > spec.budgetMs) break;
    }
    const index = built!;
    const mem = memoryAfterGc();
    for (const q of warmups) index.search(q, TOP_K);
    const times = queries.map((q) => timeSync(() => index.search(q, TOP_K)));
    baselines[baseline.key] = {
      label: baseline.label,
      buildMs: summarize(builds),
      query: summarize(times),
      heapBytes: mem.heapUsed - base.heapUsed,
      arrayBufferBytes: mem.arrayBuffers - base.arrayBuffers,
    };
    if (builds.length < spec.runs)
      notes.push(`${spec.name}: ${baseline.key} build over ${builds.length} run(s) (budget ${fmtS(spec.budgetMs)})`);
    log(
      `${spec.name}: ${baseline.key} build ${baselines[baseline.key].buildMs.median.toFixed(0)} ms, query p50 ${baselines[baseline.key].query.median.toFixed(3)} ms`,
    );
  }

  return {
    name: spec.name,
    counts,
    coldIndex: { firstRunMs, runs: cold, sectionsPerSecond: sections / (cold.median / 1000), warmedUp },
    update,
    snapshot,
    tools,
    postingsMatch: { ...postingsMatch, describe: 'analyzeQuery + PostingsIndex.match, one term per unit' },
    memory,
    ourQueryFigure,
    baselines,
    queries: {
      count: queries.length,
      meanWords: queries.reduce((n, q) => n + q.split(' ').length, 0) / queries.length,
      seed: spec.seed,
    },
    notes,
  };
}

/**
 * Every live section as the text the engine matches it on: its document's context fields (title,
 * folder, type, tags), its heading path, then its body (indexing/sectionTerms.ts).
 */
export function sectionPassages(state: IndexState): Passage[] {
  const passages: Passage[] = [];
  const contexts = new Map<string, string>();
  for (const entry of state.sections) {
    if (!entry) continue;
    let context = contexts.get(entry.doc.id);
    if (context === undefined) contexts.set(entry.doc.id, (context = documentContextText(entry.doc)));
    passages.push({
      id: entry.ordinal,
      text: `${context}\n${entry.section.headingPath.join('\n')}\n${entry.section.text}`,
    });
  }
  return passages;
}

/** The pools every tool's inputs are drawn from (bench/profileHotPath.ts draws the same ones). */
export function toolPools(
  state: IndexState,
  spec: Pick<MeasureSpec, 'seed' | 'folderName'>,
  queries: readonly string[],
): ToolInputPools {
  const random = new Random(spec.seed + 2);
  // Section and page ids are for the library tools: pages they serve (published, not expired).
  const today = new Date().toISOString().slice(0, 10);
  const served = [...state.docs.values()].filter(
    (d) =>
      d.sourceKind === 'library' && d.library?.status !== 'draft' && !(d.library?.expires && d.library.expires < today),
  );
  const entities = state.entities.filter((e) => e.kind !== 'Location');
  return {
    workspace: spec.folderName,
    queries,
    entityRefs: random.sample(entities, 200).map((e) => e.ref),
    sectionIds: random
      .sample(
        served.flatMap((d) => d.sections),
        200,
      )
      .map((s) => s.id),
    pageIds: random.sample(served, 200).map((d) => d.id),
  };
}

/** Changed files per timed change. */
export const CHANGE_FILES = 20;
/** The change figure's name among the tools' figures (its row in the report). */
export const CHANGE_FIGURE = `get_context (a ${CHANGE_FILES}-file change)`;

/**
 * get_context with `changes.changedPaths` (no task): for call i, one source file in the folder of
 * each of CHANGE_FILES entities (components, APIs, resources; another window of them each call),
 * the whole change bundle built (ownership, dependents, pages, rules, budget, Markdown).
 */
async function timeChangeContext(
  services: ReturnType<typeof createServices>,
  state: IndexState,
  calls: number,
): Promise<{ figure: { latency?: LatencyFigure; skipped?: string }; note?: string }> {
  const owners = state.entities.filter((e) => ['component', 'api', 'resource'].includes(e.kind.toLowerCase()));
  if (owners.length === 0) return { figure: { skipped: 'no component, API or resource in this workspace' } };
  const dir = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
  const pathsFor = (i: number) =>
    Array.from({ length: CHANGE_FILES }, (_, k) => {
      const entity = owners[(i * CHANGE_FILES + k) % owners.length];
      const folder = dir(entity.location.path);
      return `${folder ? `${folder}/` : ''}src/${entity.name}/change${i % 7}.ts`;
    });
  const getContext = TOOLS.find((t) => t.name === 'get_context')!;
  const call = async (i: number) => {
    const t = performance.now();
    await callTool(services, getContext, { changes: { changedPaths: pathsFor(i) } }, { sessionId: 'bench' });
    return performance.now() - t;
  };
  try {
    for (let i = 0; i < WARMUP_QUERIES; i++) await call(calls + i);
  } catch (error) {
    return { figure: { skipped: `first call failed: ${(error as Error).message}` } };
  }
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push(await call(i));
  return {
    figure: {
      latency: {
        ...summarize(times),
        describe: `changes.changedPaths: ${CHANGE_FILES} files in the folders of ${Math.min(CHANGE_FILES, owners.length)} entities, no task`,
      },
    },
  };
}

/** Saves `engine`'s snapshot, then starts fresh engines on it until the budget is spent. */
async function timeSnapshot(
  engine: Engine,
  spec: MeasureSpec,
  folders: WorkspaceFolder[],
  settings: Partial<EngineSettings>,
  cacheDir: string,
  notes: string[],
): Promise<WorkspaceFigures['snapshot']> {
  const t = performance.now();
  if (!(await engine.saveSnapshot())) throw new Error('bench: the engine did not write its snapshot');
  const saveMs = performance.now() - t;
  const bytes = statSync(snapshotFileFor(cacheDir, folders)).size;
  const loads: number[] = [];
  const warm: number[] = [];
  let warmedUp = true;
  const started = performance.now();
  for (let run = 0; run <= spec.runs; run++) {
    memoryAfterGc();
    const e = new Engine({ folders, settings, cacheDir, log: () => undefined });
    let loaded = NaN;
    const t0 = performance.now();
    e.onDidChangeState(() => {
      if (Number.isNaN(loaded) && e.status().fromSnapshot) loaded = performance.now() - t0;
    });
    await e.waitForIndex();
    const total = performance.now() - t0;
    e.dispose();
    if (Number.isNaN(loaded)) throw new Error('bench: the snapshot was not restored');
    if (run > 0 || performance.now() - started > spec.budgetMs) {
      if (run === 0) warmedUp = false;
      loads.push(loaded);
      warm.push(total);
    }
    if (performance.now() - started > spec.budgetMs) break;
  }
  if (!warmedUp)
    notes.push(
      `${spec.name}: snapshot load and warm start are one start with no warm-up: it spent the ${fmtS(spec.budgetMs)} budget`,
    );
  else if (warm.length < spec.runs)
    notes.push(`${spec.name}: snapshot load and warm start over ${warm.length} run(s) (budget ${fmtS(spec.budgetMs)})`);
  const restarts = timeRestarts(spec, cacheDir, notes);
  log(
    `${spec.name}: snapshot ${(bytes / 2 ** 20).toFixed(1)} MB; a restart: load median ${restarts.load.median.toFixed(0)} ms, warm start ${restarts.warmStart.median.toFixed(0)} ms; in this process: load ${summarize(loads).median.toFixed(0)} ms, warm start ${summarize(warm).median.toFixed(0)} ms`,
  );
  return {
    bytes,
    saveMs,
    ...restarts,
    inProcess: { load: summarize(loads), warmStart: summarize(warm) },
  };
}

/**
 * Warm starts as a restart has them: each in a new process (warmStart.ts --json) on the snapshot
 * just saved, with nothing else in its heap and its code not yet compiled, while this process
 * still holds the cold engine. No warm-up: a restart has none. Stops repeating when the budget is
 * spent (at least one run).
 */
function timeRestarts(
  spec: MeasureSpec,
  cacheDir: string,
  notes: string[],
): Pick<WorkspaceFigures['snapshot'], 'load' | 'warmStart'> {
  const script = path.join(__dirname, 'warmStart.ts');
  const loads: number[] = [];
  const warm: number[] = [];
  const started = performance.now();
  for (let run = 0; run < Math.max(1, spec.runs); run++) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, script, spec.dir, cacheDir, '--name', spec.folderName, '--json'],
      // The engine's log goes to stderr: room for a long one, kept for the error below.
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    const line = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !line.startsWith('{'))
      throw new Error(
        `bench: a restart's warm start failed (exit ${child.status ?? child.signal}): ${child.stderr.slice(-2000)}`,
      );
    const figures = JSON.parse(line) as { loadMs: number; warmStartMs: number };
    loads.push(figures.loadMs);
    warm.push(figures.warmStartMs);
    if (performance.now() - started > spec.budgetMs) break;
  }
  if (warm.length < spec.runs)
    notes.push(`${spec.name}: a restart's warm start over ${warm.length} run(s) (budget ${fmtS(spec.budgetMs)})`);
  return { load: summarize(loads), warmStart: summarize(warm) };
}

type Edit = (original: string, run: number) => string;

/** Appends a sentence that changes with the run, so each edit changes the file's digest. */
const editMarkdown: Edit = (original, run) =>
  `${original.trimEnd()}\n\nEdited for the bench, run ${run}: rollout ${run % 7} checked.\n`;

/** Adds a line to the first entity's folded description (a real content change), else a comment. */
const editCatalog: Edit = (original, run) => {
  const marker = /^( +)description: >-\n/m.exec(original);
  if (!marker) return `${original.trimEnd()}\n# edited for the bench, run ${run}\n`;
  const at = marker.index + marker[0].length;
  return `${original.slice(0, at)}${marker[1]}  Edited for the bench, run ${run}.\n${original.slice(at)}`;
};

/**
 * Edits `file` and times `engine.update` until the edit is in service; restores the file after.
 * Two untimed edits first; when the first alone spends the budget, it is the only sample (and
 * the figure says it had no warm-up). `afterTimed` runs after each timed update, untimed here,
 * with the run's number.
 */
async function timeUpdates(
  engine: Engine,
  spec: MeasureSpec,
  file: string,
  edit: Edit,
  afterTimed?: (run: number) => Promise<void>,
): Promise<Summary & { warmedUp: boolean }> {
  const abs = path.join(spec.dir, file);
  const original = readFileSync(abs, 'utf8');
  const times: number[] = [];
  const started = performance.now();
  let run = 0;
  const once = async (): Promise<number> => {
    writeFileSync(abs, edit(original, run++));
    const t = performance.now();
    const report = await engine.update([abs]);
    const ms = performance.now() - t;
    if (!report?.filesChanged.includes(file))
      throw new Error(
        `bench: the update of ${file} did not re-read it (changed: ${JSON.stringify(report?.filesChanged)})`,
      );
    return ms;
  };
  let warmedUp = true;
  try {
    for (let w = 0; w < 2; w++) {
      const ms = await once();
      if (performance.now() - started > spec.budgetMs) {
        times.push(ms);
        warmedUp = false;
        break;
      }
    }
    while (warmedUp && times.length < spec.updates) {
      times.push(await once());
      await afterTimed?.(times.length - 1);
      if (performance.now() - started > spec.budgetMs) break;
    }
  } finally {
    writeFileSync(abs, original);
  }
  log(
    `${spec.name}: update ${file}: median ${summarize(times).median.toFixed(1)} ms over ${times.length}${warmedUp ? '' : ' (no warm-up)'}`,
  );
  return { ...summarize(times), warmedUp };
}

function timeSync(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

function fmtS(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
