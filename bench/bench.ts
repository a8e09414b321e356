/**
 * `npm run bench`: speed and memory of the engine and its tools, next to Lunr, MiniSearch and a
 * typed-array BM25 index built over the same sections and asked the same queries in the same run.
 *
 *   npm run bench [-- --size 1k|10k|100k|all|1k,10k] [--quick] [--runs N] [--seed N] [--no-git]
 *                    [--budget SECONDS] [--out FILE] [--keep] [--vectors auto|standin|skip]
 *                    [--standin auto|scifact|generated|synthetic] [--store 10k,100k]
 *
 * - Workspaces: a copy of examples/fernhill, then one generated workspace per size (generate.ts;
 *   default sizes 1k and 10k; `all` adds 100k). Generated repositories are git repositories unless
 *   `--no-git`.
 * - Each workspace is measured in a child process (`node --expose-gc --import tsx`), so its memory
 *   figures hold its own engine only (measure.ts says what is measured, in which order).
 * - `--runs N` (default 5, 2 with --quick): runs after the warm-up for cold index and baseline
 *   builds. A repeated figure stops repeating once it has spent `--budget` seconds (default 120,
 *   20 with --quick) and says so in the notes: a slow figure is reported with fewer runs rather
 *   than not at all.
 * - Embeddings on (measureMeaning.ts), per workspace, two more child processes: one puts every
 *   section's vectors in a fresh cache folder, the next measures a fresh engine over it. `--vectors
 *   auto` (default): the packaged model embeds the example and sizes under 10k for real (minutes);
 *   from 10k, stand-in vectors (standinVectors.ts, pool chosen by `--standin`) are written into the
 *   engine's vector cache. `standin`: stand-ins everywhere; `skip`: no embeddings-on figures.
 * - The vector index alone (measureVectors.ts), per generated size, one child process each: HNSW
 *   against the exact scan over as many stand-in vectors as the size names.
 * - `--quick`: fernhill and 1k only, 2 runs, 50 queries, 5 edits per update probe; no model run
 *   (synthetic stand-in vectors; figures that need the model say so); under a minute.
 * - `--store SIZES`: the PostgreSQL store (benchStore.ts) at those generated sizes, words only and
 *   hybrid (stand-in vectors): write throughput, candidate query and whole-answer p50/p95,
 *   answers equal to in-memory.
 * - Output: Markdown on stdout, JSON in bench-results/ (or `--out`); both name the machine's cores,
 *   the Node version and the git commit. Progress goes to stderr.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { TOOLS } from '../server/src/tools/registry';
import { generateWorkspace, parseSize } from './generate';
import { CHANGE_FIGURE, measureWorkspace, type MeasureSpec, type WorkspaceFigures } from './measure';
import { measureEmbedding, type EmbeddingFigures, type EmbeddingSpec } from './measureEmbedding';
import {
  measureMeaning,
  prepareVectors,
  type Maybe,
  type MeaningFigures,
  type MeaningSpec,
  type PrepareFigures,
  type VectorMode,
} from './measureMeaning';
import type { ProcessMemoryFigures } from './measureMemory';
import { measureVectors, type VectorFigures, type VectorSpec } from './measureVectors';
import { renderBench, runEnvironment, type BenchResult, type BenchWorkspace, type GeneratedFigures } from './report';
import type { StandinSource } from './standinVectors';
import { EXPECTED_TOOLS } from './toolInputs';

const REPO_ROOT = path.resolve(__dirname, '..');
const EXAMPLE = path.join(REPO_ROOT, 'examples', 'fernhill');
/** Update probes in the example workspace (found again by shape if the example changes). */
const EXAMPLE_PROBES = {
  docsPage: 'payments-platform/services/billing-worker/docs/architecture.md',
  catalogFile: 'payments-platform/catalog-info.yaml',
};

interface BenchOptions {
  sizes: string[];
  quick: boolean;
  runs: number;
  seed: number;
  git: boolean;
  budgetMs: number;
  out: string;
  keep: boolean;
  vectors: 'auto' | 'standin' | 'skip';
  standin: StandinSource | 'auto';
  /** `--store SIZES`: the PostgreSQL store's rows (benchStore.ts) at these sizes, after the rest. */
  storeSizes: string[];
}

