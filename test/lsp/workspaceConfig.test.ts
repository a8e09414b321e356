/**
 * The language server reads `.wsctx.yaml` too: its ignores decide what is indexed unless the
 * editor's own setting (one that differs from its default) says otherwise; a broken key is logged
 * with file, line and key.
 */
import assert from 'node:assert/strict';
import { LspClient } from '../helpers/lspClient';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const component = (name: string) => `apiVersion: backstage.io/v1alpha1
kind: Component
metadata: { name: ${name} }
spec: { type: service, lifecycle: production, owner: team-a }
`;

describe('LSP with .wsctx.yaml (built server, JSON-RPC)', () => {
  after(removeTempDirs);

  const workspace = () => {
    const dir = tempDir('lsp-config');
    write(dir, 'catalog-info.yaml', component('kept'));
    write(dir, 'legacy/catalog-info.yaml', component('old'));
    write(dir, '.wsctx.yaml', 'sources:\n  ignore: ["legacy/**"]\nbudgets:\n  expandEdges: many\n');
    return dir;
  };

  it('indexes what the file says, and logs its problems with file, line and key', async () => {
    const dir = workspace();
    const lsp = await LspClient.start(dir);
    try {
      const status = await lsp.waitForReady();
      assert.equal(status.counts?.entities, 1);
      assert.ok(
        lsp.logs.includes(
          `[settings] ${dir}/.wsctx.yaml:4: budgets.expandEdges: expected a whole number from 1 to 100 (got "many"); not applied`,
        ),
        lsp.logs.join('\n'),
      );
    } finally {
      await lsp.stop();
    }
  });

  it('lets a VS Code setting that differs from its default override the file', async () => {
    const lsp = await LspClient.start(workspace(), { settings: { sources: { ignore: ['nothing/**'] } } });
    try {
      assert.equal((await lsp.waitForReady()).counts?.entities, 2);
    } finally {
      await lsp.stop();
    }
  });
});
