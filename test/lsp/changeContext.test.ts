/**
 * "Context for my change" through the built language server (ChangeContextRequest): a copy of the
 * example made a folder of git repositories, changed as a developer would; the answer's items
 * with their reasons, the bundle kept as a results document the client reads back, the staged
 * changes alone, and no change answered as the caller's mistake.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes, type ResponseError } from 'vscode-languageserver-protocol/node';
import { ChangeContextRequest } from '../../shared/protocol';
import { LspClient } from '../helpers/lspClient';
import { copyExampleWorkspace, git, removeTempDirs } from '../helpers/tempWorkspace';

describe('context for a change (built language server, JSON-RPC)', function () {
  this.timeout(120_000);
  let lsp: LspClient;
  let ws: string;
  before(async () => {
    ws = copyExampleWorkspace({ git: true });
    lsp = await LspClient.start(ws);
    await lsp.waitForReady();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  it("answers no change as the caller's mistake", async () => {
    await assert.rejects(
      lsp.connection.sendRequest(ChangeContextRequest.type, { which: 'workingTree' }),
      (e: ResponseError) =>
        e.code === ErrorCodes.InvalidParams && /^git shows no change \(the working tree against HEAD\)/.test(e.message),
    );
  });

  it('the working tree: entities, items with their reasons, and the bundle as a results document', async () => {
    const worker = path.join(ws, 'payments-platform', 'services', 'billing-worker', 'src', 'worker.ts');
    fs.appendFileSync(worker, '// log the receive count\n');
    fs.writeFileSync(path.join(ws, 'storefront', 'apps', 'checkout-web', 'src', 'Banner.tsx'), 'export {};\n');
    git(path.join(ws, 'storefront'), ['add', 'apps/checkout-web/src/Banner.tsx']);
    const result = await lsp.connection.sendRequest(ChangeContextRequest.type, { which: 'workingTree' });
    assert.equal(result.compared, 'the working tree against HEAD');
    assert.equal(result.files, 2);
    assert.deepEqual(result.entities, ['component:default/billing-worker', 'component:default/checkout-web']);
    assert.deepEqual(
      result.items.filter((i) => i.reason === 'rule-applies').map((i) => i.path),
      [
        '.github/instructions/typescript.instructions.md',
        '.cursor/rules/money-and-pci.mdc',
        '.cursor/rules/storefront-react.mdc',
        'payments-platform/AGENTS.md',
        'AGENTS.md',
        'CLAUDE.md',
        '.github/copilot-instructions.md',
      ],
    );
    assert.ok(
      result.items.some(
        (i) => i.reason === 'runbook' && i.path === 'storefront/apps/checkout-web/docs/runbooks/release.md',
      ),
    );
    assert.match(result.uri, /^workspace-context-results:\/\d+\/change-billing-worker-checkout-web\.md$/);
    assert.equal(result.title, 'Context for my change');
    const doc = await lsp.connection.sendRequest('workspace/textDocumentContent', { uri: result.uri });
    assert.equal((doc as { text: string }).text, result.markdown);
    assert.match(
      result.markdown,
      /\n# The change\n\n2 changed files \(from the diff\): 2 in 2 entities, 0 owned by none\.\n/,
    );

    const staged = await lsp.connection.sendRequest(ChangeContextRequest.type, { which: 'staged' });
    assert.deepEqual(staged.entities, ['component:default/checkout-web']);
  });
});
