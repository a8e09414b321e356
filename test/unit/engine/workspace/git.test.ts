import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverWorkspace } from '../../../../server/src/engine/workspace/discovery';
import {
  CommitInfoLookup,
  dirtyPaths,
  execFileGitRunner,
  fileCommitInfo,
  GitUnavailableError,
  lastCommitTimes,
  loadGitFacts,
  loadRepoGitFacts,
  repoHead,
  repoInfos,
  repoStatus,
  workTreeState,
} from '../../../../server/src/engine/workspace/git';
import {
  commitAll,
  countingGitRunner,
  dated,
  git,
  initRepo,
  removeTempDirs,
  tempDir,
  write,
} from '../../../helpers/tempWorkspace';

const T1 = 1_600_000_000;
const T2 = 1_650_000_000;
const T3 = 1_700_000_000;
const T4 = 1_710_000_000;

describe('engine/workspace/git', () => {
  after(removeTempDirs);

  it('repoHead is null before the first commit and HEAD after', async () => {
    const repo = initRepo(tempDir('head'));
    assert.equal(await repoHead(repo), null);
    write(repo, 'AGENTS.md', 'a');
    const sha = commitAll(repo, 'first', T1);
    assert.match(sha, /^[0-9a-f]{40}$/);
    assert.equal(await repoHead(repo), sha);
    assert.equal(await repoHead(tempDir('plain')), null);
  });

  it('lastCommitTimes gives each file the exact time of the last commit touching it', async () => {
    const repo = initRepo(tempDir('times'));
    write(repo, 'AGENTS.md', 'v1');
    write(repo, 'docs/guide.md', 'v1');
    write(repo, 'docs/über "quoted" name.md', 'unicode');
    write(repo, 'docs/tab\tand\nnewline.md', 'odd');
    commitAll(repo, 'first', T1);
    write(repo, 'docs/guide.md', 'v2');
    commitAll(repo, 'second', T2);
    write(repo, 'AGENTS.md', 'v3');
    commitAll(repo, 'third', T3);

    const times = await lastCommitTimes(repo);
    assert.deepEqual([...times.entries()].sort(), [
      ['AGENTS.md', T3 * 1000],
      ['docs/guide.md', T2 * 1000],
      ['docs/tab\tand\nnewline.md', T1 * 1000],
      ['docs/über "quoted" name.md', T1 * 1000],
    ]);
    // Capped history: only the newest commit is read.
    assert.deepEqual([...(await lastCommitTimes(repo, { maxCommits: 1 })).entries()], [['AGENTS.md', T3 * 1000]]);
    assert.deepEqual(await lastCommitTimes(initRepo(tempDir('empty'))), new Map());
    assert.deepEqual(await lastCommitTimes(tempDir('plain')), new Map());
  });

  it('lastCommitTimes counts a rename as touching the new path', async () => {
    const repo = initRepo(tempDir('rename'));
    write(repo, 'epics/old-name.md', '# Checkout\n'.repeat(20));
    write(repo, 'epics/stays.md', 'stays');
    commitAll(repo, 'add', T1);
    git(repo, ['mv', 'epics/old-name.md', 'epics/new-name.md']);
    commitAll(repo, 'rename', T2);

    const times = await lastCommitTimes(repo);
    assert.equal(times.get('epics/new-name.md'), T2 * 1000);
    assert.equal(times.get('epics/stays.md'), T1 * 1000);
    // Same answer as git itself for the path.
    assert.equal(git(repo, ['log', '-1', '--format=%ct', '--', 'epics/new-name.md']).trim(), String(T2));
  });

  it('lastCommitTimes gives files merged from a branch the merge time', async () => {
    const repo = initRepo(tempDir('merge'));
    write(repo, 'main.md', 'm1');
    write(repo, 'feature.md', 'f1');
    commitAll(repo, 'base', T1);
    git(repo, ['checkout', '-q', '-b', 'feature']);
    write(repo, 'feature.md', 'f2');
    commitAll(repo, 'feature work', T2);
    git(repo, ['checkout', '-q', 'main']);
    write(repo, 'main.md', 'm2');
    commitAll(repo, 'main work', T3);
    git(repo, ['merge', '-q', '--no-ff', '-m', 'merge feature', 'feature'], dated(T4));

    const times = await lastCommitTimes(repo);
    assert.deepEqual([...times.entries()].sort(), [
      ['feature.md', T4 * 1000],
      ['main.md', T3 * 1000],
    ]);
  });

  it('lastCommitTimes runs exactly one git process for a repository of 200 files', async () => {
    const repo = initRepo(tempDir('batched'));
    for (let commit = 0; commit < 10; commit++) {
      for (let i = 0; i < 20; i++) write(repo, `docs/part-${commit}/page-${i}.md`, `page ${commit}.${i}`);
      commitAll(repo, `batch ${commit}`, T1 + commit * 3600);
    }
    const runner = countingGitRunner();
    const times = await lastCommitTimes(repo, { runner });
    assert.equal(runner.calls.length, 1);
    assert.equal(runner.calls[0][0], 'log');
    assert.equal(times.size, 200);
    assert.equal(times.get('docs/part-0/page-0.md'), T1 * 1000);
    assert.equal(times.get('docs/part-9/page-19.md'), (T1 + 9 * 3600) * 1000);
    for (const [file, time] of times) {
      const part = Number(/part-(\d+)/.exec(file)![1]);
      assert.equal(time, (T1 + part * 3600) * 1000, file);
    }
  });

  it('dirtyPaths marks modified, staged, untracked, deleted and renamed files from one status call', async () => {
    const repo = initRepo(tempDir('dirty'));
    for (const f of ['clean.md', 'modified.md', 'deleted.md', 'moved.md', 'staged-edit.md']) write(repo, f, f);
    commitAll(repo, 'base', T1);
    write(repo, 'modified.md', 'changed');
    write(repo, 'staged-edit.md', 'changed');
    git(repo, ['add', 'staged-edit.md']);
    write(repo, 'added.md', 'new');
    git(repo, ['add', 'added.md']);
    write(repo, 'new-dir/deep/untracked.md', 'untracked');
    fs.rmSync(path.join(repo, 'deleted.md'));
    git(repo, ['mv', 'moved.md', 'renamed.md']);

    const runner = countingGitRunner();
    const dirty = await dirtyPaths(repo, { runner, prefix: '' });
    assert.deepEqual([...dirty].sort(), [
      'added.md',
      'deleted.md',
      'modified.md',
      'moved.md',
      'new-dir/deep/untracked.md',
      'renamed.md',
      'staged-edit.md',
    ]);
    // `config` lists the filter drivers that status must not run (driverOverrides).
    assert.deepEqual(
      runner.calls.map((c) => c[0]),
      ['config', 'status'],
    );
  });

  it('repoStatus gives HEAD and every differing path from one status call, paths with spaces included', async () => {
    const repo = initRepo(tempDir('status-v2'));
    let runner = countingGitRunner();
    write(repo, 'first note.md', 'a');
    assert.deepEqual(await repoStatus(repo, { runner }), { head: null, dirty: new Set(['first note.md']) });
    assert.deepEqual(
      runner.calls.map((c) => c[0]),
      ['status'],
      'no filter or include section in .git/config: no config call',
    );
    for (const f of ['clean.md', 'modified.md', 'deleted.md', 'moved.md', 'staged edit.md']) write(repo, f, f);
    const head = commitAll(repo, 'base', T1);
    write(repo, 'modified.md', 'changed');
    write(repo, 'staged edit.md', 'changed');
    git(repo, ['add', 'staged edit.md']);
    write(repo, 'new-dir/deep/untracked one.md', 'untracked');
    fs.rmSync(path.join(repo, 'deleted.md'));
    git(repo, ['mv', 'moved.md', 'renamed file.md']);
    runner = countingGitRunner();
    const status = await repoStatus(repo, { runner });
    assert.equal(status?.head, head);
    assert.deepEqual([...status!.dirty].sort(), [
      'deleted.md',
      'modified.md',
      'moved.md',
      'new-dir/deep/untracked one.md',
      'renamed file.md',
      'staged edit.md',
    ]);
    assert.deepEqual([...status!.dirty].sort(), [...(await dirtyPaths(repo, { prefix: '' }))].sort());
    assert.deepEqual(
      runner.calls.map((c) => c[0]),
      ['status'],
    );
    // A filter driver in the repository's config: listed first, then emptied for status.
    git(repo, ['config', 'filter.shout.clean', 'tr a-z A-Z']);
    runner = countingGitRunner();
    await repoStatus(repo, { runner });
    assert.deepEqual(
      runner.calls.map((c) => c.find((arg) => !arg.startsWith('-') && !arg.includes('='))),
      ['config', 'status'],
    );
    assert.ok(runner.calls[1].includes('filter.shout.clean='), runner.calls[1].join(' '));
    assert.equal(await repoStatus(tempDir('not-a-repo'), { runner }), null);
  });

  it('limits history and status to a subdirectory and makes paths relative to it', async () => {
    const repo = initRepo(tempDir('subdir'));
    write(repo, 'top.md', 'top');
    write(repo, 'services/billing/overview.md', 'billing');
    commitAll(repo, 'base', T1);
    write(repo, 'services/billing/overview.md', 'billing v2');
    write(repo, 'top.md', 'top v2');
    commitAll(repo, 'edit', T2);
    write(repo, 'services/billing/AGENTS.md', 'untracked');
    write(repo, 'top.md', 'dirty outside');

    const sub = path.join(repo, 'services', 'billing');
    assert.deepEqual([...(await lastCommitTimes(sub)).entries()], [['overview.md', T2 * 1000]]);
    assert.deepEqual([...(await dirtyPaths(sub))], ['AGENTS.md']);
  });

  it('assembles FileCommitInfo per workspace path across several repositories and a folder without git', async () => {
    const ws = tempDir('facts');
    const alpha = initRepo(path.join(ws, 'alpha'));
    const beta = initRepo(path.join(ws, 'beta'));
    write(alpha, 'overview.md', 'alpha');
    write(alpha, 'AGENTS.md', 'alpha rules');
    const alphaHead = commitAll(alpha, 'alpha', T1);
    write(alpha, 'AGENTS.md', 'alpha rules, edited');
    write(beta, 'overview.md', 'beta');
    const betaHead = commitAll(beta, 'beta', T2);
    write(beta, 'CLAUDE.md', 'untracked');
    const plain = tempDir('facts-plain');
    write(plain, 'AGENTS.md', 'no git here');
    const folders = [
      { name: 'ws', absPath: ws },
      { name: 'plain', absPath: plain },
    ];

    const found = await discoverWorkspace(folders);
    const facts = await loadGitFacts(found.roots);
    assert.deepEqual(facts.problems, []);
    const info = Object.fromEntries(found.files.map((f) => [f.path, fileCommitInfo(f.path, folders, facts.repos)]));
    assert.deepEqual(info, {
      'plain/AGENTS.md': { commit: null, dirty: false, lastCommitTime: null },
      'ws/alpha/AGENTS.md': { commit: alphaHead, dirty: true, lastCommitTime: T1 * 1000 },
      'ws/alpha/overview.md': { commit: alphaHead, dirty: false, lastCommitTime: T1 * 1000 },
      'ws/beta/CLAUDE.md': { commit: betaHead, dirty: true, lastCommitTime: null },
      'ws/beta/overview.md': { commit: betaHead, dirty: false, lastCommitTime: T2 * 1000 },
    });
    assert.deepEqual(repoInfos(found.roots, facts.repos), [
      { root: 'ws', folder: 'ws', absRoot: ws, head: null, git: false },
      { root: 'ws/alpha', folder: 'ws', absRoot: alpha, head: alphaHead, git: true },
      { root: 'ws/beta', folder: 'ws', absRoot: beta, head: betaHead, git: true },
      { root: 'plain', folder: 'plain', absRoot: plain, head: null, git: false },
    ]);
  });

  it('workTreeState reads the prefix and HEAD from one process, before and after the first commit', async () => {
    const repo = initRepo(tempDir('state'));
    write(repo, 'sub/dir/a.md', 'a');
    const runner = countingGitRunner();
    assert.deepEqual(await workTreeState(repo, { runner }), { prefix: '', shallow: false, head: null });
    const head = commitAll(repo, 'first', T1);
    assert.deepEqual(await workTreeState(path.join(repo, 'sub', 'dir'), { runner }), {
      prefix: 'sub/dir/',
      shallow: false,
      head,
    });
    assert.equal(await workTreeState(tempDir('not-a-repo'), { runner }), null);
    assert.equal(runner.calls.length, 3);
  });

  it('loadRepoGitFacts runs four git processes (three before the first commit)', async () => {
    const repo = initRepo(tempDir('three'));
    write(repo, 'a.md', 'a');
    let runner = countingGitRunner();
    assert.deepEqual(await loadRepoGitFacts(repo, { runner }), {
      absRoot: repo,
      git: true,
      head: null,
      lastCommitTimes: new Map(),
      dirty: new Set(['a.md']),
    });
    assert.deepEqual(runner.calls.map((c) => c[0]).sort(), ['config', 'rev-parse', 'status']);
    const head = commitAll(repo, 'first', T1);
    write(repo, 'b.md', 'b');
    runner = countingGitRunner();
    const facts = await loadRepoGitFacts(repo, { runner });
    assert.deepEqual(facts, {
      absRoot: repo,
      git: true,
      head,
      lastCommitTimes: new Map([['a.md', T1 * 1000]]),
      dirty: new Set(['b.md']),
    });
    assert.deepEqual(runner.calls.map((c) => c[0]).sort(), ['config', 'log', 'rev-parse', 'status']);
  });

  it('CommitInfoLookup gives what fileCommitInfo gives for every file: nested, exported, multi-root and git-less roots', async () => {
    const ws = tempDir('lookup');
    const outer = initRepo(ws);
    const inner = initRepo(path.join(ws, 'clones', 'inner'));
    write(outer, 'AGENTS.md', 'outer rules');
    write(outer, 'apps/web/overview.md', 'web');
    // An exported repository (catalog + overview, no .git) inside the outer work tree.
    write(
      outer,
      'exported/catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: exported\n',
    );
    write(outer, 'exported/overview.md', 'exported');
    write(outer, '.gitignore', 'clones/\n');
    commitAll(outer, 'outer', T1);
    write(inner, 'overview.md', 'inner');
    write(inner, 'epics/one.md', '# One');
    commitAll(inner, 'inner', T2);
    write(inner, 'epics/two.md', '# Two (untracked)');
    write(outer, 'apps/web/overview.md', 'web, edited');
    const plain = tempDir('lookup-plain');
    write(plain, 'AGENTS.md', 'no git');
    // A second folder opened inside the first repository's work tree.
    const nested = path.join(ws, 'apps', 'web');
    const folders = [
      { name: 'ws', absPath: ws },
      { name: 'plain', absPath: plain },
      { name: 'web', absPath: nested },
    ];

    const found = await discoverWorkspace(folders);
    const facts = await loadGitFacts(found.roots);
    assert.deepEqual(facts.problems, []);
    const lookup = new CommitInfoLookup(found.roots, facts.repos);
    assert.ok(found.files.length >= 8, `files: ${found.files.map((f) => f.path).join(', ')}`);
    for (const file of found.files)
      assert.deepEqual(lookup.get(file.path), fileCommitInfo(file.path, folders, facts.repos), file.path);
    assert.deepEqual(lookup.get('ws/clones/inner/epics/two.md'), {
      commit: git(inner, ['rev-parse', 'HEAD']).trim(),
      dirty: true,
      lastCommitTime: null,
    });
    assert.deepEqual(lookup.get('ws/exported/overview.md').lastCommitTime, T1 * 1000);
    assert.deepEqual(lookup.get('plain/AGENTS.md'), { commit: null, dirty: false, lastCommitTime: null });
    assert.deepEqual(lookup.get('elsewhere/x.md'), fileCommitInfo('elsewhere/x.md', folders, facts.repos));
  });

  it('handles git missing from PATH: one Problem, files index without git facts', async () => {
    const repo = initRepo(tempDir('nogitbin'));
    write(repo, 'AGENTS.md', 'rules');
    commitAll(repo, 'first', T1);
    const runner = execFileGitRunner(path.join(tempDir('bin'), 'no-such-git'));
    await assert.rejects(lastCommitTimes(repo, { runner }), GitUnavailableError);

    const folders = [{ name: 'r', absPath: repo }];
    const found = await discoverWorkspace(folders);
    const facts = await loadGitFacts(found.roots, { runner });
    assert.deepEqual(
      facts.problems.map((p) => `${p.severity} ${p.code} ${p.path}`),
      ['warning git.unavailable '],
    );
    assert.match(facts.problems[0].message, /git is not available/);
    assert.deepEqual(fileCommitInfo('AGENTS.md', folders, facts.repos), {
      commit: null,
      dirty: false,
      lastCommitTime: null,
    });
  });
});
