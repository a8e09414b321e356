/**
 * Drives a real VS Code (code-server 1.139 + headless Debian chromium) for end-to-end tests:
 * start it on a folder with a VSIX installed, run commands, open files, hover, read the status
 * bar and output channels, take screenshots, and stop everything even after a failure.
 *
 * Waits are on selectors with generous timeouts, never fixed sleeps; where VS Code gives no
 * selector to wait on (a command not registered yet, a hover provider not answering yet) the
 * helper retries the whole gesture until a deadline.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  cpSync,
  appendFileSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { CodeServer } from './codeServer';
import { loadChromium, type BrowserContext, type Locator, type Page } from './playwright';
import { artifactsDir, chromiumPath, codeServerEntry, node24, runsDir } from './paths';

/** Default deadline for one UI wait; the first workbench load alone takes 15-20 s here. */
export const UI_TIMEOUT_MS = 60_000;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface StartOptions {
  /** Absolute folder to open in the workbench. */
  workspace: string;
  /** VSIX files installed before the workbench opens. */
  vsixPaths?: string[];
  /** Workspace-relative path of a file the explorer shows at the top level: the "loaded" signal. */
  knownFile: string;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /** Files for the user folder (`mcp.json`, `keybindings.json`), by name. */
  userFiles?: Record<string, string>;
  /** Extra environment for code-server and everything it spawns (extension hosts, servers). */
  env?: Record<string, string>;
  /**
   * Runs once the browser page exists, before it navigates to the workbench: init scripts,
   * exposed functions and recorders that must see the workbench from its first frame.
   */
  beforeOpen?: (session: VsCodeSession) => Promise<void>;
  /**
   * The run folder of a session stopped with `keepRunDir`: its user data (workspace storage, the
   * extension's caches) and installed extensions are used again, for a warm open. `vsixPaths`
   * are not installed again.
   */
  runDir?: string;
  /** The loopback port (with `runDir`: the stopped session's, so the folder's workspace storage is the same). */
  port?: number;
}

/** Retries `attempt` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = UI_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    // Poll interval between whole attempts, not a wait for anything in particular.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const reason = lastError instanceof Error ? `: ${lastError.message.split('\n')[0]}` : '';
  throw new Error(`e2e: timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
}

/**
 * A function for Playwright to run in the page, built from source text: Playwright serializes
 * functions with toString(), and functions transpiled by tsx may call helpers (`__name`) that
 * do not exist in the page.
 */
function inPage<A extends unknown[], R>(params: string[], body: string): (...args: A) => R {
  return new Function(...params, body) as (...args: A) => R;
}

// One artifacts folder per test process: cleared by the first session, numbered across sessions.
let artifactsCleared = false;
let screenshotCount = 0;

