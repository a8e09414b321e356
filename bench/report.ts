/**
 * What every bench and eval run states about where it ran, and the bench's Markdown tables.
 */
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import { FIRST_ANSWER_TOOLS, type WorkspaceFigures } from './measure';
import { measured, type Maybe, type MeaningFigures } from './measureMeaning';
import type { ProcessMemoryFigures } from './measureMemory';
import type { VectorFigures } from './measureVectors';
import { meaningNotes, renderMeaning } from './reportMeaning';
import type { EmbeddingFigures } from './measureEmbedding';
import { renderEmbedding } from './reportEmbedding';
import type { StandinSource } from './standinVectors';
import { int, latency, mb, ms, table } from './format';

export interface RunEnvironment {
  date: string;
  cores: number;
  cpu: string;
  totalMemoryMB: number;
  node: string;
  platform: string;
  /** `git rev-parse HEAD` of the project, and whether tracked files differ from it. */
  commit: string;
  dirty: boolean;
  /** 1-minute load average when the run started: other work on a shared machine shows here. */
  loadAverage: number;
}

export function runEnvironment(cwd: string): RunEnvironment {
  const git = (args: string[]): string => {
    try {
      return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  return {
    date: new Date().toISOString(),
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    totalMemoryMB: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    commit: git(['rev-parse', 'HEAD']) || 'unknown',
    dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    loadAverage: os.loadavg()[0],
  };
}

export { ms, table } from './format';

export function environmentLine(env: RunEnvironment): string {
  return `${env.cores} cores (${env.cpu}), ${env.totalMemoryMB} MB RAM, Node ${env.node} ${env.platform}, commit ${env.commit.slice(0, 12)}${env.dirty ? ' (with uncommitted changes)' : ''}, ${env.date}${env.loadAverage === undefined ? '' : `, load average ${env.loadAverage.toFixed(2)} at start`}`;
}

/** What the generator made for one size (absent for the example workspace). */
export interface GeneratedFigures {
  files: number;
  bytes: number;
  repositories: number;
  predictedSections: number;
  writeMs: number;
  gitMs: number;
  git: boolean;
}

export interface BenchWorkspace {
  figures: WorkspaceFigures;
  generated?: GeneratedFigures;
  /** A process that indexed once, the engine bundled as shipped (measureMemory.ts), or why not. */
  processMemory?: Maybe<ProcessMemoryFigures>;
  /** Embeddings-on figures (measureMeaning.ts), or why there are none. */
  meaning: Maybe<MeaningFigures>;
}

export interface BenchResult {
  environment: RunEnvironment;
  options: {
    sizes: string[];
    runs: number;
    quick: boolean;
    seed: number;
    git: boolean;
    queries: Record<string, number>;
    budgetMs: number;
    /** `auto`: the model at the example and 1k, stand-in vectors from 10k; `standin` everywhere; `skip`. */
    vectors: 'auto' | 'standin' | 'skip';
    standin: StandinSource | 'auto';
  };
  /** Tool names in TOOLS when the bench ran. */
  tools: string[];
  workspaces: BenchWorkspace[];
  /** The vector index alone, per generated size (measureVectors.ts). */
  vectorIndex: VectorFigures[];
  /** The local embedder's own figures (measureEmbedding.ts); skipped in --quick. */
  embedding?: Maybe<EmbeddingFigures>;
  notes: string[];
}

/** Row names of the engine table, in order; tool rows are added per tool in TOOLS. */
export const ENGINE_ROWS = {
  sections: 'sections indexed (documents, files)',
  graph: 'entities / relations',
  onDisk: 'workspace files / MB',
  coldMedian: 'cold index, lexical: median ms (runs)',
  coldFirst: 'cold index, first run in process ms',
  rate: 'sections per second',
  updateDocs: 'update one docs page: p50 / p95 ms (edits)',
  updateCatalog: 'update one catalog file: p50 / p95 ms (edits)',
  snapshotSize: 'snapshot (lexical): MB, save ms',
  snapshotLoad: 'snapshot load, a restart (new process): median ms (runs)',
  warmStart: 'warm start, a restart (new process): snapshot + check pass, median ms',
  warmStartInProcess: 'snapshot load / warm start in the process that indexed cold, its engine alive: median ms',
  match: 'postings match only: p50 / p95 ms',
  rss: "RSS after GC in the bench's process (tsx, after every cold index run), MB",
  rssOnce: 'RSS of a process that indexed once (bundled engine): after GC / once idle, MB (idle s)',
  heap: 'engine heap after GC, MB',
  arrays: 'engine typed arrays, MB',
  perSection: 'bytes per section (heap + typed arrays)',
  postings: 'postings byteSize(): MB (bytes/section)',
} as const;

/** The row of a tool's first call on the state a docs page edit put into service. */
export function firstAnswerRowName(tool: string): string {
  return `first ${tool} after a docs page edit: p50 / p95 ms (calls)`;
}

export function toolRowName(tool: string): string {
  return tool === 'workspace_expand' ? 'query workspace_expand (depth 3): p50 / p95 ms' : `query ${tool}: p50 / p95 ms`;
}

export function renderBench(result: BenchResult): string {
  const ws = result.workspaces;
  const out: string[] = [];
  out.push('# Workspace Context bench', '', environmentLine(result.environment), '');
  out.push(
    `Runs wanted per figure: ${result.options.runs} after a warm-up${result.options.quick ? ' (--quick)' : ''}; seed ${result.options.seed}; generated workspaces ${result.options.git ? 'are git repositories' : 'have no git'}.`,
    '',
  );

  out.push('## Engine', '');
  const header = ['figure', ...ws.map((w) => w.figures.name)];
  const rows: string[][] = [];
  const row = (name: string, cell: (w: BenchWorkspace) => string) => rows.push([name, ...ws.map(cell)]);
  row(
    ENGINE_ROWS.sections,
    (w) => `${int(w.figures.counts.sections)} (${int(w.figures.counts.documents)}, ${int(w.figures.counts.files)})`,
  );
  row(ENGINE_ROWS.graph, (w) => `${int(w.figures.counts.entities)} / ${int(w.figures.counts.relations)}`);
  row(ENGINE_ROWS.onDisk, (w) => (w.generated ? `${int(w.generated.files)} / ${mb(w.generated.bytes)}` : 'example'));
  row(
    ENGINE_ROWS.coldMedian,
    (w) =>
      `${ms(w.figures.coldIndex.runs.median)} (${w.figures.coldIndex.runs.n}${w.figures.coldIndex.warmedUp ? '' : ', no warm-up'})`,
  );
  row(ENGINE_ROWS.coldFirst, (w) => ms(w.figures.coldIndex.firstRunMs));
  row(ENGINE_ROWS.rate, (w) => int(w.figures.coldIndex.sectionsPerSecond));
  row(ENGINE_ROWS.updateDocs, (w) => latency(w.figures.update.docsPage, true));
  row(ENGINE_ROWS.updateCatalog, (w) => latency(w.figures.update.catalogFile, true));
  for (const tool of FIRST_ANSWER_TOOLS) {
    row(firstAnswerRowName(tool), (w) => {
      const first = w.figures.update.firstAnswer?.[tool];
      return first ? latency(first, true) : 'not measured';
    });
  }
  row(ENGINE_ROWS.snapshotSize, (w) => `${mb(w.figures.snapshot.bytes)}, ${ms(w.figures.snapshot.saveMs)}`);
  row(ENGINE_ROWS.snapshotLoad, (w) => `${ms(w.figures.snapshot.load.median)} (${w.figures.snapshot.load.n})`);
  row(ENGINE_ROWS.warmStart, (w) => ms(w.figures.snapshot.warmStart.median));
  row(ENGINE_ROWS.warmStartInProcess, (w) => {
    const inProcess = w.figures.snapshot.inProcess;
    return inProcess ? `${ms(inProcess.load.median)} / ${ms(inProcess.warmStart.median)}` : 'not measured';
  });
  for (const tool of result.tools) {
    row(toolRowName(tool), (w) => {
      const t = w.figures.tools[tool];
      return t?.latency ? latency(t.latency) : `skipped: ${t?.skipped ?? 'not run'}`;
    });
  }
  row(ENGINE_ROWS.match, (w) => latency(w.figures.postingsMatch));
  row(ENGINE_ROWS.rss, (w) => mb(w.figures.memory.after.rss));
  row(ENGINE_ROWS.rssOnce, (w) => {
    const figures = measured(w.processMemory);
    if (!figures)
      return w.processMemory && 'skipped' in w.processMemory ? `skipped ${w.processMemory.skipped}` : 'not measured';
    const idle = figures.onceIdle;
    return `${mb(figures.afterGc.rss)} / ${mb(idle.rss)} (${(idle.idleMs / 1000).toFixed(0)}${idle.shrank ? '' : ', the heap did not shrink'})`;
  });
  row(ENGINE_ROWS.heap, (w) => mb(w.figures.memory.heapBytes));
  row(ENGINE_ROWS.arrays, (w) => mb(w.figures.memory.arrayBufferBytes));
  row(ENGINE_ROWS.perSection, (w) => int(w.figures.memory.bytesPerSection));
  row(
    ENGINE_ROWS.postings,
    (w) =>
      `${mb(w.figures.memory.postingsByteSize)} (${int(w.figures.memory.postingsByteSize / Math.max(1, w.figures.counts.sections))})`,
  );
  out.push(...table(header, rows), '');

  out.push('## Baselines: same sections, same queries, same run', '');
  out.push(
    'Ratio = baseline / ours: above 1 means ours is faster (or smaller). "ours" for build is the whole cold index pass (discovery, git, parsing, sectioning, postings), for memory the whole engine (documents, texts, graph, postings), for queries the figure named in its row (workspace_context when it exists: candidates, ranking, why[] and rendering). Each baseline indexes only the sections\' text and returns 10 ids.',
    '',
  );
  for (const w of ws) {
    const f = w.figures;
    const ours = f.ourQueryFigure === 'workspace_context' ? f.tools.workspace_context!.latency! : f.postingsMatch;
    out.push(
      `### ${f.name}: ${int(f.counts.sections)} sections, ${f.queries.count} queries of ${f.queries.meanWords.toFixed(1)} words on average`,
      '',
    );
    const bRows: string[][] = [
      [
        `ours (${f.ourQueryFigure})`,
        ms(f.coldIndex.runs.median),
        ms(ours.median),
        ms(ours.p95),
        memory(f.memory.heapBytes + f.memory.arrayBufferBytes),
        '1',
        '1',
        '1',
      ],
    ];
    for (const [, b] of Object.entries(f.baselines)) {
      bRows.push([
        b.label,
        `${ms(b.buildMs.median)}${b.buildMs.n > 1 ? '' : ' (1 run)'}`,
        ms(b.query.median),
        ms(b.query.p95),
        memory(b.heapBytes + b.arrayBufferBytes),
        ratio(b.query.median, ours.median),
        ratio(b.query.p95, ours.p95),
        memoryRatio(b.heapBytes + b.arrayBufferBytes, f.memory.heapBytes + f.memory.arrayBufferBytes),
      ]);
    }
    out.push(
      ...table(
        [
          'engine',
          'build ms',
          'query p50 ms',
          'query p95 ms',
          'heap + arrays MB',
          'ratio p50',
          'ratio p95',
          'ratio memory',
        ],
        bRows,
      ),
      '',
    );
  }

  const columns = ws.map((w) => ({ name: w.figures.name, meaning: w.meaning }));
  out.push(...renderMeaning(columns, result.vectorIndex));
  out.push(...renderEmbedding(result.embedding));

  out.push('## Notes', '');
  for (const note of result.notes) out.push(`- ${note}`);
  for (const w of ws) for (const note of w.figures.notes) out.push(`- ${note}`);
  for (const tool of result.tools) {
    const describe = ws.map((w) => w.figures.tools[tool]?.latency?.describe).find((d) => d);
    if (describe) out.push(`- ${tool} inputs: ${describe}`);
  }
  out.push(
    `- postings match: ${ws[0]?.figures.postingsMatch.describe ?? ''}; it finds candidates and does not rank them`,
  );
  out.push(
    "- memory: heap and array buffers after a full GC, minus the same before the first engine was built; RSS is the whole process: the bench's (tsx, every cold index run behind it), and a process of its own that indexed once with the engine bundled as shipped (measureMemory.ts), read after a full GC and again once idle (V8 gives memory back some seconds after the last full GC; the wait is given in seconds)",
  );
  for (const note of meaningNotes(columns, result.vectorIndex, result.options.seed)) out.push(`- ${note}`);
  return `${out.join('\n')}\n`;
}

/** Below this, a heap difference after GC is noise (it can even come out negative). */
const MEASURABLE_BYTES = 512 * 1024;

function memory(bytes: number): string {
  return bytes < MEASURABLE_BYTES ? '< 0.5' : mb(bytes);
}

function memoryRatio(baseline: number, ours: number): string {
  return baseline < MEASURABLE_BYTES || ours < MEASURABLE_BYTES ? 'n/a (< 0.5 MB)' : ratio(baseline, ours);
}

function ratio(baseline: number, ours: number): string {
  if (!(ours > 0) || !Number.isFinite(baseline)) return 'n/a';
  const r = baseline / ours;
  return r >= 10 ? `${r.toFixed(0)}x` : `${r.toFixed(2)}x`;
}
