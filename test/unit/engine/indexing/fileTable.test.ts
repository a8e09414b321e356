import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceReader } from '../../../../server/src/engine/workspace/readGuard';
import { fillFileTable, refreshFileTable, type FileTable } from '../../../../server/src/engine/indexing/fileTable';
import { discoverWorkspace, type DiscoveredFile } from '../../../../server/src/engine/workspace/discovery';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

async function workspace(files: Record<string, string>) {
  const dir = tempDir('table');
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  const folders = [{ name: 'ws', absPath: dir }];
  return { dir, folders, discovery: await discoverWorkspace(folders) };
}

/** What a table holds, in a comparable form. */
function contents(table: FileTable) {
  return { paths: [...table.list()], entries: [...table.entries.values()].map((e) => [e.path, e.digest, e.size]) };
}

async function restat(dir: string, file: DiscoveredFile): Promise<DiscoveredFile> {
  const info = await fs.promises.stat(path.join(dir, file.path));
  return { ...file, size: info.size, mtimeMs: info.mtimeMs };
}

describe('indexing/fileTable', () => {
  after(removeTempDirs);

  it('reports files checked every 200 files and once at the end', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 450; i++) files[`docs/page-${String(i).padStart(3, '0')}.md`] = `page ${i}`;
    const { discovery } = await workspace(files);
    const heard: string[] = [];
    const { read } = await fillFileTable(discovery.files, undefined, readerOf(discovery), {
      onProgress: (done, total) => heard.push(`${done}/${total}`),
    });
    assert.equal(read, 450);
    assert.deepEqual(heard, ['200/450', '400/450', '450/450']);
  });

  it('reads a cold pass in worker threads into the very table this thread reads, refusals and bad bytes alike', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 700; i++)
      files[`docs/page-${String(i).padStart(3, '0')}.md`] = `# Page ${i}\n\nText of page ${i}.\n`;
    files['docs/big.md'] = 'x'.repeat(5000);
    files['docs/pipe.md'] = 'becomes a FIFO';
    files['docs/out.md'] = 'becomes a link out of the folder';
    files['docs/gone.md'] = 'deleted after the walk';
    const { dir, discovery } = await workspace(files);
    write(dir, 'docs/latin1.md', Buffer.from([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const latin1 = await restat(dir, {
      ...discovery.files[0],
      path: 'docs/latin1.md',
      absPath: path.join(dir, 'docs/latin1.md'),
    });
    // Swapped after the walk, as a file may be between discovery and the read.
    fs.rmSync(path.join(dir, 'docs/pipe.md'));
    execFileSync('mkfifo', [path.join(dir, 'docs/pipe.md')]);
    fs.rmSync(path.join(dir, 'docs/out.md'));
    fs.symlinkSync(write(tempDir('outside'), 'secret.md', 'not served'), path.join(dir, 'docs/out.md'));
    fs.rmSync(path.join(dir, 'docs/gone.md'));
    const listed = [...discovery.files, latin1].sort((a, b) => (a.path < b.path ? -1 : 1));
    const reader = new WorkspaceReader(discovery.folders, 4096);
    const here = await fillFileTable(listed, undefined, reader);
    const heard: number[] = [];
    const pooled = await fillFileTable(listed, undefined, reader, {
      readWorkers: 2,
      onProgress: (done) => heard.push(done),
    });
    const noWorker = await fillFileTable(listed, undefined, reader, {
      readWorkers: 2,
      readWorkerScript: path.join(dir, 'no-such-worker.js'),
    });
    assert.equal(here.readOn, 'main');
    assert.equal(pooled.readOn, 'workers');
    assert.equal(noWorker.readOn, 'main', 'a worker that cannot start leaves the reads to this thread');
    for (const other of [pooled, noWorker]) {
      assert.deepEqual(contents(other.table), contents(here.table));
      assert.deepEqual(
        [...other.table.entries.values()].map((e) => e.text),
        [...here.table.entries.values()].map((e) => e.text),
      );
      assert.deepEqual(other.problems, here.problems);
      assert.deepEqual(other.unread, here.unread);
      assert.deepEqual(other.changed, here.changed);
      assert.equal(other.read, here.read);
    }
    assert.equal(here.read, 701);
    assert.deepEqual(here.unread, ['docs/big.md', 'docs/gone.md', 'docs/out.md', 'docs/pipe.md']);
    assert.deepEqual(
      here.problems.map((p) => `${p.path} ${p.code}`),
      [
        'docs/big.md workspace.too-large',
        'docs/gone.md workspace.read-failed',
        'docs/out.md workspace.outside',
        'docs/pipe.md workspace.not-regular',
        'docs/latin1.md workspace.invalid-utf8',
      ],
    );
    assert.equal(here.table.get('docs/latin1.md')?.text, '# caf\ufffd\n');
    assert.equal(heard.at(-1), listed.length);
  });

  it('lists the files under a directory by binary search', async () => {
    const { discovery } = await workspace({
      'docs/a.md': 'a',
      'docs/sub/b.md': 'b',
      'docs-old/c.md': 'c',
      'docs.md': 'd',
      'z/e.md': 'e',
    });
    const { table } = await fillFileTable(discovery.files, undefined, readerOf(discovery));
    assert.deepEqual(table.listUnder('docs'), ['docs/a.md', 'docs/sub/b.md']);
    assert.deepEqual(table.listUnder('docs/sub'), ['docs/sub/b.md']);
    assert.deepEqual(table.listUnder(''), table.list());
    assert.deepEqual(table.listUnder('nothing'), []);
  });

  it('refreshFileTable gives what fillFileTable gives when only the touched files changed', async () => {
    const { dir, discovery } = await workspace({
      'a.md': 'alpha',
      'b.md': 'beta',
      'c.md': 'gamma',
      'docs/d.md': 'delta',
    });
    const base = await fillFileTable(discovery.files, undefined, readerOf(discovery));
    const previous = (await fillFileTable(discovery.files, undefined, readerOf(discovery))).table;
    write(dir, 'b.md', 'beta, edited');
    fs.rmSync(path.join(dir, 'docs/d.md'));
    const touched = [
      await restat(dir, discovery.files.find((f) => f.path === 'b.md')!),
      discovery.files.find((f) => f.path === 'c.md')!,
    ];
    const remaining = discovery.files
      .filter((f) => f.path !== 'docs/d.md')
      .map((f) => touched.find((t) => t.path === f.path) ?? f);
    const full = await fillFileTable(remaining, base.table, readerOf(discovery), {
      forceRead: new Set(['b.md', 'c.md']),
    });

    const again = await fillFileTable(remaining, undefined, readerOf(discovery));
    const quick = await refreshFileTable(previous, touched, ['docs/d.md']);
    assert.deepEqual(contents(quick.table), contents(full.table));
    assert.deepEqual(contents(quick.table), contents(again.table));
    assert.deepEqual(
      [quick.changed, quick.removed, quick.unread, quick.read],
      [full.changed, full.removed, full.unread, full.read],
    );
    assert.deepEqual([quick.changed, quick.removed, quick.read], [['b.md'], ['docs/d.md'], 2]);
    // The delta names the digests that changed and that files were removed.
    assert.deepEqual(
      quick.table.delta && {
        from: quick.table.delta.from,
        paths: [...quick.table.delta.paths],
        listingChanged: quick.table.delta.listingChanged,
      },
      { from: previous.id, paths: ['b.md', 'docs/d.md'], listingChanged: true },
    );
    assert.equal(quick.table.signature, again.table.signature);
  });

  it('keeps the path list and its signature when no file came or went, and reports unreadable files', async () => {
    const { dir, discovery } = await workspace({ 'a.md': 'alpha', 'b.md': 'beta' });
    const previous = (await fillFileTable(discovery.files, undefined, readerOf(discovery))).table;
    const signature = previous.signature;
    write(dir, 'a.md', 'alpha, edited');
    const edited = await refreshFileTable(previous, [await restat(dir, discovery.files[0])], []);
    assert.equal(edited.table.list(), previous.list(), 'the same list object');
    assert.equal(edited.table.signature, signature);
    assert.deepEqual(edited.table.delta?.listingChanged, false);
    assert.deepEqual([...edited.table.delta!.paths], ['a.md']);

    fs.rmSync(path.join(dir, 'b.md'));
    const gone = await refreshFileTable(edited.table, [discovery.files[1]], []);
    assert.deepEqual([gone.unread, gone.removed, [...gone.table.list()]], [['b.md'], ['b.md'], ['a.md']]);
    assert.deepEqual(
      gone.problems.map((p) => [p.path, p.code]),
      [['b.md', 'workspace.read-failed']],
    );
  });

  it('releases texts it is told to and reads them from disk again when asked', async () => {
    const { dir, discovery } = await workspace({ 'catalog-info.yaml': 'kind: Component\n', 'docs/a.md': '# A\n' });
    const { table } = await fillFileTable(discovery.files, undefined, readerOf(discovery));
    table.releaseTexts((entry) => entry.path.endsWith('.yaml'));
    assert.equal(table.get('docs/a.md')!.text, undefined);
    assert.equal(table.get('catalog-info.yaml')!.text, 'kind: Component\n');
    assert.equal(await table.readText('docs/a.md'), '# A\n');
    write(dir, 'docs/a.md', '# A, changed on disk\n');
    assert.equal(await table.readText('docs/a.md'), '# A\n', 'a text read again stays until released');
  });
});

/** The guard over a discovery's folders, at the default size cap. */
function readerOf(discovery: { folders: readonly { absPath: string }[] }): WorkspaceReader {
  return new WorkspaceReader(discovery.folders, 2 * 1024 * 1024);
}
