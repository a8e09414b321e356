import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  folderOf,
  fromWorkspacePath,
  relativeTo,
  toWorkspacePath,
  workspacePath,
} from '../../../../server/src/engine/workspace/paths';

const root = path.resolve('/ws');
const single = [{ name: 'app', absPath: path.join(root, 'app') }];
const multi = [
  { name: 'app', absPath: path.join(root, 'app') },
  { name: 'app/docs', absPath: path.join(root, 'docs-folder') },
  { name: 'lib', absPath: path.join(root, 'app', 'packages', 'lib') },
];

describe('engine/workspace/paths', () => {
  it('prefixes the folder name only with more than one folder', () => {
    assert.equal(workspacePath(single, 'app', 'docs/a.md'), 'docs/a.md');
    assert.equal(workspacePath(single, 'app', ''), '');
    assert.equal(workspacePath(multi, 'app', 'docs/a.md'), 'app/docs/a.md');
    assert.equal(workspacePath(multi, 'app', ''), 'app');
  });

  it('maps absolute paths to workspace paths, innermost folder first', () => {
    assert.equal(toWorkspacePath(single, path.join(root, 'app', 'docs', 'a.md')), 'docs/a.md');
    assert.equal(toWorkspacePath(single, path.join(root, 'elsewhere.md')), null);
    assert.equal(toWorkspacePath(single, path.join(root, 'app-other', 'x.md')), null);
    assert.equal(toWorkspacePath(single, path.join(root, 'app', '..notes', 'x.md')), '..notes/x.md');
    assert.equal(toWorkspacePath(multi, path.join(root, 'app', 'packages', 'lib', 'AGENTS.md')), 'lib/AGENTS.md');
    assert.equal(folderOf(multi, path.join(root, 'app', 'packages', 'x.md'))?.name, 'app');
  });

  it('maps workspace paths back, matching the longest folder name', () => {
    assert.deepEqual(fromWorkspacePath(single, 'docs/a.md'), {
      folder: single[0],
      relInFolder: 'docs/a.md',
      absPath: path.join(root, 'app', 'docs', 'a.md'),
    });
    assert.equal(fromWorkspacePath(multi, 'app/docs/guide.md')?.absPath, path.join(root, 'docs-folder', 'guide.md'));
    assert.equal(fromWorkspacePath(multi, 'app/README.md')?.absPath, path.join(root, 'app', 'README.md'));
    assert.equal(fromWorkspacePath(multi, 'lib')?.relInFolder, '');
    assert.equal(fromWorkspacePath(multi, 'unknown/x.md'), null);
    assert.equal(fromWorkspacePath([], 'x.md'), null);
  });

  it('relativeTo strips a posix directory or says the path is outside', () => {
    assert.equal(relativeTo('', 'a/b.md'), 'a/b.md');
    assert.equal(relativeTo('a', 'a/b.md'), 'b.md');
    assert.equal(relativeTo('a', 'a'), '');
    assert.equal(relativeTo('a', 'ab/c.md'), null);
  });
});
