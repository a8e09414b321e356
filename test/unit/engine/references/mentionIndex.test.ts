/**
 * The mention index over a real temporary workspace: indexed sources and source code alike,
 * `.gitignore` honoured, and a file re-read only after invalidation when it changed.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MentionIndex } from '../../../../server/src/engine/references/mentionIndex';
import { initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

describe('mention index', () => {
  after(() => removeTempDirs());

  it('finds every place naming an entity across catalog files, Markdown and code, skipping ignored files', async () => {
    const root = tempDir('mentions');
    initRepo(root);
    write(root, 'catalog-info.yaml', 'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: api-gw\nspec:\n  type: service\n  lifecycle: production\n  owner: team-a\n');
    write(root, 'docs/notes.md', 'The gateway is component:api-gw.\n');
    write(root, 'src/main.go', '// served by component:default/api-gw\npackage main\n');
    write(root, 'build/out.js', '// component:api-gw\n');
    write(root, '.gitignore', 'build/\n');
    write(root, 'image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));

    const index = new MentionIndex([{ name: 'ws', absPath: root }]);
    const found = async (key: string) => (await index.mentionsOf(key)).map((m) => `${m.path}:${m.mention.line}:${m.mention.column} ${m.mention.via}`);
    assert.deepEqual(await found('component:default/api-gw'), ['catalog-info.yaml:4:9 name', 'docs/notes.md:1:16 text', 'src/main.go:1:14 text']);
    assert.deepEqual(await found('Group:Default/Team-A'), ['catalog-info.yaml:8:10 field']);
    assert.deepEqual(await found('component:default/none'), []);

    // Not re-read until invalidated; then changed files are.
    fs.writeFileSync(path.join(root, 'docs/notes.md'), 'Moved.\n\nNow see component:api-gw here.\n');
    assert.deepEqual(await found('component:default/api-gw'), ['catalog-info.yaml:4:9 name', 'docs/notes.md:1:16 text', 'src/main.go:1:14 text']);
    index.invalidate();
    assert.deepEqual(await found('component:default/api-gw'), ['catalog-info.yaml:4:9 name', 'docs/notes.md:3:9 text', 'src/main.go:1:14 text']);
    fs.rmSync(path.join(root, 'src/main.go'));
    index.invalidate();
    assert.deepEqual(await found('component:default/api-gw'), ['catalog-info.yaml:4:9 name', 'docs/notes.md:3:9 text']);
  });
});
