/**
 * UI checks of the product's features, each driving the real workbench:
 *
 * - listMcpServers / startMcpServer / mcpDiscoveredToolCount: the MCP server definition the
 *   extension registers (`MCP: List Servers`, its status, the `MCP: <label>` output channel).
 * - hoverAt: the language server's hover on an entity ref.
 * - commandQuickPickItems: what a contributed command offers in its QuickPick.
 * - searchWorkspaceContext: the search command with a question typed, its answer shown.
 */
import { until, UI_TIMEOUT_MS, type VsCodeSession } from './harness';

export interface QuickPickItem {
  label: string;
  description: string;
  detail: string;
}

/** The quick input's rendered rows (label, description, detail), in order. */
export async function readQuickPickItems(vs: VsCodeSession, timeoutMs = UI_TIMEOUT_MS): Promise<QuickPickItem[]> {
  const rows = vs.page.locator('.quick-input-widget .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: timeoutMs });
  return rows.evaluateAll(
    new Function(
      'rows',
      `return rows.map((r) => ({
      label: (r.querySelector('.label-name')?.textContent ?? '').trim(),
      description: (r.querySelector('.label-description')?.textContent ?? '').trim(),
      detail: (r.querySelector('.quick-input-list-label-meta')?.textContent ?? '').trim(),
    }));`,
    ) as (rows: unknown[]) => QuickPickItem[],
  );
}

/**
 * Opens `Workspace Context: Search workspace context`, types `question` as a user would and waits
 * until the answer's 10 passages are shown; leaves the QuickPick open for the caller to read or use.
 */
export async function searchWorkspaceContext(vs: VsCodeSession, question: string): Promise<void> {
  await vs.runCommand('Workspace Context: Search workspace context');
  await vs.waitForQuickInput('Search workspace context');
  await vs.page.keyboard.insertText(question);
  await vs.waitForQuickInput(/^Workspace context: 10 passages$/);
}

/**
 * Runs `title`, optionally types `query` into the QuickPick it opens, and returns the items
 * shown once `accept` holds (default: at least one item). Reopens the QuickPick until then,
 * since some lists are built when opened; leaves it closed.
 */
export async function commandQuickPickItems(
  vs: VsCodeSession,
  title: string,
  {
    query,
    accept = (items: QuickPickItem[]) => items.length > 0,
    timeoutMs = 2 * UI_TIMEOUT_MS,
  }: { query?: string; accept?: (items: QuickPickItem[]) => boolean; timeoutMs?: number } = {},
): Promise<QuickPickItem[]> {
  return until(
    `QuickPick items of "${title}"`,
    async () => {
      await vs.runCommand(title);
      if (query !== undefined) await vs.page.keyboard.insertText(query);
      try {
        // A list may fill in while open: give it a few seconds before reopening.
        return await until(
          'accepted items',
          async () => {
            const shown = await readQuickPickItems(vs, 5_000);
            return accept(shown) ? shown : undefined;
          },
          5_000,
        );
      } catch {
        return undefined;
      } finally {
        await vs.dismiss();
      }
    },
    timeoutMs,
  );
}

/**
 * The servers `MCP: List Servers` shows, with their status as VS Code words it in the item's
 * description ("Stopped", "Running", "Error"...). The list's "Add Server" action is left out.
 * Checked here against a stdio server from a user mcp.json: `[{ label: 'scratch', status:
 * 'Stopped' }]`, then 'Running' after startMcpServer.
 */
export async function listMcpServers(
  vs: VsCodeSession,
  accept: (servers: { label: string; status: string }[]) => boolean = () => true,
): Promise<{ label: string; status: string }[]> {
  const servers = (items: QuickPickItem[]) =>
    items
      .filter((i) => i.label !== 'Add Server')
      .map((i) => ({ label: i.label, status: [i.description, i.detail].filter(Boolean).join(' ') }));
  // An extension's servers are listed once it has activated and registered its provider.
  const items = await commandQuickPickItems(vs, 'MCP: List Servers', { accept: (shown) => accept(servers(shown)) });
  return servers(items);
}

/**
 * Starts MCP server `label` through `MCP: List Servers` -> the server -> "Start Server", and
 * waits until the list shows it as running.
 */
export async function startMcpServer(vs: VsCodeSession, label: string): Promise<void> {
  await vs.runCommand('MCP: List Servers');
  if (!(await vs.pickQuickItem(label, { timeoutMs: UI_TIMEOUT_MS })))
    throw new Error(`e2e: no MCP server "${label}" in MCP: List Servers`);
  if (!(await vs.pickQuickItem('Start Server', { timeoutMs: UI_TIMEOUT_MS })))
    throw new Error(`e2e: no "Start Server" action for MCP server "${label}"`);
  await listMcpServers(vs, (servers) => servers.some((s) => s.label === label && /running/i.test(s.status)));
}

/**
 * Reads output channel `MCP: <label>` until it logs "Discovered N tools" and returns N.
 */
export async function mcpDiscoveredToolCount(vs: VsCodeSession, label: string): Promise<number> {
  const text = await vs.readOutputChannel(`MCP: ${label}`, (t) => /Discovered \d+ tools/.test(t));
  return Number(/Discovered (\d+) tools/.exec(text)?.[1]);
}

/**
 * Opens `relativePath` (at `line` when given, so the token is in view), hovers `token` and
 * returns the hover's text once it contains every string in `expected` (the provider answers only
 * after indexing).
 */
export async function hoverAt(
  vs: VsCodeSession,
  relativePath: string,
  token: string,
  expected: string[] = [],
  line?: number,
  attemptMs?: number,
): Promise<string> {
  await vs.openFile(relativePath);
  if (line !== undefined) await vs.goToLine(line);
  return vs.hoverText(
    token,
    (hover) => hover.trim().length > 0 && expected.every((e) => hover.includes(e)),
    undefined,
    attemptMs,
  );
}

/**
 * Which of the shown hover's links (by their text, or a link whose text contains it) lie wholly
 * inside the hover's visible box, unscrolled: a link below the hover's height is there in the DOM
 * but not on screen.
 */
export async function hoverLinksInView(vs: VsCodeSession, labels: string[]): Promise<Record<string, boolean>> {
  return vs.page.evaluate<Record<string, boolean>>(`(() => {
    const hover = [...document.querySelectorAll('.monaco-hover')].find((h) => !h.classList.contains('hidden'));
    const result = {};
    for (const label of ${JSON.stringify(labels)}) result[label] = false;
    if (!hover) return result;
    const box = hover.getBoundingClientRect();
    for (const a of hover.querySelectorAll('a')) {
      const text = (a.textContent || '').trim();
      const r = a.getBoundingClientRect();
      const inView = r.height > 0 && r.top >= box.top && r.bottom <= box.bottom + 0.5 && r.left >= box.left && r.right <= box.right + 0.5;
      for (const label of ${JSON.stringify(labels)}) if (text === label || text.includes(label)) result[label] = result[label] || inView;
    }
    return result;
  })()`);
}
