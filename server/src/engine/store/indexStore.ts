/**
 * The interface a store backend implements (server/src/store/postgres/ is one): it keeps any
 * number of namespaces, one per indexed workspace folder, writes them incrementally, and finds a
 * question's candidates. It never ranks: the order is decided in TypeScript by the same ranker
 * the in-memory engine uses, over the state scopedState.ts builds from these rows.
 */
import type { CatalogEntity, FileCommitInfo, Relation } from '../model';
import type {
  CandidateRows,
  CandidateSection,
  LibraryRows,
  NamespaceSizes,
  PostingRow,
  NamespaceStats,
  StoredDoc,
  StoredMeaning,
  StoredWorkspace,
  StoredWorkspaceInfo,
  WriteReport,
} from './rows';

/** A namespace as listed by a store. */
export interface StoredNamespace {
  name: string;
  absPath: string;
  generation: number;
  indexedAt: string;
  /** The embedder id of the namespace's vectors, or null when it has none. */
  vectorModel: string | null;
  /** Changes when a write numbers the namespace's sections afresh: a reader then loads it whole. */
  epoch: number;
  /** Its sizes as last written (what a reader's memory for it is estimated from). */
  sizes: NamespaceSizes;
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

/** Where a reader's copy of a namespace stands: what it asks the store to bring up to date. */
export interface LoadedVersion {
  generation: number;
  epoch: number;
  /** The generation its vectors are in line with, and their model (null: it holds none). */
  vectorGeneration: number;
  vectorModel: string | null;
}

/** One term's postings in one block of ordinals: ordinals ascending, packed field counts beside them. */
export interface LoadedBlock {
  term: string;
  ordinals: Uint32Array;
  packed: Uint32Array;
}

/**
 * Where a bulk read hands its larger parts as they arrive (inside its snapshot, in order): the
 * term blocks, in (term, block) order, then the vectors (what to drop first, then the windows).
 */
export interface LoadSink {
  blocks(page: LoadedBlock[]): void;
  vectors(meaning: StoredMeaningRows, catchUp: VectorCatchUp): void;
  windows(page: StoredWindowRow[]): void;
}

/**
 * What a reader reads to hold a namespace at its current generation (IndexStore.loadNamespace),
 * read in one snapshot: everything, or what changed since the version it holds.
 */
export interface NamespaceLoad {
  generation: number;
  epoch: number;
  /** True when everything was read (no version given, or the store renumbered since): start afresh. */
  full: boolean;
  info: StoredWorkspaceInfo;
  stats: NamespaceStats;
  sizes: NamespaceSizes;
  /** The catalog, when read: on a full read, or when a write since changed it. */
  catalog?: { entities: CatalogEntity[]; relations: Relation[] };
  /** Every file's git facts. */
  commits: [string, FileCommitInfo][];
  /** Every document the namespace holds now, by id (the ones a reader holds and this lacks went). */
  docIds: string[];
  /** The documents written since (all on a full read), with their sections, texts included, in position order. */
  docs: { doc: StoredDoc; sections: CandidateSection[] }[];
  /** The namespace's meaning facts; absent without vectors. */
  meaning?: StoredMeaningRows;
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
  candidates(
    namespace: string,
    terms: readonly string[],
    namedEntities: readonly string[],
    alsoOrdinals?: readonly number[],
  ): Promise<CandidateRows>;
  /** Every posting of `terms` (their whole lists), and the generation they were read at. */
  termPostings(namespace: string, terms: readonly string[]): Promise<{ generation: number; postings: PostingRow[] }>;
  /**
   * The sections at `ordinals` as candidates: each with its postings of `terms` (looked up, not
   * read from the terms' lists), their documents and git facts, and the number of sections of the
   * documents attached to any of `namedEntities`. A question told its ranking reads its
   * candidates with this and {@link termPostings} (engine/store/boundedCandidates.ts).
   */
  sectionCandidates(
    namespace: string,
    ordinals: readonly number[],
    terms: readonly string[],
    namedEntities: readonly string[],
  ): Promise<CandidateRows>;
  /** The namespace's whole library (its `library` documents, sections and postings), or undefined when it is not stored. */
  libraryRows(namespace: string): Promise<LibraryRows | undefined>;
  /**
   * How many of the namespace's sections hold each of `terms` (a term held by none maps to 0), at
   * `generation`; undefined when a write has moved the namespace past it.
   */
  documentFrequencies(
    namespace: string,
    terms: readonly string[],
    generation: number,
  ): Promise<Map<string, number> | undefined>;
  /**
   * The namespace's vectors a reader at `afterGeneration` (0: none) lacks, in one snapshot: the
   * removals first (returned), the windows added handed to `onPage` in pages.
   */
  readWindows(
    namespace: string,
    afterGeneration: number,
    onPage: (rows: StoredWindowRow[]) => void,
  ): Promise<VectorCatchUp>;
  /** The `k` windows nearest `query` by the store's own vector index; undefined when it has none (the reader scans). */
  nearestWindows(namespace: string, query: Float32Array, k: number): Promise<NearestWindows | undefined>;
  /**
   * Reads namespace `namespace` in bulk (one snapshot): everything, or with `since` only what
   * the writes after that version changed (the documents written since, the term blocks
   * rewritten since, the vectors added since). Term blocks and windows go to `sink` as they
   * arrive; undefined when the namespace is not stored.
   */
  loadNamespace(
    namespace: string,
    since: LoadedVersion | undefined,
    sink: LoadSink,
  ): Promise<NamespaceLoad | undefined>;
  /**
   * Calls `onChange` as writes commit (the store's notifications); `onLost` when the
   * notifications stop (a reader polls then). Undefined when the store cannot notify.
   */
  watch(
    onChange: (change: { namespace: string; generation: number }) => void,
    onLost: (error: Error) => void,
  ): Promise<{ close(): Promise<void> } | undefined>;
  /** The texts of sections by id (the few a question keeps). */
  sectionTexts(namespace: string, sectionIds: readonly string[]): Promise<Map<string, string>>;
  close(): Promise<void>;
}
