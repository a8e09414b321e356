/**
 * What a store keeps of one indexed workspace folder (a namespace), as plain rows: the shapes a
 * backend writes (storeRows.ts derives them from an in-memory `IndexState`) and hands back for a
 * question (scopedState.ts turns them into a state the ranker reads).
 *
 * Terms are our analyzer's stems (text/analyzer.ts through indexing/sectionTerms.ts), never a
 * database's own text search configuration, so a store finds exactly the candidates the
 * in-memory postings index finds.
 */
import type { IndexCounts, WorkspaceFolder } from '../indexState';
import type { CatalogEntity, Doc, FileCommitInfo, Problem, Relation, RepoInfo } from '../model';
import type { FolderDescription, LibraryPack } from '../sources/library';
import type { SimilarityAnchors } from '../ranking/contract';
import type { RepositoryIdentity } from '../workspace/repositoryIdentity';
import type { RunHealth } from '../sources/runHealth';

/** A document without its sections, plus what ranking needs of it. */
export interface StoredDoc extends Omit<Doc, 'sections'> {
  /** Live sections of the document (the named-entity share counts them). */
  sectionCount: number;
  /** Distinct analysed terms of the title (the title bonus) and of the context fields (ties). */
  titleTerms: string[];
  contextTerms: string[];
  /**
   * SHA-256 of everything stored for the document (its fields, sections and terms): an equal
   * digest means nothing of it needs writing again. Not the file digest, which misses changes
   * made elsewhere (an overview's entities come from the catalog).
   */
  contentDigest: string;
}

/** A section's place and text, and its field lengths as the postings index stores them. */
export interface StoredSection {
  id: string;
  docId: string;
  /** Position of the section in its document (0-based). */
  position: number;
  headingPath: string[];
  level: number;
  startLine: number;
  endLine: number;
  /** Empty until asked for: candidates are ranked without their text (storeReader.ts). */
  text: string;
  /**
   * SHA-256 of the text as indexed ('' for an empty text), read with every candidate: equal
   * digests are equal texts, which the copy rule compares (ranking/scoredCandidates.ts
   * liftOneCopy) before the texts are read. Of the text before any character PostgreSQL cannot
   * store was replaced, as the in-memory index compares it.
   */
  textDigest: string;
  entityRefs?: string[];
  /** Body length in terms (uncapped) and the packed heading/title/context lengths (fields.ts). */
  bodyLength: number;
  shortLengths: number;
}

/** A section with every term it is matched on and that term's packed field counts (fields.ts). */
export interface StoredSectionTerms extends StoredSection {
  terms: string[];
  packed: number[];
  /** The capped heading, title and context lengths (sums of these give the corpus averages). */
  headingLength: number;
  titleLength: number;
  contextLength: number;
  /** The section's vectors, when the index had them for its current text. */
  vectors?: StoredWindows;
}

/**
 * A section's vectors in the in-memory index's int8 layout (vector/vectorStore.ts): per window,
 * `dimension` int8 codes and 1 / |codes|, so a store's cosines are the in-memory index's, bit for bit.
 */
export interface StoredWindows {
  /** Digest of the text embedded (meaning/sectionVectors.ts): an equal digest keeps the stored windows. */
  digest: string;
  codes: Int8Array[];
  inverseNorms: number[];
}

/** What a namespace's meaning half needs besides the sections' windows. */
export interface StoredMeaning {
  /** The embedder id; a write with another model replaces every vector, never mixes them. */
  model: string;
  dimension: number;
  /** The model's own cosine anchors (below MEANING_MIN_SAMPLE sampled sections with vectors). */
  anchors: SimilarityAnchors;
  /**
   * Ids of the sections at the crowd sample's ordinals of the in-memory index written
   * (meaning/questionAnchors.ts `anchorSampleOrdinals`): the store reads the same crowd.
   */
  sampleIds: string[];
}

/** What describes a namespace as a whole: read once per generation and kept by readers. */
export interface StoredWorkspaceInfo {
  folder: WorkspaceFolder;
  /**
   * Which repository the folder is (workspace/repositoryIdentity.ts): a write from another
   * repository under the same name is refused (store/namespaceIdentity.ts). Absent in
   * namespaces written before it was kept.
   */
  identity?: RepositoryIdentity;
  indexedAt: string;
  repos: RepoInfo[];
  runHealth: [string, RunHealth][];
  problems: Problem[];
  counts: IndexCounts;
  libraryFolders: FolderDescription[];
  packs: LibraryPack[];
}

