/**
 * Results documents through the built language server: a workspace_context answer rendered as a
 * read-only document (served by `workspace/textDocumentContent`), whose passages show their why[]
 * table on hover.
 */
import assert from 'node:assert/strict';
import {
  ErrorCodes,
  HoverRequest,
  TextDocumentContentRequest,
  type ResponseError,
} from 'vscode-languageserver-protocol/node';
import { CONTRACT_VERSION } from '../../server/src/engine/ranking/contract';
import { OpenResultsRequest, RESULTS_SCHEME, type ResultsDocumentInfo } from '../../shared/protocol';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP results document (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  let info: ResultsDocumentInfo;
  before(async () => {
    lsp = await startOnExample();
    info = await lsp.connection.sendRequest(OpenResultsRequest.type, {
      question: 'how do I roll back billing-worker?',
      limit: 2,
    });
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  it('names the document under its own scheme and declares that scheme in the capabilities', () => {
    assert.deepEqual(info, {
      uri: `${RESULTS_SCHEME}:/1/how-do-i-roll-back-billing-worker.md`,
      title: 'Workspace context: how do I roll back billing-worker?',
      passages: 2,
    });
    assert.deepEqual(
      (lsp.initializeResult!.capabilities.workspace as { textDocumentContent?: unknown }).textDocumentContent,
      { schemes: [RESULTS_SCHEME] },
    );
  });

  it('renders the answer: facts, then each passage with score, source and text', async () => {
    const { text } = await lsp.connection.sendRequest(TextDocumentContentRequest.type, { uri: info.uri });
    const lines = text.split('\n');
    const indexedAt = lsp.statuses[lsp.statuses.length - 1].indexedAt;
    assert.deepEqual(lines.slice(0, 14), [
      '# Workspace context: how do I roll back billing-worker?',
      '',
      `2 passages · contract ${CONTRACT_VERSION} · indexed ${indexedAt}`,
      '',
      'Hover a passage to see how its score was made.',
      '',
      '## 1. Deploy and rollback › Rolling back',
      '',
      'score 1.109 · catalog_doc · payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45',
      '',
      `[Open the source](${lsp.uri('payments-platform/services/billing-worker/docs/runbooks/deploy.md')}#L35-L45)`,
      '',
      '> ## Rolling back',
      '>',
    ]);
    assert.equal(lines[24], '## 2. Deploy and rollback › Deploying to production');
  });

  it("shows a passage's why[] table on hover anywhere in the passage", async () => {
    const hover = await lsp.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: info.uri },
      position: { line: 15, character: 4 },
    });
    assert.deepEqual(hover?.range, { start: { line: 6, character: 0 }, end: { line: 22, character: 0 } });
    assert.deepEqual((hover!.contents as { value: string }).value.split('\n'), [
      '**1. Deploy and rollback › Rolling back** · score 1.109',
      '',
      '| signal | weight | raw | contribution | detail |',
      '| --- | ---: | ---: | ---: | --- |',
      '| words | 1.00 | 0.811 | 0.811 | 2 of 2 terms; matched roll back 0.84 (heading+title+body), billing-worker 0.72 (body+context) |',
      '| meaning | 0.00 | 0.000 | 0.000 | embeddings are off: words count at full weight |',
      '| title | 0.20 | 0.741 | 0.148 | title "Deploy and rollback" holds roll back 1.00 |',
      '| namedEntity | 0.15 | 1.000 | 0.150 | belongs to component:default/billing-worker, named as "billing worker" |',
      '| recency | 0.10 | 0.000 | 0.000 | no commit history for this file |',
      '| runHealth | 0.05 | 0.000 | 0.000 | no run verdict for repository payments-platform (unknown counts as nothing) |',
      '| **score** | | | **1.109** | |',
      '',
      'payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45',
    ]);
    const second = await lsp.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: info.uri },
      position: { line: 24, character: 0 },
    });
    assert.match(
      (second!.contents as { value: string }).value,
      /^\*\*2\. Deploy and rollback › Deploying to production\*\* · score 1\.064\n/,
    );
  });

  it('has no hover outside passages, numbers later documents on, and refuses unknown ones', async () => {
    assert.equal(
      await lsp.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: info.uri },
        position: { line: 2, character: 0 },
      }),
      null,
    );
    const next = await lsp.connection.sendRequest(OpenResultsRequest.type, { question: 'Who owns the ledger?' });
    assert.equal(next.uri, `${RESULTS_SCHEME}:/2/who-owns-the-ledger.md`);
    // (The refund and PCI documents below are numbers 3 and 4.)
    const error = await lsp.connection
      .sendRequest(TextDocumentContentRequest.type, { uri: `${RESULTS_SCHEME}:/99/nothing.md` })
      .then(
        () => assert.fail('an unknown results document had content'),
        (e: ResponseError<unknown>) => e,
      );
    assert.equal(error.code, ErrorCodes.InvalidParams);
  });

  it('marks conflicting and expired passages in the document and in their hover, with the other page and both wordings', async () => {
    const refund = await lsp.connection.sendRequest(OpenResultsRequest.type, {
      question: 'what is the refund window?',
      limit: 2,
    });
    const { text } = await lsp.connection.sendRequest(TextDocumentContentRequest.type, { uri: refund.uri });
    const lines = text.split('\n');
    const at = lines.indexOf('## 1. Refund policy › Refund window');
    assert.ok(at > 0, text);
    // In the document too the brackets are escaped (shared/markdown.ts): they render as written.
    assert.match(
      lines[at + 6],
      /^\*\*CONFLICT: "Issuing refunds" &#91;9cce21de&#93; › Refund window \(\.context\/guides\/issuing-refunds\.md:23\) says "A captured charge can be refunded up to 30 days after capture.*", where this says "Merchants can refund a captured charge within 14 days of capture, in full or in part\." \(14 days vs 30 days\)\.\*\*$/,
    );
    const hover = await lsp.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: refund.uri },
      position: { line: at + 2, character: 0 },
    });
    const value = (hover!.contents as { value: string }).value.split('\n');
    // Markdown escaped, so the brackets and quotes render as written.
    assert.match(value[2], /^> CONFLICT: "Issuing refunds" &#91;9cce21de&#93; › Refund window \(/);

    const pci = await lsp.connection.sendRequest(OpenResultsRequest.type, {
      question: 'PCI DSS 4.0 transition checklist',
      limit: 1,
    });
    const pciText = (await lsp.connection.sendRequest(TextDocumentContentRequest.type, { uri: pci.uri })).text;
    assert.match(
      pciText,
      /\n\*\*EXPIRED on 2025-06-30: this library page is past its expires date and the library tools no longer serve it; do not rely on it\.\*\*\n/,
    );
  });
});
