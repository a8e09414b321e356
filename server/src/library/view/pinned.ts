/**
 * Pinned documents (`always_include: true`, or a Cursor rule's `alwaysApply: true`; the library tools' contract (docs/ARCHITECTURE.md)): the
 * procedures every task depends on.
 * Agents rarely search for them (they search for the task), so they go whole into the MCP
 * server's instructions and at the top of the first answer of each session, before any map or
 * search. Drafts and expired pages are never pinned.
 */
import { type WorkspaceIndex, type IndexState, estimateTokens } from '../../engine';
import { SEARCH_TOKEN_BUDGET } from './constants';
import { libraryView, shownId, type LibraryView } from './libraryView';
import { dayOf } from './readiness';
import { documentText } from './sectionRender';

export interface PinnedDocument {
  /** Printed id. */
  id: string;
  title: string;
  /** Workspace-relative path. */
  path: string;
  /** The whole document without front matter. */
  text: string;
  tokens: number;
}

/** The view's pinned documents, whole, in map order. */
export function pinnedDocuments(view: LibraryView): PinnedDocument[] {
  return view.pinned.map((doc) => {
    const text = documentText(doc);
    return { id: shownId(view, doc.id), title: doc.title, path: doc.path, text, tokens: estimateTokens(text) };
  });
}

/** The block that heads a session's first answer (and the server instructions). '' when none. */
export function renderPinned(docs: readonly PinnedDocument[]): string {
  if (docs.length === 0) return '';
  const parts = ['Pinned documents (they apply to every task; each session gets them once, whole):'];
  for (const doc of docs) parts.push(`=== ${doc.title}  [doc ${doc.id}] ===\n${doc.text}`);
  return parts.join('\n\n');
}

/**
 * The library paragraph of the MCP server's instructions: how to use the three tools and the
 * pinned documents whole. Before the first index pass it promises the pinned documents in the
 * first answer instead; '' when the index holds no ready library document.
 */
export function libraryInstructions(state: IndexState | undefined, now: Date = new Date()): string {
  const budget = SEARCH_TOKEN_BUDGET.toLocaleString('en-US');
  const tools =
    'get_toc maps it (get_toc(query="...") lists the documents that match a task, best first; get_toc(document_id="...") lists one document\'s sections), ' +
    'get_section(id) returns one whole section, and search_instructions(plan) takes what you are about to do and returns the whole sections that apply, ' +
    `grouped by document, within about ${budget} tokens. Ids are printed with 8 characters; any unique prefix of 4 or more works.`;
  if (!state) {
    return `The team's rules and instructions library is served by three tools: ${tools} Pinned documents, if the library has any, head your first answer from one of these tools.`;
  }
  const view = libraryView(state, dayOf(now));
  if (view.docs.length === 0) return '';
  const lines = [
    `The team's rules and instructions library (${view.docs.length} documents) is served by three tools: ${tools}`,
  ];
  const pinned = renderPinned(pinnedDocuments(view));
  if (pinned) lines.push(pinned);
  return lines.join('\n\n');
}

/**
 * Waits for the first index pass, at most `maxWaitMs` (default 5 s), so a server created right
 * after can put the pinned documents in its instructions. A slower first pass is not waited for:
 * the pinned documents then come with the first answer only. Never rejects.
 */
export async function settleForInstructions(engine: WorkspaceIndex, maxWaitMs = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxWaitMs);
    timer.unref?.();
  });
  await Promise.race([engine.waitForIndex().then(noop, noop), timeout]);
  if (timer) clearTimeout(timer);
}

function noop(): void {}
