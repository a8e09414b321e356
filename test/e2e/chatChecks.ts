/**
 * Chat in the workbench: send a query with the test-only model selected (fixtures/testModel's
 * "E2E: Open chat with the test model", which opens chat in ask mode with that model), or typed
 * into chat's input with no model named (chat then uses the model it picked by itself, once it
 * has); read the last response, the input's completions, and how many prompts the test model has
 * received.
 */
import { until, UI_TIMEOUT_MS, type VsCodeSession } from './harness';

const LAST_RESPONSE = '.interactive-session .interactive-list .monaco-list-row.response[data-last-element="true"]';

/**
 * Sends `query` to chat with the test model and returns the last response's text (its accessible
 * label: the Markdown the participant streamed, without rendering) once `accept` holds.
 */
export async function askChat(
  vs: VsCodeSession,
  query: string,
  accept: (response: string) => boolean,
  timeoutMs = 2 * UI_TIMEOUT_MS,
): Promise<string> {
  return sendAndRead(vs, query, accept, timeoutMs, lastResponseLabel, async () => {
    await vs.runCommand('E2E: Open chat with the test model');
    await vs.waitForQuickInput('E2E chat query');
  });
}

/**
 * Sends `query` where `prepare` left the keyboard (a chat input, or an input box that passes it to
 * chat) and waits for a new last response, read by `read`, that `accept` takes.
 */
async function sendAndRead(
  vs: VsCodeSession,
  query: string,
  accept: (response: string) => boolean,
  timeoutMs: number,
  read: (vs: VsCodeSession) => Promise<string | undefined>,
  prepare: () => Promise<void>,
): Promise<string> {
  const before = await read(vs);
  await prepare();
  // As a paste: no completion opens to take the Enter.
  await vs.page.keyboard.insertText(query);
  await vs.page.keyboard.press('Enter');
  return until(
    `a chat response to "${query}"`,
    async () => {
      const text = await read(vs);
      return text !== undefined && text !== before && accept(text) ? text : undefined;
    },
    timeoutMs,
  );
}

/**
 * Widens the chat view (the secondary side bar) for readable screenshots; best effort, since the
 * command's title is the workbench's to change.
 */
export async function maximizeChat(vs: VsCodeSession): Promise<void> {
  await vs.runCommand('View: Maximize Secondary Side Bar', 10_000).catch(() => vs.dismiss());
}

/** Gives the editor and the explorer back after maximizeChat, as the workbench will be reopened with it. */
export async function restoreChat(vs: VsCodeSession): Promise<void> {
  await vs.runCommand('View: Restore Secondary Side Bar', 10_000).catch(() => vs.dismiss());
}

const INPUT = '.interactive-input-part';

/**
 * Opens chat in ask mode with no model named (fixtures/testModel's "E2E: Open chat in ask mode"
 * with no query) and waits until chat's model picker shows the model it picked by itself:
 * `picked` (the test model's name), as for a user who never opened the picker.
 */
export async function openChatWithoutPickingAModel(vs: VsCodeSession, picked: string): Promise<void> {
  await vs.runCommand('E2E: Open chat in ask mode');
  await vs.waitForQuickInput('E2E chat query');
  await vs.page.keyboard.press('Enter');
  await until(`chat's model picker to show ${picked}`, async () =>
    ((await vs.page.locator(INPUT).first().innerText({ timeout: 1_000 })) ?? '').includes(picked) ? true : undefined,
  );
}

