/**
 * The MCP fallback inside a real VS Code: with `WSCTX_MCP_TRANSPORT=stdio` in the editor's
 * environment (what the extension does on its own when the loopback endpoint does not answer
 * from the extension host), the server VS Code lists is the stdio proxy (dist/mcpProxy.js), which
 * forwards to the language server's endpoint: the same tools, discovered through one index.
 *
 * This session has no chat model at all (no test model, no Copilot), as an editor without one:
 * VS Code answers every `@context` request "Language model unavailable" before the participant
 * runs, and the same answer as `/why` comes from the "Open search results" command instead.
 *
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/mcpFallback.e2e.ts
 *
 * (after `node scripts/e2e/setup.mjs` and `node scripts/package/vsix.mjs`; E2E_VSIX,
 * E2E_PROJECT, E2E_WORKSPACE and E2E_KEEP_RUN as in extension.e2e.ts).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EXTENSION_ID } from '../../shared/ids';
import { TOOLS } from '../../server/src/tools/registry';
import { copyWorkspace, listEndpointTools, readEndpointFile } from './fixtures';
import { until, VsCodeSession, UI_TIMEOUT_MS } from './harness';
import { defaultVsixPath, repoRoot } from './paths';
import { closeDialogs, openChat, typeInChat } from './chatChecks';
import { listMcpServers, mcpDiscoveredToolCount, startMcpServer } from './productChecks';
import { ourItem, readStatusItem } from './statusChecks';
import { readResultsView } from './viewChecks';

const vsixPath = process.env.E2E_VSIX ?? defaultVsixPath;
const projectDir = process.env.E2E_PROJECT ?? repoRoot;
const sourceWorkspace = process.env.E2E_WORKSPACE ?? path.join(repoRoot, 'examples', 'fernhill');
const MCP_LABEL = 'Workspace Context';

describe('Workspace Context MCP through the stdio proxy (code-server + chromium)', function () {
  this.timeout(10 * 60_000);
  let vscode: VsCodeSession | undefined;
  const workspace = copyWorkspace(sourceWorkspace);

  before(async function () {
    const esbuild = readFileSync(path.join(projectDir, 'esbuild.mjs'), 'utf8');
    assert.match(
      esbuild,
      /server\/src\/mcp\/proxy\.ts/,
      'esbuild.mjs must bundle server/src/mcp/proxy.ts as dist/mcpProxy.js for the stdio fallback',
    );
    vscode = await VsCodeSession.start({
      workspace: workspace.dir,
      vsixPaths: [vsixPath],
      knownFile: 'catalog-info.yaml',
      settings: { 'workspaceContext.embeddings.provider': 'off' },
      env: { WSCTX_MCP_TRANSPORT: 'stdio' },
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await vscode?.screenshot(`fallback-failed-${this.currentTest.title}`).catch(() => undefined);
    if (vscode) await closeDialogs(vscode).catch(() => undefined);
    await vscode?.dismiss().catch(() => undefined);
  });

  after(async function () {
    await vscode?.stop();
    workspace.remove();
  });

  function session(): VsCodeSession {
    if (!vscode) throw new Error('e2e: VS Code did not start (see the before hook)');
    return vscode;
  }

  it('lists the server, starts the stdio proxy and discovers every tool of the one index', async function () {
    const vs = session();
    await readStatusItem(vs, ourItem('Context: ready'), 3 * UI_TIMEOUT_MS);
    const listed = await listMcpServers(vs, (servers) => servers.some((s) => s.label === MCP_LABEL));
    assert.deepEqual(
      listed.filter((s) => s.label === MCP_LABEL).map((s) => s.status.split(' ')[0]),
      ['Stopped'],
    );
    await startMcpServer(vs, MCP_LABEL);
    const discovered = await mcpDiscoveredToolCount(vs, MCP_LABEL);
    await vs.screenshot('fallback-mcp-tools-discovered');

    const proxy = path.join(vs.server.extensionFolder(EXTENSION_ID), 'dist', 'mcpProxy.js');
    const proxyProcess = await until('the stdio proxy process', async () =>
      vs.server.processes().find((p) => p.args.includes(proxy)),
    );
    assert.match(proxyProcess.args, /--endpoint-file \S+mcp-endpoint\.json/);
    assert.doesNotMatch(proxyProcess.args, /Bearer|[0-9a-f]{64}/, 'the token is not on the command line');

    // The proxy forwards to the language server's own endpoint: the same tools, exactly.
    const endpoint = readEndpointFile(vs.server.userDataDir);
    assert.ok(endpoint, 'the extension wrote its endpoint file');
    const names = await listEndpointTools(endpoint);
    assert.deepEqual(
      names,
      TOOLS.map((t) => t.name),
    );
    assert.equal(discovered, names.length);
  });

  it('with no chat model at all, VS Code refuses @context /why before it runs; "Open search results" gives the same answer', async function () {
    const vs = session();
    await readStatusItem(vs, ourItem('Context: ready'), 3 * UI_TIMEOUT_MS);
    await openChat(vs);
    const refused = await typeInChat(
      vs,
      '@context /why how do I roll back billing-worker?',
      (r) => /Language model unavailable/.test(r),
      undefined,
      'text',
    );
    await vs.screenshot('no-model-chat-refused');
    assert.match(refused, /Language model unavailable/);
    await vs.runCommand('Workspace Context: Open search results');
    await vs.waitForQuickInput('Workspace context: open search results');
    await vs.page.keyboard.insertText('how do I roll back billing-worker?');
    await vs.page.keyboard.press('Enter');
    const view = await readResultsView(vs, (v) => v.headings.length >= 6);
    await vs.screenshot('no-model-results-view');
    // What /why shows: the ranked passages, each with how its score was made.
    assert.equal(view.headings[1], '1. Deploy and rollback › Rolling back');
    assert.ok(
      view.tables.some((t) => t.at(-1)?.join('|') === 'score|||1.109|'),
      JSON.stringify(view.tables[0]),
    );
  });
});
