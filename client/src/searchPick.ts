/**
 * "Search workspace context": a QuickPick that asks the language server as you type (debounced,
 * the previous request cancelled), shows the ranked passages (their words first, the score beside
 * them, where they are below), opens the source at the passage's line on Enter, and opens the whole
 * answer in the results view (every passage with its `why[]` table) from its title button.
 */
import {
  CancellationTokenSource,
  commands,
  ThemeIcon,
  window,
  type QuickInputButton,
  type QuickPickItem,
} from 'vscode';
import { SearchRequest, type SearchPassage } from '../../shared/protocol';
import { Commands } from './contributions';
import type { ServerConnection } from './languageClient';
import { openSource } from './open';
import { isSearchable, SEARCH_DEBOUNCE_MS, searchRows, searchTitle } from './searchItems';

interface PassageItem extends QuickPickItem {
  passage?: SearchPassage;
}

const TITLE = 'Search workspace context';

export function showSearchPick(connection: ServerConnection, initialQuestion = ''): void {
  const pick = window.createQuickPick<PassageItem>();
  // The server ranks; the QuickPick must neither filter nor re-sort what it answers.
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  (pick as { sortByLabel?: boolean }).sortByLabel = false;
  pick.title = TITLE;
  pick.placeholder = 'Ask about this workspace, e.g. "how do I roll back billing-worker?"';
  const openResults: QuickInputButton = {
    iconPath: new ThemeIcon('preview'),
    tooltip: "Open the answer in the results view (each passage's text and why[] table)",
  };
  pick.buttons = [openResults];

  let sequence = 0;
  let timer: NodeJS.Timeout | undefined;
  let pending: CancellationTokenSource | undefined;

  const ask = async (question: string) => {
    const mine = ++sequence;
    pending?.cancel();
    const cancel = new CancellationTokenSource();
    pending = cancel;
    pick.busy = true;
    try {
      const result = await connection.client.sendRequest(SearchRequest.type, { question }, cancel.token);
      if (mine !== sequence) return;
      pick.items = searchRows(result).map((row) => ({
        label: row.label,
        description: row.description,
        detail: row.detail,
        alwaysShow: true,
        passage: row.passage,
      }));
      pick.title = searchTitle(result);
    } catch (error) {
      if (mine !== sequence || cancel.token.isCancellationRequested) return;
      connection.output.error(`[search] ${(error as Error).message}`);
      pick.items = [{ label: '$(error) The search failed', detail: (error as Error).message, alwaysShow: true }];
    } finally {
      if (mine === sequence) pick.busy = false;
      cancel.dispose();
    }
  };

  pick.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    if (!isSearchable(value)) {
      sequence++;
      pending?.cancel();
      pick.items = [];
      pick.title = TITLE;
      pick.busy = false;
      return;
    }
    timer = setTimeout(() => void ask(value.trim()), SEARCH_DEBOUNCE_MS);
  });

  pick.onDidAccept(() => {
    const passage = (pick.selectedItems[0] ?? pick.activeItems[0])?.passage;
    if (!passage) return;
    pick.hide();
    void openSource(passage.uri);
  });

  pick.onDidTriggerButton((button) => {
    if (button !== openResults || !isSearchable(pick.value)) return;
    const question = pick.value.trim();
    pick.hide();
    void commands.executeCommand(Commands.openResults, question);
  });

  pick.onDidHide(() => {
    if (timer) clearTimeout(timer);
    pending?.cancel();
    pick.dispose();
  });

  pick.show();
  if (initialQuestion) pick.value = initialQuestion;
  if (isSearchable(initialQuestion)) void ask(initialQuestion.trim());
}
