/**
 * Code lenses through the built language server: on each entity's name in a catalog file, counts
 * of dependents, dependencies and attached documents, each running a client command.
 */
import assert from 'node:assert/strict';
import { CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP code lens (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const lenses = async (rel: string) => (await lsp.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: lsp.uri(rel) } })) ?? [];

  it('puts dependents, dependencies and docs on every valid entity, with the commands the client runs', async () => {
    const found = await lenses('storefront/catalog/legacy-entities.yaml');
    const overview = { title: 'storefront', uri: lsp.uri('storefront/overview.md'), sourceKind: 'repo_overview' };
    const orderExport = { start: { line: 5, character: 8 }, end: { line: 5, character: 20 } };
    const ordersDb = { start: { line: 35, character: 8 }, end: { line: 35, character: 24 } };
    assert.deepEqual(found, [
      { range: orderExport, command: { title: '0 dependents', command: 'workspaceContext.expandEntity', arguments: [{ entityRef: 'component:default/order-export', direction: 'in', depth: 1 }] } },
      { range: orderExport, command: { title: '2 dependencies', command: 'workspaceContext.expandEntity', arguments: [{ entityRef: 'component:default/order-export', direction: 'out', depth: 1 }] } },
      { range: orderExport, command: { title: '1 doc', command: 'workspaceContext.showEntityDocs', arguments: [{ entityRef: 'component:default/order-export', docs: [overview] }] } },
      { range: ordersDb, command: { title: '1 dependent', command: 'workspaceContext.expandEntity', arguments: [{ entityRef: 'resource:default/legacy-orders-db', direction: 'in', depth: 1 }] } },
      { range: ordersDb, command: { title: '0 dependencies', command: 'workspaceContext.expandEntity', arguments: [{ entityRef: 'resource:default/legacy-orders-db', direction: 'out', depth: 1 }] } },
      { range: ordersDb, command: { title: '1 doc', command: 'workspaceContext.showEntityDocs', arguments: [{ entityRef: 'resource:default/legacy-orders-db', docs: [overview] }] } },
    ]);
  });

  it('counts docs, overviews and epics attached to a service', async () => {
    const found = await lenses('payments-platform/catalog-info.yaml');
    const billingWorker = found.filter((l) => l.range.start.line === 56).map((l) => l.command!.title);
    assert.deepEqual(billingWorker, ['0 dependents', '5 dependencies', '9 docs']);
    const docs = found.find((l) => l.range.start.line === 56 && l.command!.command === 'workspaceContext.showEntityDocs')!.command!.arguments![0].docs;
    assert.equal(docs.length, 9);
    assert.ok(docs.some((d: { uri: string }) => d.uri === lsp.uri('payments-platform/epics/smart-dunning.md')));
  });

  it('gives no lenses outside catalog files', async () => {
    assert.deepEqual(await lenses('.context/instructions.md'), []);
  });
});
