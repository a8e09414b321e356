import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { fillFileTable } from '../../../../server/src/engine/indexing/fileTable';
import { discoverWorkspace } from '../../../../server/src/engine/workspace/discovery';
import { WorkspaceReader } from '../../../../server/src/engine/workspace/readGuard';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const REPO = path.resolve(__dirname, '../../../..');
const INDEXING = path.join(REPO, 'server/src/engine/indexing');

/** The options esbuild.mjs builds every bundle with. */
const BUNDLE_OPTIONS: esbuild.BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'silent',
};

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
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-bundle-'));
    try {
      const dist = path.join(root, 'dist');
      await esbuild.build({
        ...BUNDLE_OPTIONS,
        entryPoints: [path.join(INDEXING, 'readWorker.ts')],
        outfile: path.join(dist, 'readWorker.js'),
      });
      await esbuild.build({
        ...BUNDLE_OPTIONS,
        stdin: { contents: PROBE, loader: 'ts', resolveDir: INDEXING },
        outfile: path.join(dist, 'probe.js'),
      });
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(dist, 'probe.js'), workspace], {
        cwd: root,
        maxBuffer: 16 * 1024 * 1024,
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
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
