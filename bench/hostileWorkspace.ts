/**
 * The hostile workspaces of issue 41, timed: what a workspace can make an index pass, the
 * language server and a ref lookup cost, with the guards at their caps (bench/RESULTS.md,
 * "A hostile workspace at the caps"). Timing lives here, not in the tests (which assert outcomes).
 *
 *   npx tsx bench/hostileWorkspace.ts [--skip-lsp] [--only=targets40,targets200,sources,cap,url,lsp-targets,lsp-example,lsp-url]
 *
 * It runs the tree's own build (`npm run build` first): to compare with another commit, copy
 * this file and test/helpers into that commit's tree and run it there. Each run is killed after
 * 300 s and said so.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { type SymbolInformation, WorkspaceSymbolRequest } from 'vscode-languageserver-protocol/node';
import { compileSourceGlobs } from '../server/src/engine/workspace/globs';
import { WSCTX } from '../test/helpers/cli';
import { writeRangeLocationTargets, writeRangeSourceGlobs } from '../test/helpers/hostileWorkspaces';
import { LspClient } from '../test/helpers/lspClient';
import {
  copyExampleWorkspace,
  initRepo,
  commitAll,
  git,
  removeTempDirs,
  tempDir,
  write,
} from '../test/helpers/tempWorkspace';

const KILL_MS = 300_000;

/** `wsctx index` of `ws`: wall seconds and peak memory (from /usr/bin/time when there), or killed. */
function timeIndex(ws: string): string {
  const time = fs.existsSync('/usr/bin/time') ? ['/usr/bin/time', '-v'] : [];
  // `timeout` kills the whole process group (time and node) when the run outlasts KILL_MS.
  const command = ['timeout', '-s', 'KILL', String(KILL_MS / 1000), ...time, process.execPath, WSCTX];
  const started = performance.now();
  const run = spawnSync(command[0], [...command.slice(1), 'index', '--workspace', ws, '--no-cache'], {
    env: { ...process.env, WSCTX_EMBEDDINGS: 'off' },
    encoding: 'utf8',
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status === 137 || run.signal) return `killed at ${seconds.toFixed(0)} s`;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr ?? '');
  return `${seconds.toFixed(1)} s${rss ? `, ${(Number(rss[1]) / 1024).toFixed(0)} MB peak` : ''} (exit ${run.status})`;
}

/** Latencies of workspace/symbol asked one after another from the start until the first pass is in service. */
async function symbolLatencies(ws: string): Promise<string> {
  const lsp = await LspClient.start(ws);
  try {
    const times: number[] = [];
    let done = false;
    const ready = lsp.waitForReady().then(() => (done = true));
    const started = performance.now();
    while (!done && performance.now() - started < KILL_MS) {
      const asked = performance.now();
      (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'located' })) as SymbolInformation[];
      times.push(performance.now() - asked);
      await new Promise((r) => setTimeout(r, 10));
    }
    if (!done) return `not in service after ${KILL_MS / 1000} s; slowest answer ${Math.max(...times).toFixed(0)} ms`;
    await ready;
    const sorted = [...times].sort((a, b) => a - b);
    return `pass ${((performance.now() - started) / 1000).toFixed(1)} s; ${times.length} answers during it, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, slowest ${sorted[sorted.length - 1].toFixed(0)} ms`;
  } finally {
    await lsp.stop();
  }
}

/** A repository whose catalog names its TechDocs by a url: of 20,000 path segments over its own remote. */
function writeDeepUrlRef(ws: string): void {
  initRepo(ws);
  git(ws, ['remote', 'add', 'origin', 'https://github.com/org/repo.git']);
  const deep = Array.from({ length: 20_000 }, () => 'a').join('/');
  write(
    ws,
    'catalog-info.yaml',
    `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: deep\n  annotations:\n    backstage.io/techdocs-ref: url:https://github.com/org/repo/tree/main/${deep}/docs\nspec:\n  type: service\n  owner: team\n  lifecycle: production\n`,
  );
  write(ws, 'docs/index.md', '# Deep\n\nThe docs the ref names.\n');
  commitAll(ws, 'deep ref', 1_700_000_000);
}

/**
 * The source globs at their budget, written to be the automaton's worst case (each a `?` run
 * after an `a`, so the lazy DFA meets thousands of states and rebuilds its table), over 20,000
 * paths of 80 characters: the cost every file of every pass pays.
 */
function globsAtCap(): string {
  const globs: string[] = [];
  for (let i = 0; globs.length < 2000; i++) globs.push(`**/*a${'?'.repeat(8 + (i % 8))}${i}.md`);
  let started = performance.now();
  const matcher = compileSourceGlobs({ markdown: globs });
  const compileMs = performance.now() - started;
  // A tree without the source globs' budget compiles all 2,000 into one automaton: not measured.
  if (!('refused' in matcher)) return 'no budget in this tree (every glob compiled into one automaton): not measured';
  const kept = matcher.globs.markdown.length;
  let seed = 41;
  const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 3));
  const paths = Array.from({ length: 20_000 }, () => `docs/${Array.from({ length: 72 }, letter).join('')}.md`);
  started = performance.now();
  let hits = 0;
  let tested = 0;
  // At most 30 s of it (before the budget, a path could take a tenth of a second).
  for (const p of paths) {
    hits += matcher.roles(p).length;
    tested++;
    if (performance.now() - started > 30_000) break;
  }
  const perPath = ((performance.now() - started) * 1000) / tested;
  return `${kept} globs kept of ${globs.length} (${matcher.refused.length} past the budget), compiled in ${compileMs.toFixed(0)} ms; ${perPath.toFixed(0)} µs per path over ${tested} paths (${hits} roles found)`;
}

async function main(): Promise<void> {
  const skipLsp = process.argv.includes('--skip-lsp');
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  console.log(
    `# A hostile workspace at the caps\n\ncommit ${commit}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  console.log('| case | measured |\n| --- | --- |');
  const row = async (key: string, what: string, measure: () => string | Promise<string>) => {
    if (!only || only.includes(key)) console.log(`| ${what} | ${await measure()} |`);
  };
  for (const count of [40, 200]) {
    const ws = tempDir(`bench-targets-${count}`);
    writeRangeLocationTargets(ws, count);
    await row(`targets${count}`, `wsctx index: a Location of ${count} {1..1000}-range targets`, () => timeIndex(ws));
  }
  const sources = tempDir('bench-sources');
  writeRangeSourceGlobs(sources);
  await row('sources', 'wsctx index: 250 {1..1000}-range globs in .wsctx.yaml sources.catalog', () =>
    timeIndex(sources),
  );
  await row('cap', 'source globs at their budget, written to be the worst case for the automaton', globsAtCap);
  const deep = tempDir('bench-deep-url');
  writeDeepUrlRef(deep);
  await row('url', 'wsctx index: techdocs-ref url: of 20,000 segments over its own remote', () => timeIndex(deep));
  if (!skipLsp) {
    const targets = tempDir('bench-targets-lsp');
    writeRangeLocationTargets(targets, 200);
    await row('lsp-targets', 'language server, first pass over 200 range targets: workspace/symbol', () =>
      symbolLatencies(targets),
    );
    await row('lsp-example', 'language server, first pass over the example: workspace/symbol', () =>
      symbolLatencies(copyExampleWorkspace()),
    );
    await row('lsp-url', 'language server, first pass over the url: ref of 20,000 segments', () =>
      symbolLatencies(deep),
    );
  }
  removeTempDirs();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