const VECTOR_CHOICES = ['auto', 'standin', 'skip'] as const;
const STANDIN_CHOICES = ['auto', 'scifact', 'generated', 'synthetic'] as const;
/** From this many sections the model is too slow for a bench run: stand-in vectors instead. */
const MODEL_LIMIT = 10_000;

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`bench: ${name} needs a value`);
    return v;
  };
  const number = (name: string, fallback: number): number => {
    const v = value(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`bench: ${name} must be a positive integer, got "${v}"`);
    return n;
  };
  const quick = argv.includes('--quick');
  const sizeArg = value('--size') ?? (quick ? '1k' : '1k,10k');
  const sizes = sizeArg === 'all' ? ['1k', '10k', '100k'] : sizeArg.split(',').filter((s) => s.length > 0);
  for (const size of sizes) parseSize(size); // throws on a bad size
  const choice = <T extends string>(name: string, choices: readonly T[], fallback: T): T => {
    const v = value(name) ?? fallback;
    if (!choices.includes(v as T)) throw new Error(`bench: ${name} must be one of ${choices.join(', ')}, got "${v}"`);
    return v as T;
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    sizes,
    quick,
    runs: number('--runs', quick ? 2 : 5),
    seed: number('--seed', 1),
    git: !argv.includes('--no-git'),
    budgetMs: number('--budget', quick ? 20 : 120) * 1000,
    out: value('--out') ?? path.join(REPO_ROOT, 'bench-results', `bench-${stamp}.json`),
    keep: argv.includes('--keep'),
    vectors: choice('--vectors', VECTOR_CHOICES, 'auto'),
    // --quick runs no model: its stand-ins are synthetic, whatever --standin says.
    standin: quick ? 'synthetic' : choice('--standin', STANDIN_CHOICES, 'auto'),
    storeSizes: (value('--store') ?? '').split(',').filter((s) => s.length > 0),
  };
}

/** Queries per latency figure: fewer at 100k, where Lunr takes most of a second per query. */
function queryCount(size: string, quick: boolean): number {
  if (quick) return 50;
  return size !== 'fernhill' && parseSize(size) >= 50_000 ? 100 : 200;
}

async function runBench(options: BenchOptions): Promise<void> {
  const environment = runEnvironment(REPO_ROOT);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-'));
  const workspaces: BenchWorkspace[] = [];
  const notes: string[] = [];
  const vectorIndex: VectorFigures[] = [];
  let embedding: Maybe<EmbeddingFigures> = {
    skipped: options.quick ? 'in --quick (no model runs)' : 'with --vectors skip',
  };
  const missing = EXPECTED_TOOLS.filter((name) => !TOOLS.some((t) => t.name === name));
  if (missing.length) notes.push(`tools not in TOOLS yet, so not timed: ${missing.join(', ')}`);
  try {
    const example = path.join(scratch, 'fernhill');
    cpSync(EXAMPLE, example, { recursive: true });
    const exampleFigures = measureInChild(options, scratch, {
      name: 'fernhill',
      dir: example,
      folderName: 'fernhill',
      probes: findProbes(example, EXAMPLE_PROBES),
      queries: queryCount('fernhill', options.quick),
    });
    workspaces.push({
      figures: exampleFigures,
      processMemory: processMemory(options, scratch, example, 'fernhill'),
      meaning: meaningInChildren(options, scratch, 'fernhill', example, 'fernhill'),
    });

    for (const size of options.sizes) {
      const dir = path.join(scratch, `ws-${size}`);
      mkdirSync(dir);
      progress(`generating ${size} workspace${options.git ? ' with git history' : ''}`);
      const made = generateWorkspace({ dir, sections: parseSize(size), seed: options.seed, git: options.git });
      const generated: GeneratedFigures = {
        files: made.files,
        bytes: made.bytes,
        repositories: made.repositories,
        predictedSections: made.predictedSections,
        writeMs: made.writeMs,
        gitMs: made.gitMs,
        git: options.git,
      };
      progress(
        `${size}: ${made.files} files, ${made.predictedSections} sections written in ${(made.writeMs / 1000).toFixed(1)} s (+ git ${(made.gitMs / 1000).toFixed(1)} s)`,
      );
      const figures = measureInChild(options, scratch, {
        name: size,
        dir,
        folderName: `ws-${size}`,
        probes: made.probes,
        queries: queryCount(size, options.quick),
      });
      if (figures.counts.sections !== made.predictedSections) {
        notes.push(
          `${size}: the engine indexed ${figures.counts.sections} sections, the generator wrote ${made.predictedSections}`,
        );
      }
      const memory = processMemory(options, scratch, dir, `ws-${size}`);
      const meaning = meaningInChildren(options, scratch, size, dir, `ws-${size}`);
      workspaces.push({ figures, generated, processMemory: memory, meaning });
      if (!options.keep) rmSync(dir, { recursive: true, force: true });
    }
    if (!options.quick && options.vectors !== 'skip') {
      const spec: EmbeddingSpec = {
        exampleDir: example,
        repoRoot: REPO_ROOT,
        backgroundSections: BACKGROUND_SECTIONS,
        queries: 200,
        seed: options.seed,
      };
      progress('measuring the local embedder (throughput, queries, answers while embedding, first npm run example)');
      embedding = runChild<EmbeddingFigures>(scratch, 'embedding', 'embedder', spec);
    }
    if (options.vectors !== 'skip') {
      for (const size of options.sizes) {
        const spec: VectorSpec = {
          size,
          count: parseSize(size),
          queries: options.quick ? 50 : 200,
          seed: options.seed,
          standin: options.standin,
        };
        progress(`measuring the vector index at ${size}`);
        vectorIndex.push(runChild<VectorFigures>(scratch, 'vectors', `${size}.vectors`, spec));
      }
    }
  } finally {
    if (!options.keep) rmSync(scratch, { recursive: true, force: true });
    else progress(`workspaces kept in ${scratch}`);
  }

  const result: BenchResult = {
    environment,
    options: {
      sizes: options.sizes,
      runs: options.runs,
      quick: options.quick,
      seed: options.seed,
      git: options.git,
      queries: Object.fromEntries(['fernhill', ...options.sizes].map((s) => [s, queryCount(s, options.quick)])),
      budgetMs: options.budgetMs,
      vectors: options.vectors,
      standin: options.standin,
    },
    tools: [...TOOLS.map((t) => t.name), CHANGE_FIGURE],
    workspaces,
    vectorIndex,
    embedding,
    notes,
  };
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(renderBench(result));
  process.stdout.write(`\nJSON: ${path.relative(process.cwd(), options.out)}\n`);
  if (options.storeSizes.length) {
    // Its own process: the store bench holds generated workspaces in memory beside its servers.
    // Words only, then hybrid (unless --vectors skip): each run starts both servers its own way.
    const modes = options.vectors === 'skip' ? [['--words-only']] : [['--words-only'], ['--standin', options.standin]];
    for (const mode of modes) {
      const store = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(__dirname, 'benchStore.ts'),
          '--size',
          options.storeSizes.join(','),
          '--seed',
          String(options.seed),
          '--queries',
          String(options.quick ? 20 : 50),
          ...mode,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
      );
      if (store.status !== 0) throw new Error(`bench: the store bench failed (exit ${store.status})`);
      process.stdout.write(`\n${store.stdout}`);
    }
  }
}

