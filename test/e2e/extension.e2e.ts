/**
 * The extension inside a real VS Code: code-server 1.139 driven by headless chromium, on a copy of
 * the example workspace, with the packaged VSIX and a test-only chat model installed. Checked
 * through the UI, one screenshot per step: install and activation, the status item reaching
 * ready, a hover with graph neighbours (and its trusted expand link), the grammar's scopes, the
 * live search, the results view and "Why not this page?", "MCP: List Servers" with every tool
 * discovered over HTTP, the commands, and the `@context` participant with and without a model
 * call.
 *
 *   bash scripts/e2e/run.sh                          setup + package + every suite
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/extension.e2e.ts
 *
 * The second form needs `node scripts/e2e/setup.mjs` and `node scripts/package/vsix.mjs`
 * first. E2E_VSIX installs another VSIX; E2E_PROJECT names the checkout it was packed from
 * (its package.json and esbuild.mjs say what to expect); E2E_WORKSPACE opens a copy of another
 * folder; E2E_KEEP_RUN=1 keeps the run's user data and extensions folders under
 * .vscode-test/runs/. Screenshots, the browser console, code-server's log and its logs folder land
 * in test-artifacts/e2e/.
 *
 * Embeddings are off in this session so the ranking (and the scores asserted below) depend on
 * words alone, as in test/lsp; the local model's modules are checked to load by the second test.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EXTENSION_ID, LANGUAGE_CLIENT_NAME } from '../../shared/ids';
import { TOOLS } from '../../server/src/tools/registry';
import {
  askChat,
  chatCompletions,
  chatInputHints,
  clearChatInput,
  closeDialogs,
  maximizeChat,
  openChatWithoutPickingAModel,
  testModelPrompts,
  typeInChat,
} from './chatChecks';
import { copyWorkspace, listEndpointTools, packTestModel, readEndpointFile, TEST_MODEL_EXTENSION_ID } from './fixtures';
import { until, VsCodeSession, UI_TIMEOUT_MS } from './harness';
import { defaultVsixPath, repoRoot } from './paths';
import {
  hoverAt,
  hoverLinksInView,
  listMcpServers,
  mcpDiscoveredToolCount,
  readQuickPickItems,
  searchWorkspaceContext,
  startMcpServer,
} from './productChecks';
import { loadFromExtension, runtimeExternals } from './runtimeModules';
import { ourItem, readStatusItem, readStatusTooltip, STATUS_ITEM_ID, workbenchProblemCounts } from './statusChecks';
import { clickViewLink, quickInputValue, readResultsView, titleBarButton } from './viewChecks';
import { problemsLine } from '../../client/src/statusText';

const vsixPath = process.env.E2E_VSIX ?? defaultVsixPath;
const projectDir = process.env.E2E_PROJECT ?? repoRoot;
const sourceWorkspace = process.env.E2E_WORKSPACE ?? path.join(repoRoot, 'examples', 'fernhill');
const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as {
  displayName: string;
  version: string;
};

const QUESTION = 'how do I roll back billing-worker?';
const MCP_LABEL = 'Workspace Context';

describe('Workspace Context in VS Code (code-server + chromium)', function () {
  this.timeout(10 * 60_000);
  let vscode: VsCodeSession | undefined;
  const workspace = copyWorkspace(sourceWorkspace);

  before(async function () {
    vscode = await VsCodeSession.start({
      workspace: workspace.dir,
      vsixPaths: [vsixPath, packTestModel()],
      knownFile: 'catalog-info.yaml',
      settings: { 'workspaceContext.embeddings.provider': 'off' },
    });
    await vscode.screenshot('workbench-loaded');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await vscode?.screenshot(`failed-${this.currentTest.title}`).catch(() => undefined);
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

  describe('install and activation', () => {
    it('installs the packaged VSIX into code-server', function () {
      const installed = session().server.listExtensions();
      assert.ok(
        installed.includes(`${EXTENSION_ID}@${manifest.version}`),
        `${EXTENSION_ID}@${manifest.version} not in code-server --list-extensions: ${installed.join(', ')}`,
      );
      assert.ok(
        installed.some((e) => e.startsWith(`${TEST_MODEL_EXTENSION_ID}@`)),
        'the test model extension is installed too',
      );
    });

    it('ships every module esbuild leaves external, loadable from the extension folder', function () {
      const names = runtimeExternals(path.join(projectDir, 'esbuild.mjs'));
      const { results, outside } = loadFromExtension(session().server.extensionFolder(EXTENSION_ID), names);
      assert.deepEqual(
        results.filter((r) => r.status === 'missing'),
        [],
      );
      assert.deepEqual(
        results.map((r) => r.name),
        names,
      );
      assert.deepEqual(outside, [], 'modules loaded from outside the installed extension: the VSIX lacks them');
    });

    it('lists the extension under Installed in the Extensions view', async function () {
      const vs = session();
      await vs.runCommand('Extensions: Show Installed Extensions');
      // By its name: the test model's description mentions Workspace Context too.
      const name = vs.page
        .locator('.extensions-viewlet .monaco-list-row .name', { hasText: new RegExp(`^${manifest.displayName}$`) })
        .first();
      await name.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await vs.screenshot('extensions-view-installed');
      assert.equal((await name.innerText()).trim(), manifest.displayName);
    });

    it('activates the extension in the extension host', async function () {
      const vs = session();
      // Activation follows the workbench by 5-15 s; until then the extension is not listed.
      const find = <T extends { name: string }>(running: T[]) => running.find((e) => e.name === manifest.displayName);
      await until(
        `"${manifest.displayName}" in Running Extensions`,
        async () => find(await vs.runningExtensions()),
        2 * UI_TIMEOUT_MS,
      ).catch((error: Error) => {
        throw new Error(
          `${error.message}. Is an activation event for this workspace in package.json's activationEvents?`,
        );
      });
      const ours = find(await vs.runningExtensions(() => vs.screenshot('running-extensions')));
      assert.ok(ours);
      assert.equal(ours.version, manifest.version);
      assert.match(ours.activation, /Activation: \d+ms/);
      assert.match(
        vs.readExtensionHostLog(),
        new RegExp(`ExtensionService#_doActivateExtension ${EXTENSION_ID}, startup: \\w+, activationEvent: '[^']+'`),
      );
    });

    it('starts the language server and its output channel', async function () {
      const vs = session();
      const serverModule = path.join(vs.server.extensionFolder(EXTENSION_ID), 'dist', 'server.js');
      const running = await until('the language server process', async () =>
        vs.server.processes().find((p) => p.args.includes(serverModule)),
      );
      assert.ok(running.pid > 0);
      await until(`output channel "${LANGUAGE_CLIENT_NAME}"`, async () =>
        (await vs.hasOutputChannel(LANGUAGE_CLIENT_NAME)) ? true : undefined,
      );
      await vs.readOutputChannel(LANGUAGE_CLIENT_NAME, () => true);
      await vs.screenshot('output-channel');
    });
  });

  describe('the index in the editor', () => {
    before(async function () {
      // The output panel from the tests above would leave little of the editor in view.
      await session().hidePanel();
    });

    it('shows the status item reaching ready with counts and indexedAt', async function () {
      const vs = session();
      const ready = await readStatusItem(vs, ourItem('Context: ready'), 3 * UI_TIMEOUT_MS);
      assert.equal(ready.id, STATUS_ITEM_ID);
      assert.match(
        ready.label,
        /^Workspace Context: ready, 66 entities, 353 sections, indexed \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/,
      );
      await vs.screenshot('status-ready');
    });

    it("counts in the status item's tooltip the problems the Problems panel shows", async function () {
      const vs = session();
      const panel = await until('the Problems count', async () => {
        const counts = await workbenchProblemCounts(vs);
        return counts.error + counts.warning + counts.info === 7 ? counts : undefined;
      });
      const tooltip = await readStatusTooltip(vs, (t) => /in the Problems panel/.test(t));
      await vs.screenshot('status-tooltip-problems');
      // The same count, in the tooltip's words: "7 problems in the Problems panel (1 error, 4 warnings, 2 info)."
      assert.ok(tooltip.includes(problemsLine(panel)), `${JSON.stringify(panel)}\n${tooltip}`);
    });

    it('hovers an entity ref in a catalog file and shows its neighbours and expand links', async function () {
      const vs = session();
      // payments-platform/catalog-info.yaml line 29: `  owner: payments-team` (System billing).
      const hover = await hoverAt(vs, 'payments-platform/catalog-info.yaml', 'payments-team', ['Neighbours'], 29);
      await vs.screenshot('hover-entity-ref');
      const lines = hover
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      // The links come before the long parts, so they show whatever the hover's height.
      assert.deepEqual(lines.slice(0, 6), [
        'Payments team',
        'Group group:default/payments-team · type team',
        // A team declared in the repository's catalog/ folder: the repository's overview is not its page.
        'Declared in platform-infra/catalog/groups.yaml:33',
        'Expand 2 hops: dependencies · dependents · both',
        'Owns card payments, subscription billing and dunning. Slack #team-payments, on-call rotation payments-primary (weekly, hand-over Monday 10:00 CET).',
        'Neighbours (19 edges)',
      ]);
      assert.ok(lines.includes('childOf → group:default/engineering'), hover);
      assert.ok(
        lines.includes('hasMember ← user:default/jonas.weber, user:default/maria.chen, user:default/rafael.costa'),
        hover,
      );
      const links = ['platform-infra/catalog/groups.yaml:33', 'dependencies', 'dependents', 'both'];
      assert.deepEqual(await hoverLinksInView(vs, links), Object.fromEntries(links.map((l) => [l, true])));
    });

    it("runs the hover's trusted expand link and shows the walk", async function () {
      const vs = session();
      await hoverAt(vs, 'payments-platform/catalog-info.yaml', 'payments-team', ['Neighbours'], 29);
      await vs.page
        .locator('.monaco-hover:not(.hidden) a', { hasText: /^dependencies$/ })
        .first()
        .click();
      // Out of a group is what it points to: its parent, and the parent's parent two hops out
      // (what it owns and its members point to it: they are its dependents, `in`).
      await vs.waitForQuickInput('group:default/payments-team (Payments team) · dependencies · depth 2 · 2 of 2 edges');
      const items = await readQuickPickItems(vs);
      await vs.screenshot('hover-expand-walk');
      const rows = items.map((i) => [i.label, i.detail]);
      assert.deepEqual(rows[0], [
        'group:default/payments-team ─childOf→ group:default/engineering',
        'declared at platform-infra/catalog/groups.yaml:28 (spec.children)',
      ]);
      assert.ok(
        rows.some(([label]) => label === 'group:default/engineering ─childOf→ group:default/fernhill'),
        JSON.stringify(rows),
      );
      assert.ok(!rows.some(([label]) => /hasMember|ownerOf/.test(label ?? '')), JSON.stringify(rows));
    });

    it('highlights entity refs with the injected grammar', async function () {
      const vs = session();
      await vs.openFile('payments-platform/catalog-info.yaml');
      await vs.goToLine(29);
      await vs.clickText('payments-team');
      await vs.runCommand('Developer: Inspect Editor Tokens and Scopes');
      const widget = vs.page.locator('.token-inspect-widget').first();
      await widget.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const text = await widget.innerText();
      await vs.screenshot('grammar-scopes');
      await vs.page.keyboard.press('Escape');
      assert.match(text, /variable\.other\.constant\.entity-ref\.name\.workspace-context/);
      assert.match(text, /meta\.entity-ref\.short\.workspace-context/);
    });

    it("searches as you type: the first row is the expected passage's own words with its score beside them; Enter opens it at its line", async function () {
      const vs = session();
      await searchWorkspaceContext(vs, QUESTION);
      const items = await readQuickPickItems(vs);
      await vs.screenshot('search-live-results');
      // The first line is the passage's own words; the score is one short item beside them.
      assert.match(items[0].label, /^Roll back first, investigate second\. /);
      assert.equal(items[0].description, 'score 1.11');
      assert.equal(
        items[0].detail,
        'Deploy and rollback › Rolling back · payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45',
      );
      assert.match(items[1].detail, /^Deploy and rollback › Deploying to production · /);
      await vs.page.keyboard.press('Enter');
      await vs.page
        .locator('.editor-instance .monaco-editor[data-uri$="docs/runbooks/deploy.md"]')
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const cursor = await readStatusItem(
        vs,
        (item) => item.id === 'status.editor.selection' && item.text.startsWith('Ln 35,'),
      );
      await vs.screenshot('search-opened-source');
      assert.equal(cursor.text, 'Ln 35, Col 1');
    });

    it("opens the answer in the results view: rendered, each passage's whole why[] table, links to file and line", async function () {
      const vs = session();
      await searchWorkspaceContext(vs, QUESTION);
      await vs.page
        .locator('.quick-input-widget .quick-input-titlebar a[aria-label^="Open the answer in the results view"]')
        .click();
      const view = await readResultsView(vs, (v) => v.headings.length >= 11);
      await vs.screenshot('results-view');
      assert.deepEqual(view.headings.slice(0, 3), [
        QUESTION,
        '1. Deploy and rollback › Rolling back',
        '2. Deploy and rollback › Deploying to production',
      ]);
      // Rendered, not Markdown source: the runbook's commands are a code block, no backtick shows.
      assert.ok(!view.text.includes('`'), `literal backticks in the view:\n${view.text.slice(0, 2000)}`);
      assert.ok(
        view.codeBlocks.some((c) => c.includes('fernctl rollback billing-worker --env production --to 7d1e0b3')),
        JSON.stringify(view.codeBlocks),
      );
      // Each passage's why[] table, whole: every signal, and the score they sum to.
      const why = view.tables.filter((t) => t[0].join('|') === 'signal|weight|raw|contribution|detail');
      assert.equal(why.length, 10);
      assert.deepEqual(
        why[0].map((row) => row[0]),
        ['signal', 'words', 'meaning', 'title', 'namedEntity', 'recency', 'runHealth', 'score'],
      );
      assert.deepEqual(why[0][4].slice(0, 4), ['namedEntity', '0.15', '1.000', '0.150']);
      assert.deepEqual(why[0][7], ['score', '', '', '1.109', '']);
      const sum = why[0].slice(1, 7).reduce((total, row) => total + Number(row[3]), 0);
      assert.ok(Math.abs(sum - 1.109) < 0.002, `the terms sum to ${sum}`);
      // Its links are the view's own, one per passage, to the passage's file and lines.
      assert.ok(
        view.links.length >= 10 && view.links.every((l) => /^wsctx-open:\d+$/.test(l.href)),
        JSON.stringify(view.links),
      );
      assert.equal(view.links[0].text, 'payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45');
      await clickViewLink(vs, 'payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45');
      await vs.page
        .locator('.editor-instance .monaco-editor[data-uri$="docs/runbooks/deploy.md"]')
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const cursor = await readStatusItem(
        vs,
        (item) => item.id === 'status.editor.selection' && item.text.startsWith('Ln 35,'),
      );
      assert.equal(cursor.text, 'Ln 35, Col 1');
    });

    it('"Why not this page?" is a title-bar button with an icon on the results view, prefilled with the last file opened, and the fix comes first', async function () {
      const vs = session();
      // The page the user expected: the file they were reading before asking.
      const expected = '.context/guides/issuing-refunds.md';
      await vs.openFile(expected);
      await vs.runCommand('Workspace Context: Open search results');
      await vs.waitForQuickInput('Workspace context: open search results');
      await vs.page.keyboard.insertText(QUESTION);
      await vs.page.keyboard.press('Enter');
      await readResultsView(vs, (v) => v.headings[0] === QUESTION);
      const button = await until('the title-bar button', () => titleBarButton(vs, 'Why not this page?'));
      assert.match(button.label, /Why not this page\?/);
      assert.match(button.classes, /codicon-question/, 'shown as its icon');
      await vs.screenshot('results-view-why-not-button');
      await button.locator.click();
      // The view's own question is asked again; the page box holds the last file opened, not the view.
      await vs.waitForQuickInput(`Why not this page? "${QUESTION}"`);
      assert.equal(await quickInputValue(vs), expected);
      await vs.screenshot('why-not-prefilled');
      await vs.page.keyboard.press('Enter');
      const explanation = await readResultsView(vs, (v) => v.headings[0] === `Why not ${expected}?`);
      await vs.screenshot('why-not-explanation');
      const paragraphs = explanation.text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      assert.equal(paragraphs[0], `Why not ${expected}?`);
      assert.match(paragraphs[1], /^Fix: \S/, 'the fix is the first thing read');
      assert.equal(explanation.overflows, false, 'every line wraps inside the view');
      // No untitled buffer was opened for it.
      assert.equal(await vs.page.locator('.tabs-container .tab', { hasText: /^Untitled/ }).count(), 0);
    });
  });

  describe('MCP: the tools for Copilot and agent chat', () => {
    it('lists the server under "MCP: List Servers", starts it and discovers every tool over HTTP', async function () {
      const vs = session();
      const listed = await listMcpServers(vs, (servers) => servers.some((s) => s.label === MCP_LABEL));
      assert.deepEqual(
        listed.filter((s) => s.label === MCP_LABEL).map((s) => s.status.split(' ')[0]),
        ['Stopped'],
      );
      await startMcpServer(vs, MCP_LABEL);
      const discovered = await mcpDiscoveredToolCount(vs, MCP_LABEL);
      await vs.screenshot('mcp-tools-discovered');
      // The endpoint's own tools/list, fetched with the token the extension wrote for its proxy,
      // and the tool table the server registers from: all three agree, exactly.
      const endpoint = readEndpointFile(vs.server.userDataDir);
      assert.ok(endpoint, 'the extension wrote its endpoint file');
      assert.match(endpoint.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const names = await listEndpointTools(endpoint);
      assert.deepEqual(
        names,
        TOOLS.map((t) => t.name),
      );
      assert.equal(discovered, names.length);
      const log = await vs.readOutputChannel(`MCP: ${MCP_LABEL}`, (t) => /Discovered \d+ tools/.test(t));
      assert.match(log, /Connection state: Running/);
      assert.doesNotMatch(log, /mcpProxy/, 'the HTTP definition was used, not the stdio proxy');
      const running = await listMcpServers(vs, (servers) =>
        servers.some((s) => s.label === MCP_LABEL && /Running/.test(s.status)),
      );
      assert.ok(running.some((s) => s.label === MCP_LABEL));
    });
  });

  describe('MCP: when the endpoint moves', () => {
    it('updates the definition: VS Code stops the old server, and starting it again reaches the new endpoint', async function () {
      const vs = session();
      const before = readEndpointFile(vs.server.userDataDir);
      assert.equal(before?.state, 'running');
      await vs.runCommand('Workspace Context: Restart MCP endpoint');
      const toast = vs.page
        .locator('.notifications-toasts .notification-toast', { hasText: 'Workspace Context: MCP endpoint running at' })
        .first();
      await toast.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const after = await until('a new endpoint in the endpoint file', async () => {
        const now = readEndpointFile(vs.server.userDataDir);
        return now?.state === 'running' && now.url !== before?.url ? now : undefined;
      });
      assert.notEqual(after.token, before?.token);
      await listMcpServers(vs, (servers) => servers.some((s) => s.label === MCP_LABEL && /^Stopped/.test(s.status)));
      await startMcpServer(vs, MCP_LABEL);
      const log = await vs.readOutputChannel(
        `MCP: ${MCP_LABEL}`,
        (t) => (t.match(/Discovered \d+ tools/g) ?? []).length === 2,
      );
      await vs.screenshot('mcp-endpoint-restarted');
      assert.deepEqual(log.match(/Discovered \d+ tools/g), [
        `Discovered ${TOOLS.length} tools`,
        `Discovered ${TOOLS.length} tools`,
      ]);
      assert.deepEqual(
        await listEndpointTools(after),
        TOOLS.map((t) => t.name),
      );
    });
  });

  describe('commands', () => {
    it('Expand entity: walks the graph from an entity picked in the palette', async function () {
      const vs = session();
      await vs.runCommand('Workspace Context: Expand entity');
      await vs.waitForQuickInput('Expand entity');
      assert.ok(await vs.pickQuickItem('component:default/billing-worker', { timeoutMs: UI_TIMEOUT_MS }));
      await vs.waitForQuickInput('Expand component:default/billing-worker');
      assert.ok(await vs.pickQuickItem('dependencies'));
      await vs.waitForQuickInput(
        'component:default/billing-worker (Billing worker) · dependencies · depth 1 · 7 of 7 edges',
      );
      const items = await readQuickPickItems(vs);
      await vs.screenshot('expand-entity');
      assert.ok(
        items.some((i) => i.label === 'component:default/billing-worker ─dependsOn→ resource:default/invoices-db'),
        JSON.stringify(items),
      );
      assert.ok(
        items.some((i) => i.label === 'component:default/billing-worker ─ownedBy→ group:default/payments-team'),
        JSON.stringify(items),
      );
    });

    it("runs the code lens's entity-docs command: an entity's documents to pick from", async function () {
      const vs = session();
      await vs.openFile('payments-platform/catalog-info.yaml');
      // Line 57: the billing-worker Component's `metadata:`, where its code lens sits.
      await vs.goToLine(57);
      const lens = vs.page.locator('.codelens-decoration a', { hasText: /^10 docs$/ }).first();
      await lens.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      // Only counts above zero: the billing worker has dependencies and docs, no dependents.
      const shown = (await vs.page.locator('.codelens-decoration a').allInnerTexts()).map((t) => t.trim());
      assert.ok(shown.includes('5 dependencies'), JSON.stringify(shown));
      assert.deepEqual(
        shown.filter((t) => /^0 |^owns 0$/.test(t)),
        [],
      );
      await lens.click();
      await vs.waitForQuickInput('Documents of component:default/billing-worker');
      const items = await readQuickPickItems(vs);
      await vs.screenshot('code-lens-entity-docs');
      assert.equal(items.length, 10, JSON.stringify(items));
      assert.deepEqual([...new Set(items.map((i) => i.description))].sort(), [
        'catalog doc',
        'epic doc',
        'repo overview',
      ]);
      const first = items[0].label;
      await vs.page.keyboard.press('Enter');
      await vs.page
        .locator('.tabs-container .tab.active', { hasText: /\.md/ })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      assert.ok(first.length > 0);
    });

    it('Show diagnostics: every diagnostic of the workspace, grouped by file', async function () {
      const vs = session();
      await vs.runCommand('Workspace Context: Show diagnostics');
      // The library's own flags too: the 14- vs 30-day refund window on both pages, the repeated
      // idempotency-keys section on both pages.
      await vs.waitForQuickInput('Workspace Context: 7 diagnostics (1 error, 4 warnings, 2 info)');
      const items = await readQuickPickItems(vs);
      await vs.screenshot('show-diagnostics');
      assert.deepEqual(
        items.filter((i) => i.description).map((i) => i.description),
        [
          '.context/guides/calling-the-payments-gateway.md:21',
          '.context/guides/issuing-refunds.md:23',
          '.context/guides/issuing-refunds.md:41',
          '.context/guides/pci-dss-4-transition.md:4',
          '.context/reference/refund-policy.md:21',
          'storefront/catalog/legacy-entities.yaml:18',
          'storefront/catalog/legacy-entities.yaml:25',
        ],
      );
      assert.deepEqual(
        items.filter((i) => i.description).map((i) => i.detail.split(' · ')[0]),
        [
          'library.duplicate',
          'library.conflict',
          'library.duplicate',
          'library.expired',
          'library.conflict',
          'ref.unresolved',
          'catalog.invalid-entity',
        ],
      );
    });

    it('Show table of contents: the rules library by namespace', async function () {
      const vs = session();
      await vs.runCommand('Workspace Context: Show table of contents');
      await vs.waitForQuickInput('Workspace Context: table of contents');
      const items = await readQuickPickItems(vs);
      await vs.screenshot('table-of-contents');
      assert.ok(items.length > 3, JSON.stringify(items));
      assert.ok(
        items.some((i) => /^\S.* · \d+ sections?/.test(i.description)),
        JSON.stringify(items),
      );
    });

    it('Re-index: runs a full pass and the status item comes back to ready', async function () {
      const vs = session();
      await vs.runCommand('Workspace Context: Re-index');
      const toast = vs.page
        .locator('.notifications-toasts .notification-toast', { hasText: 'Workspace Context: re-indexed' })
        .first();
      await toast.waitFor({ state: 'visible', timeout: 2 * UI_TIMEOUT_MS });
      await vs.screenshot('reindexed');
      assert.match(
        await toast.innerText(),
        /Workspace Context: re-indexed fernhill: 99 files, 353 sections, 66 entities \(full pass, \d+ files read again, \d+\.\d s\)\./,
      );
      const ready = await readStatusItem(vs, ourItem('Context: ready'));
      assert.match(ready.label, /^Workspace Context: ready, 66 entities, 353 sections/);
    });
  });

  describe('@context in chat', () => {
    it('names @context and its commands where chat offers them: @ completion, / completion, the input', async function () {
      const vs = session();
      await openChatWithoutPickingAModel(vs, 'E2E echo');
      const participants = await chatCompletions(vs, '@', (rows) => rows.includes('@context'));
      assert.ok(participants.includes('@context'), JSON.stringify(participants));
      // With the MCP server started, its tools and the workspace's files are offered too: the participant's five rows come first.
      const ours = (rows: string[]) => rows.filter((r) => r === '@context' || r.startsWith('@context /'));
      const withCommands = await chatCompletions(vs, '@cont', (rows) => ours(rows).length >= 5);
      assert.deepEqual(withCommands.slice(0, 5), [
        '@context',
        '@context /change',
        '@context /expand',
        '@context /toc',
        '@context /why',
      ]);
      // Once @context is in the input, its description is the input's hint: the commands that need no model.
      await clearChatInput(vs);
      await vs.page.keyboard.insertText('@context ');
      const hints = await until('the input hint', async () => {
        const shown = await chatInputHints(vs);
        return shown.some((h) => h.includes('/why')) ? shown : undefined;
      });
      assert.ok(
        hints.includes('Ask about this workspace: /why, /expand, /toc and /change answer without a model'),
        JSON.stringify(hints),
      );
      await maximizeChat(vs);
      await vs.screenshot('chat-context-hint');
      const slash = await chatCompletions(
        vs,
        '@context /',
        (rows) => rows.length >= 4 && rows.every((r) => r.startsWith('/')),
      );
      assert.deepEqual(slash, ['/change', '/expand', '/toc', '/why']);
      await clearChatInput(vs);
    });

    it('answers @context /why with no model picked (chat uses the one it picked by itself) and never calls it', async function () {
      const vs = session();
      const before = await testModelPrompts(vs);
      await openChatWithoutPickingAModel(vs, 'E2E echo');
      const response = await typeInChat(vs, '@context /why who owns billing-worker?', (r) => r.includes('### 5.'));
      await vs.screenshot('chat-why-no-model-picked');
      assert.match(response, /The 5 best passages for "who owns billing-worker\?", each with how its score was made/);
      assert.match(response, /### 1\. .+\s+score \*\*\d\.\d{3}\*\* · \w+ · /);
      assert.deepEqual(await testModelPrompts(vs), before, '/why never calls a model');
    });

    it('/why shows the ranked passages and their why[] without calling the model', async function () {
      const vs = session();
      const before = await testModelPrompts(vs);
      const response = await askChat(vs, `@context /why ${QUESTION}`, (r) => r.includes('### 5.'));
      await maximizeChat(vs);
      await vs.screenshot('chat-why');
      assert.match(
        response,
        new RegExp(
          `^5 tables The 5 best passages for "${QUESTION.replace(/\?/g, '\\?')}", each with how its score was made`,
        ),
      );
      assert.match(response, /### 1\. Deploy and rollback › Rolling back\s+score \*\*1\.109\*\* · catalog_doc · /);
      assert.match(
        response,
        /\| namedEntity \| 0\.150 = 0\.15 × 1\.000 \| belongs to component:default\/billing-worker/,
      );
      assert.deepEqual(await testModelPrompts(vs), before, '/why never calls a model');
    });

    it('answers a question with the picked model from retrieved passages and cites them', async function () {
      const vs = session();
      const before = await testModelPrompts(vs);
      const response = await askChat(vs, `@context ${QUESTION}`, (r) => r.includes('**Sources**'));
      await vs.screenshot('chat-answer-with-model');
      const retrieved = /E2E model read (\d+) passages\./.exec(response);
      assert.ok(retrieved, response);
      assert.ok(Number(retrieved[1]) >= 3, response);
      assert.match(response, /The first is "Deploy and rollback › Rolling back" \[1\]\./);
      assert.match(response, /\*\*Sources\*\*\s+\[1\] `deploy\.md:35-45`/);
      const after = await testModelPrompts(vs);
      assert.equal(after.context, before.context + 1, 'the participant asked the picked model once');
      // get_context's planner and judge ran on the same model through the language server.
      assert.ok(
        after.other > before.other,
        `the server's get_context used the chat model: ${JSON.stringify({ before, after })}`,
      );
    });

    it('answers a plain question with the passages it found when the model cannot answer', async function () {
      const vs = session();
      const response = await askChat(vs, '@context how do I roll back billing-worker when the model fails?', (r) =>
        r.includes('/why'),
      );
      await vs.screenshot('chat-answer-model-failed');
      assert.match(
        response,
        /No chat model answered \(.*E2E model: this request fails.*\)\. The passages it would have answered from:/,
      );
      // Each passage as a link to its lines (chat shows an anchor by its file and range).
      // "when the model fails" asks about failure: "After a rollback" (the DLQ redrive) comes first.
      assert.match(response, /1\. .*deploy\.md:47-52/);
    });

    it('/expand walks the graph without a model', async function () {
      const vs = session();
      const before = await testModelPrompts(vs);
      const response = await askChat(vs, '@context /expand component:billing-worker', (r) => r.includes('dependsOn'));
      await vs.screenshot('chat-expand');
      assert.match(
        response,
        /^\*\*component:default\/billing-worker\*\* \(Billing worker\) · dependencies · depth 1 · 7 of 7 edges/,
      );
      assert.match(response, /`component:default\/billing-worker` dependsOn → `resource:default\/invoices-db`/);
      assert.deepEqual(await testModelPrompts(vs), before);
    });
  });
});
