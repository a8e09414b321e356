/**
 * The warm index: a snapshot round trip, the stat-and-digest rule after a restart, a corrupt or
 * foreign snapshot discarded and rebuilt, the atomic write surviving a killed writer, and a query
 * racing an update.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine, snapshotFileFor } from '../../../../server/src/engine/engine';
import { rankWorkspaceContext } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { decodeSnapshot } from '../../../../server/src/engine/persistence/snapshotFile';
import { SNAPSHOT_FORMAT } from '../../../../server/src/engine/persistence/indexSnapshot';
import { copyExampleWorkspace, removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';

const QUESTION = 'how is the dunning collection schedule set?';

function top(engine: Engine, question = QUESTION): string[] {
  return rankWorkspaceContext(engine.current()!, { question, limit: 5, now: 0 }).passages.map(
    (p) => `${p.entry.section.id}:${p.score.toFixed(6)}`,
  );
}

describe('index snapshot', () => {
  after(removeTempDirs);

  it('round-trips: a restarted engine answers from the snapshot at once, then re-reads nothing unchanged', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    await first.waitForIndex();
    const expected = top(first);
    const firstState = first.current()!;
    assert.equal(await first.saveSnapshot(), true);
    first.dispose();
    assert.ok(fs.existsSync(snapshotFileFor(cache, folders)));

    const logs: string[] = [];
    const second = new Engine({ folders, cacheDir: cache, log: (m) => logs.push(m) });
    assert.equal(second.stateForQuery(), undefined, 'nothing before the snapshot is read');
    await new Promise<void>((resolve) => second.onDidChangeState(() => resolve()));
    const restored = second.current()!;
    assert.equal(second.status().fromSnapshot, true);
    assert.equal(restored.indexedAt, firstState.indexedAt);
    assert.equal(restored.counts.sections, firstState.counts.sections);
    assert.deepEqual(top(second), expected, 'the restored index ranks exactly as the original');
    assert.match(logs.join('\n'), /\[snapshot\] restored \d+ sections from .* in \d+ ms/);

    await second.waitForIndex();
    // A folder outside git: walked again with one stat a file, applied as an update.
    assert.equal(second.status().lastPass?.kind, 'update');
    assert.equal(second.status().lastPass?.filesRead, 0, 'no file is read again when nothing changed');
    assert.deepEqual(second.status().lastPass?.sections.changedDocs, []);
    assert.deepEqual(top(second), expected);
    second.dispose();
  });

  it('restores documents, sections, relations and analysed terms equal to the ones it saved', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    const saved = await first.waitForIndex();
    await first.saveSnapshot();
    first.dispose();
    const second = new Engine({ folders, cacheDir: cache });
    const loaded = new Promise<void>((resolve) => second.onDidChangeState(() => resolve()));
    assert.equal(second.stateForQuery(), undefined);
    await loaded;
    const restored = second.current()!;
    assert.equal(second.status().fromSnapshot, true);
    assert.deepEqual([...restored.docs.values()], [...saved.docs.values()]);
    assert.deepEqual(
      restored.sections.map((e) => e && [e.ordinal, e.section, e.doc.id]),
      saved.sections.map((e) => e && [e.ordinal, e.section, e.doc.id]),
    );
    assert.deepEqual(restored.relations, saved.relations);
    assert.deepEqual(restored.entities, saved.entities);
    assert.deepEqual([...restored.titleTerms], [...saved.titleTerms]);
    assert.deepEqual([...restored.contextTerms], [...saved.contextTerms]);
    assert.deepEqual([...restored.commits], [...saved.commits]);
    assert.deepEqual(restored.counts, saved.counts);
    // The editor's status says what documentation is read from the first moment after a restart.
    assert.equal(saved.coverage?.[0].read, 68);
    assert.deepEqual(restored.coverage, saved.coverage);
    second.dispose();
  });

  it('after a restart, re-reads only the files that changed while it was down', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    await first.waitForIndex();
    await first.saveSnapshot();
    first.dispose();
    const edited = 'payments-platform/services/billing-worker/docs/runbooks/dunning.md';
    fs.appendFileSync(
      path.join(dir, edited),
      '\n## Grace period\n\nPast-due accounts keep access for a quokka-length grace window.\n',
    );
    const second = new Engine({ folders, cacheDir: cache });
    await second.waitForIndex();
    const pass = second.status().lastPass!;
    assert.equal(pass.filesRead, 1);
    assert.deepEqual(pass.filesChanged, [edited]);
    assert.equal(second.current()!.lexical.match([['quokka']]).count, 1);
    second.dispose();
  });

  it('discards a corrupt snapshot with a log line and rebuilds', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    await first.waitForIndex();
    await first.saveSnapshot();
    first.dispose();
    const file = snapshotFileFor(cache, folders);
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const logs: string[] = [];
    const second = new Engine({ folders, cacheDir: cache, log: (m) => logs.push(m) });
    const state = await second.waitForIndex();
    assert.ok(
      logs.some(
        (l) => l === `[snapshot] discarded ${file}: checksum mismatch (truncated or corrupt); indexing from scratch`,
      ),
      logs.join('\n'),
    );
    assert.equal(second.status().fromSnapshot, false);
    assert.ok(state.counts.sections > 300);
    assert.ok(second.status().lastPass!.filesRead > 90, 'rebuilt by reading the files');
    second.dispose();
  });

  it('refuses a snapshot of another format version and one made for other folders', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    await first.waitForIndex();
    await first.saveSnapshot();
    first.dispose();
    const bytes = fs.readFileSync(snapshotFileFor(cache, folders));
    assert.equal(decodeSnapshot(SNAPSHOT_FORMAT, bytes).ok, true);
    const other = decodeSnapshot(SNAPSHOT_FORMAT + 1, bytes);
    assert.deepEqual(other, {
      ok: false,
      reason: `format ${SNAPSHOT_FORMAT}, this version reads format ${SNAPSHOT_FORMAT + 1}`,
    });
    // Same file copied to the name another folder set would use: refused by its folder list.
    const elsewhere = [{ name: 'fernhill', absPath: tempDir('other') }];
    fs.copyFileSync(snapshotFileFor(cache, folders), snapshotFileFor(cache, elsewhere));
    const logs: string[] = [];
    const engine = new Engine({ folders: elsewhere, cacheDir: cache, log: (m) => logs.push(m) });
    await engine.waitForIndex();
    assert.ok(
      logs.some((l) => l.endsWith('snapshot is for other workspace folders; indexing from scratch')),
      logs.join('\n'),
    );
    engine.dispose();
  });

  it('keeps the previous snapshot intact when a writer is killed mid-write', async () => {
    const cache = tempDir('cache');
    const file = path.join(cache, 'index-test.snapshot');
    fs.writeFileSync(file, 'previous good snapshot');
    // A real process writing 256 MiB through the same atomic writer, killed as soon as its
    // temporary file exists.
    const script = `
      const { writeFileAtomic } = require(${JSON.stringify(path.resolve(__dirname, '../../../../server/src/engine/persistence/snapshotFile.ts'))});
      writeFileAtomic(${JSON.stringify(file)}, Buffer.alloc(256 * 1024 * 1024, 7));`;
    const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { stdio: 'ignore' });
    let killedMidWrite = false;
    while (child.exitCode === null) {
      if (fs.readdirSync(cache).some((f) => f.endsWith('.tmp'))) {
        child.kill('SIGKILL');
        killedMidWrite = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => child.once('exit', r));
    assert.ok(killedMidWrite, 'the writer was killed while writing its temporary file');
    assert.equal(fs.readFileSync(file, 'utf8'), 'previous good snapshot');
  });

  it('answers a query racing an update from one complete state', async () => {
    const dir = copyExampleWorkspace();
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }], settings: { updateDebounceMs: 0 } });
    const before = await engine.waitForIndex();
    const edited = 'payments-platform/services/billing-worker/docs/runbooks/dunning.md';
    fs.writeFileSync(path.join(dir, edited), '# Dunning\n\nReplaced: the wombat schedule.\n');
    const pending = engine.update([edited]);
    // While the update runs, queries see the last complete state: old text, old indexedAt.
    const during = engine.stateForQuery()!;
    assert.equal(during, before);
    const old = rankWorkspaceContext(during, { question: 'wombat schedule', limit: 5, now: 0 });
    assert.ok(!old.passages.some((p) => p.entry.section.text.includes('wombat')));
    await pending;
    const after = engine.stateForQuery()!;
    assert.notEqual(after, before);
    assert.ok(after.indexedAt >= before.indexedAt);
    const fresh = rankWorkspaceContext(after, { question: 'wombat schedule', limit: 5, now: 0 });
    assert.equal(fresh.passages[0].entry.doc.path, edited);
    engine.dispose();
  });
});
