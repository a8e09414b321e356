import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fillFileTable } from '../../../../server/src/engine/indexing/fileTable';
import { discoverWorkspace } from '../../../../server/src/engine/workspace/discovery';
import { WorkspaceReader } from '../../../../server/src/engine/workspace/readGuard';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { runBesideWorker } from '../../../helpers/workerBundle';

const REPO = path.resolve(__dirname, '../../../..');
const INDEXING = path.join(REPO, 'server/src/engine/indexing');

/** A host bundle that fills a file table as a full pass does, and prints where it read and what. */
const PROBE = `
import { fillFileTable } from './fileTable';
import { discoverWorkspace } from '../workspace/discovery';
import { WorkspaceReader } from '../workspace/readGuard';
void (async () => {
  const folders = [{ name: 'ws', absPath: process.argv[2] }];
  const discovery = await discoverWorkspace(folders);
  const filled = await fillFileTable(discovery.files, undefined, new WorkspaceReader(folders, 2 * 1024 * 1024), { readWorkers: 2 });
  console.log(JSON.stringify({ readOn: filled.readOn, digests: [...filled.table.entries.values()].map((e) => [e.path, e.digest]) }));
})();
`;

describe('engine/indexing/readWorker bundle', function () {
  // One esbuild run and a child process.
  this.timeout(60_000);
  after(removeTempDirs);

  it('reads a cold pass in dist/readWorker.js beside the host bundle, into the table one thread reads', async () => {
    const workspace = tempDir('read-worker');
    for (let i = 0; i < 600; i++) write(workspace, `docs/page-${i}.md`, `# Page ${i}\n\nWhat page ${i} says.\n`);
    // A layout like an installed extension or the npm package: <root>/dist/*.js.
    const { stdout, stderr } = await runBesideWorker({
      worker: path.join(INDEXING, 'readWorker.ts'),
      probe: PROBE,
      args: [workspace],
    });
    assert.equal(stderr, '');
    const printed = JSON.parse(stdout) as { readOn: string; digests: [string, string][] };

    const folders = [{ name: 'ws', absPath: workspace }];
    const discovery = await discoverWorkspace(folders);
    const here = await fillFileTable(discovery.files, undefined, new WorkspaceReader(folders, 2 * 1024 * 1024));
    assert.equal(here.readOn, 'main');
    assert.equal(printed.readOn, 'workers');
    assert.equal(printed.digests.length, 600);
    assert.deepEqual(
      printed.digests,
      [...here.table.entries.values()].map((e) => [e.path, e.digest]),
    );
  });
});
