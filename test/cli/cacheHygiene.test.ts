/**
 * The cache folder, as the built `wsctx index` uses it: never inside a served folder, temporary
 * files of an interrupted write cleaned up, a FIFO at the snapshot's path no reason to hang, and
 * a snapshot that cannot be written a failure of `index` with the reason.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { snapshotFileFor } from '../../server/src/engine/engine';
import { wsctx } from '../helpers/cli';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

function workspace(label: string): string {
  const ws = tempDir(label);
  write(ws, '.context/guide.md', '# Guide\n\nDeploy with care.\n');
  return ws;
}

describe('the cache folder (built CLI)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('refuses a cache folder inside the workspace, writing nothing there', () => {
    const ws = workspace('cache-inside');
    const run = wsctx(['index', '--workspace', ws, '--cache-dir', path.join(ws, '.cache', 'wsctx')]);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `wsctx: the cache folder ${path.join(ws, '.cache', 'wsctx')} lies inside the served folder ${ws}; the tool never writes into what it reads. Choose another with --cache-dir (or $WSCTX_CACHE_DIR), or use --no-cache.\n`,
    );
    assert.equal(fs.existsSync(path.join(ws, '.cache')), false);
  });

  it('exits non-zero with the reason when the snapshot cannot be written', () => {
    const ws = workspace('cache-fail');
    const file = write(tempDir('cache-file'), 'not-a-folder', 'a regular file');
    // A folder under a regular file: not even root can create it (ENOTDIR), as with a full disk.
    const run = wsctx(['index', '--workspace', ws, '--cache-dir', path.join(file, 'cache')]);
    assert.equal(run.code, 2);
    assert.match(run.stdout, /Documents/);
    assert.match(
      run.stderr,
      new RegExp(
        `^wsctx: could not write the index snapshot ${path.join(file, 'cache').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/index-[0-9a-f]{16}\\.snapshot: ENOTDIR`,
      ),
    );
  });

  it("removes temporary files an interrupted write left, and keeps a live writer's", () => {
    const ws = workspace('cache-orphan');
    const cache = tempDir('cache-orphans');
    const snapshot = snapshotFileFor(cache, [{ name: path.basename(ws), absPath: ws }]);
    const orphan = write(cache, `${path.basename(snapshot)}.2147480000.1700000000000.tmp`, 'half a snapshot');
    const live = write(cache, `${path.basename(snapshot)}.${process.pid}.${Date.now()}.tmp`, 'being written');
    const other = write(cache, 'index-0000000000000000.snapshot.2147480000.1700000000000.tmp', "another workspace's");
    const run = wsctx(['index', '--workspace', ws, '--cache-dir', cache]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      [fs.existsSync(orphan), fs.existsSync(live), fs.existsSync(other), fs.statSync(snapshot).isFile()],
      [false, true, true, true],
    );
  });

  it('starts past a FIFO at the snapshot path instead of hanging on it', () => {
    const ws = workspace('cache-fifo');
    const cache = tempDir('cache-fifo-dir');
    const snapshot = snapshotFileFor(cache, [{ name: path.basename(ws), absPath: ws }]);
    execFileSync('mkfifo', [snapshot]);
    const run = wsctx(['index', '--workspace', ws, '--cache-dir', cache]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Documents/);
    assert.equal(fs.statSync(snapshot).isFile(), true, 'the FIFO was replaced by a real snapshot');
  });

  it('writes its cache folders 0700 and files 0600, and closes an existing folder that let others in', () => {
    const ws = workspace('cache-modes');
    const cache = path.join(tempDir('cache-modes-dir'), 'wsctx');
    const run = wsctx(['index', '--workspace', ws, '--cache-dir', cache]);
    assert.equal(run.code, 0, run.stderr);
    const modes: string[] = [];
    const walk = (dir: string) => {
      for (const name of ['', ...fs.readdirSync(dir)]) {
        const abs = path.join(dir, name);
        const stat = fs.statSync(abs);
        if (name !== '' && stat.isDirectory()) walk(abs);
        else modes.push(`${stat.isDirectory() ? 'dir' : 'file'} ${(stat.mode & 0o777).toString(8)}`);
      }
    };
    walk(cache);
    assert.ok(
      modes.some((m) => m.startsWith('file')),
      modes.join('\n'),
    );
    assert.deepEqual([...new Set(modes)].sort(), ['dir 700', 'file 600']);
    const open = tempDir('cache-open');
    fs.chmodSync(open, 0o755);
    assert.equal(wsctx(['index', '--workspace', ws, '--cache-dir', open]).code, 0);
    assert.equal(fs.statSync(open).mode & 0o777, 0o700);
  });

  it('refuses a cache folder that belongs to another user, with the reason', function () {
    if (process.getuid?.() !== 0) this.skip();
    const ws = workspace('cache-owner');
    const theirs = tempDir('cache-theirs');
    fs.chownSync(theirs, 65534, 65534);
    const run = wsctx(['index', '--workspace', ws, '--cache-dir', theirs]);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `wsctx: the cache folder ${theirs} belongs to another user (uid 65534, you are 0); a snapshot there could have been planted, and your questions would be readable. Choose your own with --cache-dir (or $WSCTX_CACHE_DIR), or use --no-cache.\n`,
    );
    assert.deepEqual(fs.readdirSync(theirs), []);
  });
});
