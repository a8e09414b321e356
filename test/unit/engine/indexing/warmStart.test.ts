/**
 * Warm start (issue 44): after a snapshot is restored, the first pass asks git what changed since
 * the snapshot (tracked edits, deletions, untracked files, edits since reverted, commits since the
 * snapshot's HEAD) and walks only the files outside every repository, in real git repositories
 * made by the test, and reads only what changed; the state it ends with equals a cold index's.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { createServices } from '../../../../server/src/services/services';
import { callTool } from '../../../../server/src/tools/callTool';
import { findTool } from '../../../../server/src/tools/registry';
import type { ContextOutput } from '../../../../server/src/tools/workspaceContext';
import {
  commitAll,
  copyExampleWorkspace,
  git,
  initRepo,
  removeTempDirs,
  tempDir,
} from '../../../helpers/tempWorkspace';

const RUNBOOK = 'payments-platform/services/billing-worker/docs/runbooks/dunning.md';

/** When the snapshot in each cache folder was indexed. */
const coldIndexedAt = new Map<string, string>();

async function indexAndSave(folders: { name: string; absPath: string }[], cache: string): Promise<void> {
  const first = new Engine({ folders, cacheDir: cache });
  coldIndexedAt.set(cache, (await first.waitForIndex()).indexedAt);
  assert.equal(await first.saveSnapshot(), true);
  first.dispose();
}

/** A fresh engine on the snapshot, after its first pass; a cold index of the same folders beside it. */
async function restart(folders: { name: string; absPath: string }[], cache: string): Promise<Engine> {
  const cold = new Engine({ folders });
  coldStates.set(folders[0].absPath, await cold.waitForIndex());
  cold.dispose();
  const engine = new Engine({ folders, cacheDir: cache });
  await engine.waitForIndex();
  assert.equal(engine.status().fromSnapshot, false);
  return engine;
}

/** The example, in no git repository, indexed once and its snapshot saved in a fresh cache. */
async function savedExampleOutsideGit() {
  const dir = copyExampleWorkspace();
  const cache = tempDir('cache');
  const folders = [{ name: 'fernhill', absPath: dir }];
  await indexAndSave(folders, cache);
  return { dir, cache, folders };
}

