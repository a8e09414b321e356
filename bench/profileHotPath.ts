/**
 * Where the answering tools' time goes on a workspace already generated (generate.ts), for the
 * hot path (issue 44, points 3 and 4):
 *
 *   npx tsx bench/generate.ts --size 100k --git --out DIR
 *   node --expose-gc --import tsx bench/profileHotPath.ts DIR [--calls N] [--tools a,b] [--profile]
 *     [--json FILE] [--cache DIR] [--answers FILE]
 *
 * Indexes DIR once, then times N calls (default 100, the bench's count at 100k) of each tool
 * (default get_context, explain_result, workspace_context) with the bench's own inputs
 * (measure.ts toolPools, the same seeded queries), after 20 warm-up calls, and the typed-array
 * BM25 reference over the same sections and queries in the same process: the ratio the bench
 * reports, without the rest of the bench. Each tool's CPU time per call is given too (the
 * process's user + system time): on a shared machine it moves far less with the load than the
 * wall time. With `--profile`, each tool's timed calls run under the V8 CPU profiler
 * (node:inspector) and the functions that took the time are printed, by their own time and by
 * the time spent in them and what they called (inclusive), so a change to the hot path starts
 * from a profile rather than a guess. `--cache DIR` keeps the index's snapshot there, so the next
 * run starts from it (a warm start) instead of indexing the workspace again. `--answers FILE`
 * writes every timed call's answer, one JSON line each, so that two builds can be compared byte
 * for byte at 100k (preload bench/compareAnswers.ts's fixed clock, `node -r
 * $TMPDIR/wsctx-compare-answers/fixedClock.cjs`, or recency moves the scores between runs).
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { TOOLS } from '../server/src/tools/registry';
import { Bm25Index } from './baselines/bm25';
import { sectionPassages, toolPools } from './measure';
import { makeQueries } from './queries';
import { summarize, type Summary } from './stats';
import { planToolInput } from './toolInputs';

const WARMUP_CALLS = 20;
const DEFAULT_TOOLS = ['get_context', 'explain_result', 'workspace_context'];
/** Functions listed per table of a profile. */
const SHOWN = 15;

interface Options {
  dir: string;
  calls: number;
  tools: string[];
  profile: boolean;
  json?: string;
  seed: number;
  folderName: string;
  cache?: string;
  answers?: string;
}

function parse(argv: readonly string[]): Options {
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const dir = argv[0];
  if (!dir || dir.startsWith('--'))
    throw new Error('usage: bench/profileHotPath.ts DIR [--calls N] [--tools a,b] [--profile] [--json FILE]');
  return {
    dir: path.resolve(dir),
    calls: Math.max(1, Number(value('--calls') ?? 100) || 100),
    tools: value('--tools')?.split(',') ?? DEFAULT_TOOLS,
    profile: argv.includes('--profile'),
    json: value('--json'),
    seed: Number(value('--seed') ?? 1) || 1,
    // The bench serves a generated workspace as ws-<size>: the same name gives the same inputs.
    folderName: value('--name') ?? 'ws-100k',
    cache: value('--cache'),
    answers: value('--answers'),
  };
}

