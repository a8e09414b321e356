/**
 * The command line's exit codes, as docs/cli.md ("Exit codes") lists them, on the built CLI: 0 ok;
 * 1 bad input (a usage error, a refused argument) or a command's own "no" (a failed check); 2 a
 * backend unavailable (a PostgreSQL store nothing answers at, a cache that cannot be written),
 * so a script can tell "try again later" from "fix the command". (3, an internal error, is a bug:
 * no test can make one on purpose.)
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { closedLoopbackPort } from '../helpers/closedPort';
import { copyExampleWorkspace, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

describe('exit codes (docs/cli.md)', function () {
  this.timeout(120_000);
  let ws: string;
  before(() => {
    ws = copyExampleWorkspace();
  });
  after(() => removeTempDirs());

  it('0: an answer', () => {
    assert.equal(wsctx(['ask', 'who owns billing-worker?', '--workspace', ws, '--limit', '1']).code, 0);
  });

  it('1: bad input, one line naming the flag; and a failed check', () => {
    const usage = wsctx(['ask', 'x', '--workspace', ws, '--colour']);
    assert.equal(usage.code, 1);
    assert.match(usage.stderr, /^wsctx: .*--colour/);
    const refused = wsctx(['expand', 'component:billing-worker', '--depth', '4', '--workspace', ws]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^wsctx: --depth: must be a whole number from 1 to 3/);
    write(
      ws,
      '.wsctx/expectations.yaml',
      'expectations:\n  - question: who owns billing-worker?\n    exclude:\n      - component:default/billing-worker\n',
    );
    assert.equal(wsctx(['check', '--workspace', ws]).code, 1);
  });

  it('2: a store nothing answers at, for a command that reads or writes it', async () => {
    const url = `postgresql://wsctx@127.0.0.1:${await closedLoopbackPort()}/wsctx`;
    for (const args of [
      ['ask', 'who owns billing-worker?', '--store', url],
      ['index', '--store', url, '--workspace', ws],
    ]) {
      const run = wsctx(args);
      assert.equal(run.code, 2, `${args[0]}: ${run.stderr}`);
      assert.match(
        run.stderr,
        /^wsctx: --store: cannot reach the PostgreSQL database at postgresql:\/\/wsctx@127\.0\.0\.1:\d+\/wsctx: /,
      );
    }
    // A URL that is not PostgreSQL's is bad input, not an unavailable store.
    assert.equal(wsctx(['ask', 'x', '--store', 'mysql://db/x']).code, 1);
  });

  it('2: a cache that cannot be written', () => {
    const file = write(tempDir('exit-cache'), 'not-a-folder', 'a regular file');
    const run = wsctx(['index', '--workspace', ws, '--cache-dir', path.join(file, 'cache')]);
    assert.equal(run.code, 2, run.stderr);
  });
});
