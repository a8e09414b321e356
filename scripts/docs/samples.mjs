// Every command sample in README.md and docs/*.md, produced by running it: a fenced block right
// after a `<!-- sample -->` marker holds commands (`$ ...` lines), each followed by what it
// printed (stdout and stderr, as a terminal shows them). This script runs them and writes what
// they print; `--check` runs them and fails on any difference (test/cli/docSamples.test.ts).
//
//   node scripts/docs/samples.mjs            rewrite every sample block from a fresh run
//   node scripts/docs/samples.mjs --check    exit 1, with a diff, where a block differs
//   ... --root DIR                            the Markdown of another copy (its README.md, docs/)
//
// Needs the built CLI (`npm run build`). Samples run in a sandbox that mirrors this checkout:
// `examples/fernhill` is a copy committed to a git repository of its own, three days ago (so
// recency and "committed 3 days ago" read the same on every run), `wsctx` is dist/wsctx.js, and
// the cache and user configuration are empty folders of the run's own. A marker may set:
//
//   <!-- sample columns=80 lines=20 exit=1 -->
//
// `columns`: $COLUMNS (default 100); `lines`: keep each command's first N lines, then `…`;
// `exit`: the exit code every command of the block must end with (default 0).
//
// Blocks whose commands name $WSCTX_URL (docs/rest.md) run against one `wsctx serve` over the
// sandbox's example, with $WSCTX_URL and $WSCTX_TOKEN set as that page tells a reader to.
//
// What differs between machines and runs is written as a reader would see it on theirs: the
// sandbox's absolute path as `/…/` in `file:` links, the server's port as 8931; and `--check`
// compares modulo commit ids, times and durations.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WSCTX = path.join(ROOT, 'dist', 'wsctx.js');
const MARKER = /^<!-- sample(?<options>(?: [a-z]+=\S+)*) -->$/;
const SHOWN_PORT = '8931';
/** The token the REST samples' server is started with (their commands show $WSCTX_TOKEN). */
const SAMPLE_TOKEN = 'c0ffee'.repeat(11).slice(0, 64);
const DAY = 24 * 60 * 60;

/** The Markdown files under `root` that may hold samples, relative to it. */
export function sampleFiles(root = ROOT) {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  return ['README.md', ...docs.sort()];
}

/** The sample blocks of a Markdown text: where each starts and ends, its options and its commands. */
export function parseSamples(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (!marker) continue;
    const open = i + 1;
    if (!/^```(console|sh|text)?$/.test(lines[open] ?? ''))
      throw new Error(`line ${i + 1}: a sample marker must be followed by a fenced block`);
    let close = open + 1;
    while (close < lines.length && lines[close] !== '```') close++;
    if (close >= lines.length) throw new Error(`line ${open + 1}: the sample block is not closed`);
    const options = Object.fromEntries(
      (marker.groups.options ?? '')
        .trim()
        .split(' ')
        .filter(Boolean)
        .map((o) => o.split('=')),
    );
    const commands = lines
      .slice(open + 1, close)
      .filter((l) => l.startsWith('$ '))
      .map((l) => l.slice(2));
    if (commands.length === 0) throw new Error(`line ${open + 1}: a sample block needs a "$ command" line`);
    blocks.push({ marker: i, open, close, options, commands });
  }
  return blocks;
}

function git(cwd, args, env = {}) {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, ...env },
  });
}

/** The sandbox the samples run in (see the top of this file). */
export function makeSandbox() {
  if (!existsSync(WSCTX)) throw new Error(`${WSCTX} is missing: run npm run build first`);
  const root = mkdtempSync(path.join(os.tmpdir(), 'wsctx-samples-'));
  const example = path.join(root, 'examples', 'fernhill');
  cpSync(path.join(ROOT, 'examples', 'fernhill'), example, { recursive: true });
  git(example, ['init', '-q', '-b', 'main']);
  git(example, ['add', '-A']);
  const date = `@${Math.floor(Date.now() / 1000) - 3 * DAY} +0000`;
  git(example, ['-c', 'user.name=Fernhill', '-c', 'user.email=dev@fernhill.example', 'commit', '-q', '-m', 'Example'], {
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  });
  const bin = path.join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'wsctx'), `#!/bin/sh\nexec "${process.execPath}" "${WSCTX}" "$@"\n`);
  chmodSync(path.join(bin, 'wsctx'), 0o755);
  for (const dir of ['cache', 'config']) mkdirSync(path.join(root, dir));
  return { root, bin };
}

function sandboxEnv(sandbox, extra = {}) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('WSCTX_') || key === 'NODE_ENV') delete env[key];
  return {
    ...env,
    PATH: `${sandbox.bin}${path.delimiter}${process.env.PATH}`,
    WSCTX_CACHE_DIR: path.join(sandbox.root, 'cache'),
    XDG_CONFIG_HOME: path.join(sandbox.root, 'config'),
    ...extra,
  };
}

