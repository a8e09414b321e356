/**
 * Runs the built `wsctx` (dist/wsctx.js) as a user would: a real process, real arguments, exit
 * code, stdout and stderr. `npm test` builds before it runs the suites.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const WSCTX = path.resolve(__dirname, '../../dist/wsctx.js');

/** A cache folder of the test run's own, so runs never read each other's (or a user's) snapshots. */
export const TEST_CACHE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-cache-'));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function wsctx(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliRun {
  if (!fs.existsSync(WSCTX)) throw new Error(`${WSCTX} is missing: run \`npm run build\` first`);
  const result = spawnSync(process.execPath, [WSCTX, ...args], {
    cwd: options.cwd,
    // Words only unless a test asks for embeddings: the model is exercised by its own suites.
    env: { ...process.env, WSCTX_CACHE_DIR: TEST_CACHE_DIR, WSCTX_EMBEDDINGS: 'off', ...options.env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
