/**
 * What a process that has indexed a workspace once holds, as the product runs (issue 44's RSS
 * target). `npm run bench` bundles this file with esbuild, the engine inlined and its worker
 * entries beside it as in `dist/` (bench.ts `bundleMemoryProbe`), and runs it in a process of its
 * own with `--expose-gc`:
 *
 *   node --expose-gc BUNDLE_DIR/measureMemory.js DIR FOLDER_NAME IDLE_WAIT_MS
 *
 * The bench's own measuring process is not that process: it runs under tsx (its compiler's
 * modules and the sources' maps stay in the heap) and has indexed the workspace several times
 * (the cold index runs) before it reads memory. This one indexes once, then reads memory after a
 * full GC and again once the process has sat idle long enough for V8 to give memory back
 * (stats.ts `memoryOnceIdle`), and prints them as one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
import { memoryAfterGc, memoryOnceIdle, type MemoryReading, type SettledReading } from './stats';

export interface ProcessMemoryFigures {
  /** The cold index's wall time in this process, ms (its first and only run). */
  coldMs: number;
  sections: number;
  /** Before the engine was made. */
  before: MemoryReading;
  /** Just after the index, after a full GC. */
  afterGc: MemoryReading;
  /** Once idle (V8's memory reducer has run, or the wait ended). */
  onceIdle: SettledReading;
}

async function main(argv: readonly string[]): Promise<void> {
  const [dir, name, wait] = argv;
  if (!dir || !name) throw new Error('usage: measureMemory.js DIR FOLDER_NAME [IDLE_WAIT_MS]');
  const before = memoryAfterGc();
  if (!before.gcExposed) throw new Error('measureMemory needs --expose-gc');
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-memory-'));
  // The bench's settings (measure.ts): no snapshot is written while memory is read.
  const settings = { updateDebounceMs: 0, refreshAfterMs: 0, snapshotDelayMs: 2 ** 31 - 1 };
  const engine = new Engine({
    folders: [{ name, absPath: path.resolve(dir) }],
    settings,
    cacheDir,
    log: () => undefined,
  });
  try {
    const t = performance.now();
    const state = await engine.waitForIndex();
    const coldMs = performance.now() - t;
    const afterGc = memoryAfterGc();
    const onceIdle = await memoryOnceIdle(Number(wait) || 45_000);
    const figures: ProcessMemoryFigures = { coldMs, sections: state.counts.sections, before, afterGc, onceIdle };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    engine.dispose();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
