/**
 * Where a worker-thread entry of the engine is and how to start it. Built, the engine is inlined
 * into each host's bundle in `dist/` and every worker entry is bundled beside it (`esbuild.mjs`:
 * `dist/<name>.js`); from source (tests under tsx) the entry is the `.ts` file beside the caller.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export interface WorkerLaunch {
  file: string;
  execArgv?: string[];
}

/** `<name>.js` in `dir` (built), else `<name>.ts` there (source); throws when neither exists. */
export function resolveWorkerEntry(dir: string, name: string): WorkerLaunch {
  const built = path.join(dir, `${name}.js`);
  if (existsSync(built)) return { file: built };
  const source = path.join(dir, `${name}.ts`);
  if (existsSync(source)) return workerLaunch(source);
  throw new Error(`no ${name}.js next to ${dir}`);
}

/**
 * Launch options for a worker script. `.ts` workers need tsx's CommonJS hook: Node 20 workers do
 * not inherit the parent's `--import tsx` loader (checked here: "Unknown file extension .ts"),
 * while `--require tsx/cjs` in the worker's own `execArgv` works.
 */
export function workerLaunch(file: string): WorkerLaunch {
  if (!file.endsWith('.ts')) return { file };
  // A variable, so the bundler neither resolves nor warns about a dev-only module.
  const tsxHook = 'tsx/cjs';
  return { file, execArgv: ['--require', require.resolve(tsxHook)] };
}
