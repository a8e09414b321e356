/**
 * Picks the index state a tool call answers from: the current one, or the workspace as it was at
 * `asOf`; and the honesty flags that go with it (docs/ARCHITECTURE.md, workspace_context's contract, "Freshness and honesty").
 */
import type { IndexState, QuestionScope, WorkspaceFolder, WorkspaceIndex } from '../engine';
import { ToolInputError } from './toolError';

/** Problems that mean part of the workspace could not be read, so an answer may be partial. */
const UNREADABLE = new Set([
  'workspace.unreadable-folder',
  'workspace.unreadable-dir',
  'workspace.unreadable-file',
  'workspace.read-failed',
]);

/**
 * `as-of-before-history`: the asOf time is before a repository's first commit, which is read as
 * holding no files. `workspace-missing`: a served folder is gone (deleted, unmounted); the answer
 * comes from the last index of it, and the folder is watched for its return. `index-empty`: the
 * index is built and holds no document at all (no file the source globs read), so no question
 * can be answered until the workspace or the globs change. `index-stale`: the answer comes from
 * the index saved at the last run (the snapshot), restored at start, while the first pass still
 * checks what changed since; the flag goes when that pass is in service.
 */
export type DegradedFlag =
  | 'index-cold'
  | 'index-stale'
  | 'index-empty'
  | 'candidates-capped'
  | 'scope-unreadable'
  | 'as-of-chunks-approximate'
  | 'as-of-before-history'
  | 'workspace-missing';

export type StateForQuery =
  | { kind: 'ready'; state: IndexState; workspace: WorkspaceFolder; degraded: DegradedFlag[] }
  /** The index is empty; indexing has been started. Answer empty, flagged `index-cold`. */
  | { kind: 'cold'; workspace: WorkspaceFolder; degraded: DegradedFlag[] };

/**
 * The state to answer from. A `workspace` argument naming no served folder is the caller's
 * mistake, refused (an MCP `isError` result) with the names it could have used: an empty answer
 * would read as "nothing is written about it".
 */
export async function stateForQuery(
  engine: WorkspaceIndex,
  workspaceArg: string,
  asOf?: string,
  question?: string,
  queryVector?: Float32Array | null,
  scope?: QuestionScope,
): Promise<StateForQuery> {
  // A namespace written into a store since the server started is served without a restart.
  if (!engine.findFolder(workspaceArg)) await engine.refreshFolders(workspaceArg);
  const workspace = engine.findFolder(workspaceArg);
  if (!workspace) {
    const served = engine.folders.map((f) => `'${f.name}'`).join(', ');
    throw new ToolInputError(
      `workspace: this server does not serve a workspace named '${workspaceArg}'; it serves ${served} (give one of these names or its path).`,
    );
  }
  // A store (`--store`) holds the workspace as it was last indexed, not its history.
  if (asOf !== undefined && !engine.keepsHistory)
    throw new ToolInputError(
      'asOf: a store answers from the workspace as it was last indexed; ask without asOf, or without --store for the workspace as it was then',
    );
  // A served folder that is gone: the answer comes from its last index (FolderPresence).
  const missing: DegradedFlag[] = engine.status().missingFolders.length > 0 ? ['workspace-missing'] : [];
  if (asOf !== undefined) {
    const past = await engine.stateAsOf(asOf);
    return { kind: 'ready', state: past.state, workspace, degraded: [...past.degraded, ...missing] };
  }
  const state = await engine.questionState(workspace, question, queryVector, scope);
  if (!state) return { kind: 'cold', workspace, degraded: ['index-cold', ...missing] };
  const degraded: DegradedFlag[] = state.problems.some((p) => UNREADABLE.has(p.code)) ? ['scope-unreadable'] : [];
  return { kind: 'ready', state, workspace, degraded: [...degraded, ...missing] };
}

/**
 * The state the library tools answer from. Over a store, the library is one namespace's: the
 * served one that holds library pages (the first served when none does). Two served namespaces
 * with a library are refused by name: their pages and the counts they are weighed by cannot come
 * from one namespace.
 */
export async function libraryIndexState(
  engine: WorkspaceIndex,
  texts: readonly string[],
): Promise<IndexState | undefined> {
  const { state, holders } = await engine.libraryState(texts);
  if (holders.length > 1) {
    throw new ToolInputError(
      `the library tools read one workspace's library from a store, and ${holders.join(', ')} each hold one: serve the one to read on its own (--workspace NAME)`,
    );
  }
  return state;
}
