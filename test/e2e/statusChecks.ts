/**
 * Status bar items as the workbench renders them: id, text and accessible label. The extension's
 * label carries the counts and `indexedAt` (client/src/statusText.ts).
 */
import { EXTENSION_ID } from '../../shared/ids';
import { STATUS_BAR_ITEM_ID } from '../../client/src/contributions';
import { until, UI_TIMEOUT_MS, type VsCodeSession } from './harness';

/** The element id the workbench gives the extension's status bar item. */
export const STATUS_ITEM_ID = `${EXTENSION_ID}.${STATUS_BAR_ITEM_ID}`;

export type StatusItem = { id: string; text: string; label: string };

/** Our item whose text is `text`, once it shows. */
export function ourItem(text: string): (item: StatusItem) => boolean {
  return (item) => item.id === STATUS_ITEM_ID && item.text === text;
}

/** Polls the status bar until an item satisfies `accept` and returns it; the error says what our item last said. */
export async function readStatusItem(
  vs: VsCodeSession,
  accept: (item: StatusItem) => boolean,
  timeoutMs = UI_TIMEOUT_MS,
): Promise<StatusItem> {
  let ours: StatusItem | undefined;
  try {
    return await until(
      'a status bar item',
      async () => {
        const items = await vs.readStatusBar();
        ours = items.find((i) => i.id === STATUS_ITEM_ID);
        return items.find(accept);
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; the Workspace Context item last read ${JSON.stringify(ours)}`);
  }
}

/**
 * The workbench's own problem counts (the status bar's problems item, which counts the markers
 * the Problems panel lists: errors, warnings, infos).
 */
export async function workbenchProblemCounts(
  vs: VsCodeSession,
): Promise<{ error: number; warning: number; info: number }> {
  const item = (await vs.readStatusBar()).find((i) => i.id === 'status.problems');
  const numbers = (item?.text ?? '').match(/\d+/g)?.map(Number) ?? [];
  if (numbers.length < 2) throw new Error(`e2e: the problems item reads "${item?.text}"`);
  return { error: numbers[0], warning: numbers[1], info: numbers[2] ?? 0 };
}

/** The tooltip of our status bar item, read by hovering the item. */
export async function readStatusTooltip(
  vs: VsCodeSession,
  accept: (text: string) => boolean = () => true,
): Promise<string> {
  const item = vs.page.locator(`[id="${STATUS_ITEM_ID}"]`).first();
  const hover = vs.page.locator('.workbench-hover:visible, .monaco-hover:not(.hidden):visible').first();
  return until('the status item tooltip', async () => {
    await vs.page.mouse.move(2, 2);
    await item.hover();
    try {
      await hover.waitFor({ state: 'visible', timeout: 5_000 });
    } catch {
      return undefined;
    }
    const text = await hover.innerText();
    return accept(text) ? text : undefined;
  });
}
