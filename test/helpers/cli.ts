/**
 * Runs the built `wsctx` (dist/wsctx.js) as a user would: a real process, real arguments, exit
 * code, stdout and stderr. `npm test` builds before it runs the suites.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const WSCTX = path.resolve(__dirname, '../../dist/wsctx.js');

/** A cache folder of the test run's own, so runs never read each other's (or a user's) snapshots. */
export const TEST_CACHE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-cache-'));

/**
 * An empty `$XDG_CONFIG_HOME` of the test run's own: the user's configuration file
 * (`~/.config/wsctx/config.yaml`) of whoever runs the tests never changes what they see. A test
 * of that file passes its own `XDG_CONFIG_HOME`.
 */
export const TEST_CONFIG_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-config-'));

/**
 * The width every run gets unless its test sets `COLUMNS`: wide, so a test of what a command says
 * reads each line whole, whatever the terminal running the tests. How output fits 80 and 120
 * columns is tested on its own (test/cli/columns.test.ts, layout.test.ts).
 */
export const CONTENT_COLUMNS = '1000';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `timeoutMs`: how long the run may take before it is killed (and fails); default 120 s. */
export function wsctx(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): CliRun {
  if (!fs.existsSync(WSCTX)) throw new Error(`${WSCTX} is missing: run \`npm run build\` first`);
  const result = spawnSync(process.execPath, [WSCTX, ...args], {
    cwd: options.cwd,
    // Words only unless a test asks for embeddings: the model is exercised by its own suites.
    env: {
      ...process.env,
      WSCTX_CACHE_DIR: TEST_CACHE_DIR,
      XDG_CONFIG_HOME: TEST_CONFIG_HOME,
      WSCTX_EMBEDDINGS: 'off',
      WSCTX_VALIDATE_OUTPUT: '1',
      COLUMNS: CONTENT_COLUMNS,
      ...options.env,
    },
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * {@link wsctx} without blocking this process: for tests that serve something the CLI calls
 * (a local chat completions server) from the test's own event loop.
 */
export function wsctxAsync(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  if (!fs.existsSync(WSCTX)) throw new Error(`${WSCTX} is missing: run \`npm run build\` first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WSCTX, ...args], {
      cwd: options.cwd,
      env: {
        ...process.env,
        WSCTX_CACHE_DIR: TEST_CACHE_DIR,
        XDG_CONFIG_HOME: TEST_CONFIG_HOME,
        WSCTX_EMBEDDINGS: 'off',
        WSCTX_VALIDATE_OUTPUT: '1',
        COLUMNS: CONTENT_COLUMNS,
        ...options.env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
