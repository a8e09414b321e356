/**
 * The producers' memo: values reused while their inputs are unchanged, checks limited to what a
 * table's delta can have touched, and directory listings tracked as dependencies.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceReader } from '../../../../server/src/engine/workspace/readGuard';
import { fillFileTable, refreshFileTable, type FileTable } from '../../../../server/src/engine/indexing/fileTable';
import { ProducerMemo, type TrackingSource } from '../../../../server/src/engine/indexing/memo';
import { discoverWorkspace, type DiscoveredFile } from '../../../../server/src/engine/workspace/discovery';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

/** A producer that reads one file and counts its runs. */
function reader(runs: string[]) {
  return (path: string) => async (source: TrackingSource) => {
    runs.push(path);
    return `${path}: ${(await source.readText(path)) ?? '(absent)'}`;
  };
}

async function setUp(files: Record<string, string>) {
  const dir = tempDir('memo');
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  const folders = [{ name: 'ws', absPath: dir }];
  const discovery = await discoverWorkspace(folders);
  const { table } = await fillFileTable(discovery.files, undefined, readerOf(discovery));
  return { dir, folders, discovery, table };
}

async function edited(
  dir: string,
  table: FileTable,
  files: readonly DiscoveredFile[],
  rel: string,
  text: string,
): Promise<FileTable> {
  write(dir, rel, text);
  const file = files.find((f) => f.path === rel)!;
  const info = await fs.promises.stat(path.join(dir, rel));
  return (await refreshFileTable(table, [{ ...file, size: info.size, mtimeMs: info.mtimeMs }], [])).table;
}

/** One pass: every key asked for, in order. */
async function pass(
  memo: ProducerMemo<string>,
  table: FileTable,
  keys: readonly string[],
  produce: (key: string) => (source: TrackingSource) => Promise<string>,
): Promise<string[]> {
  const values: string[] = [];
  for (const key of keys) values.push(await memo.get(key, table, table.signature, produce(key)));
  memo.endPass();
  return values;
}

describe('indexing/memo', () => {
  after(removeTempDirs);

  it('reuses values, re-runs only what read a changed file, and checks only those entries', async () => {
    const { dir, discovery, table } = await setUp({ 'a.md': 'alpha', 'b.md': 'beta', 'c.md': 'gamma' });
    const runs: string[] = [];
    const memo = new ProducerMemo<string>();
    const keys = ['a.md', 'b.md', 'c.md'];
    assert.deepEqual(await pass(memo, table, keys, reader(runs)), ['a.md: alpha', 'b.md: beta', 'c.md: gamma']);
    assert.deepEqual(runs.splice(0), keys);

    const next = await edited(dir, table, discovery.files, 'b.md', 'beta, edited');
    const checksBefore = memo.checks;
    assert.deepEqual(await pass(memo, next, keys, reader(runs)), ['a.md: alpha', 'b.md: beta, edited', 'c.md: gamma']);
    assert.deepEqual(runs.splice(0), ['b.md']);
    assert.equal(memo.checks - checksBefore, 1, 'only the entry that read b.md was checked');

    // A table made some other way (a restart, a fresh fill) proves nothing: every entry is checked.
    const fresh = (
      await fillFileTable(
        discovery.files.map((f) => ({ ...f, mtimeMs: 0 })),
        undefined,
        readerOf(discovery),
      )
    ).table;
    const checks = memo.checks;
    assert.deepEqual(await pass(memo, fresh, keys, reader(runs)), ['a.md: alpha', 'b.md: beta, edited', 'c.md: gamma']);
    assert.deepEqual(runs.splice(0), []);
    assert.equal(memo.checks - checks, 3);
  });

  it('forgets keys a pass did not ask for', async () => {
    const { table } = await setUp({ 'a.md': 'alpha', 'b.md': 'beta' });
    const runs: string[] = [];
    const memo = new ProducerMemo<string>();
    await pass(memo, table, ['a.md', 'b.md'], reader(runs));
    await pass(memo, table, ['a.md'], reader(runs));
    await pass(memo, table, ['a.md', 'b.md'], reader(runs));
    assert.deepEqual(runs, ['a.md', 'b.md', 'b.md']);
    assert.deepEqual(
      memo.export().map((r) => r.key),
      ['a.md', 'b.md'],
    );
  });

  it('tracks a directory listing: a file added in it re-runs the producer, one added elsewhere does not', async () => {
    const { dir, folders, table } = await setUp({ 'site/docs/a.md': 'a', 'other/x.md': 'x' });
    const runs: string[] = [];
    const memo = new ProducerMemo<string>();
    const lister = () => async (source: TrackingSource) => {
      runs.push('site');
      return source.listUnder('site/docs').join(',');
    };
    const run = async (t: FileTable) => {
      const value = await memo.get('site', t, t.signature, lister());
      memo.endPass();
      return value;
    };
    assert.equal(await run(table), 'site/docs/a.md');
    assert.deepEqual(
      memo.export()[0].dirs?.map(([d]) => d),
      ['site/docs'],
    );

    const grow = async (previous: FileTable, rel: string) => {
      write(dir, rel, 'new');
      const discovery = await discoverWorkspace(folders);
      return (await fillFileTable(discovery.files, previous, readerOf(discovery))).table;
    };
    const elsewhere = await grow(table, 'other/y.md');
    assert.equal(elsewhere.delta?.listingChanged, true);
    assert.equal(await run(elsewhere), 'site/docs/a.md');
    assert.deepEqual(runs, ['site'], 'a new file outside the directory leaves the value valid');
    const inside = await grow(elsewhere, 'site/docs/b.md');
    assert.equal(await run(inside), 'site/docs/a.md,site/docs/b.md');
    assert.deepEqual(runs, ['site', 'site']);
  });

  it('restores exported entries, directories included, and checks them all on the first pass', async () => {
    const { table } = await setUp({ 'site/docs/a.md': 'a', 'b.md': 'b' });
    const runs: string[] = [];
    const memo = new ProducerMemo<string>();
    const produce = (key: string) => async (source: TrackingSource) => {
      runs.push(key);
      return key === 'site' ? source.listUnder('site/docs').join(',') : ((await source.readText(key)) ?? '');
    };
    await pass(memo, table, ['site', 'b.md'], produce);
    const records = JSON.parse(JSON.stringify(memo.export()));
    const restored = new ProducerMemo<string>();
    restored.import(records);
    assert.deepEqual(await pass(restored, table, ['site', 'b.md'], produce), ['site/docs/a.md', 'b']);
    assert.deepEqual(runs, ['site', 'b.md'], 'nothing ran again');
    assert.equal(restored.checks, 2);
  });
});

/** The guard over a discovery's folders, at the default size cap. */
function readerOf(discovery: { folders: readonly { absPath: string }[] }): WorkspaceReader {
  return new WorkspaceReader(discovery.folders, 2 * 1024 * 1024);
}
