import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { copyExampleWorkspace, removeTempDirs } from '../../../helpers/tempWorkspace';

/** Digest of every file under `dir`, to prove indexing writes nothing it reads. */
function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(d, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.isFile()) hash.update(abs).update(fs.readFileSync(abs));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

function docAt(state: IndexState, docPath: string) {
  return [...state.docs.values()].find((d) => d.path === docPath && d.sourceKind !== 'catalog_entity');
}

describe('Engine over the example workspace', () => {
  after(removeTempDirs);

  it('indexes every source kind, the catalog and its problems, without writing anything', async () => {
    const dir = copyExampleWorkspace();
    const before = treeDigest(dir);
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }] });
    const state = await engine.waitForIndex();
    assert.equal(treeDigest(dir), before, 'indexing must not modify the workspace');

    assert.equal(state.entities.length, 66);
    assert.deepEqual(state.counts.entitiesByKind, {
      API: 8,
      Component: 20,
      Domain: 3,
      Group: 7,
      Location: 2,
      Resource: 9,
      System: 6,
      Template: 1,
      User: 10,
    });
    assert.equal(state.counts.bySourceKind.catalog_entity, 66);
    assert.equal(state.counts.bySourceKind.repo_overview, 3);
    assert.equal(state.counts.bySourceKind.epic_doc, 7);
    assert.ok(state.counts.bySourceKind.catalog_doc >= 20);
    assert.ok(state.counts.bySourceKind.library >= 20);
    // The deliberately broken entity is a problem with file:line; its neighbours in the file index.
    const invalid = state.problems.filter((p) => p.code === 'catalog.invalid-entity');
    assert.deepEqual(
      invalid.map((p) => `${p.path}:${p.line}`),
      ['storefront/catalog/legacy-entities.yaml:25'],
    );
    assert.ok(state.graph.has('component:default/order-export'));
    // Ignored build output and node_modules never reach the index.
    assert.ok(![...state.fileDigests.keys()].some((p) => p.includes('/build/') || p.includes('node_modules')));
    // The overview of a repository is attached to every entity declared in it.
    const overview = docAt(state, 'payments-platform/overview.md')!;
    assert.equal(overview.sourceKind, 'repo_overview');
    assert.ok(overview.entityRefs.includes('component:default/billing-worker'));
    assert.ok(!overview.entityRefs.includes('component:default/checkout-web'));
    // TechDocs pages belong to their entity, overview first.
    const dunning = docAt(state, 'payments-platform/services/billing-worker/docs/runbooks/dunning.md')!;
    assert.equal(dunning.sourceKind, 'catalog_doc');
    assert.deepEqual(dunning.entityRefs, ['component:default/billing-worker']);
    engine.dispose();
  });

  it('re-reads only the changed file on update, and applies edits, deletions and new files', async () => {
    const dir = copyExampleWorkspace();
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }], settings: { updateDebounceMs: 10 } });
    const first = await engine.waitForIndex();
    const runbook = 'payments-platform/services/billing-worker/docs/runbooks/deploy.md';
    const before = docAt(first, runbook)!;

    fs.appendFileSync(
      path.join(dir, runbook),
      '\n## Canary window\n\nHold the kestrelhold canary for exactly 17 minutes before promoting.\n',
    );
    const report = await engine.update([path.join(dir, runbook)]);
    assert.equal(report?.kind, 'update');
    assert.equal(report?.filesRead, 1, 'only the edited file is read again');
    assert.deepEqual(report?.filesChanged, [runbook]);
    assert.deepEqual(report?.sections.changedDocs, [before.id]);
    const edited = engine.current()!;
    const after = docAt(edited, runbook)!;
    assert.equal(after.sections.at(-1)!.headingPath.at(-1), 'Canary window');
    assert.ok(edited.lexical.match([['kestrelhold']]).count >= 1, 'the new text is searchable');
    // Everything else kept its identity (nothing else re-parsed).
    const otherPath = 'payments-platform/services/billing-worker/docs/runbooks/dunning.md';
    assert.equal(docAt(edited, otherPath), docAt(first, otherPath));

    fs.rmSync(path.join(dir, runbook));
    const removal = await engine.update([runbook]);
    assert.deepEqual(removal?.filesRemoved, [runbook]);
    assert.equal(docAt(engine.current()!, runbook), undefined);
    assert.equal(engine.current()!.lexical.match([['kestrelhold']]).count, 0);

    // A new file (a rename lands as delete + create) takes a walk to learn its roles.
    const moved = 'payments-platform/services/billing-worker/docs/runbooks/deploy-v2.md';
    fs.writeFileSync(path.join(dir, moved), '# Deploying v2\n\nUse the blue-green switch.\n');
    await engine.update([moved]);
    const created = docAt(engine.current()!, moved)!;
    assert.equal(created.sourceKind, 'catalog_doc');
    engine.dispose();
  });

  it('gives each file its repository HEAD, dirty state and last commit time from real git repositories', async () => {
    const when = 1_767_225_600; // 2026-01-01T00:00:00Z
    const dir = copyExampleWorkspace({ git: true, commitEpochSeconds: when });
    fs.appendFileSync(path.join(dir, 'storefront/overview.md'), '\nEdited locally.\n');
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }] });
    const state = await engine.waitForIndex();
    const repoRoots = state.repos
      .filter((r) => r.git)
      .map((r) => r.root)
      .sort();
    assert.deepEqual(repoRoots, ['', 'payments-platform', 'platform-infra', 'storefront']);
    const payments = state.repos.find((r) => r.root === 'payments-platform')!;
    const info = state.commits.get('payments-platform/overview.md')!;
    assert.equal(info.commit, payments.head);
    assert.equal(info.dirty, false);
    assert.equal(info.lastCommitTime, when * 1000);
    const edited = state.commits.get('storefront/overview.md')!;
    assert.equal(edited.dirty, true);
    assert.notEqual(edited.commit, payments.head, 'each repository has its own HEAD');
    engine.dispose();
  });

  it('answers the first query cold and starts indexing', async () => {
    const dir = copyExampleWorkspace();
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }] });
    assert.equal(engine.stateForQuery(), undefined);
    assert.equal(engine.status().phase, 'indexing');
    const state = await engine.waitForIndex();
    assert.equal(engine.stateForQuery(), state);
    assert.equal(engine.status().phase, 'ready');
    engine.dispose();
  });
});

