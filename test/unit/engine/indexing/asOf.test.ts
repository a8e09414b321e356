/**
 * `asOf`: the graph and the passages as they were at a time or commit, read from git objects.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import { callTool } from '../../../../server/src/tools/callTool';
import { createServices } from '../../../../server/src/services/services';
import { findTool } from '../../../../server/src/tools/registry';
import type { ContextOutput } from '../../../../server/src/tools/workspaceContext';
import type { ExpandOutput } from '../../../../server/src/tools/workspaceExpand';
import { commitAll, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const catalog = (db: string, extra = '') => `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: billing-worker
  annotations: { backstage.io/techdocs-ref: "dir:." }
spec: { type: service, lifecycle: production, owner: payments, dependsOn: ['resource:${db}'] }
---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata: { name: ${db} }
spec: { type: database, owner: payments }
${extra}`;

describe('asOf from git history', () => {
  let dir: string;
  let engine: Engine;
  let first: string;
  let second: string;
  const expand = (args: Record<string, unknown>) =>
    callTool(
      createServices({ engine }),
      findTool('workspace_expand')!,
      { workspace: 'repo', ...args },
      { sessionId: 't' },
    ) as Promise<ExpandOutput>;
  const ask = (args: Record<string, unknown>) =>
    callTool(
      createServices({ engine }),
      findTool('workspace_context')!,
      { workspace: 'repo', ...args },
      { sessionId: 't' },
    ) as Promise<ContextOutput>;

  before(async () => {
    dir = tempDir('asof');
    initRepo(dir);
    write(dir, 'catalog-info.yaml', catalog('invoices-db'));
    write(dir, 'mkdocs.yml', 'site_name: Billing\n');
    write(
      dir,
      'docs/index.md',
      '# Billing worker\n\n## Failover\n\nFail over by promoting the invoices replica by hand.\n',
    );
    first = commitAll(dir, 'first', Date.UTC(2026, 0, 10) / 1000);
    write(
      dir,
      'catalog-info.yaml',
      catalog(
        'ledger-db',
        '---\napiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: refund-api }\nspec: { type: service, lifecycle: experimental, owner: payments }\n',
      ),
    );
    write(
      dir,
      'docs/index.md',
      '# Billing worker\n\n## Failover\n\nFailover is automatic since the ledger migration; nothing to promote.\n',
    );
    second = commitAll(dir, 'second', Date.UTC(2026, 5, 1) / 1000);
    write(dir, 'docs/index.md', '# Billing worker\n\n## Failover\n\nUncommitted draft about failover drills.\n');
    engine = new Engine({ folders: [{ name: 'repo', absPath: dir }] });
    await engine.waitForIndex();
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('walks the graph as the catalog was at a date and at a commit', async () => {
    const now = await expand({ entityRef: 'billing-worker', direction: 'out', edgeTypes: ['dependsOn'] });
    assert.deepEqual(
      now.edges.map((e) => e.target),
      ['resource:default/ledger-db'],
    );
    for (const asOf of ['2026-02-01', '2026-02-01T12:00:00Z', first, first.slice(0, 10)]) {
      const past = await expand({ entityRef: 'billing-worker', direction: 'out', edgeTypes: ['dependsOn'], asOf });
      assert.deepEqual(
        past.edges.map((e) => e.target),
        ['resource:default/invoices-db'],
        `asOf ${asOf}`,
      );
      assert.deepEqual(past.degraded, []);
    }
    await assert.rejects(expand({ entityRef: 'refund-api', asOf: '2026-02-01' }), /No entity 'refund-api'/);
    const later = await expand({ entityRef: 'refund-api', asOf: second });
    assert.equal(later.entity?.ref, 'component:default/refund-api');
  });

  it('answers with passage bodies as they were, at that commit, not flagged approximate', async () => {
    const past = await ask({ question: 'how do we fail over billing?', asOf: '2026-03-01', limit: 1 });
    assert.match(past.passages[0].text, /promoting the invoices replica by hand/);
    assert.equal(past.passages[0].sourceCommit, first);
    assert.equal(past.passages[0].dirty, false);
    assert.deepEqual(past.degraded, []);
    const present = await ask({ question: 'failover', limit: 1 });
    assert.match(present.passages[0].text, /Uncommitted draft/);
    assert.equal(present.passages[0].dirty, true);
  });

  it('refuses an asOf that is neither a date nor a commit, and one before the history', async () => {
    await assert.rejects(ask({ question: 'failover', asOf: 'last tuesday' }), /^InputError|asOf: /);
    const before = await ask({ question: 'failover', asOf: '2025-01-01' });
    assert.deepEqual(before.passages, [], 'nothing existed before the first commit');
    // Said, not left to guess: the repository had no files then.
    assert.deepEqual(before.degraded, ['as-of-before-history']);
    const expanded = await expand({ entityRef: 'billing-worker', asOf: '1960-05-01' }).catch((error: Error) => error);
    assert.match((expanded as Error).message, /No entity 'billing-worker' in the catalog/);
  });

  it('refuses an asOf that names no commit, naming the field, instead of answering from today', async () => {
    await assert.rejects(ask({ question: 'failover', asOf: 'no-such-commit' }), (error: Error) => {
      assert.equal(error.name, 'InputError');
      assert.match(
        error.message,
        /^asOf: "no-such-commit" is neither an ISO 8601 date-time .* nor a commit of any repository/,
      );
      return true;
    });
    await assert.rejects(
      ask({ question: 'failover', asOf: 'deadbeefdeadbeef' }),
      /asOf: "deadbeefdeadbeef" is neither/,
    );
    await assert.rejects(
      expand({ entityRef: 'billing-worker', asOf: '2026-02-30' }),
      /asOf: .*not a valid ISO 8601 date-time/,
    );
  });

  it('flags as-of-chunks-approximate when a folder has no history to read', async () => {
    const plain = tempDir('nogit');
    write(plain, 'epics/plan.md', '# Plan\n\nMigrate the ledger.\n');
    const e = new Engine({ folders: [{ name: 'plain', absPath: plain }] });
    try {
      await e.waitForIndex();
      const out = (await callTool(
        createServices({ engine: e }),
        findTool('workspace_context')!,
        { workspace: 'plain', question: 'ledger migration', asOf: '2026-01-01' },
        { sessionId: 't' },
      )) as ContextOutput;
      assert.deepEqual(out.degraded, ['as-of-chunks-approximate']);
      assert.equal(out.passages[0].sourceRef.path, 'epics/plan.md');
    } finally {
      e.dispose();
    }
  });
});
