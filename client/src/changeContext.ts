/**
 * "Context for my change": from the Source Control view's title bar (or the command palette),
 * the change git shows (the working tree or the staged changes) sent to the language server,
 * which answers `get_context`'s bundle for it (ChangeContextRequest) and keeps it as a results
 * document; the bundle opens beside the diff. `@context /change` answers the same in chat
 * (chatParticipant.ts), without a model.
 */
import { ProgressLocation, Uri, window, workspace, type QuickPickItem } from 'vscode';
import { ChangeContextRequest, type ChangeContextParams, type ChangeContextResult } from '../../shared/protocol';
import { changeSummary } from './changeText';
import type { ServerConnection } from './languageClient';

interface WhichItem extends QuickPickItem {
  which: ChangeContextParams['which'];
}

const WHICH: readonly WhichItem[] = [
  {
    label: 'Working tree',
    description: 'staged and unstaged changes against HEAD, with untracked files',
    which: 'workingTree',
  },
  { label: 'Staged changes', description: 'what the next commit holds', which: 'staged' },
];

/** The title the pick is shown with (the e2e test waits for it). */
export const CHANGE_PICK_TITLE = 'Context for my change';

/**
 * Asks which change (unless `which` is given: a staged resource group's menu passes it), asks the
 * server, opens the bundle. Returns the answer, or undefined when the user dismissed the pick.
 */
export async function contextForChange(
  connection: ServerConnection,
  which?: ChangeContextParams['which'],
): Promise<ChangeContextResult | undefined> {
  const chosen =
    which ?? (await window.showQuickPick(WHICH, { title: CHANGE_PICK_TITLE, placeHolder: 'Which change?' }))?.which;
  if (!chosen) return undefined;
  const result = await window.withProgress(
    { location: ProgressLocation.Notification, title: 'Workspace Context: reading the change…' },
    () => connection.client.sendRequest(ChangeContextRequest.type, { which: chosen }),
  );
  const document = await workspace.openTextDocument(Uri.parse(result.uri));
  await window.showTextDocument(document, { preview: false });
  window.setStatusBarMessage(changeSummary(result), 10_000);
  return result;
}
