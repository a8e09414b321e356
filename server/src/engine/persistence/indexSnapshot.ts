/**
 * What the indexer remembers, as a snapshot: the discovery, every file's digest (not its text),
 * git facts, the parsers' memos, the documents, their section ordinals and the postings index.
 * Restoring it serves answers at once, and the next pass re-reads only files whose size or mtime
 * changed and re-parses only what read them, exactly as between two passes in one process.
 *
 * Documents are written once: the memos refer to them by position (`{"$doc": n}`), so restored
 * memo entries hand back the very objects the section store holds, and unchanged documents keep
 * their identity across a restart.
 *
 * Format 2 writes less and derives less on load, for a 100k-section workspace whose JSON is
 * mostly section text: sections are tuples without their document's id (`SectionTuple`), the
 * catalog's relations are derived again from its entities (relations.ts is deterministic and
 * cheaper than reading them), and each document's title and context terms are written so the
 * section store does not analyse every title again. Format 4: library pages carry
 * `conflictsResolved` (older snapshots would hand back pages read before the key existed).
 * Format 5: the section texts leave the JSON for a binary column (textColumn.ts) that loads as a
 * few large strings the texts are slices of; they were ~85 MB of the ~150 MB of JSON at 100k
 * sections and most of a restart's parse. The catalog's relations are
 * read back from a table of rows (relationTable.ts) instead of derived again. Format 6: entity
 * documents carry their workspace folder, the documentation memos hold the sites no entity
 * names (older snapshots would keep entity documents of no folder), and sections hold the key
 * paths of their code blocks as terms (older postings lack them). Format 7: documentation is read
 * by content (every Markdown file, not only `docs/` folders), the discovery lists the
 * documentation files it skipped, and the state its coverage (older snapshots hold neither).
 * Format 8: a third binary part, the warm check's head (`snapshotStatusTops`): the repositories'
 * tops whose `git status` the first pass asks, read before the JSON is parsed so git runs while
 * the rest of the snapshot is decoded (engine.ts `restoreSnapshotState`).
 */
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, WorkspaceFolder } from '../indexState';
import { PostingsIndex } from '../lexical/postings';
import type { Doc, EntityKey, FileCommitInfo, RepoInfo, Section } from '../model';
import type { CatalogLoad } from '../sources/catalog/loadCatalog';
import type { RunHealth } from '../sources/runHealth';
import type { WorkspaceDiscovery } from '../workspace/discovery';
import type { RepoGitFacts, WorkspaceGitFacts } from '../workspace/git';
import { fromWorkspacePath } from '../workspace/paths';
import type { WorkspaceReader } from '../workspace/readGuard';
import { FileTable, type FileEntry } from '../indexing/fileTable';
import { statusTops } from '../indexing/gitChanges';
import type { DocTerms, IndexerMemory } from '../indexing/indexerMemory';
import type { ProducerMemos } from '../indexing/produceDocs';
import type { SnapshotParts } from './snapshotFile';
import { decodeRelations, encodeRelations, type RelationTable } from './relationTable';
import { decodeTexts, encodeTexts } from './textColumn';

/** Bump when anything written here changes shape; older snapshots are then discarded and rebuilt. */
export const SNAPSHOT_FORMAT = 12;

export type { DocTerms, IndexerMemory };

/** A section as written: `[id, headingPath, level, startLine, endLine, entityRefs?]`; its text is in the text column. */
type SectionTuple = [string, string[], number, number, number, EntityKey[]?];

/** A document as written: its sections as tuples. */
type DocJson = Omit<Doc, 'sections'> & { sections: SectionTuple[] };

interface SnapshotJson {
  folders: WorkspaceFolder[];
  writtenAt: string;
  /** Optional: snapshots of format 4 written before it existed have none (nothing is bound to them). */
  snapshotId?: string;
  discovery: WorkspaceDiscovery;
  digests: [string, string][];
  git: {
    repos: (Omit<RepoGitFacts, 'lastCommitTimes' | 'dirty'> & {
      lastCommitTimes: [string, number][];
      dirty: string[];
    })[];
    problems: WorkspaceGitFacts['problems'];
  } | null;
  docs: DocJson[];
  /** Section texts the text column cannot carry (textColumn.ts), by position in section order. */
  irregularTexts: [number, string][];
  /** `[title terms, context terms]` per document. */
  terms: [string[], string[]][];
  ordinals: number[];
  catalog: Omit<CatalogLoad, 'relations'>;
  /** The catalog's relations, as rows (relationTable.ts). */
  relations: RelationTable;
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
    coverage?: IndexState['coverage'];
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
  const texts = encodeTexts(memory.docs.flatMap((doc) => doc.sections.map((s) => s.text)));
  const json: SnapshotJson = {
    folders: [...memory.discovery.folders],
    writtenAt: new Date().toISOString(),
    snapshotId: memory.snapshotId,
    discovery: memory.discovery,
    digests: [...memory.table.entries.values()].map((f) => [f.path, f.digest]),
    git: memory.git
      ? {
          repos: memory.git.repos.map((r) => ({
            absRoot: r.absRoot,
            git: r.git,
            head: r.head,
            lastCommitTimes: [...r.lastCommitTimes],
            dirty: [...r.dirty],
          })),
          problems: memory.git.problems,
        }
      : null,
    docs: memory.docs.map(docJson),
    irregularTexts: texts.irregular,
    terms: memory.docs.map((doc) => [
      [...(state.titleTerms.get(doc.id) ?? [])],
      [...(state.contextTerms.get(doc.id) ?? [])],
    ]),
    ordinals: memory.ordinals,
    catalog: {
      entities: memory.catalog.entities,
      problems: memory.catalog.problems,
      files: memory.catalog.files,
      fieldLines: memory.catalog.fieldLines,
    },
    relations: encodeRelations(memory.catalog.relations),
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
      coverage: state.coverage,
    },
  };
  return { json, binaries: [memory.postings.serialize(), texts.bytes, encodeWarmHead(memory)] };
}