describe('Engine updates from file events', () => {
  after(removeTempDirs);

  it('ignores new files no source glob can match, walks for new candidate files, and drops deleted directories', async () => {
    const dir = copyExampleWorkspace();
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }], settings: { updateDebounceMs: 0 } });
    await engine.waitForIndex();
    fs.writeFileSync(
      path.join(dir, 'payments-platform/services/billing-worker/src/new-file.ts'),
      'export const x = 1;\n',
    );
    const ignored = await engine.update([path.join(dir, 'payments-platform/services/billing-worker/src/new-file.ts')]);
    assert.equal(ignored?.kind, 'update', 'a source file is not ours: no walk');
    assert.equal(ignored?.filesRead, 0);

    fs.mkdirSync(path.join(dir, 'payments-platform/epics/2027'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'payments-platform/epics/2027/refunds.md'),
      '# Instant refunds\n\nRefund within the same session.\n',
    );
    const walked = await engine.update([path.join(dir, 'payments-platform/epics/2027/refunds.md')]);
    assert.equal(walked?.kind, 'full', 'a new epic needs a walk to learn its roles');
    assert.ok(
      [...engine.current()!.docs.values()].some(
        (d) => d.path === 'payments-platform/epics/2027/refunds.md' && d.sourceKind === 'epic_doc',
      ),
    );

    fs.rmSync(path.join(dir, 'payments-platform/services/billing-worker/docs/runbooks'), { recursive: true });
    const removed = await engine.update([path.join(dir, 'payments-platform/services/billing-worker/docs/runbooks')]);
    assert.equal(removed?.kind, 'update');
    assert.deepEqual(removed?.filesRemoved, [
      'payments-platform/services/billing-worker/docs/runbooks/alerts.md',
      'payments-platform/services/billing-worker/docs/runbooks/deploy.md',
      'payments-platform/services/billing-worker/docs/runbooks/dunning.md',
    ]);
    engine.dispose();
  });
});

describe('Engine without git (untrusted workspaces)', () => {
  after(removeTempDirs);

  it('runs no git: no commits, no dirty marks, and asOf refused with a reason', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }], settings: { useGit: false } });
    const state = await engine.waitForIndex();
    assert.ok(state.counts.sections > 300);
    assert.ok([...state.commits.values()].every((c) => c.commit === null && c.lastCommitTime === null));
    await assert.rejects(
      engine.stateAsOf('2026-01-01'),
      /^InputError: asOf: git is off in this workspace \(untrusted\)|asOf: git is off/,
    );
    engine.dispose();
  });
});
