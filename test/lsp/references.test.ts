/**
 * Find references through the built language server: every place that names an entity, in any
 * written form (short relation-field values, `kind:name` and full refs in Markdown, code comments),
 * the declaration only when asked for, and unsaved buffers read as the user sees them.
 */
import assert from 'node:assert/strict';
import { ReferencesRequest, type Location, type Position } from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP references (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const referencesAt = async (rel: string, position: Position, includeDeclaration: boolean): Promise<string[]> => {
    const found = await lsp.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: lsp.uri(rel) },
      position,
      context: { includeDeclaration },
    });
    return (found ?? []).map(
      (l: Location) =>
        `${l.uri.slice(lsp.uri('').length + 1)}:${l.range.start.line + 1}:${l.range.start.character + 1}-${l.range.end.character + 1}`,
    );
  };

  // Every place naming resource:default/invoices-db, as path:line:column-endColumn (1-based).
  const invoicesDb = [
    'payments-platform/catalog-info.yaml:79:7-35', // billing-worker dependsOn, full ref
    'payments-platform/catalog-info.yaml:109:7-27', // invoice-api dependsOn, `resource:invoices-db`
    'payments-platform/catalog/resources.yaml:6:9-20', // the declaration
    'payments-platform/epics/smart-dunning.md:9:5-33', // epic front matter
    'payments-platform/services/billing-worker/docs/architecture.md:9:22-50', // TechDocs page
    'payments-platform/services/billing-worker/src/dunning/schedule.ts:2:19-39', // code comment
    'payments-platform/services/invoice-api/src/routes/invoices.ts:2:21-41', // code comment
    'platform-infra/notes/multi-region-eu.md:9:5-33',
    'platform-infra/notes/multi-region-eu.md:25:30-58',
  ];

  it('finds every place naming an entity, declaration included when asked', async () => {
    assert.deepEqual(
      await referencesAt('payments-platform/catalog-info.yaml', { line: 78, character: 20 }, true),
      invoicesDb,
    );
  });

  it('leaves the declaration out when not asked, and works from the declaration itself', async () => {
    const withoutDeclaration = invoicesDb.filter((r) => !r.startsWith('payments-platform/catalog/resources.yaml'));
    assert.deepEqual(
      await referencesAt('payments-platform/catalog/resources.yaml', { line: 5, character: 10 }, false),
      withoutDeclaration,
    );
  });

  it('reads an open, unsaved buffer instead of the file on disk', async () => {
    const rel = 'payments-platform/services/billing-worker/docs/faq.md';
    await lsp.open(rel, '# FAQ\n\nThe cycle state is in resource:invoices-db, and nowhere else.\n');
    const found = await referencesAt('payments-platform/catalog-info.yaml', { line: 78, character: 20 }, false);
    assert.ok(found.includes(`${rel}:3:23-43`), found.join('\n'));
    assert.equal(found.length, invoicesDb.length);
  });

  it('answers null away from refs', async () => {
    assert.equal(
      await lsp.connection.sendRequest(ReferencesRequest.type, {
        textDocument: { uri: lsp.uri('payments-platform/catalog-info.yaml') },
        position: { line: 19, character: 1 },
        context: { includeDeclaration: true },
      }),
      null,
    );
  });
});