describe('warm start asks git what changed since the snapshot', () => {
  after(removeTempDirs);

  it('re-reads a tracked file edited after the snapshot, and nothing else', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    fs.appendFileSync(
      path.join(dir, RUNBOOK),
      '\n## Grace period\n\nPast-due accounts keep a quokka-length grace window.\n',
    );

    const engine = await restart(folders, cache);
    const pass = engine.status().lastPass!;
    assert.equal(pass.kind, 'update', 'no walk of the workspace: git named the changed file');
    assert.equal(pass.filesRead, 1);
    assert.deepEqual(pass.filesChanged, [RUNBOOK]);
    assert.equal(engine.current()!.lexical.match([['quokka']]).count, 1);
    assert.equal(engine.current()!.commits.get(RUNBOOK)?.dirty, true, 'git says the edited file differs from HEAD');
    engine.dispose();
  });

  it('keeps the restored state when nothing changed since the snapshot, with the time of the check', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);

    const engine = await restart(folders, cache);
    const pass = engine.status().lastPass!;
    assert.equal(pass.kind, 'update');
    assert.equal(pass.filesRead, 0);
    assert.deepEqual(pass.sections, { addedSections: 0, removedSections: 0, changedDocs: [], removedDocs: [] });
    assert.equal(pass.catalog, 'kept');
    assert.notEqual(engine.current()!.indexedAt, coldIndexedAt.get(cache), 'the index was found current now');
    assertSameAsCold(engine, folders);
    engine.dispose();
  });

  it('takes the new commit facts of a repository whose HEAD moved past files the index does not hold', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    // A commit of a file no glob takes: nothing to read, yet every file of the repository has a
    // new HEAD.
    const repo = path.join(dir, 'payments-platform');
    fs.writeFileSync(path.join(repo, 'deploy.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const head = commitAll(repo, 'Deploy badge', Math.floor(Date.now() / 1000));

    const engine = await restart(folders, cache);
    const pass = engine.status().lastPass!;
    assert.equal(pass.kind, 'update');
    assert.equal(pass.filesRead, 0);
    const state = engine.current()!;
    assert.equal(state.commits.get(RUNBOOK)?.commit, head);
    assert.equal(state.repos.find((r) => r.root === 'payments-platform')?.head, head);
    assertSameAsCold(engine, folders);
    engine.dispose();
  });

  it('drops a deleted tracked file and finds an untracked new one', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    const before = await restart(folders, cache);
    const docsBefore = [...before.current()!.docs.values()].filter((d) => d.path === RUNBOOK).length;
    before.dispose();
    assert.ok(docsBefore > 0);
    fs.rmSync(path.join(dir, RUNBOOK));
    const added = 'payments-platform/services/billing-worker/docs/runbooks/wombat.md';
    fs.writeFileSync(path.join(dir, added), '# Wombat drills\n\nThe wombat drill rehearses a settlement outage.\n');

    const engine = await restart(folders, cache);
    const state = engine.current()!;
    assert.equal([...state.docs.values()].filter((d) => d.path === RUNBOOK).length, 0, 'the deleted file dropped');
    assert.equal(state.fileDigests.has(RUNBOOK), false);
    assert.equal(state.lexical.match([['wombat']]).count > 0, true, 'the untracked file is indexed');
    engine.dispose();
  });

  it('re-reads a file whose uncommitted edit was reverted while the server was down', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const original = fs.readFileSync(path.join(dir, RUNBOOK), 'utf8');
    fs.appendFileSync(path.join(dir, RUNBOOK), '\n## Platypus\n\nA platypus escalation path.\n');
    await indexAndSave(folders, cache);
    // Reverted: git now sees the file as clean; only the snapshot's dirty set names it.
    git(path.join(dir, 'payments-platform'), [
      'checkout',
      '--',
      path.relative(path.join(dir, 'payments-platform'), path.join(dir, RUNBOOK)),
    ]);
    assert.equal(fs.readFileSync(path.join(dir, RUNBOOK), 'utf8'), original);

    const engine = await restart(folders, cache);
    const pass = engine.status().lastPass!;
    assert.equal(pass.kind, 'update');
    assert.deepEqual(pass.filesChanged, [RUNBOOK]);
    assert.equal(engine.current()!.lexical.match([['platypus']]).count, 0, 'the reverted text is gone');
    assert.equal(engine.current()!.commits.get(RUNBOOK)?.dirty, false);
    engine.dispose();
  });

  it('reads only what the commits since the snapshot changed when HEAD moved', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    fs.appendFileSync(path.join(dir, RUNBOOK), '\n## Echidna\n\nAn echidna review.\n');
    const head = commitAll(path.join(dir, 'payments-platform'), 'Echidna review', Math.floor(Date.now() / 1000));

    const engine = await restart(folders, cache);
    const pass = engine.status().lastPass!;
    assert.equal(pass.kind, 'update', "git diffed the snapshot's commit to HEAD: no walk");
    assert.deepEqual(pass.filesChanged, [RUNBOOK]);
    assert.equal(engine.current()!.lexical.match([['echidna']]).count, 1);
    assert.equal(engine.current()!.commits.get(RUNBOOK)?.commit, head);
    const other = 'payments-platform/services/invoice-api/docs/index.md';
    assert.equal(engine.current()!.commits.get(other)?.commit, head, 'every file of the repository has the new HEAD');
    assertSameAsCold(engine, folders);
    engine.dispose();
  });

  it('checks a folder of repositories whose top is not in git: git inside, a walk outside', async () => {
    // The bench's layout: a folder holding repositories, its own files (AGENTS.md, the library,
    // a folder that is no repository) outside git.
    const dir = copyExampleWorkspace();
    for (const repo of ['payments-platform', 'storefront']) {
      initRepo(path.join(dir, repo));
      commitAll(path.join(dir, repo), `Import ${repo}`, Math.floor(Date.now() / 1000) - 86_400);
    }
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    fs.appendFileSync(
      path.join(dir, RUNBOOK),
      '\n## Grace period\n\nPast-due accounts keep a quokka-length grace window.\n',
    );
    const added = 'payments-platform/services/billing-worker/docs/runbooks/wombat.md';
    fs.writeFileSync(path.join(dir, added), '# Wombat drills\n\nThe wombat drill rehearses a settlement outage.\n');
    const overview = 'storefront/overview.md';
    fs.appendFileSync(path.join(dir, overview), '\n## Dingo\n\nThe dingo checkout experiment.\n');
    const head = commitAll(path.join(dir, 'storefront'), 'Dingo experiment', Math.floor(Date.now() / 1000));
    fs.appendFileSync(path.join(dir, 'AGENTS.md'), '\n## Numbat\n\nAsk the numbat rota before a release.\n');

    const engine = await restart(folders, cache);
    const pass = engine.status().lastPass!;
    assert.equal(pass.kind, 'update', 'no walk of the repositories unchanged');
    assert.deepEqual(pass.filesChanged, ['AGENTS.md', RUNBOOK, added, overview]);
    assert.equal(pass.filesRead, 4);
    assert.deepEqual(pass.filesRemoved, []);
    const state = engine.current()!;
    for (const word of ['quokka', 'wombat', 'dingo', 'numbat'])
      assert.equal(state.lexical.match([[word]]).count > 0, true, word);
    assert.equal(state.commits.get(overview)?.commit, head);
    assert.equal(state.commits.get(RUNBOOK)?.dirty, true);
    assert.equal(state.commits.get(added)?.dirty, true, 'untracked');
    assert.equal(state.commits.get('AGENTS.md')?.commit, null, 'outside every repository');
    assertSameAsCold(engine, folders);
    await assertSameAnswers(engine, folders, ['quokka grace window', 'dingo checkout', 'numbat rota', 'wombat drill']);
    engine.dispose();
  });

  it('walks a folder outside git with one stat a file and reads only the edited one', async () => {
    const { dir, cache, folders } = await savedExampleOutsideGit();
    fs.appendFileSync(path.join(dir, RUNBOOK), '\n## Numbat\n\nA numbat handover.\n');

    const engine = await restart(folders, cache);
    assert.equal(engine.status().lastPass!.kind, 'update');
    assert.deepEqual(engine.status().lastPass!.filesChanged, [RUNBOOK]);
    assert.equal(engine.status().lastPass!.filesRead, 1);
    assert.equal(engine.current()!.lexical.match([['numbat']]).count, 1);
    assertSameAsCold(engine, folders);
    engine.dispose();
  });

  it('answers from the snapshot at once, flagged index-stale, while a folder outside git is checked', async () => {
    const { dir, cache, folders } = await savedExampleOutsideGit();
    fs.appendFileSync(path.join(dir, RUNBOOK), '\n## Numbat handover\n\nThe numbat handover names the next on-call.\n');

    const engine = new Engine({ folders, cacheDir: cache });
    const services = createServices({ engine });
    const tool = findTool('workspace_context')!;
    const ask = () =>
      callTool(
        services,
        tool,
        { workspace: 'fernhill', question: 'numbat handover' },
        { sessionId: 's' },
      ) as Promise<ContextOutput>;
    // The first state in service is the restored snapshot; the check pass starts right after it.
    const first = new Promise<ContextOutput>((resolve, reject) => {
      const off = engine.onDidChangeState(() => {
        off();
        if (!engine.status().fromSnapshot) reject(new Error('the first state in service is not the snapshot'));
        else ask().then(resolve, reject);
      });
    });
    assert.equal(engine.stateForQuery(), undefined, 'nothing in service before the snapshot is read');
    const before = await first;
    assert.deepEqual(before.degraded, ['index-stale']);
    assert.equal(before.indexedAt, coldIndexedAt.get(cache), "the snapshot's state answered");
    assert.equal(
      before.passages.some((p) => p.text.includes('numbat')),
      false,
      'the edit is not in the snapshot',
    );

    await engine.waitForIndex();
    assert.equal(engine.status().lastPass!.kind, 'update');
    assert.deepEqual(engine.status().lastPass!.filesChanged, [RUNBOOK]);
    const after = await ask();
    assert.deepEqual(after.degraded, []);
    assert.equal(after.passages[0]?.sourceRef.path, RUNBOOK);
    assert.match(after.passages[0]!.text, /The numbat handover names the next on-call\./);
    engine.dispose();
  });

  it('asks git while the snapshot loads, and reads an edit made after git looked that the host heard of', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    const runbook = path.join(dir, RUNBOOK);
    const edit = '\n## Handover\n\nThe wallaroo handover names the next on-call.\n';

    // The edit comes after git answered and before the snapshot is decoded; the host's watcher
    // reports it (as watchWorkspace.ts and the language server's file events do).
    let hookRan = false;
    const engine: Engine = new Engine({
      folders,
      cacheDir: cache,
      restoreHooks: {
        afterEarlyStatuses: () => {
          hookRan = true;
          fs.appendFileSync(runbook, edit);
          void engine.update([runbook]);
        },
      },
    });
    await engine.waitForIndex();
    assert.equal(hookRan, true);
    const pass = engine.status().lastPass!;
    assert.equal(pass.kind, 'update', 'the warm check, not a walk');
    assert.equal(pass.filesRead, 1);
    assert.deepEqual(pass.filesChanged, [RUNBOOK]);
    assert.equal(engine.current()!.lexical.match([['wallaroo']]).count, 1);
    engine.dispose();

    // The same kind of edit with no event is not seen: git had already looked (a one-shot command
    // watches nothing; docs/ARCHITECTURE.md says so). This is what makes the event necessary.
    const other = copyExampleWorkspace({ git: true });
    const otherCache = tempDir('cache');
    const otherFolders = [{ name: 'fernhill', absPath: other }];
    await indexAndSave(otherFolders, otherCache);
    const unheard: Engine = new Engine({
      folders: otherFolders,
      cacheDir: otherCache,
      restoreHooks: {
        afterEarlyStatuses: () => fs.appendFileSync(path.join(other, RUNBOOK), '\nThe potoroo rota.\n'),
      },
    });
    await unheard.waitForIndex();
    assert.deepEqual(unheard.status().lastPass!.filesChanged, [], "git's look came before the edit");
    assert.equal(unheard.current()!.lexical.match([['potoroo']]).count, 0);
    unheard.dispose();
  });

  it('runs the full pass when a repository appeared since the snapshot', async () => {
    const dir = copyExampleWorkspace();
    initRepo(path.join(dir, 'payments-platform'));
    commitAll(path.join(dir, 'payments-platform'), 'Import', Math.floor(Date.now() / 1000) - 86_400);
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    initRepo(path.join(dir, 'storefront'));
    const head = commitAll(path.join(dir, 'storefront'), 'Import', Math.floor(Date.now() / 1000) - 3_600);

    const engine = await restart(folders, cache);
    assert.equal(engine.status().lastPass!.kind, 'full', 'a new repository: its files need git facts');
    assert.equal(engine.current()!.commits.get('storefront/overview.md')?.commit, head);
    assertSameAsCold(engine, folders);
    engine.dispose();
  });
});

