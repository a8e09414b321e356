/**
 * Every tool call the CLI makes lands in the call log, and `wsctx diagnostics` reports it: the
 * graph and question tools too (before, only the library tools were logged), their empty answers,
 * and calls refused by the schema.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

describe('the call log covers every tool (built CLI)', () => {
  after(removeTempDirs);

  it('logs ask, expand and refused calls; diagnostics shows their latency and empty answers', () => {
    const cache = path.join(tempDir('calllog'), 'cache');
    const WS = ['--workspace', EXAMPLE_WORKSPACE, '--cache-dir', cache];
    assert.equal(wsctx(['ask', 'who owns billing-worker?', ...WS]).code, 0);
    assert.equal(wsctx(['ask', 'zzqxv wqpfj', ...WS]).code, 0);
    assert.equal(wsctx(['expand', 'billing-worker', ...WS]).code, 0);
    assert.equal(wsctx(['expand', 'billing-worker', '--depth', '4', ...WS]).code, 1);
    assert.equal(wsctx(['toc', 'rollback', ...WS]).code, 0);

    const json = JSON.parse(wsctx(['diagnostics', ...WS, '--json']).stdout) as {
      calls: number;
      errors: number;
      latency: { tool: string; calls: number }[];
      emptySearches: { tool: string; text: string; count: number }[];
    };
    assert.equal(json.calls, 5);
    assert.equal(json.errors, 1);
    assert.deepEqual(
      json.latency.map((l) => [l.tool, l.calls]),
      [
        ['get_toc', 1],
        ['workspace_context', 2],
        ['workspace_expand', 2],
        ['all', 5],
      ],
    );
    assert.deepEqual(
      json.emptySearches.map((e) => [e.tool, e.text, e.count]),
      [['workspace_context', 'zzqxv wqpfj', 1]],
    );

    const text = wsctx(['diagnostics', ...WS]).stdout;
    assert.match(text, /^Tool calls: 5 from \S+ to \S+ \(1 refused or failed\)\.\n/);
    assert.match(text, /\n {2}workspace_context +2 /);
    assert.match(text, /\nEmpty answers \(1\):\n {2}workspace_context {2}"zzqxv wqpfj" {2}x1 /);
  });
});
