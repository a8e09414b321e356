/**
 * Picks the index state a tool call answers from: the current one, or the workspace as it was at
 * `asOf`; and the honesty flags that go with it (docs/ARCHITECTURE.md, workspace_context's contract, "Freshness and honesty").
 */
import {
  type WorkspaceIndex,
  type IndexState,
  type SectionEntry,
  type WorkspaceFolder,
  memoryReaderOf,
  storeBackedOf,
  storeQueryModelOf,
  storeReaderOf,
  type QuestionScope,
} from '../engine';
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
 * can be answered until the workspace or the globs change.
 */
export type DegradedFlag =
  | 'index-cold'
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
  const backed = storeBackedOf(engine);
  // A namespace written into the store since the server started is served without a restart.
  if (backed && !engine.findFolder(workspaceArg)) await backed.refreshFolders(workspaceArg);
  const workspace = engine.findFolder(workspaceArg);
  if (!workspace) {
    const served = engine.folders.map((f) => `'${f.name}'`).join(', ');
    throw new ToolInputError(
      `workspace: this server does not serve a workspace named '${workspaceArg}'; it serves ${served} (give one of these names or its path).`,
    );
  }
  // A store (`--store`) holds the workspace as it was last indexed, not its history.
  if (backed && asOf !== undefined)
    throw new ToolInputError(
      'asOf: a store answers from the workspace as it was last indexed; ask without asOf, or without --store for the workspace as it was then',
    );
  const memory = memoryReaderOf(engine);
  if (memory) {
    // The namespace in memory: the whole index of that folder, as the in-memory engine holds it.
    const held = memory.stateOf(workspace.name);
    if (!held) return { kind: 'cold', workspace, degraded: ['index-cold'] };
    return {
      kind: 'ready',
      state: held,
      workspace,
      degraded: held.problems.some((p) => UNREADABLE.has(p.code)) ? ['scope-unreadable'] : [],
    };
  }
  const reader = storeReaderOf(engine);
  if (reader) {
    // A question's state holds its candidates only (engine/store/scopedState.ts), the nearest
    // sections by meaning among them when the question was embedded by the stored vectors' model;
    // with `scope` (how it will be ranked), only those that can be among its passages.
    const model = storeQueryModelOf(engine);
    const query = queryVector && model ? { vector: queryVector, model } : undefined;
    const stored =
      question === undefined
        ? await reader.baseState(workspace.name)
        : await reader.questionState(workspace.name, question, query, scope);
    if (!stored) return { kind: 'cold', workspace, degraded: ['index-cold'] };
    return {
      kind: 'ready',
      state: stored,
      workspace,
      degraded: stored.problems.some((p) => UNREADABLE.has(p.code)) ? ['scope-unreadable'] : [],
    };
  }
  // A served folder that is gone: the answer comes from its last index (FolderPresence).
  const missing: DegradedFlag[] = engine.status().missingFolders.length > 0 ? ['workspace-missing'] : [];
  if (asOf !== undefined) {
    const past = await engine.stateAsOf(asOf);
    return { kind: 'ready', state: past.state, workspace, degraded: [...past.degraded, ...missing] };
  }
  const state = engine.stateForQuery();
  if (!state) return { kind: 'cold', workspace, degraded: ['index-cold', ...missing] };
  const degraded: DegradedFlag[] = state.problems.some((p) => UNREADABLE.has(p.code)) ? ['scope-unreadable'] : [];
  return { kind: 'ready', state, workspace, degraded: [...degraded, ...missing] };
}

/** Waits until the engine can answer the library tools: its first index in memory; a store is always ready. */
export async function waitForLibrary(engine: WorkspaceIndex): Promise<void> {
  if (!storeBackedOf(engine)) await engine.waitForIndex();
}

/**
 * The state the library tools answer from: the engine's current one, or a store's library.
 * Over a store, the library is one namespace's: the served one that holds library pages (the
 * first served when none does). Two served namespaces with a library are refused by name: their
 * pages and the counts they are weighed by cannot come from one namespace.
 */
export async function libraryIndexState(
  engine: WorkspaceIndex,
  texts: readonly string[],
): Promise<IndexState | undefined> {
  const memory = memoryReaderOf(engine);
  const reader = storeReaderOf(engine);
  if (!memory && !reader) return engine.stateForQuery();
  const { state, holders } = memory
    ? heldLibrary(engine, memory)
    : await reader!.libraryStateOf(
        engine.folders.map((f) => f.name),
        texts,
      );
  if (holders.length > 1) {
    throw new ToolInputError(
      `the library tools read one workspace's library from a store, and ${holders.join(', ')} each hold one: serve the one to read on its own (--workspace NAME)`,
    );
  }
  return state;
}

/** The served namespace held in memory that holds library pages (the first served when none does), as libraryStateOf does over the store. */
function heldLibrary(
  engine: WorkspaceIndex,
  memory: NonNullable<ReturnType<typeof memoryReaderOf>>,
): { state: IndexState | undefined; holders: string[] } {
  const held = engine.folders.map((f) => ({ name: f.name, state: memory.stateOf(f.name) }));
  const holders = held.filter((h) => (h.state?.counts.bySourceKind.library ?? 0) > 0);
  return { state: (holders[0] ?? held[0])?.state, holders: holders.map((h) => h.name) };
}

/**
 * The state holding the whole library of the workspace `state` answers for, which conflicts
 * and duplicates between library pages are found in: `state` itself in memory; over a store,
 * whose question state holds only some pages and no texts, the namespace's library.
 */
export async function wholeLibraryState(
  engine: WorkspaceIndex,
  workspace: WorkspaceFolder,
  state: IndexState,
): Promise<IndexState> {
  const memory = memoryReaderOf(engine);
  if (memory) return memory.stateOf(workspace.name) ?? state;
  const reader = storeReaderOf(engine);
  if (!reader) return state;
  return (await reader.libraryStateOf([workspace.name], [])).state ?? state;
}

/**
 * The state `get_context`'s entity excerpts are ranked on (library/context/entityDocs.ts): the
 * library's own for the in-memory engine (it holds every document), a question's candidates over
 * a store (with the nearest sections by meaning when `queryVector` is the stored vectors' model's),
 * whose texts {@link completePassages} fills once the excerpts are ranked.
 */
export async function entityExcerptState(
  engine: WorkspaceIndex,
  libraryState: IndexState,
  task: string,
  queryVector: Float32Array | null,
): Promise<IndexState> {
  const reader = storeReaderOf(engine);
  if (!reader) return libraryState;
  const model = storeQueryModelOf(engine);
  const query = queryVector && model ? { vector: queryVector, model } : undefined;
  return (await reader.questionState(libraryState.folders[0].name, task, query)) ?? libraryState;
}

/**
 * Makes the passages a tool returns whole: a store ranks candidates without their texts and
 * reads the kept ones' here. Nothing to do for the in-memory engine.
 */
export async function completePassages(
  engine: WorkspaceIndex,
  workspace: WorkspaceFolder,
  entries: readonly SectionEntry[],
): Promise<void> {
  await storeReaderOf(engine)?.completeTexts(workspace.name, entries);
}