/** The restarted engine's state equals a cold index of the same folders, field for field. */
function assertSameAsCold(engine: Engine, folders: { name: string; absPath: string }[]): void {
  const warm = engine.current()!;
  const cold = coldStates.get(folders[0].absPath);
  assert.ok(cold, 'cold state computed first');
  assert.deepEqual(comparable(warm), comparable(cold));
}

const coldStates = new Map<string, IndexState>();

/** What the answers are made of: every field but the time of the pass and the shared maps' identity. */
function comparable(state: IndexState): unknown {
  return {
    docs: [...state.docs.values()].map((doc) => JSON.stringify(doc)).sort(),
    // Ordinals are the section store's slots: an update fills them in another order than a cold pass.
    sections: state.sections
      .filter((entry) => entry !== undefined)
      .map((entry) => JSON.stringify(entry.section))
      .sort(),
    commits: [...state.commits.entries()].sort(),
    fileDigests: [...state.fileDigests.entries()].sort(),
    repos: state.repos,
    problems: state.problems,
    coverage: state.coverage,
    entities: state.entities.map((entity) => JSON.stringify(entity)),
    relations: state.relations.map((relation) => JSON.stringify(relation)),
    counts: state.counts,
  };
}

/** The same questions answered by the restarted engine and by a cold index: the same answers. */
async function assertSameAnswers(
  engine: Engine,
  folders: { name: string; absPath: string }[],
  questions: string[],
): Promise<void> {
  const cold = new Engine({ folders });
  await cold.waitForIndex();
  const tool = findTool('workspace_context')!;
  try {
    for (const question of questions) {
      // One clock for both: recency is scored against the time of the question.
      const now = new Date();
      const ask = (e: Engine) =>
        callTool(
          createServices({ engine: e, now: () => now }),
          tool,
          { workspace: 'fernhill', question },
          { sessionId: 's' },
        );
      const [a, b] = await Promise.all([ask(engine), ask(cold)]);
      assert.deepEqual({ ...a, indexedAt: null }, { ...b, indexedAt: null }, question);
    }
  } finally {
    cold.dispose();
  }
}
