/**
 * The status item's words (client/src/statusText.ts): each phase, progress counts, degraded flags
 * with their reasons, restricted mode, a stopped or failed server, and the re-index message.
 */
import assert from 'node:assert/strict';
import type { IndexStatus } from '../../../shared/protocol';
import {
  describeStatus,
  formatIndexedAt,
  parseProgressCount,
  problemsLine,
  progressCount,
  reindexSummary,
} from '../../../client/src/statusText';

function status(overrides: Partial<IndexStatus> = {}): IndexStatus {
  return {
    phase: 'ready',
    updating: false,
    indexedAt: '2026-11-30T14:05:12.345Z',
    folders: ['fernhill'],
    counts: {
      files: 97,
      documents: 133,
      sections: 350,
      entities: 66,
      edges: 150,
      unresolvedEdges: 1,
      problems: 1,
      bySourceKind: {},
    },
    lastPass: { kind: 'full', filesRead: 97, filesChanged: 0, filesRemoved: 0, durationMs: 412 },
    lastError: null,
    degraded: [],
    ...overrides,
  };
}

describe('client status text', () => {
  it('says starting until the server answers', () => {
    const view = describeStatus({ status: undefined, client: 'starting', trusted: true });
    assert.equal(view.text, '$(sync~spin) Context: starting');
    assert.equal(view.accessibilityLabel, 'Workspace Context: starting, starting the language server');
    assert.equal(view.busy, true);
  });

  it('says cold before the first pass', () => {
    const view = describeStatus({
      status: status({ phase: 'cold', indexedAt: null, counts: null, lastPass: null }),
      client: 'running',
      trusted: true,
    });
    assert.equal(view.text, '$(circle-outline) Context: cold');
    assert.equal(view.detail, 'not indexed yet');
    assert.equal(view.severity, 'info');
  });

  it('says indexing n of N when the progress counts, or just indexing', () => {
    const indexing = status({ phase: 'indexing', indexedAt: null, counts: null, lastPass: null });
    const counted = describeStatus({
      status: indexing,
      client: 'running',
      trusted: true,
      progress: { message: 'Read 12 of 97 files', done: 12, total: 97 },
    });
    assert.equal(counted.text, '$(sync~spin) Context: indexing 12 of 97');
    assert.equal(counted.detail, 'Read 12 of 97 files');
    assert.equal(counted.busy, true);
    const plain = describeStatus({
      status: indexing,
      client: 'running',
      trusted: true,
      progress: { message: 'Indexing fernhill' },
    });
    assert.equal(plain.text, '$(sync~spin) Context: indexing');
    assert.equal(plain.accessibilityLabel, 'Workspace Context: indexing, Indexing fernhill');
  });

  it('says indexing while an update runs over an index in service', () => {
    const view = describeStatus({ status: status({ updating: true }), client: 'running', trusted: true });
    assert.equal(view.text, '$(sync~spin) Context: indexing');
    assert.equal(view.tooltip[0], '**Workspace Context**: indexing (answers come from the last pass meanwhile).');
  });

  it('says ready with counts and indexedAt, and the details in the tooltip', () => {
    const view = describeStatus({
      status: status(),
      client: 'running',
      trusted: true,
      problems: { error: 1, warning: 4, info: 7 },
      mcp: {
        state: 'running',
        url: 'http://127.0.0.1:4100/mcp',
        token: 't',
        reason: null,
        serverName: 'workspace-context',
      },
    });
    assert.equal(view.text, '$(check) Context: ready');
    assert.equal(view.detail, '66 entities, 350 sections, indexed 2026-11-30 14:05:12 UTC');
    assert.equal(
      view.accessibilityLabel,
      'Workspace Context: ready, 66 entities, 350 sections, indexed 2026-11-30 14:05:12 UTC',
    );
    assert.deepEqual(view.tooltip, [
      '**Workspace Context**: ready.',
      '',
      '97 files, 133 documents, 350 sections, 66 entities, 150 edges (1 unresolved).',
      '',
      // What the Problems panel shows from this extension, not the index's parse problems (1).
      '12 problems in the Problems panel (1 error, 4 warnings, 7 info).',
      '',
      'Indexed at 2026-11-30 14:05:12 UTC (full pass over 97 files in 0.4 s).',
      '',
      'Folders: fernhill.',
      '',
      'MCP endpoint running at http://127.0.0.1:4100/mcp (registered with VS Code as "Workspace Context").',
    ]);
    assert.equal(view.severity, 'info');
  });

  it("says each folder's documentation coverage in the tooltip, in doctor's words, with its warnings", () => {
    const summary =
      'read 41 of 59 documentation files (40 as docs, 1 as overviews); not read: 17 not in sources.docs, 1 template';
    const view = describeStatus({
      status: status({
        coverage: [
          {
            folder: 'fernhill',
            files: 59,
            read: 41,
            summary,
            warnings: [
              'Documentation/ holds 20 documentation files and 3 of them are read (not read: 17 not in sources.docs).',
            ],
          },
        ],
      }),
      client: 'running',
      trusted: true,
    });
    const at = view.tooltip.indexOf(`Documentation in fernhill: ${summary}.`);
    assert.ok(at > 0, view.tooltip.join('\n'));
    assert.equal(
      view.tooltip[at + 2],
      '**docs-unread**: Documentation/ holds 20 documentation files and 3 of them are read (not read: 17 not in sources.docs).',
    );
  });

  it('says loading the model, then embedding n of N with the time left measured after the load, then ready', () => {
    const view = (embedding: IndexStatus['embedding']) =>
      describeStatus({ status: status({ embedding }), client: 'running', trusted: true });
    const loading = view({ done: 0, total: 350, secondsLeft: null, loadingModel: true });
    assert.equal(loading.text, '$(sync~spin) Context: loading the model');
    assert.equal(
      loading.accessibilityLabel,
      'Workspace Context: loading the model, 66 entities, 350 sections, answers rank on words until it is loaded',
    );
    assert.equal(loading.busy, true);
    // No rate measured yet: no estimate.
    assert.equal(
      view({ done: 32, total: 350, secondsLeft: null, loadingModel: false }).text,
      '$(sync~spin) Context: embedding 32 of 350',
    );
    assert.equal(
      view({ done: 64, total: 350, secondsLeft: 7.6, loadingModel: false }).text,
      '$(sync~spin) Context: embedding 64 of 350, a few seconds left',
    );
    assert.equal(
      view({ done: 64, total: 350, secondsLeft: 38 }).text,
      '$(sync~spin) Context: embedding 64 of 350, about 40 s left',
    );
    const long = view({ done: 120, total: 54571, secondsLeft: 545 });
    assert.equal(long.text, '$(sync~spin) Context: embedding 120 of 54571, about 9 min left');
    assert.equal(long.busy, true);
    assert.match(long.detail, /sections without vectors yet rank on words$/);
    assert.equal(view(null).text, '$(check) Context: ready');
  });

  it('counts the Problems panel as the panel does, in words', () => {
    assert.equal(problemsLine({ error: 0, warning: 0, info: 0 }), 'No problems in the Problems panel.');
    assert.equal(
      problemsLine({ error: 1, warning: 1, info: 1 }),
      '3 problems in the Problems panel (1 error, 1 warning, 1 info).',
    );
  });

  it('flags degraded states with their reasons; a failed pass is an error', () => {
    const degraded = describeStatus({
      status: status({ degraded: [{ flag: 'mcp-disabled', reason: 'Turned off by the setting.' }] }),
      client: 'running',
      trusted: true,
    });
    assert.equal(degraded.text, '$(warning) Context: ready');
    assert.equal(degraded.severity, 'warning');
    assert.match(degraded.detail, /, degraded: mcp-disabled$/);
    assert.ok(degraded.tooltip.includes('**mcp-disabled**: Turned off by the setting.'));
    const failed = describeStatus({
      status: status({ degraded: [{ flag: 'index-failed', reason: 'The last index pass failed: EACCES' }] }),
      client: 'running',
      trusted: true,
    });
    assert.equal(failed.text, '$(error) Context: ready');
    assert.equal(failed.severity, 'error');
  });

  it('says restricted mode in an untrusted workspace, without listing the flag as degraded', () => {
    const reason = 'The workspace is not trusted (restricted mode), so the MCP endpoint is not started.';
    const view = describeStatus({
      status: status({ degraded: [{ flag: 'restricted-mode', reason }] }),
      client: 'running',
      trusted: false,
    });
    assert.equal(view.text, '$(shield) Context: ready (restricted mode)');
    assert.equal(view.shortText, 'Ready (restricted mode)');
    assert.equal(view.severity, 'warning');
    assert.ok(
      view.tooltip.some((l) =>
        l.startsWith('**Restricted mode**: this workspace is not trusted, so the MCP endpoint is not started'),
      ),
    );
    assert.ok(!view.tooltip.some((l) => l.startsWith('**restricted-mode**')));
  });

  it('says when the language server failed or stopped, pointing at the log', () => {
    const failed = describeStatus({ status: undefined, client: 'failed', trusted: true, clientError: 'spawn ENOENT' });
    assert.equal(failed.text, '$(error) Context: server failed');
    assert.equal(failed.detail, 'the language server failed: spawn ENOENT');
    assert.equal(failed.severity, 'error');
    assert.equal(
      describeStatus({ status: status(), client: 'stopped', trusted: true }).text,
      '$(circle-slash) Context: server stopped',
    );
  });

  it('reads "n of N" from progress messages, and nothing from others', () => {
    assert.deepEqual(parseProgressCount('Read 1,204 of 2,000 files'), { done: 1204, total: 2000 });
    assert.equal(parseProgressCount('Indexing fernhill'), undefined);
    assert.equal(parseProgressCount('12 of 0'), undefined);
    assert.equal(progressCount({ percentage: 41.6 }), '42%');
    assert.equal(progressCount(undefined), undefined);
  });

  it('formats indexedAt in UTC and leaves other strings alone', () => {
    assert.equal(formatIndexedAt('2026-01-02T03:04:05Z'), '2026-01-02 03:04:05 UTC');
    assert.equal(formatIndexedAt('yesterday'), 'yesterday');
  });

  it('sums up a re-index: what the index holds and what the pass did', () => {
    assert.equal(
      reindexSummary(
        status({ lastPass: { kind: 'full', filesRead: 0, filesChanged: 0, filesRemoved: 0, durationMs: 380 } }),
      ),
      're-indexed fernhill: 97 files, 350 sections, 66 entities (full pass, 0 files read again, 0.4 s).',
    );
    assert.equal(
      reindexSummary(status({ counts: null, lastPass: null, lastError: 'EACCES', folders: [] })),
      're-indexed: nothing indexed. The pass failed: EACCES',
    );
  });
});
