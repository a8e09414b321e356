/**
 * The local embedder's own speed, in a child process of its own (bench.ts, `--child embedding`):
 *
 * 1. Sections per second on documentation sections, with MiniLM on ONNX Runtime int8 at 1 bulk
 *    worker x 2 threads, 2 x 1 and 1 x 1 (and the WASM fallback at 1 x 1 on the example); each a
 *    fresh embedder with no cache, timed from its warm-up's end, on two corpora:
 *    - the example workspace's sections as the engine embeds them (title, heading path and body, in
 *      windows of at most 640 characters);
 *    - real documentation, the target's corpus (issue 12: median ~100 words, up to 256 word
 *      pieces): every 6th section of Argo CD's docs (test/fixtures/argocd-docs), each whole as one
 *      text, of which the model reads the first 256 word pieces.
 * 2. Query embedding latency on the idle query worker (p50/p95 of the questions).
 * 3. workspace_context at a generated workspace of `backgroundSections` sections: p50/p95 while
 *    the engine embeds every section in the background, then the same questions with the
 *    background job stopped (the query worker stays warm in both).
 * 4. The first `npm run example` (build, index with embedding, expand) on a fresh cache folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
import { LocalEmbedder, type LocalEmbedderOptions } from '../server/src/engine/embeddings/localEmbedder';
import { loadMiniLmTokenizer, miniLmFiles } from '../server/src/engine/embeddings/ortMiniLmModel';
import { splitWindows, windowOptionsFor } from '../server/src/engine/embeddings/windows';
import { embeddingText } from '../server/src/engine/meaning/sectionVectors';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import { writeArgocdWorkspace } from './evalDocs';
import { generateWorkspace } from './generate';
import { makeQueries } from './queries';
import { summarize, type Summary } from './stats';

export interface EmbeddingSpec {
  exampleDir: string;
  repoRoot: string;
  /** Sections of the generated workspace for the "while embedding" figure; 0 skips it. */
  backgroundSections: number;
  queries: number;
  seed: number;
}

export interface ThroughputRow {
  label: string;
  runtime: string;
  sections: number;
  windows: number;
  seconds: number;
  sectionsPerSecond: number;
  /**
   * CPU seconds the whole process used (every thread), and sections per CPU-second: what one
   * unshared core would reach, a figure the machine's other load does not move much.
   */
  cpuSeconds: number;
  sectionsPerCpuSecond: number;
  /** The machine's 1-minute load average when the row started (2 cores: above 2, others wait for a core). */
  load: number;
}

export interface EmbeddingFigures {
  cores: number;
  /** Words per section of the corpus measured: median and 90th percentile. */
  corpus: { sections: number; windows: number; medianWords: number; p90Words: number };
  throughput: ThroughputRow[];
  /** The Argo CD corpus: words per section and word pieces the model reads (median, p90); absent without the data folder. */
  realDocs:
    | { sections: number; medianWords: number; medianPieces: number; p90Pieces: number; throughput: ThroughputRow[] }
    | { skipped: string };
  query: Summary;
  background:
    | { sections: number; whileEmbedding: Summary; idle: Summary; embeddedDuring: number }
    | { skipped: string };
  firstExample: { seconds: number; exitCode: number };
}

// The default on two cores first (`defaultWorkerCount`, `defaultOnnxThreads`).
const CONFIGS: { label: string; options: LocalEmbedderOptions }[] = [
  { label: 'ONNX int8, 2 workers x 1 thread', options: { workers: 2, threads: 1 } },
  { label: 'ONNX int8, 1 worker x 2 threads', options: { workers: 1, threads: 2 } },
  { label: 'ONNX int8, 1 worker x 1 thread', options: { workers: 1, threads: 1 } },
  { label: 'WASM fallback, 1 worker', options: { workers: 1, runtime: 'wasm' } },
];

export async function measureEmbedding(spec: EmbeddingSpec): Promise<EmbeddingFigures> {
  const corpus = await exampleSections(spec.exampleDir);
  const throughput: ThroughputRow[] = [];
  for (const config of CONFIGS) throughput.push(await sectionsPerSecond(config.label, config.options, corpus.sections));
  const realDocs = await realDocsThroughput(spec.repoRoot);

  const questions = makeQueries(corpus.sections.flat(), spec.queries, spec.seed);
  const embedder = new LocalEmbedder({ workers: 1 });
  await embedder.embedQuery('warm up');
  const samples: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    await embedder.embedQuery(q);
    samples.push(performance.now() - t);
  }
  await embedder.dispose();

  const background = spec.backgroundSections > 0 ? await whileEmbedding(spec, questions) : { skipped: 'not asked for' };
  const firstExample = firstNpmExample(spec.repoRoot);
  const words = corpus.sections
    .map((windows) => windows.join(' ').split(/\s+/).filter(Boolean).length)
    .sort((a, b) => a - b);
  return {
    cores: availableParallelism(),
    corpus: {
      sections: corpus.sections.length,
      windows: corpus.sections.flat().length,
      medianWords: words[words.length >> 1],
      p90Words: words[Math.floor(words.length * 0.9)],
    },
    throughput,
    realDocs,
    query: summarize(samples),
    background,
    firstExample,
  };
}

