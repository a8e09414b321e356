/**
 * What the indexer remembers between passes, and what a snapshot (persistence/indexSnapshot.ts)
 * writes so a later process continues from it. Defined here, beside the indexer that fills it,
 * so the indexer does not import the snapshot format (persistence imports indexing, never back).
 */
import type { IndexState } from '../indexState';
import type { PostingsIndex } from '../lexical/postings';
import type { Doc } from '../model';
import type { CatalogLoad } from '../sources/catalog/loadCatalog';
import type { WorkspaceDiscovery } from '../workspace/discovery';
import type { WorkspaceGitFacts } from '../workspace/git';
import type { FileTable } from './fileTable';
import type { ProducerMemos } from './produceDocs';

/** Everything the indexer needs to continue where a previous process stopped. */
export interface IndexerMemory {
  discovery: WorkspaceDiscovery;
  table: FileTable;
  git: WorkspaceGitFacts | undefined;
  producers: ProducerMemos;
  catalog: CatalogLoad;
  docs: Doc[];
  ordinals: number[];
  postings: PostingsIndex;
  state: IndexState;
  /** Analysed title and context terms of each document of `docs`, when known (sectionStore.ts). */
  docTerms?: DocTerms[];
  /**
   * A random id given to one written snapshot, also recorded by the files saved beside it (the
   * vector index's section map), so a restart can tell those files were written with this very
   * snapshot. Absent in memory that was never written, and in snapshots written before it existed.
   */
  snapshotId?: string;
}

/** A document's analysed title terms and context terms (sectionTerms.ts). */
export interface DocTerms {
  title: readonly string[];
  context: readonly string[];
}
