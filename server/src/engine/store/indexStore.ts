/**
 * The interface a store backend implements (server/src/store/postgres/ is one): it keeps any
 * number of namespaces, one per indexed workspace folder, writes them incrementally, and finds a
 * question's candidates. It never ranks: the order is decided in TypeScript by the same ranker
 * the in-memory engine uses, over the state scopedState.ts builds from these rows.
 */
import type { CatalogEntity, Relation } from '../model';
import type { CandidateRows, LibraryRows, PostingRow, NamespaceStats, StoredMeaning, StoredWorkspace, StoredWorkspaceInfo, WriteReport } from './rows';

/** A namespace as listed by a store. */
export interface StoredNamespace {
  name: string;
  absPath: string;
  generation: number;
  indexedAt: string;
  /** The embedder id of the namespace's vectors, or null when it has none. */
  vectorModel: string | null;
}

/** A namespace's base rows: everything but its sections (scopedState.ts `NamespaceBase`). */
export interface NamespaceBaseRows {
  info: StoredWorkspaceInfo;
  generation: number;
  entities: CatalogEntity[];
  relations: Relation[];
  stats: NamespaceStats;
  /** The namespace's meaning facts; absent when no vector has been written. */
  meaning?: StoredMeaningRows;
}

/** A namespace's meaning facts as read back. */
export interface StoredMeaningRows extends StoredMeaning {
  /** Store ordinals of the crowd sample's sections (those still stored). */
  sampleOrdinals: number[];
  /** True when pgvector's HNSW index over the namespace's windows exists. */
  hnsw: boolean;
}

/** One stored window of a section (rows.ts StoredWindows, one window). */
export interface StoredWindowRow {
  ordinal: number;
  window: number;
  inverseNorm: number;
  codes: Int8Array;
}

/** What a reader at an older generation must change to hold a namespace's vectors at `generation`. */
export interface VectorCatchUp {
  generation: number;
  /** Section ordinals whose windows went (apply before the windows added), or `all`: start empty. */
  removed: number[] | 'all';
}

/** The windows a vector index proposes for a question, nearest first. */
export interface NearestWindows {
  generation: number;
  hits: { ordinal: number; window: number; cosine: number }[];
}

export interface IndexStore {
  /** Every namespace the store holds, by name. */
  namespaces(): Promise<StoredNamespace[]>;
  /**
   * Writes one namespace (named by its folder) in one transaction: documents whose content
   * digest is unchanged are kept as they are, changed ones replaced, vanished ones removed; the
   * catalog is written again only when it changed. Readers see the old or the new namespace,
   * never a mix.
   */
  write(rows: StoredWorkspace): Promise<WriteReport>;
  /** The namespace's generation (bumped by each write), or undefined when it is not stored. */
  generation(namespace: string): Promise<number | undefined>;
  readBase(namespace: string): Promise<NamespaceBaseRows | undefined>;
  /**
   * Every section of `namespace` holding one of `terms` (a set test over the stored terms), with
   * every posting of those terms, the sections' documents and git facts, and the number of
   * sections of the documents attached to any of `namedEntities` (entity keys). `alsoOrdinals`
   * (the nearest sections by meaning) are returned too, with their postings of `terms`.
   */
  candidates(namespace: string, terms: readonly string[], namedEntities: readonly string[], alsoOrdinals?: readonly number[]): Promise<CandidateRows>;
  /** Every posting of `terms` (their whole lists), and the generation they were read at. */
  termPostings(namespace: string, terms: readonly string[]): Promise<{ generation: number; postings: PostingRow[] }>;
  /**
   * The sections at `ordinals` as candidates: each with its postings of `terms` (looked up, not
   * read from the terms' lists), their documents and git facts, and the number of sections of the
   * documents attached to any of `namedEntities`. A question told its ranking reads its
   * candidates with this and {@link termPostings} (engine/store/boundedCandidates.ts).
   */
  sectionCandidates(namespace: string, ordinals: readonly number[], terms: readonly string[], namedEntities: readonly string[]): Promise<CandidateRows>;
  /** The namespace's whole library (its `library` documents, sections and postings), or undefined when it is not stored. */
  libraryRows(namespace: string): Promise<LibraryRows | undefined>;
  /**
   * How many of the namespace's sections hold each of `terms` (a term held by none maps to 0), at
   * `generation`; undefined when a write has moved the namespace past it.
   */
  documentFrequencies(namespace: string, terms: readonly string[], generation: number): Promise<Map<string, number> | undefined>;
  /**
   * The namespace's vectors a reader at `afterGeneration` (0: none) lacks, in one snapshot: the
   * removals first (returned), the windows added handed to `onPage` in pages.
   */
  readWindows(namespace: string, afterGeneration: number, onPage: (rows: StoredWindowRow[]) => void): Promise<VectorCatchUp>;
  /** The `k` windows nearest `query` by the store's own vector index; undefined when it has none (the reader scans). */
  nearestWindows(namespace: string, query: Float32Array, k: number): Promise<NearestWindows | undefined>;
  /** The texts of sections by id (the few a question keeps). */
  sectionTexts(namespace: string, sectionIds: readonly string[]): Promise<Map<string, string>>;
  close(): Promise<void>;
}