/** test-artifacts/e2e/NN-<step>.<ext>, numbered across every image of the test process. */
function artifactPath(step: string, ext: string): string {
  screenshotCount += 1;
  return path.join(
    artifactsDir,
    `${String(screenshotCount).padStart(2, '0')}-${step.replace(/[^\w.-]+/g, '-')}.${ext}`,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One running VS Code: the code-server process, the browser and the workbench page. */
export class VsCodeSession {
  private constructor(
    readonly server: CodeServer,
    readonly context: BrowserContext,
    readonly page: Page,
    readonly runDir: string,
  ) {}

  /**
   * Starts code-server with the VSIX files installed, opens `workspace` in headless chromium and
   * waits for the explorer to show `knownFile`. The first session of a test process clears
   * test-artifacts/e2e. On any failure it saves a screenshot (when the page exists) and the
   * logs, and stops what it started before rethrowing.
   */
  static async start(options: StartOptions): Promise<VsCodeSession> {
    for (const [what, file] of [
      ['code-server', codeServerEntry],
      ['Node 24', node24],
      ['chromium', chromiumPath],
    ]) {
      if (!existsSync(file)) throw new Error(`e2e: ${what} missing at ${file}; run \`node scripts/e2e/setup.mjs\``);
    }
    if (!artifactsCleared) rmSync(artifactsDir, { recursive: true, force: true });
    artifactsCleared = true;
    mkdirSync(artifactsDir, { recursive: true });
    const runDir =
      options.runDir ?? path.join(runsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
    const server = new CodeServer({
      runDir,
      settings: options.settings,
      userFiles: options.userFiles,
      env: options.env,
    });
    let context: BrowserContext | undefined;
    let session: VsCodeSession | undefined;
    try {
      if (!options.runDir) for (const vsix of options.vsixPaths ?? []) server.installExtension(vsix);
      await server.start(undefined, options.port);
      context = await loadChromium().launchPersistentContext(path.join(runDir, 'chromium'), {
        executablePath: chromiumPath,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1600, height: 1000 },
        timeout: UI_TIMEOUT_MS,
      });
      const page = context.pages()[0] ?? (await context.newPage());
      const consoleLog = path.join(artifactsDir, 'browser-console.log');
      page.on('console', (m) => appendFileSync(consoleLog, `[${m.type()}] ${m.text()}\n`));
      page.on('pageerror', (e) => appendFileSync(consoleLog, `[pageerror] ${e.message}\n`));
      session = new VsCodeSession(server, context, page, runDir);
      await options.beforeOpen?.(session);
      await page.goto(`${server.url}/?folder=${encodeURIComponent(options.workspace)}`, {
        timeout: UI_TIMEOUT_MS,
        waitUntil: 'domcontentloaded',
      });
      await session.waitForWorkspaceShown(options.knownFile);
      return session;
    } catch (error) {
      await session?.screenshot('start-failed').catch(() => undefined);
      if (session) {
        await session.stop();
      } else {
        await context?.close().catch(() => undefined);
        await server.stop();
        finishRun(server, runDir);
      }
      throw error;
    }
  }

  /**
   * Waits until the explorer lists `knownFile`. A workbench reopened on a profile restores the
   * layout it was closed with: a maximized secondary side bar (chat) or another view in the
   * primary one hides the explorer, so after a first wait it restores the side bar and shows the
   * explorer as a user would, then waits again. When even that fails it prints what the workbench
   * showed, so a CI log says why without the screenshot.
   */
  async waitForWorkspaceShown(knownFile: string): Promise<void> {
    const shownAtOnce = await this.waitForExplorerRow(knownFile, UI_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    if (shownAtOnce) return;
    await this.runCommand('View: Restore Secondary Side Bar', 10_000).catch(() => this.dismiss());
    await this.runCommand('View: Show Explorer', UI_TIMEOUT_MS).catch(() => this.dismiss());
    try {
      await this.waitForExplorerRow(knownFile);
    } catch (error) {
      const shown = await this.page
        .locator('body')
        .innerText({ timeout: 10_000 })
        .then((text) => text.replace(/\s+/g, ' ').slice(0, 2000))
        .catch((e: unknown) => `(page unreadable: ${String(e)})`);
      console.log(`      the workbench showed, instead of ${knownFile} in the explorer: ${shown}`);
      throw error;
    }
  }

  /** Waits until the explorer lists `name` (a top-level file or folder of the workspace). */
  async waitForExplorerRow(name: string, timeoutMs = 2 * UI_TIMEOUT_MS): Promise<Locator> {
    const row = this.page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: new RegExp(`^${escapeRegExp(name)}$`) })
      .first();
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
    return row;
  }

  /** Saves a full-window PNG as test-artifacts/e2e/NN-<step>.png and returns its path. */
  async screenshot(step: string): Promise<string> {
    const file = artifactPath(step, 'png');
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * Saves an image taken earlier (a screencast frame) under the screenshots' numbering, as
   * test-artifacts/e2e/NN-<step>.<ext>, and returns its path.
   */
  saveImage(step: string, image: Buffer, ext: 'png' | 'jpg'): string {
    const file = artifactPath(step, ext);
    writeFileSync(file, image);
    return file;
  }

  private quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** The labels of the quick input's rendered rows, in order (the list is virtualized: about a screenful). */
  async quickPickLabels(): Promise<string[]> {
    const rows = this.quickInput().locator('.monaco-list-row');
    return rows.evaluateAll(
      inPage<[unknown[]], string[]>(
        ['rows'],
        'return rows.map((r) => (r.querySelector(".label-name") ?? r).textContent.trim());',
      ),
    );
  }

  /**
   * Waits for the quick input (a QuickPick or an input box an extension opened) whose title
   * matches `title`, so typing goes into it and not into the editor behind it.
   */
  async waitForQuickInput(title: string | RegExp, timeoutMs = UI_TIMEOUT_MS): Promise<Locator> {
    const widget = this.quickInput();
    await until(
      `a quick input titled ${String(title)}`,
      async () => {
        if (!(await widget.isVisible())) return undefined;
        const shown = (
          (await widget.locator('.quick-input-title').first().textContent({ timeout: 1_000 })) ?? ''
        ).trim();
        return (typeof title === 'string' ? shown === title : title.test(shown)) ? true : undefined;
      },
      timeoutMs,
    );
    await widget.locator('input').first().waitFor({ state: 'visible', timeout: timeoutMs });
    return widget;
  }

  /** The quick input's title as shown now. */
  async quickInputTitle(): Promise<string> {
    return (
      (await this.quickInput().locator('.quick-input-title').first().textContent({ timeout: 1_000 })) ?? ''
    ).trim();
  }

  /** Closes quick inputs and modal editors (Running Extensions opens as one) with Escape. */
  async dismiss(): Promise<void> {
    const modal = this.page.locator('.monaco-modal-editor-block');
    for (let i = 0; i < 4 && ((await this.quickInput().isVisible()) || (await modal.first().isVisible())); i++) {
      await this.page.keyboard.press('Escape');
    }
  }

  /**
   * In an open quick input, types `filter` (default `label`) and waits up to `timeoutMs` for a
   * row labelled exactly `label`; then moves the keyboard focus onto it (the best match is not
   * always first: recently used entries come first) and, when `accept`, presses Enter.
   * Returns false when no such row appeared; the quick input stays open either way.
   */
  async pickQuickItem(label: string, { filter = label, accept = true, timeoutMs = 5_000 } = {}): Promise<boolean> {
    const exact = new RegExp(`^${escapeRegExp(label)}$`);
    const input = this.quickInput().locator('input').first();
    await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await this.page.keyboard.insertText(filter);
    try {
      await this.quickInput()
        .locator('.monaco-list-row .label-name', { hasText: exact })
        .first()
        .waitFor({ state: 'visible', timeout: timeoutMs });
    } catch {
      return false;
    }
    const focused = this.quickInput().locator('.monaco-list-row.focused .label-name').first();
    for (let moves = 0; moves < 50; moves++) {
      const text = (await focused.count()) > 0 ? (await focused.innerText({ timeout: 1_000 })).trim() : '';
      if (exact.test(text)) {
        if (accept) await this.page.keyboard.press('Enter');
        return true;
      }
      await this.page.keyboard.press('ArrowDown');
    }
    return false;
  }

  /**
   * Runs a command by its palette title (F1, type, Enter), e.g. "Developer: Show Running
   * Extensions". Reopens the palette until the command is listed, because contributed commands
   * register only once the extension host is up. A command that opens a quick pick of its own
   * leaves the quick input open for the caller.
   */
  async runCommand(title: string, timeoutMs = 2 * UI_TIMEOUT_MS): Promise<void> {
    await until(
      `command "${title}" in the command palette`,
      async () => {
        await this.dismiss();
        await this.page.keyboard.press('F1');
        return (await this.pickQuickItem(title)) ? true : undefined;
      },
      timeoutMs,
    );
  }

  /** Opens a workspace-relative file with Quick Open (Ctrl+P) and waits for its editor. */
  async openFile(relativePath: string): Promise<Locator> {
    const base = path.posix.basename(relativePath);
    const dir = path.posix.dirname(relativePath);
    const editor = this.page.locator(`.editor-instance .monaco-editor[data-uri$="${relativePath}"]`).first();
    // Retried as a whole: Enter can land on a row of the previous list while results refresh.
    await until(
      `an editor on ${relativePath}`,
      async () => {
        await this.dismiss();
        await this.page.keyboard.press('Control+P');
        await this.quickInput().locator('input').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
        await this.page.keyboard.insertText(relativePath);
        // Quick Open's rows carry the description (folder) after the name; match on both.
        let row = this.quickInput().locator('.monaco-list-row', { hasText: base });
        if (dir !== '.') row = row.filter({ hasText: dir });
        await row.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
        await row.first().click();
        try {
          await editor.waitFor({ state: 'visible', timeout: 10_000 });
          return true;
        } catch {
          return undefined;
        }
      },
      2 * UI_TIMEOUT_MS,
    );
    return editor;
  }

  /** Hides the panel (Output, Problems...) when it shows, to leave the editor room. */
  async hidePanel(): Promise<void> {
    // The command is only offered while the panel shows.
    if (await this.page.locator('.part.panel').first().isVisible()) await this.runCommand('View: Hide Panel');
  }

  /**
   * Moves the cursor to a 1-based line (and column) of the active editor (Go to Line), which
   * scrolls it into view.
   */
  async goToLine(line: number, column?: number): Promise<void> {
    await this.dismiss();
    await this.page.keyboard.press('Control+G');
    await this.quickInput().locator('input').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await this.page.keyboard.insertText(column === undefined ? String(line) : `${line}:${column}`);
    await this.page.keyboard.press('Enter');
  }

  /**
   * Shows the hover at the active editor's cursor as a keyboard user does (Show or Focus Hover,
   * Ctrl+K Ctrl+I) and returns its text once `accept` holds, asking again until it does.
   *
   * The hover is asked at the cursor's own position, not where the mouse is: in loaded runs the
   * editor has asked the hover providers for a line two above the one drawn under the mouse
   * (seen in the server's log: the cold open's first hover asked line 27 while the mouse was on
   * line 29's text), and a mouse that does not move does not ask again.
   */
  async hoverAtCursor(accept: (hover: string) => boolean, timeoutMs = 2 * UI_TIMEOUT_MS): Promise<string> {
    const hovers = this.page.locator('.monaco-hover:not(.hidden):visible');
    let seen: string[] = [];
    try {
      return await until(
        'a hover at the cursor',
        async () => {
          await this.page.keyboard.press('Escape');
          await this.page.keyboard.press('Control+K');
          await this.page.keyboard.press('Control+I');
          return until(
            'the hover to fill in',
            async () => {
              seen = await hovers.allInnerTexts();
              return seen.find(accept);
            },
            5_000,
          ).catch(() => undefined);
        },
        timeoutMs,
      );
    } catch (error) {
      throw new Error(
        `${(error as Error).message}; the hovers shown last: ${JSON.stringify(seen.map((h) => h.slice(0, 200)))}`,
      );
    }
  }

  /**
   * Hovers the first occurrence of `text` in the active editor's visible lines and returns the
   * hover's text. Re-hovers until a hover shows and `accept` (default: any non-empty text)
   * holds, since providers answer only once the language server has indexed.
   */
  async hoverText(
    text: string,
    accept: (hover: string) => boolean = (h) => h.trim().length > 0,
    timeoutMs = 2 * UI_TIMEOUT_MS,
    /** How long one hover gesture waits for the hover to show before the next gesture. */
    attemptMs = 5_000,
  ): Promise<string> {
    // Every hover on screen, and only those: a hover element that is neither hidden nor shown can
    // come first in the page, and another hover (a status bar item's, say) can be up beside the
    // editor's.
    const hovers = this.page.locator('.monaco-hover:not(.hidden):visible');
    // What the last gesture met, for the error when none succeeds: a CI log then says which step
    // failed (the text not on screen, no hover, or a hover without what was asked) without the
    // screenshot.
    let seen = 'no gesture ran';
    try {
      return await until(
        `a hover on "${text}"`,
        async () => {
          // Move away first so the next move is a fresh hover gesture.
          await this.page.mouse.move(2, 2);
          const point = await this.textPoint(text);
          if (!point) {
            seen = `"${text}" was not in the visible lines of an editor`;
            return undefined;
          }
          await this.page.mouse.move(point.x, point.y, { steps: 3 });
          try {
            await hovers.first().waitFor({ state: 'visible', timeout: attemptMs });
          } catch {
            seen = `no hover showed within ${attemptMs} ms of the mouse on "${text}" at ${Math.round(point.x)},${Math.round(point.y)}, where the page's topmost element is ${await this.elementAt(point)}`;
            return undefined;
          }
          // A hover that shows "Loading..." first fills in when the provider answers.
          let last: string[] = [];
          const filled = await until(
            'the hover to fill in',
            async () => {
              last = await hovers.allInnerTexts();
              return last.find(accept);
            },
            attemptMs,
          ).catch(() => undefined);
          if (filled === undefined)
            seen = `${last.length} hover(s) showed, none with what was asked: ${JSON.stringify(last.map((h) => h.slice(0, 200)))}`;
          return filled;
        },
        timeoutMs,
      );
    } catch (error) {
      const status = await this.page
        .locator('.statusbar')
        .first()
        .innerText({ timeout: 5_000 })
        .then((t) => t.replace(/\s+/g, ' '))
        .catch(() => '(unreadable)');
      const elements = await this.page.locator('.monaco-hover').count();
      const shown = await hovers.count();
      throw new Error(
        `${(error as Error).message}; the last gesture: ${seen}; hover elements on the page: ${elements}, shown: ${shown}; the status bar: ${status}`,
      );
    }
  }

  /** Clicks the middle of the first occurrence of `text` in the active editor's visible lines (puts the cursor there). */
  async clickText(text: string): Promise<void> {
    const point = await until(`"${text}" in the editor`, () => this.textPoint(text));
    await this.page.mouse.click(point.x, point.y);
  }

  /** The topmost element at a point and its two nearest ancestors (`span.mtk5 < div.view-line < ...`), for errors. */
  private async elementAt(point: { x: number; y: number }): Promise<string> {
    return this.page
      .evaluate<string>(`(() => {
        const name = (e) => e.tagName.toLowerCase() + [...e.classList].map((c) => '.' + c).join('');
        const chain = [];
        for (let e = document.elementFromPoint(${point.x}, ${point.y}); e && chain.length < 3; e = e.parentElement) chain.push(name(e));
        return chain.join(' < ') || 'none';
      })()`)
      .catch((e: unknown) => `(unreadable: ${String(e).split('\n')[0]})`);
  }

  /** The screen point in the middle of the first occurrence of `text` in the visible editor lines. */
  private async textPoint(text: string): Promise<{ x: number; y: number } | undefined> {
    const point = await this.page.evaluate<{ x: number; y: number } | null>(`(() => {
        const needle = ${JSON.stringify(text)};
        const lines = document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line');
        for (const line of lines) {
          const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            // Monaco renders spaces as no-break spaces.
            const at = node.textContent.replace(/\u00a0/g, ' ').indexOf(needle);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + needle.length);
            const box = range.getBoundingClientRect();
            // Editors of background tabs stay in the DOM with an empty box.
            if (box.width === 0 || box.height === 0) continue;
            return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
          }
        }
        return null;
      })()`);
    return point ?? undefined;
  }

  /** Every status bar item: its element id (`publisher.extension.itemId` for extensions), text and accessible label. */
  async readStatusBar(): Promise<{ id: string; text: string; label: string }[]> {
    return this.page
      .locator('.part.statusbar .statusbar-item')
      .evaluateAll(
        inPage<[unknown[]], { id: string; text: string; label: string }[]>(
          ['items'],
          'return items.map((i) => ({ id: i.id, text: i.innerText.trim(), label: i.querySelector("a")?.getAttribute("aria-label") ?? "" }));',
        ),
      );
  }

  /**
   * The extensions Developer: Show Running Extensions lists: display name, version and the
   * activation column ("Startup Activation: 52ms"). Pages through the list, which renders only
   * the rows in view, then closes the editor. `whileShown` runs while it is open (a screenshot).
   */
  async runningExtensions(
    whileShown?: () => Promise<unknown>,
  ): Promise<{ name: string; version: string; activation: string }[]> {
    await this.runCommand('Developer: Show Running Extensions');
    const rows = this.page.locator('.runtime-extensions-editor .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await whileShown?.();
    const seen = new Map<string, { name: string; version: string; activation: string }>();
    for (let page = 0; page < 20; page++) {
      const before = seen.size;
      for (const text of await rows.allInnerTexts()) {
        const [name = '', version = '', , activation = ''] = text.split('\n').map((l) => l.trim());
        seen.set(name, { name, version, activation });
      }
      if (page > 0 && seen.size === before) break;
      await this.page.keyboard.press('PageDown');
    }
    await this.dismiss();
    return [...seen.values()];
  }

  /**
   * Whether the Output view offers channel `name` (extension channels appear once created:
   * vscode-languageclient creates its channel when the client starts).
   */
  async hasOutputChannel(name: string): Promise<boolean> {
    await this.runCommand('Output: Show Output Channels...');
    const found = await this.pickQuickItem(name, { accept: false });
    await this.dismiss();
    return found;
  }

  /**
   * Shows output channel `name` in the Output view (retrying until it exists) and returns the
   * text it renders once `accept` holds (default: any non-blank text). Monaco renders only the
   * lines in view, so a long channel comes back cut; readOutputChannelLog reads a whole log
   * channel from disk.
   */
  async readOutputChannel(
    name: string,
    accept: (text: string) => boolean = (t) => t.trim().length > 0,
    timeoutMs = 2 * UI_TIMEOUT_MS,
  ): Promise<string> {
    await until(
      `output channel "${name}"`,
      async () => {
        await this.runCommand('Output: Show Output Channels...');
        if (await this.pickQuickItem(name)) return true;
        await this.dismiss();
        return undefined;
      },
      timeoutMs,
    );
    const lines = this.page.locator('.part.panel .output-view .monaco-editor .view-lines').first();
    await lines.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    return until(
      `text in output channel "${name}"`,
      async () => {
        const text = (await lines.innerText()).replace(/\u00a0/g, ' ');
        return accept(text) ? text : undefined;
      },
      timeoutMs,
    );
  }

  /**
   * The whole text of log output channel `name` (`createOutputChannel(name, { log: true })`, as
   * vscode-languageclient creates) from the file the extension host writes it to,
   * `<logs>/exthost<n>/<extension id>/<name>.log`; undefined when there is no such channel
   * (yet). Plain output channels live in the browser only: read them with readOutputChannel.
   */
  readOutputChannelLog(name: string): string | undefined {
    const logs = this.server.logsDir();
    if (!logs) return undefined;
    const file = findFiles(
      logs,
      (f) => /exthost\d*$/.test(path.dirname(path.dirname(f))) && path.basename(f) === `${name}.log`,
    )[0];
    return file ? readFileSync(file, 'utf8') : undefined;
  }

  /** Concatenated extension host logs (remote and local), where activations are recorded. */
  readExtensionHostLog(): string {
    const logs = this.server.logsDir();
    if (!logs) return '';
    return findFiles(logs, (f) => /exthost\.log$/i.test(path.basename(f)))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
  }

  /**
   * Closes the browser, stops code-server's process group, copies its logs into
   * test-artifacts/e2e/logs and removes the run folder (kept when E2E_KEEP_RUN=1, or with
   * `keepRunDir` for a second session on it: remove it with `removeRunDir` then). Never throws.
   */
  async stop(options: { keepRunDir?: boolean } = {}): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.server.stop();
    finishRun(this.server, this.runDir, options.keepRunDir === true);
  }

  /** Removes the run folder a `stop({ keepRunDir: true })` kept (unless E2E_KEEP_RUN=1). */
  removeRunDir(): void {
    if (process.env.E2E_KEEP_RUN !== '1') rmSync(this.runDir, { recursive: true, force: true });
  }
}

/** Copies a stopped server's logs into test-artifacts/e2e and removes its run folder unless E2E_KEEP_RUN=1. */
function finishRun(server: CodeServer, runDir: string, keep = false): void {
  try {
    const logs = server.logsDir();
    if (logs) cpSync(logs, path.join(artifactsDir, 'logs', path.basename(logs)), { recursive: true });
    if (existsSync(server.logFile))
      cpSync(server.logFile, path.join(artifactsDir, `code-server-${path.basename(runDir)}.log`));
  } catch {
    // logs are a convenience; a failed copy must not hide the test's own result
  }
  if (process.env.E2E_KEEP_RUN !== '1' && !keep) rmSync(runDir, { recursive: true, force: true });
}

function findFiles(dir: string, accept: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findFiles(full, accept));
    else if (accept(full)) found.push(full);
  }
  return found.sort();
}
