/**
 * The custom requests of shared/protocol.ts through the built language server: index status,
 * search, tools by name (with the caller's mistakes as InvalidParams errors), the diagnostics
 * report and re-index with its progress.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ErrorCodes, type ResponseError } from 'vscode-languageserver-protocol/node';
import {
  CallToolRequest,
  DiagnosticsReportRequest,
  IndexStatusRequest,
  ReindexRequest,
  SearchRequest,
} from '../../shared/protocol';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP custom requests (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  it('answers the index status with counts, the last pass and no degraded flags', async () => {
    const status = await lsp.connection.sendRequest(IndexStatusRequest.type);
    assert.equal(status.phase, 'ready');
    assert.equal(status.updating, false);
    assert.deepEqual(status.folders, [path.basename(lsp.workspace)]);
    assert.deepEqual(status.counts, {
      files: 99,
      documents: 136,
      sections: 353,
      entities: 66,
      edges: 300,
      unresolvedEdges: 2,
      problems: 1,
      bySourceKind: { catalog_entity: 66, catalog_doc: 32, repo_overview: 3, epic_doc: 7, library: 28 },
    });
    assert.equal(status.lastPass?.kind, 'full');
    assert.equal(status.lastPass?.filesRead, 99);
    assert.equal(status.lastError, null);
    assert.deepEqual(status.degraded, []);
    assert.equal(status.indexedAt, lsp.statuses[lsp.statuses.length - 1].indexedAt);
  });

  it('searches: ranked passages with label, location, score and the leading why terms', async () => {
    const result = await lsp.connection.sendRequest(SearchRequest.type, {
      question: 'how do I roll back billing-worker?',
      limit: 3,
    });
    assert.equal(result.question, 'how do I roll back billing-worker?');
    assert.deepEqual(result.degraded, []);
    assert.deepEqual(
      result.passages.map((p) => [p.label, `${p.path}:${p.startLine}-${p.endLine}`]),
      [
        [
          'Deploy and rollback › Rolling back',
          'payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45',
        ],
        [
          'Deploy and rollback › Deploying to production',
          'payments-platform/services/billing-worker/docs/runbooks/deploy.md:16-33',
        ],
        // A heading opening with "When" reads as a question (lexical/fields.ts isQuestionHeading),
        // which a question asked as one meets four times in the heading (contract 2026-12-07.2).
        ['Rolling back anything › When rolling back is not enough', 'platform-infra/docs/runbooks/rollback.md:19-27'],
      ],
    );
    const first = result.passages[0];
    assert.ok(Math.abs(first.score - 1.109) < 0.001, `score ${first.score}`);
    assert.equal(first.uri, `${lsp.uri('payments-platform/services/billing-worker/docs/runbooks/deploy.md')}#L35-L45`);
    assert.deepEqual(
      first.leadingWhy.map((w) => [w.signal, Math.round(w.contribution * 1000) / 1000, w.detail]),
      [
        // "roll back" is one term, the runbooks' `rollback` (contract 2026-12-04.3).
        [
          'words',
          0.811,
          '2 of 2 terms; matched roll back 0.84 (heading+title+body), billing-worker 0.72 (body+context)',
        ],
        ['namedEntity', 0.15, 'belongs to component:default/billing-worker, named as "billing worker"'],
        ['title', 0.148, 'title "Deploy and rollback" holds roll back 1.00'],
      ],
    );
    assert.equal(first.why.length, 6);
    assert.ok(Math.abs(first.why.reduce((s, w) => s + w.contribution, 0) - first.score) < 1e-9);
    assert.equal(first.preview.slice(0, 70), 'Roll back first, investigate second. A rollback takes about 3 minutes.');
    // The whole text only when asked for (the results view asks).
    assert.equal(first.text, undefined);
  });

  it("searches with each passage's whole text when asked, as the results view does", async () => {
    const result = await lsp.connection.sendRequest(SearchRequest.type, {
      question: 'how do I roll back billing-worker?',
      limit: 1,
      withText: true,
    });
    const text = result.passages[0].text ?? '';
    assert.match(text, /^## Rolling back\n\nRoll back first, investigate second\./);
    assert.ok(text.includes('```'), "the runbook's commands come as written, in their fence");
  });

  it('calls any tool of the shared table by name, defaulting the workspace', async () => {
    const result = await lsp.connection.sendRequest(CallToolRequest.type, {
      name: 'workspace_expand',
      arguments: { entityRef: 'component:billing-worker', direction: 'out', edgeTypes: ['ownedBy'] },
    });
    assert.equal(result.name, 'workspace_expand');
    assert.deepEqual(
      (result.output.edges as { target: string }[]).map((e) => e.target),
      ['group:default/payments-team'],
    );
    assert.equal(result.text.split('\n')[0], '# component:default/billing-worker (Billing worker)');
    // Library tools take no workspace argument: none is added for them.
    const toc = await lsp.connection.sendRequest(CallToolRequest.type, { name: 'get_toc', arguments: {} });
    assert.equal(toc.name, 'get_toc');
    assert.match(toc.text, /\[doc [0-9a-f]{8}\]/);
  });

  it("answers a caller's mistake with InvalidParams and the tool's own message", async () => {
    const refused = await lsp.connection
      .sendRequest(CallToolRequest.type, {
        name: 'workspace_expand',
        arguments: { entityRef: 'billing-worker', depth: 4 },
      })
      .then(
        () => assert.fail('depth 4 was accepted'),
        (error: ResponseError<unknown>) => error,
      );
    assert.equal(refused.code, ErrorCodes.InvalidParams);
    assert.match(refused.message, /^Invalid input for workspace_expand: depth: must be a whole number from 1 to 3/);
    const unknown = await lsp.connection.sendRequest(CallToolRequest.type, { name: 'nope' }).then(
      () => assert.fail('an unknown tool was called'),
      (error: ResponseError<unknown>) => error,
    );
    assert.equal(unknown.code, ErrorCodes.InvalidParams);
    assert.match(unknown.message, /^name: no tool "nope"; use one of workspace_context, workspace_expand/);
    const badLimit = await lsp.connection.sendRequest(SearchRequest.type, { question: 'billing', limit: 51 }).then(
      () => assert.fail('limit 51 was accepted'),
      (error: ResponseError<unknown>) => error,
    );
    assert.equal(
      badLimit.message,
      'Invalid input for workspace_context: limit: must be a whole number from 1 to 50 (the default is 10)',
    );
  });

  it('reports every diagnostic of the workspace at once, counted by severity and code', async () => {
    const report = await lsp.connection.sendRequest(DiagnosticsReportRequest.type);
    assert.equal(report.total, 7);
    assert.deepEqual(report.bySeverity, { error: 1, warning: 4, info: 2 });
    assert.deepEqual(report.byCode, {
      'library.duplicate': 2,
      'library.conflict': 2,
      'library.expired': 1,
      'ref.unresolved': 1,
      'catalog.invalid-entity': 1,
    });
    assert.deepEqual(
      report.items.map((i) => [i.path, i.range.start.line + 1, i.severity, i.code, i.source]),
      [
        ['.context/guides/calling-the-payments-gateway.md', 21, 'info', 'library.duplicate', 'library-flags'],
        ['.context/guides/issuing-refunds.md', 23, 'warning', 'library.conflict', 'library-flags'],
        ['.context/guides/issuing-refunds.md', 41, 'info', 'library.duplicate', 'library-flags'],
        ['.context/guides/pci-dss-4-transition.md', 4, 'warning', 'library.expired', 'expired-pages'],
        ['.context/reference/refund-policy.md', 21, 'warning', 'library.conflict', 'library-flags'],
        ['storefront/catalog/legacy-entities.yaml', 18, 'warning', 'ref.unresolved', 'unresolved-refs'],
        ['storefront/catalog/legacy-entities.yaml', 25, 'error', 'catalog.invalid-entity', 'problems'],
      ],
    );
    assert.equal(report.items[5].uri, lsp.uri('storefront/catalog/legacy-entities.yaml'));
  });

  it('re-indexes on request with work-done progress, answering the status once it is in service', async () => {
    const progressBefore = lsp.progress.length;
    const status = await lsp.connection.sendRequest(ReindexRequest.type);
    assert.equal(status.phase, 'ready');
    assert.equal(status.lastPass?.kind, 'full');
    // A full pass reads no file whose size and modification time are unchanged.
    assert.equal(status.lastPass?.filesRead, 0);
    const progress = lsp.progress.slice(progressBefore).map((p) => p.value);
    assert.deepEqual(progress, [
      {
        kind: 'begin',
        title: 'Workspace Context',
        message: `Re-indexing ${path.basename(lsp.workspace)}`,
        cancellable: false,
      },
      { kind: 'report', message: 'Listing files' },
      { kind: 'report', message: 'Checked 99 of 99 files' },
      { kind: 'report', message: 'Parsing and indexing 99 files' },
      { kind: 'end', message: 'Indexed 99 files, 136 documents, 353 sections, 66 entities' },
    ]);
  });
});
