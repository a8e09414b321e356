/**
 * Start-up of the built language server over stdio: what it declares, what it asks the client for,
 * and how it reports the first index pass (work-done progress and index status notifications).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { LspClient } from '../helpers/lspClient';
import { copyExampleWorkspace, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

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
        workspace: {
          workspaceFolders: { supported: true, changeNotifications: true },
          textDocumentContent: { schemes: ['workspace-context-results'] },
        },
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
        { kind: 'report', message: 'Listing files' },
        { kind: 'report', message: 'Checked 99 of 99 files' },
        { kind: 'report', message: 'Parsing and indexing 99 files' },
        { kind: 'end', message: 'Indexed 99 files, 136 documents, 353 sections, 66 entities' },
      ],
    );
    const phases = lsp.statuses.map(
      (s) => `${s.phase}${s.updating ? '+updating' : ''}${s.publishingDiagnostics ? '+diagnostics' : ''}`,
    );
    assert.equal(phases[0], 'indexing');
    assert.equal(phases[phases.length - 1], 'ready');
    // Ready as soon as the pass is in service, while its diagnostics are computed; then ready once they are out.
    const inService = phases.indexOf('ready+diagnostics');
    assert.ok(inService > phases.lastIndexOf('indexing'), phases.join(' '));
    assert.ok(phases.indexOf('ready') > inService, phases.join(' '));
    assert.ok(
      lsp.logs.some((l) => /^\[index\] full pass: 99 files read/.test(l)),
      lsp.logs.join('\n'),
    );
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

describe('LSP embedding progress (built server, JSON-RPC, the packaged model)', () => {
  let lsp: LspClient;
  before(async function () {
    this.timeout(180_000);
    const workspace = tempDir('embedding-progress');
    write(
      workspace,
      'overview.md',
      '# Ledger\n\nThe ledger records every payout and refund.\n\n## Reconciliation\n\nEach night the ledger is reconciled against the bank statement.\n',
    );
    write(
      workspace,
      '.context/guides/refunds.md',
      '---\ntitle: Refunds\n---\n\n# Refunds\n\nA refund goes back to the card that paid.\n\n## Partial refunds\n\nA partial refund names its amount.\n',
    );
    lsp = await LspClient.start(workspace, {
      initializationOptions: { storagePath: tempDir('embedding-storage') },
      env: { WSCTX_EMBEDDINGS: 'local' },
    });
    await lsp.waitForReady();
    await lsp.waitFor('the embedding progress to end', () =>
      lsp.progress.find((p) => p.value.kind === 'end' && /sections have vectors/.test(p.value.message ?? '')),
    );
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  it('reports embedding under a progress of its own, from begin to every section embedded', () => {
    const sections = lsp.statuses[lsp.statuses.length - 1].counts!.sections;
    assert.ok(sections >= 4, `sections: ${sections}`);
    const begin = lsp.progress.find((p) => p.value.kind === 'begin' && p.value.message?.startsWith('Embedding'));
    assert.ok(begin, JSON.stringify(lsp.progress));
    // Its own kind of token: the client reads only pass tokens as "indexing n of N".
    assert.match(String(begin.token), /^workspace-context\/embedding\/\d+$/);
    assert.ok(
      lsp.progress
        .filter((p) => p.value.kind === 'begin' && p.value.message?.startsWith('Indexing'))
        .every((p) => /^workspace-context\/index\/\d+$/.test(String(p.token))),
    );
    const values = lsp.progress.filter((p) => p.token === begin.token).map((p) => p.value);
    assert.match(values[0].message ?? '', new RegExp(`^Embedding ${sections} sections \\(.+\\)$`));
    const reports = values.filter((v) => v.kind === 'report').map((v) => v.message);
    // The first chunk waits for the model to load: said as such, not as "embedded 0 of N".
    assert.equal(reports[0], 'Loading the embedding model');
    assert.equal(reports[reports.length - 1], `Embedded ${sections} of ${sections} sections`);
    for (const report of reports.slice(1))
      assert.match(
        report ?? '',
        new RegExp(`^Embedded \\d+ of ${sections} sections(, (a few seconds|about \\d+ (s|min)) left)?$`),
      );
    // The status item's sequence: loading the model, then counting, then done.
    const phases = lsp.statuses
      .filter((st) => st.phase === 'ready')
      .map((st) => (st.embedding ? (st.embedding.loadingModel ? 'loading' : 'embedding') : 'done'))
      .filter((phase, i, all) => phase !== all[i - 1]);
    assert.deepEqual(phases.slice(phases.indexOf('loading')), ['loading', 'embedding', 'done']);
    assert.deepEqual(values[values.length - 1], { kind: 'end', message: `${sections} sections have vectors` });
  });
});
