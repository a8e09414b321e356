/**
 * Warm start (issue 44): after a snapshot is restored, the first pass asks git what changed since
 * the snapshot (tracked edits, deletions, untracked files, edits since reverted) and reads only
 * those, in real git repositories made by the test; where git cannot vouch for every file (a
 * moved HEAD, a folder outside git) the full stat pass runs as before.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import { commitAll, copyExampleWorkspace, git, removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';

const RUNBOOK = 'payments-platform/services/billing-worker/docs/runbooks/dunning.md';

async function indexAndSave(folders: { name: string; absPath: string }[], cache: string): Promise<void> {
  const first = new Engine({ folders, cacheDir: cache });
  await first.waitForIndex();
  assert.equal(await first.saveSnapshot(), true);
  first.dispose();
}

async function restart(folders: { name: string; absPath: string }[], cache: string): Promise<Engine> {
  const engine = new Engine({ folders, cacheDir: cache });
  await engine.waitForIndex();
  return engine;
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

  it('runs the full pass when HEAD moved since the snapshot', async () => {
    const dir = copyExampleWorkspace({ git: true });
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    fs.appendFileSync(path.join(dir, RUNBOOK), '\n## Echidna\n\nAn echidna review.\n');
    const head = commitAll(path.join(dir, 'payments-platform'), 'Echidna review', Math.floor(Date.now() / 1000));

    const engine = await restart(folders, cache);
    assert.equal(engine.status().lastPass!.kind, 'full', 'every last-commit time may have moved: full pass');
    assert.equal(engine.current()!.lexical.match([['echidna']]).count, 1);
    assert.equal(engine.current()!.commits.get(RUNBOOK)?.commit, head);
    engine.dispose();
  });

  it('runs the full stat pass for a folder outside git', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    await indexAndSave(folders, cache);
    fs.appendFileSync(path.join(dir, RUNBOOK), '\n## Numbat\n\nA numbat handover.\n');

    const engine = await restart(folders, cache);
    assert.equal(engine.status().lastPass!.kind, 'full');
    assert.deepEqual(engine.status().lastPass!.filesChanged, [RUNBOOK]);
    assert.equal(engine.current()!.lexical.match([['numbat']]).count, 1);
    engine.dispose();
  });
});
