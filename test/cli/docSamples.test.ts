/**
 * Docs that match what runs: every command sample in README.md and docs/ (a fenced block after a
 * `<!-- sample -->` marker) is produced by scripts/docs/samples.mjs, and this test runs every one
 * again, against the built CLI and a real `wsctx serve` for the REST API's curl samples, and fails
 * on any difference (modulo commit ids, times and durations). Regenerate with
 * `node scripts/docs/samples.mjs`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts', 'docs', 'samples.mjs');

describe('command samples in README.md and docs/', function () {
  this.timeout(600_000);

  it('every sample is what its commands print today', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
  });

  it('fails on a sample that differs from what its command prints (the check can fail)', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-doc-copy-'));
    try {
      fs.mkdirSync(path.join(copy, 'docs'));
      fs.writeFileSync(path.join(copy, 'README.md'), '# Nothing here\n');
      const rest = fs.readFileSync(path.join(ROOT, 'docs', 'rest.md'), 'utf8');
      const changed = rest.replace(/\n401\n/, '\n200\n');
      assert.notEqual(changed, rest);
      fs.writeFileSync(path.join(copy, 'docs', 'rest.md'), changed);
      const run = spawnSync(process.execPath, [SCRIPT, '--check', '--root', copy], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(run.status, 1, run.stderr);
      assert.match(
        run.stderr,
        /docs\/rest\.md:\d+:\n--- in the file\n[\s\S]*\n200\n[\s\S]*\+\+\+ printed now\n[\s\S]*\n401\n/,
      );
      assert.match(run.stderr, /1 sample\(s\) differ from what the commands print/);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it('the samples cover the README, the command line and the REST API', () => {
    const markers = (file: string) =>
      (fs.readFileSync(path.join(ROOT, file), 'utf8').match(/^<!-- sample( [^>]*)? -->$/gm) ?? []).length;
    assert.ok(markers('README.md') >= 2, 'README.md: ask and expand');
    assert.ok(markers('docs/cli.md') >= 4, 'docs/cli.md: why-not, check, an exit code, search');
    assert.ok(markers('docs/rest.md') >= 5, 'docs/rest.md: curl against wsctx serve');
  });
});
