/**
 * A change as git shows it (engine/workspace/gitDiff.ts), in real repositories made here: the
 * working tree with untracked files, the staged changes, a range; paths relative to a folder
 * inside the work tree; ranges that git would read as options refused; and a repository whose
 * config names programs (a clean filter, an external diff, a textconv driver, a pager) running
 * none of them while its working tree is diffed.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitRangeError, rangeProblem, readGitDiff } from '../../../../server/src/engine/workspace/gitDiff';
import { commitAll, git, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

describe('a change as git shows it (gitDiff.ts)', function () {
  this.timeout(60_000);
  let repo: string;
  before(() => {
    repo = initRepo(tempDir('diff-repo'));
    write(repo, 'services/billing/src/a.ts', 'export const a = 1;\n');
    write(repo, 'services/billing/docs/index.md', '# Billing\n');
    write(repo, 'README.md', '# Repo\n');
    commitAll(repo, 'first', 1_700_000_000);
    git(repo, ['checkout', '-q', '-b', 'feature']);
    write(repo, 'services/billing/src/b.ts', 'export const b = 2;\n');
    commitAll(repo, 'second', 1_700_000_100);
    write(repo, 'services/billing/src/a.ts', 'export const a = 10;\n');
    write(repo, 'services/billing/src/new.ts', 'untracked\n');
    write(repo, 'README.md', '# Repo, staged\n');
    git(repo, ['add', 'README.md']);
  });
  after(removeTempDirs);

  it('the working tree against HEAD: staged and unstaged changes, and untracked files', async () => {
    const result = await readGitDiff(repo);
    assert.equal(result.compared, 'the working tree against HEAD');
    assert.match(result.diff, /^diff --git a\/README\.md b\/README\.md$/m);
    assert.match(result.diff, /^diff --git a\/services\/billing\/src\/a\.ts b\/services\/billing\/src\/a\.ts$/m);
    assert.match(result.diff, /^\+export const a = 10;$/m);
    assert.deepEqual(result.untracked, ['services/billing/src/new.ts']);
  });

  it('the staged changes only, and a range', async () => {
    const staged = await readGitDiff(repo, { staged: true });
    assert.deepEqual(staged.diff.match(/^diff --git .*$/gm), ['diff --git a/README.md b/README.md']);
    assert.deepEqual(staged.untracked, []);
    const range = await readGitDiff(repo, { range: 'main...feature' });
    assert.deepEqual(range.diff.match(/^diff --git .*$/gm), [
      'diff --git a/services/billing/src/b.ts b/services/billing/src/b.ts',
    ]);
    assert.equal(range.compared, 'main...feature');
  });

  it('paths relative to a folder inside the work tree, only that folder', async () => {
    const result = await readGitDiff(path.join(repo, 'services', 'billing'));
    assert.deepEqual(result.diff.match(/^diff --git .*$/gm), ['diff --git a/src/a.ts b/src/a.ts']);
    assert.deepEqual(result.untracked, ['src/new.ts']);
  });

  it('refuses a range git would read as an option, or one holding what no range is written with', async () => {
    for (const range of ['--output=/tmp/x', '-p', 'main..--exec=x', 'HEAD;rm -rf /', 'a b', '$(id)', ''])
      await assert.rejects(readGitDiff(repo, { range }), GitRangeError, range);
    assert.equal(rangeProblem('origin/main...HEAD~2'), undefined);
    assert.equal(rangeProblem('v1.2.0..v1.3.0'), undefined);
    assert.equal(rangeProblem('@{upstream}...HEAD'), undefined);
    await assert.rejects(readGitDiff(repo, { range: 'HEAD', staged: true }), GitRangeError);
    // A revision git does not know: git's own words.
    await assert.rejects(readGitDiff(repo, { range: 'no-such-branch' }), /no-such-branch/);
  });

  it("runs none of the programs a repository's config names while it diffs the working tree", async () => {
    const hostile = initRepo(tempDir('diff-hostile'));
    const marks = tempDir('diff-marks');
    const script = write(marks, 'run.sh', `#!/bin/sh\ntouch '${path.join(marks, 'ran')}'\ncat\n`);
    fs.chmodSync(script, 0o755);
    write(hostile, '.gitattributes', '* filter=evil diff=evil\n');
    write(hostile, 'a.txt', 'one\n');
    commitAll(hostile, 'first', 1_700_000_000);
    fs.appendFileSync(
      path.join(hostile, '.git', 'config'),
      `[filter "evil"]\n\tclean = ${script}\n\trequired = true\n[diff "evil"]\n\ttextconv = ${script}\n\tcommand = ${script}\n[diff]\n\texternal = ${script}\n[core]\n\tpager = ${script}\n\tfsmonitor = ${script}\n`,
    );
    write(hostile, 'a.txt', 'two\n');
    const result = await readGitDiff(hostile);
    assert.match(result.diff, /^-one$/m);
    assert.match(result.diff, /^\+two$/m);
    assert.equal(fs.existsSync(path.join(marks, 'ran')), false, 'a program of the repository ran');
  });
});
