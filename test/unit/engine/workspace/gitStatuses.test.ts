import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoStatus } from '../../../../server/src/engine/workspace/git';
import {
  repoStatuses,
  splitStatusOutput,
  startRepoStatusesAtOnce,
} from '../../../../server/src/engine/workspace/gitStatuses';
import {
  commitAll,
  countingGitRunner,
  git,
  initRepo,
  removeTempDirs,
  tempDir,
  write,
} from '../../../helpers/tempWorkspace';

const T1 = 1_600_000_000;
const T2 = 1_650_000_000;

/** The git command of a call: its first argument that is neither an option nor a `-c` value. */
function command(args: readonly string[]): string | undefined {
  return args.find((arg, i) => !arg.startsWith('-') && args[i - 1] !== '-c');
}

/** A repository with two committed files, changed afterwards by `change`. */
function repoWith(label: string, change: (repo: string) => void): string {
  const repo = initRepo(tempDir(label));
  write(repo, 'README.md', '# Readme\n');
  write(repo, 'docs/guide.md', '# Guide\n');
  commitAll(repo, 'base', T1);
  change(repo);
  return repo;
}

describe('engine/workspace/gitStatuses', () => {
  after(removeTempDirs);

  it('gives each repository the answer repoStatus gives it, in batches of repositories per process', async () => {
    const repos = [
      repoWith('clean', () => {}),
      repoWith('edit-in-place', (repo) => write(repo, 'docs/guide.md', '# Guide, edited\n')),
      repoWith('new-untracked', (repo) => write(repo, 'docs/deep/new page.md', '# New\n')),
      repoWith('deleted', (repo) => fs.rmSync(path.join(repo, 'docs/guide.md'))),
      repoWith('git-add', (repo) => {
        write(repo, 'README.md', '# Readme, staged\n');
        git(repo, ['add', 'README.md']);
      }),
      repoWith('branch-switch', (repo) => {
        git(repo, ['checkout', '-q', '-b', 'other']);
        write(repo, 'docs/other.md', '# Other\n');
        commitAll(repo, 'other', T2);
      }),
      repoWith('gitignore-rule', (repo) => {
        write(repo, 'build/out.md', '# Built\n');
        write(repo, '.gitignore', 'build/\n');
      }),
      // A file named like the header that starts each repository's output, renamed: its old name
      // follows the entry in the output and must not start a new repository's part.
      repoWith('header-named', (repo) => {
        write(repo, '# branch.oid 0123.md', 'odd');
        commitAll(repo, 'odd', T2);
        git(repo, ['mv', '# branch.oid 0123.md', 'renamed.md']);
      }),
      initRepo(tempDir('no-commit')),
      repoWith('filter-driver', (repo) => {
        git(repo, ['config', 'filter.shout.clean', 'tr a-z A-Z']);
        write(repo, 'README.md', '# Readme, filtered\n');
      }),
    ];
    const runner = countingGitRunner();
    const statuses = await repoStatuses(repos, { runner });
    const alone = await Promise.all(repos.map((repo) => repoStatus(repo)));
    assert.deepEqual(statuses, alone);
    // Spot checks that the repositories differ as built (the comparison above is not vacuous).
    assert.deepEqual([...statuses[1]!.dirty], ['docs/guide.md']);
    assert.deepEqual([...statuses[2]!.dirty], ['docs/deep/new page.md']);
    assert.deepEqual([...statuses[3]!.dirty], ['docs/guide.md']);
    assert.deepEqual([...statuses[4]!.dirty], ['README.md']);
    assert.notEqual(statuses[5]!.head, statuses[0]!.head);
    assert.deepEqual([...statuses[6]!.dirty], ['.gitignore']);
    assert.deepEqual([...statuses[7]!.dirty].sort(), ['# branch.oid 0123.md', 'renamed.md']);
    assert.equal(statuses[8]!.head, null);
    assert.deepEqual([...statuses[9]!.dirty], ['README.md']);
    // Nine repositories in batches of three (a batch per core and two), the one with a filter
    // driver alone (its drivers listed, then emptied).
    const commands = runner.calls.map(command);
    assert.equal(commands.filter((c) => c === 'for-each-repo').length, 3, commands.join(' '));
    assert.deepEqual(
      commands.filter((c) => c !== 'for-each-repo'),
      ['config', 'status'],
    );
    // The list is command-line config under a key of its own: no config file can add to it.
    const keys = runner.calls
      .filter((args) => command(args) === 'for-each-repo')
      .map((args) => args.find((arg) => arg.startsWith('--config='))!.slice('--config='.length));
    assert.equal(new Set(keys).size, 3);
    for (const key of keys) assert.match(key, /^wsctx\.r[0-9a-f]{16}$/);
  });

  it('asked all at once: every batch is with the runner when the call resolves, and the answers are the same', async () => {
    // A warm start parses the snapshot right after this resolves, its thread busy: a batch not
    // handed to the runner by then would wait for the parse.
    const repos = Array.from({ length: 10 }, (_, i) =>
      repoWith(`at-once-${i}`, (repo) => {
        if (i % 3 === 0) write(repo, `docs/new-${i}.md`, '# New\n');
        if (i === 4) git(repo, ['config', 'filter.shout.clean', 'tr a-z A-Z']);
      }),
    );
    const runner = countingGitRunner();
    const started = await startRepoStatusesAtOnce(repos, { runner });
    // Nine batched repositories in two batches (five and four), both started; the one with a
    // filter driver is asked alone (its drivers listed first).
    const handed = runner.calls.map(command);
    assert.equal(handed.filter((c) => c === 'for-each-repo').length, 2, handed.join(' '));
    const statuses = await started.statuses;
    assert.deepEqual(statuses, await Promise.all(repos.map((repo) => repoStatus(repo))));
    assert.deepEqual([...statuses[3]!.dirty], ['docs/new-3.md']);
    assert.deepEqual([...statuses[1]!.dirty], []);
  });

  it('a batch that stops at a directory git does not know finishes through repoStatus', async () => {
    // A `.git` with a config and nothing else: no filter to empty, so it is batched, and git stops
    // the batch there (not a repository).
    const broken = tempDir('not-a-repo');
    write(broken, '.git/config', '[core]\n');
    const repos = [
      repoWith('before-1', (repo) => write(repo, 'a.md', 'a')),
      repoWith('before-2', () => {}),
      broken,
      repoWith('after-1', (repo) => write(repo, 'b.md', 'b')),
      repoWith('after-2', () => {}),
      repoWith('after-3', (repo) => fs.rmSync(path.join(repo, 'README.md'))),
      repoWith('after-4', () => {}),
      repoWith('after-5', () => {}),
    ];
    const runner = countingGitRunner();
    const statuses = await repoStatuses(repos, { runner });
    assert.deepEqual(statuses, await Promise.all(repos.map((repo) => repoStatus(repo))));
    assert.equal(statuses[2], null);
    assert.deepEqual([...statuses[3]!.dirty], ['b.md']);
    assert.deepEqual([...statuses[5]!.dirty], ['README.md']);
    // Batches of two: the one holding the plain directory failed at it, its first repository,
    // and both of its repositories ran alone.
    assert.deepEqual(runner.calls.map(command).sort(), [
      'for-each-repo',
      'for-each-repo',
      'for-each-repo',
      'for-each-repo',
      'status',
      'status',
    ]);
  });

  it('splits outputs written one after another where each header starts', () => {
    const one = '# branch.oid aaa\0# branch.head main\0? new.md\0';
    const renamed = '2 R. N... 100644 100644 100644 1 1 R100 new.md\0# branch.oid x\0';
    const two = `# branch.oid bbb\0# branch.head main\0${renamed}`;
    const three = '# branch.oid (initial)\0# branch.head main\0';
    assert.deepEqual(splitStatusOutput(one + two + three), [one, two, three]);
    assert.deepEqual(splitStatusOutput(''), []);
  });
});
