/**
 * What the tools and the library read of an index, whichever keeps it: the in-memory `Engine`
 * (engine.ts) or an index opened on a PostgreSQL store. A tool takes this, never the engine's
 * class, so how an index is kept stays the host's choice (docs/ARCHITECTURE.md, "Code map").
 */
import type { IndexState, SectionEntry, WorkspaceFolder } from './indexState';
import type { PassReport } from './indexing/indexer';
import type { MeaningStatus } from './meaning/sectionVectors';
import type { TextSimilarity } from './meaning/textSimilarity';
import type { SourceGlobs } from './workspace/globs';
import type { MeaningSource } from './ranking/workspaceContextRanker';
import type { QuestionStatistics } from './ranking/questionStatistics';
import type { QuestionScope } from './store/boundedCandidates';

export type EnginePhase = 'cold' | 'indexing' | 'ready';

export interface EngineStatus {
  phase: EnginePhase;
  indexedAt: string | null;
  /** The last pass's report, for status displays and `wsctx index`. */
  lastPass: PassReport | null;
  /** The last failure of a pass, when the pass failed (the previous state stays in service). */
  lastError: string | null;
  /** Set when the state in service was restored from a snapshot and no pass has run since. */
  fromSnapshot: boolean;
  /** Embeddings: the model, the vector backend and how many sections still lack vectors; null when off. */
  meaning: MeaningStatus | null;
  /**
   * Served folders that are gone (deleted, unmounted): answers come from the last index of them,
   * flagged `workspace-missing`, until they are back and indexed again. Empty when all are there.
   */
  missingFolders: readonly string[];
}

export type StateListener = (state: IndexState) => void;

/** The workspace as it was at a date or commit, with what the answer cannot promise. */
export interface AsOfAnswer {
  state: IndexState;
  degraded: ('as-of-chunks-approximate' | 'as-of-before-history')[];
  /** The commit each repository was read at. */
  commits: Record<string, string>;
}

export interface WorkspaceIndex {
  /** The served folders (a store's namespaces), in the order the host gave them. */
  readonly folders: readonly WorkspaceFolder[];
  /** The folder a tool's `workspace` argument names: by name, absolute path, or path from the cwd. */
  findFolder(arg: string): WorkspaceFolder | undefined;
  /** Phase, last pass, last error, meaning progress, folders gone missing. */
  status(): EngineStatus;
  /** The last complete state, or undefined before there is one (a store keeps none in memory). */
  current(): IndexState | undefined;
  /**
   * True when a question's state is the whole index (in memory); false when it holds the
   * question's candidates only (a store), where a tool that scores sections wherever they rank
   * (explain_result) cannot answer.
   */
  readonly holdsWholeIndex: boolean;
  /**
   * The source globs' overrides the served folders are read by (why a file is not indexed);
   * undefined over a store, which holds what was written and not the settings it was read with.
   */
  readonly sourceGlobs: Partial<SourceGlobs> | undefined;
  /** Hears every new state in service (tools listed or not, diagnostics refreshed). */
  onDidChangeState(listener: StateListener): () => void;

  // A question's state.
  /** The state a query answers from; undefined while cold (the call answers `index-cold`). */
  stateForQuery(): IndexState | undefined;
  /** Resolves with a complete state (one-shot commands, the library tools). */
  waitForIndex(): Promise<IndexState>;
  /** The workspace as it was at a date or commit (`asOf`). */
  stateAsOf(asOf: string): Promise<AsOfAnswer>;

  // How a question's state is read. The in-memory engine holds one state for every folder, so
  // these hand it back as it is; an index over a store reads each namespace's base, a question's
  // candidates and the texts of what it keeps (store/storeIndex.ts). The tools call these and
  // never ask which kind of index they hold.
  /**
   * True when the index is read from a server (a store) while answering: a call it could not
   * reach is answered empty and flagged, never as "nothing is written" (tools/callTool.ts).
   */
  readonly readsStore: boolean;
  /** True when `asOf` can be answered (the engine reads git history; a store keeps the last index of each namespace only). */
  readonly keepsHistory: boolean;
  /** Brings the folders in line with what the index can serve now, for a call naming `wanted` (a store's new namespaces); nothing in memory. */
  refreshFolders(wanted?: string): Promise<void>;
  /**
   * The state a call on `workspace` answers from, undefined while cold. `question` (with its
   * embedding and `scope`, how it will be ranked) lets a store read only the question's
   * candidates; without it a store reads the namespace's base (catalog, graph, statistics).
   */
  questionState(
    workspace: WorkspaceFolder,
    question?: string,
    queryVector?: Float32Array | null,
    scope?: QuestionScope,
  ): Promise<IndexState | undefined>;
  /**
   * The section count of `workspace` and how many of its sections hold each of `terms`, as a
   * question's states there weigh them; undefined while cold or not served. A question asked of
   * several folders at once is weighed by these summed (ranking/questionStatistics.ts).
   */
  questionStatistics(workspace: WorkspaceFolder, terms: readonly string[]): Promise<QuestionStatistics | undefined>;
  /**
   * The state the library tools answer from, with the served folders that each hold a library
   * of their own (`holders`, more than one only over a store: their pages and counts cannot be
   * weighed as one). `texts` are the call's words, whose corpus counts a store reads first.
   */
  libraryState(texts: readonly string[]): Promise<{ state: IndexState | undefined; holders: string[] }>;
  /** The state holding the whole library of `workspace` (conflicts and duplicates are found in it): `state` itself in memory. */
  wholeLibraryState(workspace: WorkspaceFolder, state: IndexState): Promise<IndexState>;
  /** The state get_context's entity excerpts are ranked on for `task`: the library's own in memory, the task's candidates over a store. */
  excerptState(libraryState: IndexState, task: string, queryVector: Float32Array | null): Promise<IndexState>;
  /** Fills the texts of the passages a tool returns (a store ranks candidates without them); nothing to do in memory. */
  completeTexts(workspace: WorkspaceFolder, entries: readonly SectionEntry[]): Promise<void>;
  /** Resolves when the library tools can answer: the first index in memory; a store is always ready. */
  waitForLibrary(): Promise<void>;

  // Meaning.
  /**
   * The embedder and how many of the sections `states` hold (`sections` in all) have a vector,
   * for an answer's `meaning` summary; null when no vector stands behind them.
   */
  meaningCoverage(
    states: readonly IndexState[],
    sections: number,
  ): { model: string; sectionsWithVectors: number } | null;
  /** The question's embedding, or null when embeddings are off or not ready. */
  embedQuery(question: string): Promise<Float32Array | null>;
  /** The meaning half of the score for `state` given the question's embedding (null: words only). */
  meaningSource(state: IndexState, queryVector: Float32Array | null): MeaningSource | null;
  /** True when the index embeds sections and questions. */
  readonly hasMeaning: boolean;
  /** The library tools' meaning signal: the question's similarity to each section that has a vector. */
  sectionMeaning(question: string, sectionIds: readonly string[]): Promise<Map<string, number> | null>;
  /** Phrase similarity for get_context's phrasings; undefined when embeddings are off. */
  readonly textMeaning: TextSimilarity | undefined;
  /** Names the short texts to embed with the index beside the sections (get_context's phrasings). */
  setPhrasingSource(source: (state: IndexState) => readonly string[]): void;
}
