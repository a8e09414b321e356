/**
 * Completion of entity refs in catalog relation fields through the built language server, in a
 * buffer that is not valid YAML yet.
 */
import assert from 'node:assert/strict';
import {
  CompletionRequest,
  type CompletionItem,
  type CompletionList,
  type Position,
} from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

const DRAFT = [
  'apiVersion: backstage.io/v1alpha1', // 0
  'kind: Component',
  'metadata:',
  '  name: refund-worker',
  'spec:',
  '  type: service', // 5
  '  lifecycle: experimental',
  '  owner: pay',
  '  system: ',
  '  dependsOn:',
  '    - resource:', // 10
  '    - ',
  '  consumesApis: [ledger-api, ]',
  '---',
  'apiVersion: backstage.io/v1alpha1',
  'kind: User', // 15
  'metadata:',
  '  name: new.person',
  'spec:',
  '  memberOf: [ ]',
  '',
].join('\n');

describe('LSP completion (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  let uri: string;
  before(async () => {
    lsp = await startOnExample();
    uri = await lsp.open('payments-platform/catalog/refund-worker.yaml', DRAFT);
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const complete = async (position: Position): Promise<CompletionItem[] | null> => {
    const result = await lsp.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    return result === null ? null : Array.isArray(result) ? result : (result as CompletionList).items;
  };

  it('offers groups by short name for owner, replacing what was typed', async () => {
    const items = (await complete({ line: 7, character: 12 }))!;
    assert.deepEqual(
      items.map((i) => i.label),
      ['engineering', 'fernhill', 'ledger-team', 'payments-team', 'platform-team', 'sre-guild', 'storefront-team'],
    );
    const payments = items.find((i) => i.label === 'payments-team')!;
    assert.equal(payments.detail, 'group:default/payments-team · Payments team');
    assert.deepEqual(payments.textEdit, {
      range: { start: { line: 7, character: 9 }, end: { line: 7, character: 12 } },
      newText: 'payments-team',
    });
  });

  it('offers systems for an empty system value', async () => {
    const items = (await complete({ line: 8, character: 10 }))!;
    assert.deepEqual(
      items.map((i) => i.label),
      ['billing', 'developer-platform', 'identity', 'ledger', 'payments', 'storefront'],
    );
  });

  it('offers entities of the typed kind in a dependsOn item, and every entity as kind:name when none is typed', async () => {
    const typed = (await complete({ line: 10, character: 15 }))!;
    assert.deepEqual(
      typed.map((i) => i.label),
      [
        'resource:card-vault',
        'resource:flags-store',
        'resource:invoice-pdfs',
        'resource:invoices-db',
        'resource:ledger-db',
        'resource:legacy-orders-db',
        'resource:payments-queue',
        'resource:search-index',
        'resource:sessions-cache',
      ],
    );
    assert.deepEqual(typed[0].textEdit, {
      range: { start: { line: 10, character: 6 }, end: { line: 10, character: 15 } },
      newText: 'resource:card-vault',
    });
    const any = (await complete({ line: 11, character: 6 }))!;
    assert.equal(any.length, 66);
    assert.equal(any[0].label, 'api:auth-api');
  });

  it('offers APIs inside a flow list, and groups for a User memberOf', async () => {
    const apis = (await complete({ line: 12, character: 29 }))!;
    assert.deepEqual(
      apis.map((i) => i.label),
      [
        'auth-api',
        'flags-api',
        'invoice-rest-api',
        'ledger-api',
        'payment-events',
        'payments-gateway-api',
        'search-api',
        'storefront-graphql',
      ],
    );
    const groups = (await complete({ line: 19, character: 14 }))!;
    assert.equal(groups.length, 7);
  });

  it('offers nothing outside relation fields', async () => {
    assert.equal(await complete({ line: 5, character: 15 }), null);
    assert.equal(await complete({ line: 3, character: 21 }), null);
  });
});
