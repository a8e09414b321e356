/**
 * Warm starts only, on a cache folder kept between runs (issue 44, point 1):
 *
 *   node --expose-gc --import tsx bench/warmStart.ts DIR CACHE [--runs N] [--dump FILE] [--name NAME] [--json]
 *
 * The first call on an empty CACHE indexes DIR cold and saves the snapshot there; every run then
 * starts a new engine on that snapshot and prints the snapshot load (until the restored state is in
 * service), the warm start (until the first pass is in service), the first pass and the process's
 * CPU time (git's processes not counted). One process per run is the honest figure (a second
 * engine in one process finds its code compiled); run the command again for more. `--dump FILE`
 * writes the state after the warm start (documents, sections, commit facts, digests, repositories,
 * problems, coverage, entities, relations, counts) and six workspace_context answers with a fixed
 * clock, so two builds' files compare byte for byte (`cmp`). `bench/profileIndex.ts --only snapshot`
 * measures the same after a cold index of its own. `--name NAME` serves DIR under that folder name
 * (default: its base name; the snapshot is keyed by it). `--json` prints one JSON line per run
 * (`loadMs`, `warmStartMs`, `cpuMs`, `firstPass`) and refuses to index cold when CACHE holds no
 * snapshot: `npm run bench` times its restarts this way (measure.ts).
 */
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Engine, snapshotFileFor } from '../server/src/engine/engine';
import { createServices } from '../server/src/services/services';
import { callTool } from '../server/src/tools/callTool';
import { findTool } from '../server/src/tools/registry';

const QUESTIONS = [
  'billing worker deploy runbook',
  'how do I rotate credentials',
  'payments outage escalation',
  'who owns the accounts service',
  'catalog-info.yaml lifecycle production',
  'dunning retries',
];

async function main(argv: readonly string[]): Promise<void> {
  const [dir, cacheDir] = argv.map((arg) => path.resolve(arg));
  if (!dir || !cacheDir)
    throw new Error('usage: bench/warmStart.ts DIR CACHE [--runs N] [--dump FILE] [--name NAME] [--json]');
  const runs = argv.includes('--runs') ? Math.max(1, Number(argv[argv.indexOf('--runs') + 1]) || 1) : 1;
  const dumpFile = argv.includes('--dump') ? path.resolve(argv[argv.indexOf('--dump') + 1]) : undefined;
  const name = argv.includes('--name') ? argv[argv.indexOf('--name') + 1] : path.basename(dir);
  const json = argv.includes('--json');
  const folders = [{ name, absPath: dir }];
  const settings = { updateDebounceMs: 0, refreshAfterMs: 0, snapshotDelayMs: 2 ** 31 - 1 };
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (!existsSync(snapshotFileFor(cacheDir, folders))) {
    if (json) throw new Error(`no snapshot of ${dir} as "${name}" in ${cacheDir}`);
    const t = performance.now();
    const cold = new Engine({ folders, settings, cacheDir });
    await cold.waitForIndex();
    await cold.saveSnapshot();
    cold.dispose();
    say(`cold index and snapshot: ${(performance.now() - t).toFixed(0)} ms`);
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let run = 0; run < runs; run++) {
    gc?.();
    const engine = new Engine({ folders, settings, cacheDir });
    let loaded = Number.NaN;
    const t = performance.now();
    const cpu = process.cpuUsage();
    engine.onDidChangeState(() => {
      if (Number.isNaN(loaded) && engine.status().fromSnapshot) loaded = performance.now() - t;
    });
    await engine.waitForIndex();
    const total = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const pass = engine.status().lastPass;
    if (Number.isNaN(loaded)) throw new Error('the snapshot was not restored');
    const cpuMs = (used.user + used.system) / 1000;
    if (json) say(JSON.stringify({ loadMs: loaded, warmStartMs: total, cpuMs, firstPass: pass?.kind }));
    else
      say(
        `run ${run}: snapshot load ${loaded.toFixed(0)} ms, warm start ${total.toFixed(0)} ms (first pass: ${pass?.kind}, ${pass?.filesRead} file(s) read, ${pass?.durationMs.toFixed(0)} ms), cpu ${cpuMs.toFixed(0)} ms`,
      );
    if (dumpFile && run === runs - 1) await dump(engine, dumpFile, folders[0].name);
    engine.dispose();
  }
}

/** The state in service and six answers, as one JSON line with stable order. */
async function dump(engine: Engine, file: string, workspace: string): Promise<void> {
  const state = engine.current()!;
  const sorted = <V>(map: ReadonlyMap<string, V>) =>
    [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const services = createServices({ engine, now: () => new Date('2026-12-07T00:00:00Z') });
  const tool = findTool('workspace_context')!;
  const answers: string[] = [];
  for (const question of QUESTIONS) {
    const answer = await callTool(services, tool, { workspace, question }, { sessionId: 's' });
    answers.push(JSON.stringify(answer).replace(/"indexedAt":"[^"]*"/g, '"indexedAt":"-"'));
  }
  const out = {
    docs: [...state.docs.values()].map((doc) => JSON.stringify(doc)).sort(),
    sections: state.sections
      .filter((entry) => entry !== undefined)
      .map((entry) => JSON.stringify(entry.section))
      .sort(),
    commits: sorted(state.commits),
    fileDigests: sorted(state.fileDigests),
    repos: state.repos,
    problems: state.problems,
    coverage: state.coverage,
    entities: state.entities,
    relations: state.relations,
    counts: state.counts,
    runHealth: sorted(state.runHealth),
    libraryFolders: state.libraryFolders,
    packs: state.packs,
    lastPass: { ...engine.status().lastPass, durationMs: 0 },
    answers,
  };
  writeFileSync(file, JSON.stringify(out));
}

void main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