/** Everything written for one namespace. */
export interface StoredWorkspace {
  info: StoredWorkspaceInfo;
  entities: CatalogEntity[];
  relations: Relation[];
  commits: [string, FileCommitInfo][];
  docs: { doc: StoredDoc; sections: StoredSectionTerms[] }[];
  /** Absent when the index had no embedder: the stored vectors are left as they are. */
  meaning?: StoredMeaning;
}

/** The corpus-wide sums a namespace's questions are scored with (corpus.ts). */
export interface NamespaceStats {
  sectionCount: number;
  lengthSums: { body: number; heading: number; title: number; context: number };
  docCount: number;
  /** Sum over documents of their distinct title terms. */
  titleTermSum: number;
  /** The latest last-commit time (epoch ms) of any file, null when none is committed: bounds the recency bonus. */
  newestCommitTime: number | null;
}

/**
 * How large a namespace is, as its last write recorded: what a reader estimates the memory it
 * takes from before loading it (memoryEstimate.ts).
 */
export interface NamespaceSizes {
  sections: number;
  /** UTF-16 units of the sections' texts. */
  textChars: number;
  docs: number;
  /** Bytes of the documents' stored JSON (PostgreSQL's binary jsonb). */
  docBytes: number;
  postings: number;
  /** Distinct terms. */
  terms: number;
  entities: number;
  relations: number;
  commits: number;
  /** Vector windows, and their dimension (0 without vectors). */
  windows: number;
  dimension: number;
}

/** A candidate section with its store ordinal. */
export interface CandidateSection extends StoredSection {
  ordinal: number;
}

/** One posting: a section (by store ordinal) holding a term, with its packed field counts (engine/lexical/fields.ts). */
export interface PostingRow {
  ordinal: number;
  term: string;
  packed: number;
}

/** What a store returns for one question: the sections holding its terms and what scores them. */
export interface CandidateRows {
  /** The asked terms' postings of the returned sections, in any order. */
  postings: PostingRow[];
  sections: CandidateSection[];
  /** The candidates' documents. */
  docs: StoredDoc[];
  /** Git facts of the candidates' documents, by path. */
  commits: Map<string, FileCommitInfo>;
  /** Sections of the documents attached to any named entity (0 when none is named). */
  namedEntitySections: number;
  /** The generation these rows were read at, and the corpus sums of that generation. */
  generation: number;
  stats: NamespaceStats;
}

/**
 * A namespace's library (the rules and instructions the library tools read), whole: every
 * library document with every section, text included, and every posting of those sections.
 * Read once per generation (storeReader.ts); the corpus numbers come with it, as for candidates.
 */
export interface LibraryRows {
  /** Every posting of the library's sections: section ordinal, term and packed field counts. */
  postings: { ordinal: number; term: string; packed: number }[];
  /** The library's sections, texts included. */
  sections: CandidateSection[];
  /** The library's documents (source kind `library`). */
  docs: StoredDoc[];
  commits: Map<string, FileCommitInfo>;
  generation: number;
  stats: NamespaceStats;
}

/** How one write of a namespace went. */
export interface WriteReport {
  namespace: string;
  documentsWritten: number;
  documentsKept: number;
  documentsRemoved: number;
  sectionsWritten: number;
  /** Postings in the term blocks written (a changed block is written whole, pgTermBlocks.ts). */
  postingsWritten: number;
  /** Term blocks written (new, or changed by the sections written or removed). */
  blocksWritten: number;
  /** True when the catalog (entities and edges) changed and was written again. */
  catalogWritten: boolean;
  commitsWritten: number;
  /** Sections whose vectors were written (new or changed text, or another model), and their windows. */
  vectorSectionsWritten: number;
  windowsWritten: number;
  generation: number;
  /** True when nothing had changed: only the digests were compared (the generation stays). */
  unchanged: boolean;
  durationMs: number;
  /**
   * Documents that held text PostgreSQL cannot store (NUL, an unpaired UTF-16 surrogate), written
   * with U+FFFD in its place: their paths and how many characters each.
   */
  cleaned?: { path: string; characters: number }[];
}
