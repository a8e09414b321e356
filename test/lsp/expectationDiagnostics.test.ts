/**
 * The expectations file in the editor, through the built language server: `.wsctx/expectations.yaml`
 * is run after every pass; a page an edit pushes down is a warning on its line saying why it did
 * not come, and a bad entry an error naming its field.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiagnosticSeverity, FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { CallToolRequest } from '../../shared/protocol';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

const FILE = '.wsctx/expectations.yaml';
const RUNBOOK = 'payments-platform/services/billing-worker/docs/runbooks/deploy.md';

describe('LSP diagnostics on the expectations file (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const onFile = (pick: (d: Diagnostic[]) => boolean) =>
    lsp.waitFor(`diagnostics for ${FILE}`, () => {
      const d = lsp.diagnostics.get(lsp.uri(FILE));
      return d && pick(d) ? d : undefined;
    });

  it('publishes nothing on the example expectations file: every expectation passes', async () => {
    // The expectations are checked after the pass's own diagnostics are out, and say so in the log.
    const checked = await lsp.waitFor('the expectations checked', () =>
      lsp.logs.find((l) => l.startsWith('[expectations] checked in ')),
    );
    assert.match(checked, /^\[expectations\] checked in \d+ ms: every expectation holds$/);
    assert.ok(lsp.diagnostics.size >= 5, 'the pass published the index diagnostics');
    assert.equal(lsp.diagnostics.get(lsp.uri(FILE)), undefined);
  });

  it('answers explain_result as the "Why not this page?" command asks it (CallToolRequest)', async () => {
    const result = await lsp.connection.sendRequest(CallToolRequest.type, {
      name: 'explain_result',
      arguments: { question: 'how do I roll back billing-worker?', expected: RUNBOOK },
    });
    assert.match(
      result.text,
      /^payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md: returned, rank 1 for "how do I roll back billing-worker\?" \(limit 10\)/,
    );
    assert.equal((result.output as { standing: string }).standing, 'returned');
  });

  it('warns on the line of an expected page an edit pushed down, with why and the fix', async () => {
    const file = path.join(lsp.workspace, RUNBOOK);
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace('Rolling back', 'Reverting a release')
        .replace(/[Rr]oll back|[Rr]ollback/g, 'revert'),
    );
    await lsp.fileEvents([{ uri: lsp.uri(RUNBOOK), type: FileChangeType.Changed }]);
    const diagnostics = await onFile((d) => d.length > 0);
    assert.equal(diagnostics.length, 1);
    const [d] = diagnostics;
    assert.equal(d.range.start.line, 7);
    assert.equal(d.severity, DiagnosticSeverity.Warning);
    assert.equal(d.code, 'expectation.failed');
    assert.match(
      String(d.message),
      /^payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md should come within 1 for "how do I roll back billing-worker\?": rank \d+\. It is a candidate/,
    );
    assert.match(String(d.message), /Fix: It holds roll back only weakly/);
  });

  it('marks a bad entry as an error naming its field', async () => {
    fs.writeFileSync(
      path.join(lsp.workspace, FILE),
      'expectations:\n  - question: who owns checkout-web?\n    expect:\n      - page: component:default/checkout-web\n        within: 0\n',
    );
    await lsp.fileEvents([{ uri: lsp.uri(FILE), type: FileChangeType.Changed }]);
    const diagnostics = await onFile((d) => d.some((x) => x.code === 'expectation.invalid'));
    const bad = diagnostics.find((x) => x.code === 'expectation.invalid')!;
    assert.equal(bad.range.start.line, 4);
    assert.equal(bad.severity, DiagnosticSeverity.Error);
    assert.equal(
      bad.message,
      'expectations[0].expect[0].within: expected a whole number from 1 to 50; this entry is not checked',
    );
  });
});