/** Starts `wsctx serve` over the sandbox's example for the REST samples; resolves with its URL. */
async function startServer(sandbox) {
  const child = spawn(
    process.execPath,
    [WSCTX, 'serve', '--workspace', 'examples/fernhill', '--port', '0', '--token', SAMPLE_TOKEN],
    { cwd: sandbox.root, env: sandboxEnv(sandbox, { WSCTX_EMBEDDINGS: 'off' }), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server left running would keep this script (and the test that runs it) alive.
      child.kill();
      reject(new Error(`serve did not start: ${stderr}`));
    }, 60_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const found = /url:\s+(http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(stderr);
      // Answers only once the first index pass is done, so a sample never shows a cold answer: a
      // full pass, or the update pass of a warm start (a snapshot restored, git naming what changed).
      if (found && /\[index\] (full|update) pass/.test(stderr)) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** What a command prints in the sandbox, as the sample shows it. */
function runCommand(sandbox, command, options, server) {
  const env = sandboxEnv(sandbox, {
    COLUMNS: options.columns ?? '100',
    ...(server ? { WSCTX_URL: server.url, WSCTX_TOKEN: SAMPLE_TOKEN } : {}),
  });
  const run = spawnSync('bash', ['-c', `{ ${command}\n} 2>&1`], {
    cwd: sandbox.root,
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const expected = Number(options.exit ?? 0);
  if (run.status !== expected)
    throw new Error(`"${command}" exited with ${run.status} (expected ${expected}):\n${run.stdout}${run.stderr}`);
  let out = run.stdout
    .replaceAll(`file://${sandbox.root}/`, 'file:///…/')
    .replaceAll(`${sandbox.root}/`, '')
    .replace(/127\.0\.0\.1:\d+/g, `127.0.0.1:${SHOWN_PORT}`)
    .replace(/\s+$/, '');
  if (options.lines) {
    const lines = out.split('\n');
    const keep = Number(options.lines);
    if (lines.length > keep) out = [...lines.slice(0, keep), '…'].join('\n');
  }
  return out;
}

/** The block's new body: each command with what it printed. */
function renderBlock(sandbox, block, server) {
  return block.commands.flatMap((command) => {
    const out = runCommand(sandbox, command, block.options, server);
    return [`$ ${command}`, ...(out ? out.split('\n') : [])];
  });
}

/** The same text with what differs between runs (commit ids, times, durations) masked. */
export function masked(text) {
  return text
    .replace(/\b[0-9a-f]{12}\b/g, '<commit>')
    .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, '<time>')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>');
}

/** Runs every sample of every file; rewrites them, or (check) returns the differences. */
export async function runSamples({ check = false, root = ROOT, log = () => {} } = {}) {
  const sandbox = makeSandbox();
  let server;
  const differences = [];
  try {
    for (const file of sampleFiles(root)) {
      const abs = path.join(root, file);
      const text = readFileSync(abs, 'utf8');
      const blocks = parseSamples(text);
      if (blocks.length === 0) continue;
      const lines = text.split('\n');
      // From the last block up, so earlier line numbers stay right.
      for (const block of [...blocks].reverse()) {
        const needsServer = block.commands.some((c) => c.includes('$WSCTX_URL'));
        if (needsServer && !server) server = await startServer(sandbox);
        log(`${file}:${block.marker + 1}: ${block.commands.join(' && ')}`);
        const body = renderBlock(sandbox, block, needsServer ? server : undefined);
        const before = lines.slice(block.open + 1, block.close).join('\n');
        if (masked(before) !== masked(body.join('\n')))
          differences.push(
            `${file}:${block.open + 2}:\n--- in the file\n${before}\n+++ printed now\n${body.join('\n')}`,
          );
        lines.splice(block.open + 1, block.close - block.open - 1, ...body);
      }
      if (!check) writeFileSync(abs, lines.join('\n'));
    }
  } finally {
    await server?.stop();
    rmSync(sandbox.root, { recursive: true, force: true });
  }
  return differences;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const rootAt = process.argv.indexOf('--root');
  const root = rootAt > 0 ? path.resolve(process.argv[rootAt + 1]) : ROOT;
  runSamples({ check, root, log: (m) => process.stderr.write(`${m}\n`) }).then(
    (differences) => {
      if (check && differences.length) {
        process.stderr.write(
          `\n${differences.join('\n\n')}\n\n${differences.length} sample(s) differ from what the commands print: run node scripts/docs/samples.mjs\n`,
        );
        process.exitCode = 1;
      } else if (!check)
        process.stderr.write(`samples written${differences.length ? ` (${differences.length} changed)` : ''}\n`);
    },
    (error) => {
      process.stderr.write(`samples: ${error.stack ?? error}\n`);
      process.exitCode = 2;
    },
  );
}
