/**
 * File events through the built language server: a change to an indexed file, a new file and a
 * deleted one reach the engine (seen in search), while a change to a file the index does not read
 * starts no pass but still updates find references.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileChangeType, ReferencesRequest } from 'vscode-languageserver-protocol/node';
import { IndexStatusRequest, SearchRequest } from '../../shared/protocol';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP file events (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const abs = (rel: string) => path.join(lsp.workspace, ...rel.split('/'));
  const search = (question: string) => lsp.connection.sendRequest(SearchRequest.type, { question, limit: 3 });

  it('picks up an edited document: the new section is found by search', async () => {
    assert.deepEqual((await search('zeppelin drills')).passages, []);
    const rel = 'platform-infra/docs/runbooks/rollback.md';
    fs.appendFileSync(
      abs(rel),
      '\n## Zeppelin drills\n\nRun the zeppelin drill every quarter, with the on-call engineer.\n',
    );
    const statuses = lsp.statuses.length;
    const progress = lsp.progress.length;
    await lsp.fileEvents([{ uri: lsp.uri(rel), type: FileChangeType.Changed }]);
    const ready = await lsp.waitForReady(statuses + 1);
    assert.equal(ready.lastPass?.kind, 'update');
    assert.equal(ready.lastPass?.filesChanged, 1);
    assert.deepEqual(
      lsp.progress.slice(progress).map((p) => p.value),
      [
        { kind: 'begin', title: 'Workspace Context', message: 'Updating 1 changed file', cancellable: false },
        { kind: 'end', message: 'Indexed 99 files, 136 documents, 354 sections, 66 entities' },
      ],
    );
    const found = await search('zeppelin drills');
    assert.equal(found.passages[0].label, 'Rolling back anything › Zeppelin drills');
    assert.equal(found.passages[0].path, rel);
  });

  it('picks up a new library page and forgets it when deleted', async () => {
    const rel = '.context/guides/tea-rota.md';
    fs.writeFileSync(
      abs(rel),
      '---\ntitle: Kitchen tea rota\n---\n\n# Kitchen tea rota\n\nThe samovar is refilled by whoever empties it.\n',
    );
    let statuses = lsp.statuses.length;
    await lsp.fileEvents([{ uri: lsp.uri(rel), type: FileChangeType.Created }]);
    assert.equal((await lsp.waitForReady(statuses + 1)).counts?.files, 100);
    assert.equal((await search('samovar refilled')).passages[0]?.path, rel);

    fs.rmSync(abs(rel));
    statuses = lsp.statuses.length;
    await lsp.fileEvents([{ uri: lsp.uri(rel), type: FileChangeType.Deleted }]);
    assert.equal((await lsp.waitForReady(statuses + 1)).counts?.files, 99);
    assert.deepEqual((await search('samovar refilled')).passages, []);
  });

  it('starts no pass for a file the index does not read, but find references sees its new mention', async () => {
    const rel = 'storefront/services/storefront-bff/src/resolvers/checkoutSession.ts';
    const referencesToGateway = () =>
      lsp.connection.sendRequest(ReferencesRequest.type, {
        textDocument: { uri: lsp.uri('payments-platform/catalog-info.yaml') },
        position: { line: 140, character: 10 },
        context: { includeDeclaration: false },
      });
    // Built now, before the edit: the event must make it read the file again.
    const known = await referencesToGateway();
    assert.equal(known?.length, 8);
    assert.equal(
      known?.some((l) => l.uri === lsp.uri(rel)),
      false,
    );
    const comment = '// Charges go through component:payments-gateway.';
    fs.writeFileSync(abs(rel), `${comment}\n${fs.readFileSync(abs(rel), 'utf8')}`);
    const statuses = lsp.statuses.length;
    const before = (await lsp.connection.sendRequest(IndexStatusRequest.type)).lastPass;
    await lsp.fileEvents([{ uri: lsp.uri(rel), type: FileChangeType.Changed }]);
    // Notifications are handled in order: this answer comes after the event was routed.
    const after = await lsp.connection.sendRequest(IndexStatusRequest.type);
    assert.deepEqual(after.lastPass, before);
    assert.equal(lsp.statuses.length, statuses);

    const refs = await referencesToGateway();
    const column = comment.indexOf('component:');
    assert.deepEqual(
      refs?.filter((l) => l.uri === lsp.uri(rel)).map((l) => l.range),
      [
        {
          start: { line: 0, character: column },
          end: { line: 0, character: column + 'component:payments-gateway'.length },
        },
      ],
    );
    assert.equal(refs?.length, 9);
  });
});