/** Every section of the example as the engine embeds it: its windows' texts. */
async function exampleSections(dir: string): Promise<{ sections: string[][] }> {
  const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }] });
  const state = await engine.waitForIndex();
  const options = windowOptionsFor({ maxInputTokens: 160 });
  const sections = state.sections
    .filter((e) => e !== undefined)
    .map((entry) => splitWindows(embeddingText(entry!), options).map((w) => w.text));
  engine.dispose();
  return { sections };
}

/** Every 6th Argo CD section, whole, through the ONNX configurations (not WASM: ~1 section/s there). */
async function realDocsThroughput(repoRoot: string): Promise<EmbeddingFigures['realDocs']> {
  const data = path.resolve(repoRoot, 'test', 'fixtures', 'argocd-docs');
  if (!existsSync(path.join(data, 'docs'))) return { skipped: `no ${data}` };
  const parent = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-argocd-'));
  let texts: string[];
  try {
    const engine = new Engine({
      folders: [{ name: 'argocd', absPath: writeArgocdWorkspace(data, parent) }],
      settings: { useGit: false },
      embeddings: { provider: 'off' },
    });
    const state = await engine.waitForIndex();
    engine.dispose();
    texts = state.sections
      .filter((e) => e !== undefined)
      .map((e) => embeddingText(e!))
      .filter((_, i) => i % 6 === 0);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  const tokenizer = loadMiniLmTokenizer(miniLmFiles().tokenizer);
  const pieces = texts.map((t) => tokenizer.encode(t).length).sort((a, b) => a - b);
  const words = texts.map((t) => t.split(/\s+/).filter(Boolean).length).sort((a, b) => a - b);
  const throughput: ThroughputRow[] = [];
  for (const config of CONFIGS.filter((c) => c.options.runtime !== 'wasm')) {
    throughput.push(
      await sectionsPerSecond(
        `Argo CD, ${config.label}`,
        config.options,
        texts.map((t) => [t]),
      ),
    );
  }
  return {
    sections: texts.length,
    medianWords: words[words.length >> 1],
    medianPieces: pieces[pieces.length >> 1],
    p90Pieces: pieces[Math.floor(pieces.length * 0.9)],
    throughput,
  };
}

async function sectionsPerSecond(
  label: string,
  options: LocalEmbedderOptions,
  sections: string[][],
): Promise<ThroughputRow> {
  const embedder = new LocalEmbedder({ batchSize: 16, ...options });
  const texts = sections.flat();
  // Warm-up: every worker loaded and one batch run.
  await embedder.embed(texts.slice(0, 16 * (options.workers ?? 1)));
  const load = loadavg()[0];
  const t = performance.now();
  const cpu = process.cpuUsage();
  // As SectionVectors does: calls of 32 sections' windows, one queued ahead.
  const calls: Promise<unknown>[] = [];
  for (let s = 0; s < sections.length; s += 32) calls.push(embedder.embed(sections.slice(s, s + 32).flat()));
  await Promise.all(calls);
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const runtime = embedder.runtime;
  await embedder.dispose();
  process.stderr.write(`[bench] ${label}: ${(sections.length / seconds).toFixed(1)} sections/s\n`);
  return {
    label,
    runtime,
    sections: sections.length,
    windows: texts.length,
    seconds,
    sectionsPerSecond: sections.length / seconds,
    cpuSeconds,
    sectionsPerCpuSecond: sections.length / cpuSeconds,
    load,
  };
}

async function whileEmbedding(spec: EmbeddingSpec, questions: string[]): Promise<EmbeddingFigures['background']> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-bg-'));
  try {
    const dir = path.join(scratch, 'ws');
    mkdirSync(dir);
    process.stderr.write(
      `[bench] generating ${spec.backgroundSections} sections for the background-embedding figure\n`,
    );
    generateWorkspace({ dir, sections: spec.backgroundSections, seed: spec.seed, git: false });
    const engine = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: path.join(scratch, 'cache'),
      embeddings: { provider: 'local' },
    });
    const state = await engine.waitForIndex();
    const tool = findTool('workspace_context')!;
    const services = createServices({ engine });
    const ask = async (question: string) => {
      const t = performance.now();
      await callTool(services, tool, { workspace: 'ws', question, limit: 10 }, { sessionId: 'bench' });
      return performance.now() - t;
    };
    // The background job has started; wait until its first chunk is in, so both workers are loaded.
    while ((engine.status().meaning?.embedding?.done ?? 0) === 0) await new Promise((r) => setTimeout(r, 100));
    const before = engine.status().meaning!.embedding!.done;
    const during: number[] = [];
    for (const q of questions) during.push(await ask(q));
    const still = engine.status().meaning?.embedding;
    if (!still) throw new Error('bench: the background embedding ended before the questions did');
    engine.pauseMeaning();
    const idle: number[] = [];
    for (const q of questions) idle.push(await ask(q));
    engine.dispose();
    return {
      sections: state.counts.sections,
      whileEmbedding: summarize(during),
      idle: summarize(idle),
      embeddedDuring: still.done - before,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `npm run example` as a new user runs it: build, then index (with embedding) and expand, on an empty cache folder. */
function firstNpmExample(repoRoot: string): EmbeddingFigures['firstExample'] {
  const cache = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-example-'));
  try {
    const t = performance.now();
    const run = spawnSync('npm', ['run', 'example'], {
      cwd: repoRoot,
      env: { ...process.env, WSCTX_CACHE_DIR: cache },
      stdio: 'ignore',
    });
    return { seconds: (performance.now() - t) / 1000, exitCode: run.status ?? -1 };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
