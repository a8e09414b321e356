/**
 * What the indexer remembers, as a snapshot: the discovery, every file's digest (not its text),
 * git facts, the parsers' memos, the documents, their section ordinals and the postings index.
 * Restoring it serves answers at once, and the next pass re-reads only files whose size or mtime
 * changed and re-parses only what read them, exactly as between two passes in one process.
 *
 * Documents are written once: the memos refer to them by position (`{"$doc": n}`), so restored
 * memo entries hand back the very objects the section store holds, and unchanged documents keep
 * their identity across a restart.
 */
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, WorkspaceFolder } from '../indexState';
import { PostingsIndex } from '../lexical/postings';
import type { Doc, FileCommitInfo, RepoInfo } from '../model';
import type { CatalogLoad } from '../sources/catalog/loadCatalog';
import type { RunHealth } from '../sources/runHealth';
import type { WorkspaceDiscovery } from '../workspace/discovery';
import type { RepoGitFacts, WorkspaceGitFacts } from '../workspace/git';
import { FileTable, type FileEntry } from '../indexing/fileTable';
import type { ProducerMemos } from '../indexing/produceDocs';
import type { SnapshotParts } from './snapshotFile';

/** Bump when anything written here changes shape; older snapshots are then discarded and rebuilt. */
export const SNAPSHOT_FORMAT = 1;

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
}

interface SnapshotJson {
  folders: WorkspaceFolder[];
  writtenAt: string;
  discovery: WorkspaceDiscovery;
  digests: [string, string][];
  git: { repos: (Omit<RepoGitFacts, 'lastCommitTimes' | 'dirty'> & { lastCommitTimes: [string, number][]; dirty: string[] })[]; problems: WorkspaceGitFacts['problems'] } | null;
  docs: Doc[];
  ordinals: number[];
  catalog: CatalogLoad;
  memos: unknown;
  state: {
    indexedAt: string;
    problems: IndexState['problems'];
    repos: RepoInfo[];
    commits: [string, FileCommitInfo][];
    runHealth: [string, RunHealth][];
    libraryFolders: IndexState['libraryFolders'];
    packs: IndexState['packs'];
    counts: IndexState['counts'];
  };
}

export function encodeIndexerMemory(memory: IndexerMemory): SnapshotParts {
  const docIndex = new Map<object, number>(memory.docs.map((d, i) => [d, i]));
  const memos = JSON.parse(
    JSON.stringify(memory.producers, (_key, value: unknown) => {
      if (typeof value === 'object' && value !== null) {
        const i = docIndex.get(value);
        if (i !== undefined) return { $doc: i };
        if (value === memory.catalog) return { $catalog: true };
      }
      return value;
    }),
  ) as unknown;
  const { state } = memory;
  const json: SnapshotJson = {
    folders: [...memory.discovery.folders],
    writtenAt: new Date().toISOString(),
    discovery: memory.discovery,
    digests: [...memory.table.entries.values()].map((f) => [f.path, f.digest]),
    git: memory.git
      ? {
          repos: memory.git.repos.map((r) => ({ absRoot: r.absRoot, git: r.git, head: r.head, lastCommitTimes: [...r.lastCommitTimes], dirty: [...r.dirty] })),
          problems: memory.git.problems,
        }
      : null,
    docs: memory.docs,
    ordinals: memory.ordinals,
    catalog: memory.catalog,
    memos,
    state: {
      indexedAt: state.indexedAt,
      problems: [...state.problems],
      repos: [...state.repos],
      commits: [...state.commits],
      runHealth: [...state.runHealth],
      libraryFolders: state.libraryFolders,
      packs: state.packs,
      counts: state.counts,
    },
  };
  return { json, binary: memory.postings.serialize() };
}

/**
 * Rebuilds the indexer's memory from a snapshot. Throws when the snapshot is for other folders
 * or does not hang together; the caller discards it and indexes from scratch.
 */
export function decodeIndexerMemory(parts: SnapshotParts, folders: readonly WorkspaceFolder[]): IndexerMemory {
  const json = parts.json as SnapshotJson;
  const same = json.folders.length === folders.length && json.folders.every((f, i) => f.name === folders[i].name && f.absPath === folders[i].absPath);
  if (!same) throw new Error('snapshot is for other workspace folders');
  const docs = json.docs;
  const memos = revive(json.memos, docs, json.catalog) as ProducerMemos;
  const digests = new Map(json.digests);
  const entries = new Map<string, FileEntry>();
  for (const file of json.discovery.files) {
    const digest = digests.get(file.path);
    if (digest !== undefined) entries.set(file.path, { ...file, digest });
  }
  const git: WorkspaceGitFacts | undefined = json.git
    ? { repos: json.git.repos.map((r) => ({ ...r, lastCommitTimes: new Map(r.lastCommitTimes), dirty: new Set(r.dirty) })), problems: json.git.problems }
    : undefined;
  const postings = PostingsIndex.deserialize(parts.binary);
  const graph = new ComponentGraph(json.catalog.entities, json.catalog.relations);
  const state: IndexState = {
    folders,
    repos: json.state.repos,
    fileDigests: digests,
    commits: new Map(json.state.commits),
    docs: new Map(docs.map((d) => [d.id, d])),
    // Filled by the section store on restore; see Indexer.restore.
    sections: [],
    sectionOrdinalById: new Map(),
    lexical: postings,
    titleTerms: new Map(),
    contextTerms: new Map(),
    libraryFolders: json.state.libraryFolders,
    packs: json.state.packs,
    fieldLines: json.catalog.fieldLines,
    entities: json.catalog.entities,
    relations: json.catalog.relations,
    graph,
    runHealth: new Map(json.state.runHealth),
    problems: json.state.problems,
    indexedAt: json.state.indexedAt,
    counts: json.state.counts,
  };
  return {
    discovery: json.discovery,
    table: new FileTable(entries),
    git,
    producers: memos,
    catalog: json.catalog,
    docs,
    ordinals: json.ordinals,
    postings,
    state,
  };
}

/** Replaces `{$doc: n}` and `{$catalog: true}` markers with the objects they stand for. */
function revive(value: unknown, docs: readonly Doc[], catalog: CatalogLoad): unknown {
  if (Array.isArray(value)) return value.map((v) => revive(v, docs, catalog));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$doc === 'number') {
    const doc = docs[record.$doc];
    if (!doc) throw new Error(`snapshot refers to document ${record.$doc} of ${docs.length}`);
    return doc;
  }
  if (record.$catalog === true) return catalog;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[k] = revive(v, docs, catalog);
  return out;
}
