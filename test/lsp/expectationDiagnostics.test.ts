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
import { execFileSync } from 'node:child_process';
import { LspClient, startOnExample } from '../helpers/lspClient';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

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

describe('LSP: a hostile expectations file is read through the read guard (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  let ws: string;
  before(async () => {
    ws = tempDir('expectations-hostile');
    write(
      ws,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: billing-worker\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n',
    );
    write(ws, '.wsctx/keep', '');
    execFileSync('mkfifo', [path.join(ws, FILE)]);
    lsp = await LspClient.start(ws);
    await lsp.waitForReady();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  /** The one error on the file once it says `message` (before, the server said nothing at all). */
  const errorSaying = async (match: RegExp) => {
    const diagnostics = await lsp.waitFor(`an error matching ${match} on ${FILE}`, () => {
      const d = lsp.diagnostics.get(lsp.uri(FILE));
      return d?.some((x) => match.test(String(x.message))) ? d : undefined;
    });
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    assert.equal(diagnostics[0].severity, DiagnosticSeverity.Error);
    return diagnostics[0];
  };
  /** Puts another hostile file in its place; an edit of the catalog makes a pass, after which the file is run again. */
  const replaced = async (make: (abs: string) => void) => {
    const abs = path.join(ws, FILE);
    fs.rmSync(abs, { force: true });
    make(abs);
    fs.appendFileSync(path.join(ws, 'catalog-info.yaml'), '# edited\n');
    await lsp.fileEvents([
      { uri: lsp.uri(FILE), type: FileChangeType.Changed },
      { uri: lsp.uri('catalog-info.yaml'), type: FileChangeType.Changed },
    ]);
  };

  it('a FIFO in its place is an error on the file, and the server goes on answering', async () => {
    const d = await errorSaying(/FIFO/);
    assert.equal(d.code, 'expectation.unreadable');
    assert.equal(d.message, 'could not be read: a FIFO (named pipe), not a regular file; nothing in it is checked');
  });

  it('a link out of the folder is refused by name, as a 400 MB file is by its size', async () => {
    const outside = tempDir('expectations-outside');
    write(outside, 'q.yaml', 'expectations:\n  - question: outside?\n    expect: [billing-worker]\n');
    await replaced((abs) => fs.symlinkSync(path.join(outside, 'q.yaml'), abs));
    assert.equal(
      (await errorSaying(/outside the served folders/)).message,
      `could not be read: its real path (${path.join(outside, 'q.yaml')}) is outside the served folders; not read; nothing in it is checked`,
    );
    await replaced((abs) => {
      fs.writeFileSync(abs, 'expectations: []\n');
      fs.truncateSync(abs, 400 * 1024 * 1024);
    });
    assert.equal(
      (await errorSaying(/bytes/)).message,
      'could not be read: it holds more than 1,048,576 bytes, the most an expectations file may hold; not read; nothing in it is checked',
    );
  });

  it('runs the first 200 of 3,000 questions after a pass, and says the rest are not', async () => {
    const entries = Array.from(
      { length: 3000 },
      (_, i) => `  - question: who owns billing-worker, ask ${i}?\n    expect: [component:default/billing-worker]\n`,
    );
    await replaced((abs) => fs.writeFileSync(abs, `expectations:\n${entries.join('')}`));
    const d = await errorSaying(/at most 200/);
    assert.equal(d.range.start.line, 1 + 200 * 2);
    assert.equal(
      d.message,
      'expectations[200]: a file may hold at most 200 questions and tasks; this one and the 2799 after it (2800 in all) are not checked; this entry is not checked',
    );
  });
});
