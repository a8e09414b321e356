/**
 * Workspace symbols through the built language server: entities by ref and document sections by
 * heading, contiguous matches first, entities before sections.
 */
import assert from 'node:assert/strict';
import { SymbolKind, WorkspaceSymbolRequest, type SymbolInformation } from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP workspace symbols (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const symbols = async (query: string) => {
    const found = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, { query })) as SymbolInformation[];
    return found.map((s) => ({
      name: s.name,
      kind: s.kind,
      container: s.containerName,
      at: `${s.location.uri.slice(lsp.uri('').length + 1)}:${s.location.range.start.line + 1}`,
    }));
  };

  it('lists entities by ref with their title, at their metadata.name line', async () => {
    assert.deepEqual(await symbols('ledger-'), [
      {
        name: 'api:default/ledger-api',
        kind: SymbolKind.Interface,
        container: 'Ledger API',
        at: 'payments-platform/catalog/apis.yaml:6',
      },
      {
        name: 'component:default/ledger-service',
        kind: SymbolKind.Class,
        container: 'Ledger service',
        at: 'payments-platform/catalog-info.yaml:115',
      },
      {
        name: 'group:default/ledger-team',
        kind: SymbolKind.Module,
        container: 'Ledger team',
        at: 'platform-infra/catalog/groups.yaml:49',
      },
      {
        name: 'resource:default/ledger-db',
        kind: SymbolKind.Struct,
        container: 'Ledger database',
        at: 'payments-platform/catalog/resources.yaml:36',
      },
    ]);
  });

  it('lists document sections by heading, with document title and path', async () => {
    assert.deepEqual(await symbols('rolling back'), [
      {
        name: 'Rolling back',
        kind: SymbolKind.String,
        container: 'Deploy and rollback · payments-platform/services/billing-worker/docs/runbooks/deploy.md',
        at: 'payments-platform/services/billing-worker/docs/runbooks/deploy.md:35',
      },
      {
        name: 'Rolling back anything',
        kind: SymbolKind.String,
        container: 'Rolling back anything · platform-infra/docs/runbooks/rollback.md',
        at: 'platform-infra/docs/runbooks/rollback.md:1',
      },
      {
        name: 'When rolling back is not enough',
        kind: SymbolKind.String,
        container: 'Rolling back anything · platform-infra/docs/runbooks/rollback.md',
        at: 'platform-infra/docs/runbooks/rollback.md:19',
      },
    ]);
  });

  it('matches scattered characters after contiguous ones, and nothing for no match', async () => {
    const found = await symbols('bllwrkr');
    assert.deepEqual(
      found.map((s) => s.name),
      [
        'component:default/billing-worker',
        'Billing worker',
        'BillingWorkerCycleCloseLate',
        'BillingWorkerDLQNotEmpty',
        'BillingWorkerGatewayErrors',
        'BillingWorkerLedgerRejects',
        'BillingWorkerQueueLag',
      ],
    );
    assert.deepEqual(await symbols('zzzq'), []);
  });
});
