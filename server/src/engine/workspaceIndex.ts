/**
 * What the tools and the library read of an index, whichever keeps it: the in-memory `Engine`
 * (engine.ts) or an index opened on a PostgreSQL store. A tool takes this, never the engine's
 * class, so how an index is kept stays the host's choice (docs/ARCHITECTURE.md, "Code map").
 */
import type { IndexState, WorkspaceFolder } from './indexState';
import type { PassReport } from './indexing/indexer';
import type { MeaningStatus } from './meaning/sectionVectors';
import type { TextSimilarity } from './meaning/textSimilarity';
import type { MeaningSource } from './ranking/workspaceContextRanker';

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
  /** Hears every new state in service (tools listed or not, diagnostics refreshed). */
  onDidChangeState(listener: StateListener): () => void;

  // A question's state.
  /** The state a query answers from; undefined while cold (the call answers `index-cold`). */
  stateForQuery(): IndexState | undefined;
  /** Resolves with a complete state (one-shot commands, the library tools). */
  waitForIndex(): Promise<IndexState>;
  /** The workspace as it was at a date or commit (`asOf`). */
  stateAsOf(asOf: string): Promise<AsOfAnswer>;

  // Meaning.
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
