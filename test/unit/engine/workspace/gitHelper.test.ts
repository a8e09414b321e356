/**
 * The helper-process git runner against the direct one: same answers for the same commands on
 * real repositories, the same errors, a fallback when the helper cannot run, and a process that
 * still exits by itself.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  execFileGitRunner,
  GitUnavailableError,
  HelperGitRunner,
  type GitRunner,
} from '../../../../server/src/engine/workspace/git';
import { commitAll, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const T1 = 1_600_000_000;

/** Commands with every kind of outcome: output, an exit code of 1, a failure with stderr. */
const COMMANDS: string[][] = [
  ['rev-parse', '--is-inside-work-tree', '--show-prefix', '--verify', '--quiet', 'HEAD^{commit}'],
  ['log', '-z', '--format=%x1e%ct', '--name-only', '--root', 'HEAD', '--'],
  ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.'],
  ['rev-parse', '--verify', '--quiet', 'no-such-branch^{commit}'],
  ['no-such-command'],
];

async function answers(runner: GitRunner, cwd: string) {
  return Promise.all(COMMANDS.map((args) => runner.run(args, cwd)));
}

describe('engine/workspace/gitHelper', () => {
  after(removeTempDirs);

  function repo(): string {
    const dir = initRepo(tempDir('helper'));
    write(dir, 'overview.md', 'overview\n');
    write(dir, 'docs/caf\u00e9 notes.md', 'notes with a non-ASCII name\n');
    commitAll(dir, 'first', T1);
    write(dir, 'AGENTS.md', 'untracked\n');
    return dir;
  }

  it('answers every command exactly as the direct runner does, from one helper process', async () => {
    const dir = repo();
    const helper = new HelperGitRunner();
    try {
      const expected = await answers(execFileGitRunner(), dir);
      assert.deepEqual(await answers(helper, dir), expected);
      assert.deepEqual(
        expected.map((r) => r.code),
        [0, 0, 0, 1, 1],
      );
      assert.match(expected[1].stdout, /caf\u00e9 notes\.md/);
      assert.match(expected[4].stderr, /no-such-command/);
      // Many calls in flight share the one helper.
      await Promise.all(Array.from({ length: 20 }, () => helper.run(['rev-parse', 'HEAD'], dir)));
      assert.equal(helper.starts, 1);
      assert.equal(helper.running, true);
    } finally {
      helper.dispose();
    }
    assert.equal(helper.running, false);
  });

  it('rejects as the direct runner does: no git, and no such directory', async () => {
    const dir = repo();
    const helper = new HelperGitRunner({ gitPath: path.join(tempDir('bin'), 'no-such-git') });
    try {
      await assert.rejects(
        helper.run(['status'], dir),
        (error) => error instanceof GitUnavailableError && /git is not available/.test(error.message),
      );
      const plain = new HelperGitRunner();
      try {
        await assert.rejects(
          plain.run(['status'], path.join(dir, 'missing-dir')),
          /git cannot run in .*missing-dir: no such directory/,
        );
      } finally {
        plain.dispose();
      }
    } finally {
      helper.dispose();
    }
  });

  it('runs git directly when the helper cannot start, for that call and every later one', async () => {
    const dir = repo();
    const helper = new HelperGitRunner({ nodePath: path.join(tempDir('nonode'), 'no-such-node') });
    try {
      const expected = await answers(execFileGitRunner(), dir);
      assert.deepEqual(await answers(helper, dir), expected);
      assert.deepEqual(await answers(helper, dir), expected);
      assert.equal(helper.starts, 1, 'one attempt, then direct');
      assert.equal(helper.running, false);
    } finally {
      helper.dispose();
    }
  });

  it('runs git directly when the helper starts but never says it is ready', async () => {
    const dir = repo();
    const silent = write(tempDir('silent'), 'silent-node', '#!/bin/sh\nexec sleep 30\n');
    fs.chmodSync(silent, 0o755);
    const helper = new HelperGitRunner({ nodePath: silent, startMs: 200 });
    try {
      const answer = await helper.run(['rev-parse', '--is-inside-work-tree'], dir);
      assert.deepEqual([answer.code, answer.stdout], [0, 'true\n']);
      assert.equal(helper.running, false, 'the silent helper was stopped');
    } finally {
      helper.dispose();
    }
  });

  it('stops after its idle time and starts again on the next call', async () => {
    const dir = repo();
    const helper = new HelperGitRunner({ idleMs: 100 });
    try {
      await helper.run(['rev-parse', 'HEAD'], dir);
      assert.equal(helper.running, true);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(helper.running, false);
      const again = await helper.run(['rev-parse', 'HEAD'], dir);
      assert.equal(again.code, 0);
      assert.equal(helper.starts, 2);
    } finally {
      helper.dispose();
    }
  });

  it('never keeps a one-shot process alive: a script that runs git once exits by itself', () => {
    const dir = repo();
    const script = `
      const { HelperGitRunner } = require(${JSON.stringify(path.resolve(__dirname, '../../../../server/src/engine/workspace/gitHelper.ts'))});
      new HelperGitRunner().run(['rev-parse', '--is-inside-work-tree'], ${JSON.stringify(dir)}).then((r) => process.stdout.write(r.stdout));`;
    const child = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(child.error, undefined, 'the script exited within 20 s');
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout, 'true\n');
  });
});
