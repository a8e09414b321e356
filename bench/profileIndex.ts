/**
 * One quick pass over the indexing figures of a workspace already generated (generate.ts), for
 * profiling with `node --cpu-prof`:
 *
 *   npx tsx bench/generate.ts --size 10k --git --out DIR
 *   node --expose-gc --cpu-prof --cpu-prof-dir PROFILES --import tsx bench/profileIndex.ts DIR [--only cold|docs|catalog|snapshot] [--runs N]
 *
 * Prints, one line each: cold index, updates of one docs page and one catalog file (the probes
 * generate.ts picks), snapshot size, save, load and warm start (with the kind of its first pass:
 * `update` when git and the walk outside the repositories vouched for every file, else `full`),
 * the first catalog edit after the warm start (and whether it patched or loaded the catalog),
 * and heap and RSS after GC. One run of each, no warm-up (`--runs N` edits each probe N times and
 * prints the median of all but the first): `bench.ts` gives the medians; this gives a profile
 * you can read. Each figure also
 * says the process's CPU time (user + system): on a shared machine it moves far less with the
 * load than the wall time, so two versions of the engine compare on it, run after run. The cold
 * index also says the answering thread's own share (Linux), the rest being worker threads'.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine, snapshotFileFor } from '../server/src/engine/engine';

const PROBE_DOCS = /\/services\/[^/]+\/docs\/architecture\.md$/;
const PROBE_CATALOG = /^[^/]+-\d+\/catalog-info\.yaml$/;

/**
 * CPU time of the answering thread alone (user + system), where Linux says it: `cpu` counts the
 * worker threads too (the cold pass reads its files in two, indexing/readPool.ts). Undefined elsewhere.
 */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** `getconf CLK_TCK` on Linux. */
const CLOCK_TICKS = 100;

async function main(argv: readonly string[]): Promise<void> {
  const dir = path.resolve(argv[0] ?? '');
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
  const editRuns = argv.includes('--runs') ? Math.max(1, Number(argv[argv.indexOf('--runs') + 1]) || 3) : 3;
  const runs = (name: string) => only === undefined || only === name;
  const folders = [{ name: path.basename(dir), absPath: dir }];
  const settings = { updateDebounceMs: 0, refreshAfterMs: 0, snapshotDelayMs: 2 ** 31 - 1 };
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-profile-cache-'));
  const gc = (globalThis as { gc?: () => void }).gc;
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const engine = new Engine({ folders, settings, cacheDir });
    let t = performance.now();
    let cpu = process.cpuUsage();
    const cpuMs = () => {
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / 1000;
    };
    const mainBefore = mainThreadCpuMs();
    const state = await engine.waitForIndex();
    const main = mainBefore === undefined ? '' : `, main thread ${(mainThreadCpuMs()! - mainBefore).toFixed(0)} ms`;
    say(
      `cold index: ${(performance.now() - t).toFixed(0)} ms, cpu ${cpuMs().toFixed(0)} ms${main} (${state.counts.sections} sections, ${state.counts.files} files, ${state.entities.length} entities)`,
    );
    gc?.();
    const memory = process.memoryUsage();
    say(
      `memory after GC: heap +${mb(memory.heapUsed - heapBefore)}, array buffers ${mb(memory.arrayBuffers)}, rss ${mb(memory.rss)}`,
    );

    const paths = [...state.fileDigests.keys()];
    const probes: [string, RegExp, (text: string, run: number) => string][] = [
      ['docs', PROBE_DOCS, (text, run) => `${text.trimEnd()}\n\nEdited for profiling, run ${run}.\n`],
      [
        'catalog',
        PROBE_CATALOG,
        (text, run) =>
          text.replace(
            /^( +)description: >-\n/m,
            (m, indent: string) => `${m}${indent}  Edited for profiling, run ${run}.\n`,
          ),
      ],
    ];
    for (const [name, pattern, edit] of probes) {
      if (!runs(name)) continue;
      const file = paths.find((p) => pattern.test(p));
      if (!file) continue;
      const abs = path.join(dir, file);
      const original = readFileSync(abs, 'utf8');
      const times: number[] = [];
      const cpus: number[] = [];
      try {
        for (let run = 0; run < editRuns; run++) {
          writeFileSync(abs, edit(original, run));
          t = performance.now();
          cpu = process.cpuUsage();
          const report = await engine.update([abs]);
          times.push(performance.now() - t);
          cpus.push(cpuMs());
          say(
            `update ${name} (${file}) run ${run}: ${times[run].toFixed(1)} ms, cpu ${cpus[run].toFixed(1)} ms, changed ${report?.filesChanged.length ?? 0} file(s)`,
          );
        }
        const median = (xs: number[]) => xs.slice(1).sort((a, b) => a - b)[Math.floor((xs.length - 2) / 2)];
        if (times.length > 1)
          say(
            `update ${name}: p50 ${median(times).toFixed(1)} ms, cpu p50 ${median(cpus).toFixed(1)} ms over ${times.length - 1} edits after the first`,
          );
      } finally {
        writeFileSync(abs, original);
        await engine.update([abs]);
      }
    }

    if (runs('snapshot')) {
      t = performance.now();
      await engine.saveSnapshot();
      const bytes = statSync(snapshotFileFor(cacheDir, folders)).size;
      say(`snapshot: ${mb(bytes)}, saved in ${(performance.now() - t).toFixed(0)} ms`);
      engine.dispose();
      gc?.();
      const warm = new Engine({ folders, settings, cacheDir });
      let loaded = NaN;
      t = performance.now();
      warm.onDidChangeState(() => {
        if (Number.isNaN(loaded) && warm.status().fromSnapshot) loaded = performance.now() - t;
      });
      await warm.waitForIndex();
      const total = performance.now() - t;
      const pass = warm.status().lastPass;
      say(
        `snapshot load: ${loaded.toFixed(0)} ms, warm start: ${total.toFixed(0)} ms (first pass: ${pass?.kind}, ${pass?.filesRead} file(s) read, ${pass?.durationMs.toFixed(0)} ms)`,
      );
      // The first catalog edit after the restart (the catalog probe's edit, then put back).
      const [, pattern, edit] = probes[1];
      const file = paths.find((p) => pattern.test(p));
      if (file) {
        const abs = path.join(dir, file);
        const original = readFileSync(abs, 'utf8');
        try {
          writeFileSync(abs, edit(original, 0));
          t = performance.now();
          cpu = process.cpuUsage();
          const report = await warm.update([abs]);
          say(
            `first catalog update after the warm start: ${(performance.now() - t).toFixed(1)} ms, cpu ${cpuMs().toFixed(1)} ms (catalog ${report?.catalog})`,
          );
        } finally {
          writeFileSync(abs, original);
        }
      }
      warm.dispose();
    } else {
      engine.dispose();
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

void main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