/** Longest wait for V8 to give memory back after an index (measureMemory.ts), ms. */
const IDLE_WAIT_MS = 45_000;

/**
 * The memory of a process that indexed the workspace once, as the product runs (measureMemory.ts,
 * bundled): not in --quick, whose runs would wait up to 45 s a workspace for it.
 */
function processMemory(
  options: BenchOptions,
  scratch: string,
  dir: string,
  folderName: string,
): Maybe<ProcessMemoryFigures> {
  if (options.quick) return { skipped: 'in --quick (it waits up to 45 s for the process to sit idle)' };
  progress(`${folderName}: memory of a process that indexes once (the bundled engine)`);
  const bundle = bundleMemoryProbe(scratch);
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', path.join(bundle, 'measureMemory.js'), dir, folderName, String(IDLE_WAIT_MS)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
  );
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{'))
    throw new Error(`bench: the memory measurement of ${folderName} failed (exit ${child.status ?? child.signal})`);
  const figures = JSON.parse(line) as ProcessMemoryFigures;
  progress(
    `${folderName}: RSS after GC ${(figures.afterGc.rss / 2 ** 20).toFixed(0)} MB, once idle ${(figures.onceIdle.rss / 2 ** 20).toFixed(0)} MB (${(figures.onceIdle.idleMs / 1000).toFixed(0)} s)`,
  );
  return figures;
}

/**
 * measureMemory.ts bundled as the product's hosts are (esbuild.mjs: the engine inlined, CommonJS,
 * node20), with the cold index's worker entries beside it as `dist/` has them; once per bench run.
 */
