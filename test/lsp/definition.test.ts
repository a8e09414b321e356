/**
 * Go to definition through the built language server: from a short ref in a relation field (kind
 * from the field), from a full ref in Markdown, and nothing for unresolved refs.
 */
import assert from 'node:assert/strict';
import { DefinitionRequest, type Position } from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP definition (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const definitionAt = (rel: string, position: Position) =>
    lsp.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: lsp.uri(rel) }, position });

  it('goes from a kindless consumesApis item to the API entity, read with the field default kind', async () => {
    // payments-platform/catalog-info.yaml line 82: `    - ledger-api` under billing-worker's consumesApis.
    assert.deepEqual(await definitionAt('payments-platform/catalog-info.yaml', { line: 81, character: 9 }), {
      uri: lsp.uri('payments-platform/catalog/apis.yaml'),
      range: { start: { line: 5, character: 8 }, end: { line: 5, character: 18 } },
    });
  });

  it('goes from a full ref in Markdown to the entity name in its catalog file', async () => {
    // smart-dunning.md line 9: `  - resource:default/invoices-db` in the front matter.
    assert.deepEqual(await definitionAt('payments-platform/epics/smart-dunning.md', { line: 8, character: 20 }), {
      uri: lsp.uri('payments-platform/catalog/resources.yaml'),
      range: { start: { line: 5, character: 8 }, end: { line: 5, character: 19 } },
    });
  });

  it('answers null for an unresolved ref and away from refs', async () => {
    assert.equal(await definitionAt('storefront/catalog/legacy-entities.yaml', { line: 17, character: 20 }), null);
    assert.equal(await definitionAt('storefront/catalog/legacy-entities.yaml', { line: 0, character: 5 }), null);
  });
});