/** Opens the chat view as a user does ("Chat: Open Chat"), with whatever model chat has (none, here). */
export async function openChat(vs: VsCodeSession): Promise<void> {
  await vs.runCommand('Chat: Open Chat');
  await vs.page.locator(`${INPUT} .monaco-editor`).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** Types `query` into chat's input (emptied first), sends it, and returns the new last response once `accept` holds. */
export async function typeInChat(
  vs: VsCodeSession,
  query: string,
  accept: (response: string) => boolean,
  timeoutMs = 2 * UI_TIMEOUT_MS,
  /** `label`: the response's accessible label (the Markdown streamed); `text`: what it shows (an error too). */
  read: 'label' | 'text' = 'label',
): Promise<string> {
  return sendAndRead(vs, query, accept, timeoutMs, read === 'label' ? lastResponseLabel : lastResponseText, () =>
    clearChatInput(vs),
  );
}

/**
 * What chat's input offers as `typed` is typed key by key into it (emptied first): each
 * suggestion's label (`@context`, `@context /why`, `/why`). Leaves the text in the input and
 * the suggestions closed.
 */
export async function chatCompletions(
  vs: VsCodeSession,
  typed: string,
  accept: (rows: string[]) => boolean,
): Promise<string[]> {
  await clearChatInput(vs);
  await vs.page.keyboard.type(typed, { delay: 30 });
  const rows = vs.page.locator('.suggest-widget .monaco-list-row');
  const found = await until(`completions after "${typed}"`, async () => {
    const labels = (
      await rows.evaluateAll<string[]>(
        new Function(
          'rows',
          'return rows.map((r) => (r.getAttribute("aria-label") || "").replace(/, \\w+$/, ""));',
        ) as (r: unknown[]) => string[],
      )
    ).filter(Boolean);
    return accept(labels) ? labels : undefined;
  });
  await vs.page.keyboard.press('Escape');
  return found;
}

/**
 * The hint chat's input shows after what is typed (a participant's description once `@name ` is
 * in it): the text of its placeholder decorations.
 */
export async function chatInputHints(vs: VsCodeSession): Promise<string[]> {
  return vs.page.evaluate<string[]>(`(() => {
    const hints = [];
    for (const el of document.querySelectorAll('.interactive-input-part .monaco-editor [class*="ced-chat-session-detail"]')) {
      const content = getComputedStyle(el, '::after').content;
      if (content && content !== 'none') hints.push(JSON.parse(content));
    }
    return hints;
  })()`);
}

/** Empties chat's input (focusing it first: a click on its text). */
export async function clearChatInput(vs: VsCodeSession): Promise<void> {
  await vs.page.locator(`${INPUT} .monaco-editor .view-lines`).first().click({ force: true });
  await vs.page.keyboard.press('Control+A');
  await vs.page.keyboard.press('Backspace');
}

/**
 * Closes a modal dialog the workbench opened over everything (chat answers a request no
 * participant took by asking to sign in to Copilot), so the next test can use the palette.
 */
export async function closeDialogs(vs: VsCodeSession): Promise<void> {
  const dialog = vs.page.locator('.monaco-dialog-box:visible').first();
  for (let i = 0; i < 3 && (await dialog.count()) > 0; i++) await vs.page.keyboard.press('Escape');
}

/** The last response's text as shown (innerText), an error message included. */
async function lastResponseText(vs: VsCodeSession): Promise<string | undefined> {
  const row = vs.page.locator(LAST_RESPONSE).first();
  if ((await row.count()) === 0) return undefined;
  return row.innerText({ timeout: 1_000 });
}

async function lastResponseLabel(vs: VsCodeSession): Promise<string | undefined> {
  const row = vs.page.locator(LAST_RESPONSE).first();
  if ((await row.count()) === 0) return undefined;
  return ((await row.getAttribute('aria-label', { timeout: 1_000 })) ?? '').replace(
    /\s*Inspect this in the accessible view with [^\n]*$/,
    '',
  );
}

/** The test model's prompt counts from its status bar item: `{ context, other }`. */
export async function testModelPrompts(vs: VsCodeSession): Promise<{ context: number; other: number }> {
  const item = (await vs.readStatusBar()).find((i) => /^E2E model: /.test(i.text));
  const match = /(\d+) context prompts, (\d+) other/.exec(item?.text ?? '');
  if (!match) throw new Error(`e2e: the test model's status item is missing (${item?.text ?? 'none'})`);
  return { context: Number(match[1]), other: Number(match[2]) };
}