/** The binary part that holds the warm check's head: the third. */
const WARM_HEAD_PART = 2;

/** The warm check's head: what the first pass asks git about, as JSON `{"statusTops": [...]}`. */
interface WarmHead {
  statusTops: string[];
}

/** No tops without git facts: the first pass then has nothing to compare git's answer with. */
function encodeWarmHead(memory: IndexerMemory): Uint8Array {
  const head: WarmHead = { statusTops: memory.git ? statusTops(memory.discovery.roots) : [] };
  return Buffer.from(JSON.stringify(head), 'utf8');
}

/**
 * The repositories' tops whose status the first pass after a restore asks (gitChanges.ts
 * `statusTops` of the snapshot's discovery), from the snapshot's binary parts, before its JSON is
 * parsed; null when the part is missing or not a list of strings. A list that differs from the
 * discovery's is never used: the first pass compares the two (gitChanges.ts `changesSinceSnapshot`).
 */
export function snapshotStatusTops(binaries: readonly Uint8Array[]): string[] | null {
  const part = binaries[WARM_HEAD_PART];
  if (!part) return null;
  try {
    const head = JSON.parse(Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('utf8')) as WarmHead;
    const tops = head?.statusTops;
    return Array.isArray(tops) && tops.every((top) => typeof top === 'string') ? tops : null;
  } catch {
    return null;
  }
}

/**
 * Rebuilds the indexer's memory from a snapshot. Throws when the snapshot is for other folders
 * or does not hang together; the caller discards it and indexes from scratch.
 */
/**
 * Every path the snapshot would have the engine read, link to or report stays inside its folder,
 * and every file's absolute path is the one its workspace path names: a snapshot is a file in the
 * cache folder, and one planted there must not turn `../../etc/passwd` into a link or a read.
 * Throws (the snapshot is then discarded and the workspace indexed again) at the first that does not.
 */
function checkSnapshotPaths(json: SnapshotJson, folders: readonly WorkspaceFolder[]): void {
  // The files' paths, checked first: most paths named elsewhere are among them.
  const files = new Set<string>();
  const notInside = (wsPath: unknown, what: string): Error =>
    new Error(
      `snapshot names ${JSON.stringify(String(wsPath).slice(0, 200))} (${what}), which is not inside its folders`,
    );
  const inside = (wsPath: unknown, what: string): void => {
    if (typeof wsPath === 'string' && files.has(wsPath)) return;
    if (typeof wsPath !== 'string' || fromWorkspacePath(folders, wsPath) === null) throw notInside(wsPath, what);
  };
  for (const file of json.discovery.files) {
    const at = typeof file.path === 'string' ? fromWorkspacePath(folders, file.path) : null;
    if (at === null) throw notInside(file.path, 'a file');
    if (at.absPath !== file.absPath)
      throw new Error(
        `snapshot places ${JSON.stringify(file.path)} at ${JSON.stringify(String(file.absPath).slice(0, 200))}, not in its folder`,
      );
    files.add(file.path);
  }
  for (const doc of json.docs) inside(doc.path, 'a document');
  for (const skip of json.discovery.skipped ?? []) inside(skip.path, 'a skipped file');
  for (const folder of json.state.coverage ?? []) for (const u of folder.unread) inside(u.path, 'an unread file');
  for (const entity of json.catalog.entities) inside(entity.location.path, `where ${entity.ref} is declared`);
  for (const problem of json.catalog.problems) inside(problem.path, 'a problem');
}

