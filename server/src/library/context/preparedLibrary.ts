/**
 * The per-state work of the answering tools done when a state comes into service, not by the
 * first call that needs it. Each index state has structures built on first use and cached: the
 * library view of the day and its flags (conflicts and near-duplicates between pages,
 * library/view/conflicts.ts), get_context's index of the library (its subjects, names and phrase
 * weights, contextIndex.ts) and the ranker's per-document tables.
 *
 * What depends only on the library's pages (their subjects, the near-duplicate pairs), or on the
 * catalog and the pages (the name dictionary), is carried over from the state before while those
 * are the same objects (subjects.ts, nearDuplicates.ts, nameDictionary.ts); the rest is built per
 * state. At 100k sections that is about 0.15 s after a docs edit (1.5 s when every piece was built
 * again), which the first `get_context` on a new state (and in part the first
 * `workspace_context`) would otherwise pay on top of its own answer.
 *
 * A long-lived host (the language server, `wsctx mcp`, `wsctx serve`) calls
 * {@link prepareLibraryOnChange} once; each state the index puts into service then has them built
 * on the next turn of the event loop (in the editor, once saves pause), after the listeners and
 * whatever the pass was doing, so a call that arrives later finds them ready. A call that comes
 * first builds them itself, as before, and the preparation then finds them cached. One-shot
 * commands do not call it: they answer one question and exit.
 */
import { type IndexState, type WorkspaceIndex, prepareRanking } from '../../engine';
import { libraryFlags } from '../view/conflicts';
import { libraryView, type LibraryView } from '../view/libraryView';
import { dayOf } from '../view/readiness';
import { contextIndex } from './contextIndex';

export interface LibraryPreparation {
  /** Called with each view prepared (tests and diagnostics). */
  onPrepared?: (view: LibraryView) => void;
  /** Where a failure goes: a preparation that fails leaves the work to the first call. */
  log?: (message: string) => void;
  /**
   * Milliseconds without a new state before preparing (default 0: on the next turn). The editor
   * puts a new state into service on every save; at 100k the preparation costs seconds of CPU,
   * worth spending once the edits pause, not per keystroke-driven pass no call asks about.
   */
  quietMs?: number;
}

/**
 * Prepares the library of every state `index` puts into service from now on, for the day `now`
 * gives; returns the function that stops it. Call it before the index starts (before a snapshot
 * is restored), as the hosts build their services.
 */
export function prepareLibraryOnChange(
  index: Pick<WorkspaceIndex, 'onDidChangeState'>,
  now: () => Date,
  options: LibraryPreparation = {},
): () => void {
  let latest: IndexState | undefined;
  let scheduled: NodeJS.Timeout | undefined;
  const prepare = () => {
    scheduled = undefined;
    const state = latest;
    latest = undefined;
    if (!state) return;
    try {
      const view = libraryView(state, dayOf(now()));
      libraryFlags(view);
      contextIndex(view);
      prepareRanking(state);
      options.onPrepared?.(view);
    } catch (error) {
      options.log?.(`[library] preparing the new index state failed: ${(error as Error).message}`);
    }
  };
  const schedule = (state: IndexState) => {
    // Only the newest state is worth preparing: several passes in a row prepare once.
    latest = state;
    if (scheduled) clearTimeout(scheduled);
    scheduled = setTimeout(prepare, options.quietMs ?? 0);
    // Never what keeps a process alive.
    scheduled.unref();
  };
  const stop = index.onDidChangeState(schedule);
  return () => {
    stop();
    if (scheduled) clearTimeout(scheduled);
    scheduled = undefined;
    latest = undefined;
  };
}
