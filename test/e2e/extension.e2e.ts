/**
 * The extension inside a real VS Code: code-server 1.139 driven by headless chromium.
 *
 *   node scripts/e2e/run.mjs                       setup + package + this suite
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/extension.e2e.ts
 *
 * The second form needs `node scripts/e2e/setup.mjs` and `node scripts/e2e/packageVsix.mjs`
 * first. E2E_VSIX installs another VSIX; E2E_PROJECT names the checkout it was packed from
 * (its package.json and esbuild.mjs say what to expect); E2E_WORKSPACE opens another folder; E2E_KEEP_RUN=1
 * keeps the run's user data and extensions folders under .vscode-test/runs/.
 * Screenshots, the browser console, code-server's log and its logs folder land in
 * test-artifacts/e2e/.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EXTENSION_ID, LANGUAGE_CLIENT_NAME } from '../../shared/ids';
import { until, VsCodeSession, UI_TIMEOUT_MS } from './harness';
import { defaultVsixPath, repoRoot } from './paths';
import { loadFromExtension, runtimeExternals } from './runtimeModules';

const vsixPath = process.env.E2E_VSIX ?? defaultVsixPath;
const projectDir = process.env.E2E_PROJECT ?? repoRoot;
const workspace = process.env.E2E_WORKSPACE ?? path.join(repoRoot, 'examples', 'fernhill');
const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as { displayName: string; version: string };

describe('Workspace Context in VS Code (code-server + chromium)', function () {
  this.timeout(10 * 60_000);
  let vscode: VsCodeSession | undefined;

  before(async function () {
    vscode = await VsCodeSession.start({ workspace, vsixPaths: [vsixPath], knownFile: 'catalog-info.yaml' });
    await vscode.screenshot('workbench-loaded');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await vscode?.screenshot(`failed-${this.currentTest.title}`).catch(() => undefined);
  });

  after(async function () {
    await vscode?.stop();
  });

  function session(): VsCodeSession {
    if (!vscode) throw new Error('e2e: VS Code did not start (see the before hook)');
    return vscode;
  }

  it('installs the packaged VSIX into code-server', function () {
    assert.ok(
      session().server.listExtensions().includes(`${EXTENSION_ID}@${manifest.version}`),
      `${EXTENSION_ID}@${manifest.version} not in code-server --list-extensions: ${session().server.listExtensions().join(', ')}`,
    );
  });

  it('ships every module esbuild leaves external, loadable from the extension folder', function () {
    const names = runtimeExternals(path.join(projectDir, 'esbuild.mjs'));
    const { results, outside } = loadFromExtension(session().server.extensionFolder(EXTENSION_ID), names);
    assert.deepEqual(results.filter((r) => r.status === 'missing'), []);
    assert.deepEqual(results.map((r) => r.name), names);
    assert.deepEqual(outside, [], 'modules loaded from outside the installed extension: the VSIX lacks them');
  });

  it('lists the extension under Installed in the Extensions view', async function () {
    const vs = session();
    await vs.runCommand('Extensions: Show Installed Extensions');
    const row = vs.page.locator('.extensions-viewlet .monaco-list-row', { hasText: manifest.displayName }).first();
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await vs.screenshot('extensions-view-installed');
    assert.match(await row.innerText(), new RegExp(`^${manifest.displayName}$`, 'm'));
  });

  it('activates the extension in the extension host', async function () {
    const vs = session();
    // Activation follows the workbench by 5-15 s; until then the extension is not listed.
    const find = <T extends { name: string }>(running: T[]) => running.find((e) => e.name === manifest.displayName);
    await until(`"${manifest.displayName}" in Running Extensions`, async () => find(await vs.runningExtensions()), 2 * UI_TIMEOUT_MS)
      .catch((error: Error) => {
        throw new Error(`${error.message}. Is an activation event for this workspace in package.json's activationEvents?`);
      });
    const ours = find(await vs.runningExtensions(() => vs.screenshot('running-extensions')));
    assert.ok(ours);
    assert.equal(ours.version, manifest.version);
    assert.match(ours.activation, /Activation: \d+ms/);
    assert.match(vs.readExtensionHostLog(), new RegExp(`ExtensionService#_doActivateExtension ${EXTENSION_ID}, startup: \\w+, activationEvent: '[^']+'`));
  });

  it('starts the language server and its output channel', async function () {
    const vs = session();
    const serverModule = path.join(vs.server.extensionFolder(EXTENSION_ID), 'dist', 'server.js');
    const running = await until('the language server process', async () => vs.server.processes().find((p) => p.args.includes(serverModule)));
    assert.ok(running.pid > 0);
    await until(`output channel "${LANGUAGE_CLIENT_NAME}"`, async () => ((await vs.hasOutputChannel(LANGUAGE_CLIENT_NAME)) ? true : undefined));
    await vs.readOutputChannel(LANGUAGE_CLIENT_NAME, () => true);
    await vs.screenshot('output-channel');
  });
});