export function decodeIndexerMemory(
  parts: SnapshotParts,
  folders: readonly WorkspaceFolder[],
  reader: WorkspaceReader,
): IndexerMemory {
  const json = parts.json as SnapshotJson;
  const same =
    json.folders.length === folders.length &&
    json.folders.every((f, i) => f.name === folders[i].name && f.absPath === folders[i].absPath);
  if (!same) throw new Error('snapshot is for other workspace folders');
  if (parts.binaries.length !== 3) throw new Error(`snapshot has ${parts.binaries.length} binary parts, not 3`);
  checkSnapshotPaths(json, folders);
  const texts = decodeTexts(parts.binaries[1], json.irregularTexts);
  let next = 0;
  const docs = json.docs.map((doc) => docFromJson(doc, texts, next, (next += doc.sections.length)));
  if (next !== texts.length) throw new Error(`snapshot holds ${texts.length} section texts for ${next} sections`);
  const catalog: CatalogLoad = { ...json.catalog, relations: decodeRelations(json.relations) };
  const memos = reviveMemos(json.memos as SnapshotMemos, docs, catalog);
  const digests = new Map(json.digests);
  const entries = new Map<string, FileEntry>();
  for (const file of json.discovery.files) {
    const digest = digests.get(file.path);
    if (digest !== undefined) entries.set(file.path, { ...file, digest });
  }
  const git: WorkspaceGitFacts | undefined = json.git
    ? {
        repos: json.git.repos.map((r) => ({
          ...r,
          lastCommitTimes: new Map(r.lastCommitTimes),
          dirty: new Set(r.dirty),
        })),
        problems: json.git.problems,
      }
    : undefined;
  // Kept as views on its part (readSnapshotFile reads each part into a buffer of its own).
  const postings = PostingsIndex.deserialize(parts.binaries[0]);
  const graph = new ComponentGraph(catalog.entities, catalog.relations);
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
    fieldLines: catalog.fieldLines,
    entities: catalog.entities,
    relations: catalog.relations,
    graph,
    runHealth: new Map(json.state.runHealth),
    problems: json.state.problems,
    indexedAt: json.state.indexedAt,
    counts: json.state.counts,
    ...(json.state.coverage ? { coverage: json.state.coverage } : {}),
  };
  return {
    discovery: { ...json.discovery, skipped: json.discovery.skipped ?? [] },
    table: new FileTable(entries, reader),
    git,
    producers: memos,
    catalog,
    docs,
    ordinals: json.ordinals,
    postings,
    state,
    docTerms:
      json.terms.length === docs.length ? json.terms.map(([title, context]) => ({ title, context })) : undefined,
    snapshotId: typeof json.snapshotId === 'string' ? json.snapshotId : undefined,
  };
}

function docJson(doc: Doc): DocJson {
  return {
    ...doc,
    sections: doc.sections.map((s): SectionTuple => {
      const tuple: SectionTuple = [s.id, s.headingPath, s.level, s.startLine, s.endLine];
      if (s.entityRefs) tuple.push(s.entityRefs);
      return tuple;
    }),
  };
}

/** The document, its sections' texts taken from `texts[from..to)` (section order). */
function docFromJson(json: DocJson, texts: readonly string[], from: number, to: number): Doc {
  const doc = json as unknown as Doc;
  if (to > texts.length) throw new Error(`snapshot holds ${texts.length} section texts, fewer than its sections`);
  let t = from;
  doc.sections = json.sections.map(([id, headingPath, level, startLine, endLine, entityRefs]) => {
    const section: Section = { id, docId: json.id, headingPath, level, startLine, endLine, text: texts[t++] };
    if (entityRefs) section.entityRefs = entityRefs;
    return section;
  });
  return doc;
}

/** The memos as written: memo records whose values may hold `{$doc}` and `{$catalog}` markers. */
interface SnapshotMemos {
  [producer: string]: { key: string; value: unknown }[] | { catalog: unknown; docs: unknown[] } | null;
}

/**
 * Puts the documents and the catalog back where the memos name them, in place: only record
 * values are walked (never their dependency lists, the bulk of the memos).
 */
function reviveMemos(memos: SnapshotMemos, docs: readonly Doc[], catalog: CatalogLoad): ProducerMemos {
  for (const held of Object.values(memos)) {
    if (Array.isArray(held)) for (const record of held) record.value = revive(record.value, docs, catalog);
    else if (held) revive(held, docs, catalog);
  }
  return memos as unknown as ProducerMemos;
}

/** Replaces `{$doc: n}` and `{$catalog: true}` markers with the objects they stand for, in place. */
function revive(value: unknown, docs: readonly Doc[], catalog: CatalogLoad): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], docs, catalog);
    return value;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.$doc === 'number') {
    const doc = docs[record.$doc];
    if (!doc) throw new Error(`snapshot refers to document ${record.$doc} of ${docs.length}`);
    return doc;
  }
  if (record.$catalog === true) return catalog;
  for (const key of Object.keys(record)) record[key] = revive(record[key], docs, catalog);
  return record;
}
