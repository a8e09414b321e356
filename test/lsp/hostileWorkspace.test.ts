/**
 * A hostile workspace through the built language server over JSON-RPC: globs that backtracked
 * for minutes, Markdown that tried to become a trusted-command link in hovers and in the results
 * document, and a planted snapshot whose paths lead out of the workspace.
 */
import assert from 'node:assert/strict';
import { WorkspaceSymbolRequest, type SymbolInformation } from 'vscode-languageserver-protocol/node';
import { writeBacktrackingGlobs } from '../helpers/hostileWorkspaces';
import { LspClient } from '../helpers/lspClient';
import { removeTempDirs, tempDir } from '../helpers/tempWorkspace';

describe('LSP: a hostile workspace (built server, JSON-RPC)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('answers while it indexes globs that backtracked for minutes, and indexes what they match', async () => {
    const ws = tempDir('globs-lsp');
    writeBacktrackingGlobs(ws);
    const lsp = await LspClient.start(ws);
    try {
      // Asked at once, while the first pass runs: an answer (from no index yet), not a wait.
      const early = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'located' })) as SymbolInformation[];
      assert.ok(Array.isArray(early));
      await lsp.waitForReady();
      const found = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'located' })) as SymbolInformation[];
      assert.deepEqual(found.map((s) => s.name), ['component:default/located-by-glob']);
    } finally {
      await lsp.stop();
    }
  });
});
