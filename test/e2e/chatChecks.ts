/**
 * Chat in the workbench: send a query with the test-only model selected (fixtures/testModel's
 * "E2E: Open chat with the test model", which opens chat in ask mode with that model, the only
 * way here to get a chat request past "Language model unavailable"), read the last response, and
 * read how many prompts the test model has received.
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
  const before = await lastResponse(vs);
  await vs.runCommand('E2E: Open chat with the test model');
  await vs.waitForQuickInput('E2E chat query');
  await vs.page.keyboard.insertText(query);
  await vs.page.keyboard.press('Enter');
  return until(
    `a chat response to "${query}"`,
    async () => {
      const text = await lastResponse(vs);
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

async function lastResponse(vs: VsCodeSession): Promise<string | undefined> {
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
