// Installs what the end-to-end suite needs, each step skipped when already in place:
// Debian chromium, Node 24, code-server (a real VS Code 1.139 build) and the browser driver.
// Packing the VSIX needs none of this (scripts/package/vsix.mjs installs its own vsce).
//
//   node scripts/e2e/setup.mjs
//
// Only the npm registry and Debian are reachable here, so nothing downloads a browser or a
// VS Code build of its own (see shared notes e2e-vscode.md).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureNode24 } from '../package/vsix.mjs';
import {
  cacheDir,
  chromiumPath,
  CODE_SERVER_VERSION,
  codeServerDir,
  codeServerPackage,
  envWithNode24,
  run,
  timed,
  TOOL_VERSIONS,
  toolsDir,
} from './layout.mjs';

const npmQuiet = ['--no-audit', '--no-fund', '--loglevel=error'];

function installedVersion(packageDir) {
  const manifest = path.join(packageDir, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function missingDebianPackages(names) {
  return names.filter((name) => {
    try {
      return !execFileSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' }).includes(
        'install ok installed',
      );
    } catch {
      return true;
    }
  });
}

async function aptInstall(packages, why) {
  if (!isRoot()) {
    throw new Error(
      `e2e: ${why} needs the Debian packages ${packages.join(' ')}; run as root or install them: sudo apt-get install -y ${packages.join(' ')}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // apt's sandbox user (_apt) cannot write its temporary file where /tmp is not world-writable
  // (seen on these machines), and the signature check then fails: run the sandbox as root.
  const sandbox = ['-o', 'APT::Sandbox::User=root'];
  await run('apt-get', [...sandbox, 'update', '-qq'], { env });
  await run('apt-get', [...sandbox, 'install', '-y', '-qq', ...packages], { env });
}

async function ensureChromium() {
  if (existsSync(chromiumPath)) return `present at ${chromiumPath}`;
  await aptInstall(['chromium'], 'the browser that drives VS Code');
  if (!existsSync(chromiumPath)) throw new Error(`e2e: apt-get installed chromium but ${chromiumPath} is missing`);
  return 'installed chromium with apt-get';
}

async function ensureCodeServer() {
  // A workbench without lib/vscode/node_modules answers HTTP 500: that folder is the sign the
  // install scripts ran, not just that the package was unpacked.
  const complete =
    installedVersion(codeServerPackage) === CODE_SERVER_VERSION &&
    existsSync(path.join(codeServerPackage, 'lib', 'vscode', 'node_modules'));
  if (complete) return `code-server ${CODE_SERVER_VERSION} present`;
  // Native modules (argon2, kerberos, node-pty) build with node-gyp when no prebuilt fits.
  const missing = missingDebianPackages(['build-essential', 'python3', 'pkg-config', 'libkrb5-dev']);
  if (missing.length > 0) await aptInstall(missing, "building code-server's native modules");
  mkdirSync(codeServerDir, { recursive: true });
  const manifest = {
    name: 'e2e-code-server',
    private: true,
    dependencies: { 'code-server': CODE_SERVER_VERSION },
    // npm 11 warns about install scripts outside allowScripts; code-server cannot work without them.
    allowScripts: { 'code-server': true, argon2: true },
  };
  writeFileSync(path.join(codeServerDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', ...npmQuiet], { cwd: codeServerDir, env: envWithNode24() });
  if (!existsSync(path.join(codeServerPackage, 'lib', 'vscode', 'node_modules'))) {
    throw new Error(
      `e2e: code-server installed without lib/vscode/node_modules (its install scripts did not run); see ${codeServerDir}`,
    );
  }
  return `installed code-server ${CODE_SERVER_VERSION}`;
}

async function ensureTools() {
  const stale = Object.entries(TOOL_VERSIONS).filter(
    ([name, version]) => installedVersion(path.join(toolsDir, 'node_modules', name)) !== version,
  );
  if (stale.length === 0) return `${Object.keys(TOOL_VERSIONS).join(', ')} present`;
  mkdirSync(toolsDir, { recursive: true });
  const manifest = { name: 'e2e-tools', private: true, dependencies: TOOL_VERSIONS };
  writeFileSync(path.join(toolsDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--prefix', toolsDir, ...npmQuiet]);
  return `installed ${stale.map(([name, version]) => `${name}@${version}`).join(', ')}`;
}

/** Runs every step in order; fast (well under a second) when all are in place. */
export async function setup() {
  mkdirSync(cacheDir, { recursive: true });
  const started = performance.now();
  await timed('chromium', ensureChromium);
  await timed('node 24', ensureNode24);
  await timed('code-server', ensureCodeServer);
  await timed('driver tools', ensureTools);
  console.log(`[e2e] setup done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  setup().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
