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
