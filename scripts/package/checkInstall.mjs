// Installs the command line as README.md says, on a machine that has only Node and git, and checks
// that it works: `npm run check:install` (CI runs it).
//
// 1. Copies this checkout (the files git knows, as they are now) to a temporary folder.
// 2. Runs, line by line, the shell block under README.md's "<!-- install: checked -->" marker
//    there, with PATH holding only node, npm, npx, git and a shell (no compiler, no Python: an
//    optional native addon that needs them is skipped, as on a user's machine) and npm's global
//    prefix in a temporary folder. `/absolute/path/to/your/workspace` stands for the example.
// 3. Checks what a user would see: the tarball holds only what runs, `wsctx --version` prints the
//    package's version, `wsctx doctor` passes with the embedding model, ONNX Runtime and
//    tree-sitter loaded from the installed package, and `wsctx mcp` lists the nine tools to a
//    real MCP client.
//
// Prints the tarball's size and file count. Exit 1 on the first check that fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MARKER = '<!-- install: checked -->';
const PLACEHOLDER = '/absolute/path/to/your/workspace';
/** What the npm package may hold: the CLI's bundle, its workers, and the documents npm always adds. */
const TARBALL_FILES = [
  'CHANGELOG.md',
  'LICENSE',
  'README.md',
  'dist/embedWorker.js',
  'dist/readWorker.js',
  'dist/termWorker.js',
  'dist/wsctx.js',
  'package.json',
];
const TOOLS = [
  'explain_result',
  'get_context',
  'get_file',
  'get_section',
  'get_toc',
  'read_page',
  'search_instructions',
  'workspace_context',
  'workspace_expand',
];

function fail(message) {
  console.error(`[check:install] FAILED: ${message}`);
  process.exit(1);
}

function check(ok, message) {
  if (!ok) fail(message);
  console.log(`[check:install] ok: ${message}`);
}

/** The README's install lines: the first ```sh block after the marker, comments and blank lines dropped. */
export function installLines(readme) {
  const at = readme.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no ${MARKER} marker before its install block`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error(`README.md has no \`\`\`sh block after ${MARKER}`);
  return block[1]
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** A folder of links to node, npm, npx, git and sh only: the PATH of a machine with only Node and git. */
function onlyNodeAndGit(dir) {
  mkdirSync(dir, { recursive: true });
  const which = (name) => execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  for (const name of ['node', 'npm', 'npx', 'git', 'sh']) symlinkSync(which(name), path.join(dir, name));
  // npm and npx find their own code from their real path; node finds nothing by PATH.
  return dir;
}

/** The files git knows in this checkout (tracked, and new ones not ignored), copied as they are now. */
function copyCheckout(to) {
  mkdirSync(to, { recursive: true });
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && existsSync(path.join(repoRoot, f)));
  execFileSync('tar', ['--null', '-cf', path.join(to, '..', 'checkout.tar'), '-T', '-'], {
    cwd: repoRoot,
    input: files.join('\0'),
  });
  execFileSync('tar', ['-xf', path.join(to, '..', 'checkout.tar')], { cwd: to });
  rmSync(path.join(to, '..', 'checkout.tar'));
}

async function main() {
  const started = performance.now();
  const temp = mkdtempSync(path.join(os.tmpdir(), 'wsctx-install-'));
  const checkout = path.join(temp, 'checkout');
  const prefix = path.join(temp, 'prefix');
  const workspace = path.join(checkout, 'examples', 'fernhill');
  try {
    copyCheckout(checkout);
    // This machine's environment (its certificates and proxies reach the registry) less what the
    // `npm run` that started this script set, and less its PATH: the install sees only Node and git.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^npm_|^NODE_OPTIONS$|^INIT_CWD$/i.test(name)),
    );
    const env = {
      ...inherited,
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${onlyNodeAndGit(path.join(temp, 'bin'))}`,
      NPM_CONFIG_PREFIX: prefix,
      NODE_PATH: '',
      XDG_CACHE_HOME: path.join(temp, 'cache'),
      XDG_CONFIG_HOME: path.join(temp, 'config'),
      TMPDIR: temp,
    };
    const outputs = [];
    for (const line of installLines(readFileSync(path.join(checkout, 'README.md'), 'utf8'))) {
      const command = line.split(PLACEHOLDER).join(workspace);
      console.log(`[check:install] $ ${command}`);
      const run = spawnSync('sh', ['-c', command], { cwd: checkout, env, encoding: 'utf8', timeout: 600_000 });
      process.stdout.write(run.stdout.split('\n').slice(-12).join('\n'));
      if (run.status !== 0) fail(`\`${line}\` exited ${run.status ?? run.signal}:\n${run.stderr}`);
      outputs.push({ line, stdout: run.stdout });
    }

    const tarballs = readdirSync(checkout).filter((f) => /^workspace-context-.*\.tgz$/.test(f));
    check(tarballs.length === 1, `npm pack wrote one tarball (${tarballs.join(', ')})`);
    const tarball = path.join(checkout, tarballs[0]);
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''))
      .sort();
    check(
      JSON.stringify(files) === JSON.stringify(TARBALL_FILES),
      `the tarball holds only what runs: ${files.join(', ')}`,
    );

    const installed = path.join(prefix, 'lib', 'node_modules', 'workspace-context');
    const { version } = JSON.parse(readFileSync(path.join(checkout, 'package.json'), 'utf8'));
    const versionRun = outputs.find((o) => o.line === 'wsctx --version');
    check(versionRun?.stdout.trim() === version, `wsctx --version printed ${version}`);
    const doctor = outputs.find((o) => o.line.startsWith('wsctx doctor'))?.stdout ?? '';
    for (const [what, pattern] of [
      ['the embedding model', /^ok +embeddings +local minilm: loaded/m],
      ['ONNX Runtime', /^ok +onnxruntime-node +loaded/m],
      ['tree-sitter', /^ok +syntax trees +web-tree-sitter loaded/m],
    ])
      check(pattern.test(doctor), `wsctx doctor: ${what} loads from the installed package`);
    const which = execFileSync('sh', ['-c', 'command -v wsctx'], { env, encoding: 'utf8' }).trim();
    check(which === path.join(prefix, 'bin', 'wsctx'), `wsctx on PATH is the installed one (${which})`);

    const client = new Client({ name: 'check-install', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: which,
        args: ['mcp', '--workspace', workspace, '--embeddings', 'off'],
        env,
        stderr: 'pipe',
      }),
    );
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    await client.close();
    check(
      JSON.stringify(tools) === JSON.stringify(TOOLS),
      `wsctx mcp lists ${tools.length} tools: ${tools.join(', ')}`,
    );

    const size = statSync(tarball).size;
    const unpacked = execFileSync('du', ['-sk', installed], { encoding: 'utf8' }).split('\t')[0];
    console.log(
      `[check:install] tarball ${tarballs[0]}: ${(size / 1024).toFixed(0)} KiB, ${files.length} files; installed with its dependencies: ${(Number(unpacked) / 1024).toFixed(0)} MiB`,
    );
    console.log(`[check:install] done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
}