function bundleMemoryProbe(scratch: string): string {
  const outdir = path.join(scratch, 'memory-bundle');
  if (existsSync(path.join(outdir, 'measureMemory.js'))) return outdir;
  buildSync({
    entryPoints: {
      measureMemory: path.join(__dirname, 'measureMemory.ts'),
      readWorker: path.join(REPO_ROOT, 'server/src/engine/indexing/readWorker.ts'),
      termWorker: path.join(REPO_ROOT, 'server/src/engine/indexing/termWorker.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    // Native and optional packages stay outside, as in esbuild.mjs; a cold lexical index loads none.
    external: [
      'onnxruntime-node',
      '@lat.md/*',
      'web-tree-sitter',
      'tree-sitter-wasms',
      'hnswlib-node',
      '@energetic-ai/*',
    ],
  });
  return outdir;
}

/** Runs measure.ts for one workspace in a fresh `node --expose-gc` process and reads its figures. */
function measureInChild(
  options: BenchOptions,
  scratch: string,
  ws: Pick<MeasureSpec, 'name' | 'dir' | 'folderName' | 'probes' | 'queries'>,
): WorkspaceFigures {
  const spec: MeasureSpec = {
    ...ws,
    runs: options.runs,
    updates: options.quick ? 5 : 20,
    seed: options.seed,
    budgetMs: options.budgetMs,
  };
  progress(`measuring ${ws.name}`);
  return runChild<WorkspaceFigures>(scratch, 'lexical', ws.name, spec);
}

/**
 * Embeddings-on figures for one workspace: a child process prepares every section's vectors in a
 * fresh cache folder (the model, or stand-ins), a second measures a fresh engine over it.
 */
function meaningInChildren(
  options: BenchOptions,
  scratch: string,
  name: string,
  dir: string,
  folderName: string,
): Maybe<MeaningFigures> {
  if (options.vectors === 'skip') return { skipped: '--vectors skip' };
  const small = name === 'fernhill' || parseSize(name) < MODEL_LIMIT;
  const mode: VectorMode = options.quick || options.vectors === 'standin' || !small ? 'standin' : 'model';
  const cacheDir = path.join(scratch, `${name}.meaning-cache`);
  mkdirSync(cacheDir);
  const spec: MeaningSpec = {
    name,
    dir,
    folderName,
    cacheDir,
    mode,
    standin: options.standin,
    quick: options.quick,
    queries: queryCount(name, options.quick),
    runs: options.runs,
    seed: options.seed,
    budgetMs: options.budgetMs,
  };
  try {
    progress(
      `${name}: section vectors (${mode === 'model' ? 'the packaged model, cold cache' : `stand-in, ${options.standin}`})`,
    );
    const prepare = runChild<PrepareFigures>(scratch, 'prepare', `${name}.prepare`, spec);
    progress(`measuring ${name} with embeddings on`);
    return runChild<MeaningFigures>(scratch, 'meaning', `${name}.meaning`, { spec, prepare });
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

type ChildKind = 'lexical' | 'prepare' | 'meaning' | 'vectors' | 'embedding';

/** Sections of the workspace on which answers are timed while the whole of it embeds. */
const BACKGROUND_SECTIONS = 50_000;

/** Runs one measurement in a fresh `node --expose-gc` process (this file, `--child KIND FILE`) and reads its result. */
function runChild<T>(scratch: string, kind: ChildKind, label: string, input: unknown): T {
  const inFile = path.join(scratch, `${label}.${kind}.in.json`);
  const outFile = path.join(scratch, `${label}.${kind}.out.json`);
  writeFileSync(inFile, JSON.stringify({ input, out: outFile }));
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', __filename, '--child', kind, inFile],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (child.status !== 0)
    throw new Error(`bench: ${kind} measurement of ${label} failed (exit ${child.status ?? child.signal})`);
  return JSON.parse(readFileSync(outFile, 'utf8')) as T;
}

/** The example's probe files, or the first docs page and catalog file found when they moved. */
function findProbes(dir: string, wanted: MeasureSpec['probes']): MeasureSpec['probes'] {
  const all = listFiles(dir);
  return {
    docsPage: existsSync(path.join(dir, wanted.docsPage))
      ? wanted.docsPage
      : all.find((f) => /\/docs\/[^/]+\.md$/.test(f))!,
    catalogFile: existsSync(path.join(dir, wanted.catalogFile))
      ? wanted.catalogFile
      : all.find((f) => f.endsWith('catalog-info.yaml'))!,
  };
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out;
}

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(argv: readonly string[]): Promise<void> {
  const at = argv.indexOf('--child');
  if (at >= 0) {
    const kind = argv[at + 1] as ChildKind;
    const { input, out } = JSON.parse(readFileSync(argv[at + 2], 'utf8')) as { input: unknown; out: string };
    if (!(globalThis as { gc?: unknown }).gc) throw new Error('bench: the measuring process needs --expose-gc');
    const result = await runChildKind(kind, input);
    writeFileSync(out, JSON.stringify(result));
    // Engines and embedder workers are disposed; nothing left should keep the process, but a
    // stray handle must not hang the bench either.
    process.exit(0);
  }
  await runBench(parseBenchArgs(argv));
}

function runChildKind(kind: ChildKind, input: unknown): Promise<unknown> {
  switch (kind) {
    case 'lexical':
      return measureWorkspace(input as MeasureSpec);
    case 'prepare':
      return prepareVectors(input as MeaningSpec);
    case 'meaning': {
      const { spec, prepare } = input as { spec: MeaningSpec; prepare: PrepareFigures };
      return measureMeaning(spec, prepare);
    }
    case 'vectors':
      return measureVectors(input as VectorSpec);
    case 'embedding':
      return measureEmbedding(input as EmbeddingSpec);
    default:
      throw new Error(`bench: unknown child kind "${String(kind)}"`);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  });
}