/** One CPU profile as V8 gives it. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self and inclusive milliseconds per function (name, file and line), a function counted once per sample however deep it recurses. */
function functionTimes(profile: CpuProfile): { key: string; self: number; total: number }[] {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (id: number) => {
    const f = byId.get(id)!.callFrame;
    const file = f.url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((leaf, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const leafKey = keyOf(leaf);
    self.set(leafKey, (self.get(leafKey) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const key = keyOf(id);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + ms);
    }
  });
  return [...total].map(([key, t]) => ({ key, self: self.get(key) ?? 0, total: t }));
}

function printProfile(tool: string, profile: CpuProfile, calls: number): void {
  const times = functionTimes(profile);
  const ours = (t: { key: string }) => /server\/src\//.test(t.key);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`\n${tool}: own time per call (ms), top ${SHOWN}`);
  for (const t of [...times].sort((a, b) => b.self - a.self).slice(0, SHOWN))
    say(`  ${(t.self / calls).toFixed(2).padStart(8)}  ${t.key}`);
  say(`${tool}: inclusive time per call (ms) in the server's code, top ${SHOWN * 2}`);
  for (const t of times
    .filter(ours)
    .sort((a, b) => b.total - a.total)
    .slice(0, SHOWN * 2))
    say(`  ${(t.total / calls).toFixed(2).padStart(8)}  ${t.key}`);
}

async function main(options: Options): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const folders = [{ name: options.folderName, absPath: options.dir }];
  const settings = { updateDebounceMs: 0, refreshAfterMs: 0, snapshotDelayMs: 2 ** 31 - 1 };
  const cacheDir = options.cache
    ? path.resolve(options.cache)
    : mkdtempSync(path.join(os.tmpdir(), 'wsctx-hot-path-cache-'));
  const engine = new Engine({ folders, settings, cacheDir, log: () => undefined });
  try {
    const t0 = performance.now();
    const state = await engine.waitForIndex();
    if (options.cache) await engine.saveSnapshot();
    say(
      `indexed ${state.counts.sections} sections in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${options.calls} calls per tool after ${WARMUP_CALLS} warm-up calls`,
    );
    const passages = sectionPassages(state);
    const texts = passages.map((p) => p.text);
    const queries = makeQueries(texts, options.calls, options.seed);
    const warmups = makeQueries(texts, WARMUP_CALLS, options.seed + 1);
    const pools = toolPools(state, options, queries);
    const services = createServices({ engine });
    const session = new Session();
    session.connect();
    const figures: Record<string, Summary> = {};
    const answers: string[] = [];
    // The process's CPU time per call (user + system, its GC threads included): on a shared
    // machine it moves far less with the load than the wall time.
    const cpuTimes: number[] = [];
    for (const name of options.tools) {
      const tool = TOOLS.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool named ${name}`);
      const plan = planToolInput(tool, pools);
      if (plan.kind === 'skip') {
        say(`${name}: skipped (${plan.reason})`);
        continue;
      }
      const call = async (i: number, record = false) => {
        const input = plan.input(i);
        const cpu = process.cpuUsage();
        const t = performance.now();
        const out = await callTool(services, tool, input, { sessionId: 'bench' });
        const ms = performance.now() - t;
        const used = process.cpuUsage(cpu);
        cpuTimes.push((used.user + used.system) / 1000);
        if (record) answers.push(JSON.stringify({ tool: name, input, out }));
        return ms;
      };
      for (let i = 0; i < WARMUP_CALLS; i++) await call(queries.length + i);
      if (options.profile) {
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
      }
      const times: number[] = [];
      cpuTimes.length = 0;
      for (let i = 0; i < queries.length; i++) times.push(await call(i, options.answers !== undefined));
      figures[name] = summarize(times);
      figures[`${name} (CPU)`] = summarize(cpuTimes);
      if (options.profile) {
        const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
        await session.post('Profiler.disable');
        printProfile(name, profile, queries.length);
      }
    }
    session.disconnect();
    const bm25 = Bm25Index.build(passages);
    for (const q of warmups) bm25.search(q, 10);
    figures['BM25 reference'] = summarize(
      queries.map((q) => {
        const t = performance.now();
        bm25.search(q, 10);
        return performance.now() - t;
      }),
    );
    say('\nfigure | p50 ms | p95 ms | max ms');
    for (const [name, f] of Object.entries(figures))
      say(`${name} | ${f.median.toFixed(2)} | ${f.p95.toFixed(2)} | ${f.max.toFixed(2)}`);
    const ours = figures.workspace_context;
    const reference = figures['BM25 reference'];
    if (ours)
      say(
        `workspace_context against the BM25 reference: ${(ours.median / reference.median).toFixed(2)}x at p50, ${(ours.p95 / reference.p95).toFixed(2)}x at p95`,
      );
    if (options.answers) writeFileSync(options.answers, `${answers.join('\n')}\n`);
    if (options.json)
      writeFileSync(options.json, `${JSON.stringify({ sections: state.counts.sections, figures }, null, 2)}\n`);
  } finally {
    engine.dispose();
    if (!options.cache) rmSync(cacheDir, { recursive: true, force: true });
  }
}

main(parse(process.argv.slice(2))).catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
