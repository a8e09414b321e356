/**
 * "Context for my change" in a real VS Code (code-server + headless chromium): a copy of the
 * example workspace made a git repository, a billing-worker file changed and a checkout-web file
 * added, then the Source Control view's title-bar button: pick "Working tree", and the bundle
 * opens as a results document whose "The change" part names billing-worker with its owner, the
 * rules for the changed paths and the runbooks, each with its reason. One screenshot per step.
 *
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/changeContext.e2e.ts
 *
 * (after `node scripts/e2e/setup.mjs` and `node scripts/package/vsix.mjs`; `npm run e2e` runs
 * every suite). E2E_VSIX installs another VSIX. Embeddings are off: the change's items do not
 * depend on meaning.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { copyWorkspace } from './fixtures';
import { until, UI_TIMEOUT_MS, VsCodeSession } from './harness';
import { defaultVsixPath, repoRoot } from './paths';

const vsixPath = process.env.E2E_VSIX ?? defaultVsixPath;
const BUTTON = 'Context for my change';

/** A git repository of `dir` with one commit, as a clone would be (no user config needed). */
function commitAll(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=Fernhill', '-c', 'user.email=dev@fernhill.io', 'commit', '-q', '-m', 'The example workspace');
}

describe('Context for my change, from the Source Control view (code-server + chromium)', function () {
  this.timeout(10 * 60_000);
  let vscode: VsCodeSession | undefined;
  const workspace = copyWorkspace(path.join(repoRoot, 'examples', 'fernhill'));

  before(async function () {
    commitAll(workspace.dir);
    appendFileSync(
      path.join(workspace.dir, 'payments-platform/services/billing-worker/src/worker.ts'),
      '// log the receive count of failed jobs\n',
    );
    writeFileSync(path.join(workspace.dir, 'storefront/apps/checkout-web/src/components/Banner.tsx'), 'export {};\n');
    vscode = await VsCodeSession.start({
      workspace: workspace.dir,
      vsixPaths: [vsixPath],
      knownFile: 'catalog-info.yaml',
      settings: { 'workspaceContext.embeddings.provider': 'off' },
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await vscode?.screenshot(`change-failed-${this.currentTest.title}`).catch(() => undefined);
    await vscode?.dismiss().catch(() => undefined);
  });

  after(async function () {
    await vscode?.stop();
    workspace.remove();
  });

  it('the title-bar button asks which change and opens its bundle, each item with its reason', async function () {
    const vs = vscode!;
    await vs.runCommand('Source Control: Focus on Changes View');
    // The git extension has to find the repository first; the button shows for git repositories only.
    const button = vs.page.locator(`.monaco-action-bar .action-label[aria-label="${BUTTON}"]`).first();
    // A view's title actions show while the pointer is over its header.
    const header = vs.page.locator('.pane-header', { hasText: 'Changes' }).first();
    await until(
      'the "Context for my change" button on the Source Control view',
      async () => {
        await header.hover();
        return (await button.isVisible()) ? true : undefined;
      },
      2 * UI_TIMEOUT_MS,
    );
    await vs.screenshot('change-scm-view');
    // The extension registers the command once it has activated: click until the pick opens.
    await until(
      'the "Context for my change" pick',
      async () => {
        await vs.dismiss();
        await header.hover();
        await button.click();
        try {
          await vs.waitForQuickInput(BUTTON, 5_000);
          return true;
        } catch {
          return undefined;
        }
      },
      2 * UI_TIMEOUT_MS,
    );
    assert.deepEqual(await vs.quickPickLabels(), ['Working tree', 'Staged changes']);
    await vs.screenshot('change-which');
    assert.ok(await vs.pickQuickItem('Working tree'));

    // The bundle opens as a results document named for the entities the change touches.
    const editor = vs.page.locator('.editor-instance .monaco-editor[data-uri^="workspace-context-results:"]').first();
    await editor.waitFor({ state: 'visible', timeout: 2 * UI_TIMEOUT_MS });
    const tab = vs.page.locator('.tabs-container .tab.active .label-name').first();
    assert.match((await tab.innerText()).trim(), /^change-billing-worker-checkout-web(\.md)?$/);
    // Find "The change" part and read what the editor shows around it.
    await vs.page.keyboard.press('Control+F');
    await vs.page.keyboard.insertText('# The change');
    await vs.page.keyboard.press('Enter');
    await vs.page.keyboard.press('Escape');
    const lines = editor.locator('.view-lines');
    const shown = await until(
      'the change summary in view',
      async () => {
        const text = (await lines.innerText()).replace(/\u00a0/g, ' ');
        return text.includes('owned by group:default/payments-team') ? text : undefined;
      },
      UI_TIMEOUT_MS,
    );
    await vs.screenshot('change-bundle');
    assert.match(shown, /2 changed files \(from the diff\): 2 in 2 entities, 0 owned by none\./);
    assert.match(
      shown,
      /\*\*component:default\/billing-worker\*\* \(Billing worker\): service, production, owned by group:default\/payments-team/,
    );
    assert.match(shown, /- Owns the change by its TechDocs folder \(dir:\.\/services\/billing-worker\)/);
    // Further down, each page under its label: the rules for the changed paths first.
    await vs.page.keyboard.press('Control+F');
    await vs.page.keyboard.insertText('rule-applies: its globs');
    await vs.page.keyboard.press('Enter');
    await vs.page.keyboard.press('Escape');
    const rules = await until(
      'a rule-applies label in view',
      async () => {
        const text = (await lines.innerText()).replace(/\u00a0/g, ' ');
        return text.includes('rule-applies: its globs') ? text : undefined;
      },
      UI_TIMEOUT_MS,
    );
    assert.match(
      rules,
      /rule-applies: its globs \([^)]*\) match payments-platform\/services\/billing-worker\/src\/worker\.ts/,
    );
    await vs.screenshot('change-rule-applies');
  });
});
