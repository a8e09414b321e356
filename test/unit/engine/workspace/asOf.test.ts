import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { execFileGitRunner } from '../../../../server/src/engine/workspace/gitRunner';
import { parseIsoDateTime, resolveAsOf } from '../../../../server/src/engine/workspace/asOf';
import { commitAll, dated, git, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const T1 = 1_600_000_000; // 2020-09-13T12:26:40Z
const T2 = 1_650_000_000; // 2022-04-15T05:20:00Z
const T3 = 1_700_000_000; // 2023-11-14T22:13:20Z
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

describe('engine/workspace/asOf', () => {
  let repo: string;
  let c1: string;
  let c2: string;
  let c3: string;

  before(() => {
    repo = initRepo(tempDir('asof'));
    write(repo, 'catalog-info.yaml', 'v1');
    c1 = commitAll(repo, 'one', T1);
    write(repo, 'catalog-info.yaml', 'v2');
    c2 = commitAll(repo, 'two', T2);
    write(repo, 'catalog-info.yaml', 'v3');
    c3 = commitAll(repo, 'three', T3);
  });
  after(removeTempDirs);

  it('parses ISO 8601 dates and date-times, with and without zones', () => {
    assert.equal(parseIsoDateTime('2022-04-15T05:20:00Z'), T2 * 1000);
    assert.equal(parseIsoDateTime('2022-04-15T07:20:00+02:00'), T2 * 1000);
    assert.equal(parseIsoDateTime('2022-04-15 07:20:00+0200'), T2 * 1000);
    assert.equal(parseIsoDateTime('2022-04-15T06:20+01'), T2 * 1000);
    assert.equal(parseIsoDateTime('2022-04-15'), Date.UTC(2022, 3, 15));
    assert.equal(parseIsoDateTime('2022-13-45'), null);
    assert.equal(parseIsoDateTime('HEAD~1'), null);
    assert.equal(parseIsoDateTime('last week'), null);
  });

  it('resolves a date-time to the last commit at or before it', async () => {
    assert.deepEqual(await resolveAsOf(repo, iso(T2)), { ok: true, commit: c2, commitTime: T2 * 1000 });
    assert.deepEqual(await resolveAsOf(repo, iso(T2 + 1)), { ok: true, commit: c2, commitTime: T2 * 1000 });
    assert.deepEqual(await resolveAsOf(repo, iso(T2 - 1)), { ok: true, commit: c1, commitTime: T1 * 1000 });
    assert.deepEqual(await resolveAsOf(repo, '2030-01-01'), { ok: true, commit: c3, commitTime: T3 * 1000 });
    assert.deepEqual(await resolveAsOf(repo, '2022-04-16'), { ok: true, commit: c2, commitTime: T2 * 1000 });
  });

  it('resolves a commit-ish: full sha, prefix, HEAD~n, tag', async () => {
    git(repo, ['tag', 'v1', c1]);
    assert.deepEqual(await resolveAsOf(repo, c2), { ok: true, commit: c2, commitTime: T2 * 1000 });
    assert.deepEqual(await resolveAsOf(repo, c1.slice(0, 10)), { ok: true, commit: c1, commitTime: T1 * 1000 });
    assert.deepEqual(await resolveAsOf(repo, 'HEAD~1'), { ok: true, commit: c2, commitTime: T2 * 1000 });
    assert.deepEqual(await resolveAsOf(repo, 'v1'), { ok: true, commit: c1, commitTime: T1 * 1000 });
  });

  it('follows the first-parent line: a branch commit merged later is not the state at its own time', async () => {
    const merged = initRepo(tempDir('asof-merge'));
    write(merged, 'a.md', 'a');
    const base = commitAll(merged, 'base', T1);
    git(merged, ['checkout', '-q', '-b', 'side']);
    write(merged, 'b.md', 'b');
    commitAll(merged, 'side', T2);
    git(merged, ['checkout', '-q', 'main']);
    git(merged, ['merge', '-q', '--no-ff', '-m', 'merge', 'side'], dated(T3));
    assert.deepEqual(await resolveAsOf(merged, iso(T2 + 10)), { ok: true, commit: base, commitTime: T1 * 1000 });
  });

  it('explains each failure', async () => {
    const cases: [string, string, string, RegExp][] = [
      [
        repo,
        iso(T1 - 1),
        'before-history',
        /before the repository's history, which starts at 2020-09-13T12:26:40.000Z/,
      ],
      [repo, 'deadbeefdeadbeef', 'unknown-commit', /names no commit/],
      [repo, 'no-such-branch', 'unknown-commit', /"no-such-branch" names no commit/],
      [repo, '--output=/tmp/x', 'invalid', /neither an ISO 8601 date-time/],
      [repo, 'last week', 'invalid', /neither an ISO 8601 date-time/],
      [repo, '  ', 'invalid', /neither/],
      [tempDir('asof-plain'), c1, 'no-git', /is not in a git repository/],
      [initRepo(tempDir('asof-empty')), iso(T3), 'no-commits', /has no commits yet/],
    ];
    for (const [root, asOf, reason, message] of cases) {
      const result = await resolveAsOf(root, asOf);
      assert.equal(result.ok, false, asOf);
      if (!result.ok) {
        assert.equal(result.reason, reason, asOf);
        assert.match(result.message, message);
      }
    }
  });

  it('reads a date before 1973 as that date, not as HEAD (git misreads a short --before=@<seconds>)', async () => {
    const old = initRepo(tempDir('asof-1971'));
    write(old, 'a.md', 'a');
    const early = commitAll(old, 'early', 40_000_000); // 1971-04-08
    write(old, 'a.md', 'b');
    commitAll(old, 'late', T1);
    assert.deepEqual(await resolveAsOf(old, '1971-06-01'), { ok: true, commit: early, commitTime: 40_000_000 * 1000 });
    for (const date of ['1970-06-01', '1960-01-01T00:00:00Z']) {
      const result = await resolveAsOf(old, date);
      assert.deepEqual(result.ok ? result.commit : result.reason, 'before-history', date);
    }
  });

  it('refuses a date-shaped asOf that is no date', async () => {
    for (const asOf of ['2024-13-45', '2024-02-30T25:00']) {
      const result = await resolveAsOf(repo, asOf);
      assert.deepEqual(
        result.ok ? result.commit : [result.reason, /not a valid ISO 8601 date-time/.test(result.message)],
        ['invalid', true],
        asOf,
      );
    }
  });

  it('says when a shallow clone lacks the history asked for', async () => {
    const clone = path.join(tempDir('asof-shallow'), 'clone');
    git(path.dirname(clone), ['clone', '-q', '--depth', '1', `file://${repo}`, clone]);
    assert.deepEqual(await resolveAsOf(clone, iso(T3)), { ok: true, commit: c3, commitTime: T3 * 1000 });
    const byDate = await resolveAsOf(clone, iso(T2));
    assert.equal(byDate.ok, false);
    if (!byDate.ok) {
      assert.equal(byDate.reason, 'shallow');
      assert.match(byDate.message, /shallow clone .*git fetch --unshallow/);
    }
    const bySha = await resolveAsOf(clone, c1);
    assert.equal(bySha.ok, false);
    if (!bySha.ok) assert.equal(bySha.reason, 'shallow');
  });

  it('says when git is missing', async () => {
    const runner = execFileGitRunner(path.join(tempDir('asof-bin'), 'no-such-git'));
    const result = await resolveAsOf(repo, iso(T2), { runner });
    assert.deepEqual(result.ok ? null : [result.reason, /git is not available/.test(result.message)], ['no-git', true]);
  });
});
