/**
 * Start-up of the built language server over stdio: what it declares, what it asks the client for,
 * and how it reports the first index pass (work-done progress and index status notifications).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { LspClient } from '../helpers/lspClient';
import { copyExampleWorkspace, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

describe('LSP lifecycle (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  let storagePath: string;
  before(async () => {
    storagePath = path.join(tempDir('storage'), 'nested', 'cache');
    lsp = await LspClient.start(copyExampleWorkspace(), { initializationOptions: { storagePath } });
    await lsp.waitForReady();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  it('declares every feature it serves', () => {
    assert.deepEqual(lsp.initializeResult, {
      capabilities: {
        textDocumentSync: 2,
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        workspaceSymbolProvider: true,
        documentLinkProvider: { resolveProvider: false },
        completionProvider: { triggerCharacters: [':', '/'], resolveProvider: false },
        codeLensProvider: { resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true }, textDocumentContent: { schemes: ['workspace-context-results'] } },
      },
      serverInfo: { name: 'workspace-context', version: '0.1.0' },
    });
  });

  it('asks the client to watch every file and to tell it about its settings', () => {
    assert.deepEqual(lsp.registrations, [
      { method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*' }] } },
      { method: 'workspace/didChangeConfiguration', registerOptions: { section: 'workspaceContext' } },
    ]);
  });

  it('indexes on start with work-done progress and reports the status from indexing to ready', () => {
    const name = path.basename(lsp.workspace);
    assert.deepEqual(
      lsp.progress.map((p) => p.value),
      [
        { kind: 'begin', title: 'Workspace Context', message: `Indexing ${name}`, cancellable: false },
        { kind: 'end', message: 'Indexed 97 files, 133 documents, 350 sections, 66 entities' },
      ],
    );
    const phases = lsp.statuses.map((s) => `${s.phase}${s.updating ? '+updating' : ''}`);
    assert.equal(phases[0], 'indexing');
    assert.equal(phases[phases.length - 1], 'ready');
    assert.ok(phases.indexOf('ready') > phases.lastIndexOf('indexing'), phases.join(' '));
    assert.ok(lsp.logs.some((l) => /^\[index\] full pass: 97 files read/.test(l)), lsp.logs.join('\n'));
  });

  it('creates the storage folder it was given', () => {
    assert.equal(existsSync(storagePath), true);
  });

  it('shuts down and exits on request', async () => {
    const exited = new Promise<number | null>((resolve) => lsp.child.once('exit', (code) => resolve(code)));
    await lsp.stop();
    assert.equal(await exited, 0);
  });
});
