// Builds the production bundles and packs the extension into .vscode-test/workspace-context.vsix
// with @vscode/vsce (installed by setup.mjs under .vscode-test/tools; it needs Node >= 22, so it
// runs on the harness's Node 24).
//
//   node scripts/e2e/packageVsix.mjs [--project DIR] [--out FILE]
//
// --project packs another checkout (a temporary copy with a changed package.json, say).
// The VSIX's README is client/README.md (for users of the extension) and its changelog
// CHANGELOG.md; the repository's README.md is not shipped.
// Dependencies are NOT skipped (no --no-dependencies): the native and WASM modules esbuild leaves
// external must ship in node_modules. The project's .vscodeignore decides what else ships.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheDir, envWithNode24, node24, repoRoot, run, timed, vsceScript, vsixPath } from './layout.mjs';


/** The README the VSIX ships (the extension's page in the editor), relative to the project. */
export const EXTENSION_README = 'client/README.md';

/**
 * The VS Code Marketplace target of this machine (`linux-x64`, `darwin-arm64`, `win32-x64`...):
 * onnxruntime-node carries every platform's binaries (~290 MB), and a VSIX needs only its own.
 */
export function vsceTarget(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch}`;
}

/**
 * The project's .vscodeignore plus the line that ships this platform's ONNX Runtime binary,
 * written beside the downloads; vsce reads it with --ignoreFile.
 */
function platformIgnoreFile(projectDir, platform = process.platform, arch = process.arch) {
  const base = readFileSync(path.join(projectDir, '.vscodeignore'), 'utf8');
  const file = path.join(cacheDir, `vscodeignore-${platform}-${arch}`);
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(file, `${base}\n# Added by packageVsix.mjs for ${platform}-${arch}:\n!node_modules/onnxruntime-node/bin/napi-v6/${platform}/${arch}/*\n`);
  return file;
}

/** vsce flags for fields package.json may lack today; each one is reported when used. */
function leniencyFlags(projectDir) {
  const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
  const flags = [];
  if (!manifest.repository) flags.push('--allow-missing-repository');
  const hasLicense = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((f) => existsSync(path.join(projectDir, f)));
  if (!hasLicense) flags.push('--skip-license');
  return flags;
}

/**
 * Packs `projectDir` into `out` and returns the VSIX path.
 * @param options.projectDir checkout to pack; default this repository.
 * @param options.out VSIX path; default .vscode-test/workspace-context.vsix.
 */
export async function packageVsix({ projectDir = repoRoot, out = vsixPath } = {}) {
  await timed('esbuild --production', async () => {
    await run(process.execPath, ['esbuild.mjs', '--production'], { cwd: projectDir });
    return 'built dist/';
  });
  await timed('vsce package', async () => {
    const flags = leniencyFlags(projectDir);
    if (flags.length > 0) console.warn(`[e2e] package.json/LICENSE incomplete, passing ${flags.join(' ')}`);
    if (!existsSync(path.join(projectDir, '.vscodeignore'))) throw new Error(`no .vscodeignore in ${projectDir}: it decides what the VSIX ships`);
    // A README's relative links need a repository URL to rewrite; the VSIX is only installed locally.
    flags.push('--no-rewrite-relative-links');
    // The extension's page shows the users' README of the extension, not the repository's (which
    // opens with how to build it), and the changelog beside it.
    for (const [flag, file] of [['--readme-path', EXTENSION_README], ['--changelog-path', 'CHANGELOG.md']]) {
      if (!existsSync(path.join(projectDir, file))) throw new Error(`no ${file} in ${projectDir}: the VSIX ships it as its ${flag === '--readme-path' ? 'README' : 'CHANGELOG'}`);
      flags.push(flag, file);
    }
    flags.push('--target', vsceTarget(), '--ignoreFile', platformIgnoreFile(projectDir));
    await run(node24, [vsceScript, 'package', '--out', out, ...flags], { cwd: projectDir, env: envWithNode24() });
    return `${out} (${(statSync(out).size / 1024 / 1024).toFixed(1)} MiB)`;
  });
  return out;
}

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const projectDir = path.resolve(argValue('--project') ?? repoRoot);
  const out = path.resolve(argValue('--out') ?? vsixPath);
  packageVsix({ projectDir, out }).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
