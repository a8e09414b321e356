/**
 * One complete, immutable picture of the indexed workspace.
 *
 * The engine builds a new `IndexState` beside the current one and swaps the reference when it is
 * complete, so a query that runs while files are being re-indexed always answers from one
 * consistent state (never a torn mix), and `indexedAt` says which one.
 */
import type {
  CatalogEntity,
  Doc,
  FileCommitInfo,
  FolderCoverage,
  Problem,
  Relation,
  RepoInfo,
  Section,
  SourceKind,
} from './model';
import type { ComponentGraph } from './graph/componentGraph';
import type { PostingsIndex } from './lexical/postings';
import type { FolderDescription, LibraryPack } from './sources/library';
import type { RunHealth } from './sources/runHealth';
import type { CorpusStatistics } from './lexical/corpus';

/** A workspace folder the engine serves. */
export interface WorkspaceFolder {
  /** Folder name as the editor shows it; the `workspace` argument of the tools names it. */
  name: string;
  /** Absolute path on disk. */
  absPath: string;
}

/** What the engine remembers about each file it read, to skip unchanged files on update. */
/** A section plus what ranking needs of its document, addressable by ordinal. */
export interface SectionEntry {
  ordinal: number;
  section: Section;
  doc: Doc;
  /**
   * What the copy rule (ranking/scoredCandidates.ts liftOneCopy) compares instead of the text,
   * where the text is not read yet: a store's candidates carry the digest of their text, written
   * with the section ('' for an empty text). Absent where the text is at hand (compared itself).
   */
  textKey?: string;
}

export interface IndexCounts {
  files: number;
  documents: number;
  sections: number;
  bySourceKind: Record<SourceKind, number>;
  entitiesByKind: Record<string, number>;
  edgesByType: Record<string, number>;
  unresolvedEdges: number;
  problems: number;
}

export interface IndexState {
  folders: readonly WorkspaceFolder[];
  repos: readonly RepoInfo[];
  /** Workspace-relative paths of every file read, with their content digests. */
  fileDigests: ReadonlyMap<string, string>;
  /** Git facts per workspace-relative path (commit, dirty, last commit time). */
  commits: ReadonlyMap<string, FileCommitInfo>;
  docs: ReadonlyMap<string, Doc>;
  /** Sections by ordinal; removed sections leave `undefined` holes until the next compaction. */
  sections: readonly (SectionEntry | undefined)[];
  sectionOrdinalById: ReadonlyMap<string, number>;
  /** Candidate narrowing: term -> sections holding it (shared with later states; see sectionStore.ts). */
  lexical: PostingsIndex;
  /** Analysed terms of each document's title (the contract's title bonus). */
  titleTerms: ReadonlyMap<string, ReadonlySet<string>>;
  /** Analysed terms of each document's context fields (title, folder, type, tags; sectionTerms.ts). */
  contextTerms: ReadonlyMap<string, ReadonlySet<string>>;
  /** Library folder descriptions (`folder.yaml`) and packs. */
  libraryFolders: readonly FolderDescription[];
  packs: readonly LibraryPack[];
  /** Line of each field of each entity (editor features), by entity key then field path. */
  fieldLines: Readonly<Record<string, Record<string, number>>>;
  entities: readonly CatalogEntity[];
  relations: readonly Relation[];
  graph: ComponentGraph;
  /** The last CI run's verdict per repository root (workspace-relative root path). */
  runHealth: ReadonlyMap<string, RunHealth>;
  problems: readonly Problem[];
  /**
   * Each served folder's documentation files: found, read, and the rest by reason
   * (indexing/coverage.ts). Absent on a state read from a store or as of a past commit.
   */
  coverage?: readonly FolderCoverage[];
  /** ISO time at which this state was complete. */
  indexedAt: string;
  counts: IndexCounts;
  /**
   * Set only on a state that holds a question's candidates out of a larger corpus (a store's,
   * store/scopedState.ts): the whole corpus's numbers the ranker scores with. Absent on a
   * complete in-memory index, whose own numbers are the corpus's.
   */
  corpus?: CorpusStatistics;
  /**
   * Set only on one folder of a several-folder index seen on its own (ranking/folderScope.ts):
   * the folder, and its live sections' ordinals in ascending order (the question's crowd is
   * sampled from them, as from `0..n-1` in an index of that folder alone).
   */
  scope?: { folder: string; ordinals: Uint32Array };
}
