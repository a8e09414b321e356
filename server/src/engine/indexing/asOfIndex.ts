/**
 * The workspace as it was at `asOf` (an ISO date-time or a commit), read from git objects without
 * checking anything out, and indexed like the present: catalog, graph AND passage bodies, so an
 * answer about last month quotes last month's docs.
 *
 * Files of roots without usable history (no git, a shallow clone missing that range) can only be
 * read as they are now; the state is then marked `approximate` and answers say
 * `as-of-chunks-approximate`.
 */
import { sha256Hex } from '../chunking/ids';
import { InputError } from '../errors';
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, WorkspaceFolder } from '../indexState';
import type { FileCommitInfo } from '../model';
import type { EngineSettings } from '../settings';
import type { WorkspaceDiscovery } from '../workspace/discovery';
import { parseIsoDateTime } from '../workspace/asOf';
import { GitTreeFileSource, resolveAsOf, type TreeAtCommit } from '../workspace/git';
import { fromWorkspacePath, usesFolderPrefix } from '../workspace/paths';
import { countState } from './counts';
import { compareCodeUnits, FileTable, type FileEntry } from './fileTable';
import { DocProducers } from './produceDocs';
import { SectionStore } from './sectionStore';

export interface AsOfState {
  state: IndexState;
  /** Commit each git directory was read at ('' when the repository had no commit yet then). */
  commits: Record<string, string>;
  /** True when some files could only be read as they are now. */
  approximate: boolean;
  /** True when the time is before some repository's first commit: it had no files then. */
  beforeHistory: boolean;
  notes: string[];
}

export async function buildAsOfState(
  asOf: string,
  folders: readonly WorkspaceFolder[],
  settings: EngineSettings,
  discovery: WorkspaceDiscovery,
  present: FileTable,
): Promise<AsOfState> {
  const gitDirs = [...new Set(discovery.roots.map((r) => r.gitAbsRoot).filter((d): d is string => d !== null))];
  if (gitDirs.length === 0 && parseIsoDateTime(asOf) === null && !/^[0-9a-f]{4,40}$/i.test(asOf.trim())) {
    throw new InputError(
      `asOf: "${asOf}" is neither an ISO date-time (2026-03-01 or 2026-03-01T12:00:00Z) nor a commit id.`,
    );
  }
  const commits: Record<string, string> = {};
  const notes: string[] = [];
  const historyless = new Set<string>();
  const trees: TreeAtCommit[] = [];
  const unknown: string[] = [];
  let beforeHistory = false;
  for (const dir of gitDirs) {
    const resolved = await resolveAsOf(dir, asOf);
    if (!resolved.ok && resolved.reason === 'unknown-commit') unknown.push(dir);
    if (resolved.ok) {
      commits[dir] = resolved.commit;
      trees.push({ absRoot: dir, commit: resolved.commit });
    } else if (resolved.reason === 'invalid') {
      throw new InputError(`asOf: ${resolved.message}`);
    } else if (resolved.reason === 'before-history' || resolved.reason === 'no-commits') {
      // The repository had no commit yet at that time: none of its files existed.
      commits[dir] = '';
      beforeHistory = true;
      notes.push(`${dir}: ${resolved.message}`);
    } else {
      historyless.add(dir);
      notes.push(`${dir}: ${resolved.message}`);
    }
  }

  // A commit no repository holds names nothing: answering from today's files would pass them
  // off as the past. (A commit of one repository in a workspace of several is that repository's
  // past; the others answer as they are now, flagged approximate.)
  if (gitDirs.length > 0 && unknown.length === gitDirs.length) {
    throw new InputError(
      `asOf: "${asOf.trim()}" is neither an ISO 8601 date-time (2026-03-01 or 2026-03-01T12:00:00Z) nor a commit of any repository in the workspace.`,
    );
  }

  const entries = new Map<string, FileEntry>();
  const commitOf = new Map<string, string>();
  const tree = await GitTreeFileSource.open(folders, trees, {
    globs: settings.globs,
    maxFileSize: settings.maxFileSize,
  });
  try {
    for (const wsPath of tree.list()) {
      const info = tree.entry(wsPath);
      const text = await tree.readText(wsPath);
      const resolved = fromWorkspacePath(folders, wsPath);
      if (text === null || !info || !resolved) continue;
      entries.set(wsPath, {
        path: wsPath,
        absPath: resolved.absPath,
        folder: resolved.folder.name,
        size: info.size,
        mtimeMs: 0,
        root: '',
        roles: info.roles,
        digest: sha256Hex(text),
        text,
      });
      commitOf.set(wsPath, trees[info.repo].commit);
    }
  } finally {
    tree.dispose();
  }

  // Files of roots that have no git directory, or whose history is missing, as they are now.
  let approximate = false;
  for (const root of discovery.roots) {
    if (root.gitAbsRoot !== null && !historyless.has(root.gitAbsRoot)) continue;
    for (const file of present.entries.values()) {
      if (file.root !== root.root || file.folder !== root.folder || entries.has(file.path)) continue;
      entries.set(file.path, file);
      approximate = true;
    }
  }

  const table = new FileTable(new Map([...entries].sort((a, b) => compareCodeUnits(a[0], b[0]))), present.reader);
  const produced = await new DocProducers().produce(table, discovery.roots);
  const store = new SectionStore({ prefixedPaths: usesFolderPrefix(folders) });
  store.rebuild(produced.docs);
  const snapshot = store.snapshot();
  const commitInfos = new Map<string, FileCommitInfo>();
  for (const wsPath of table.list())
    commitInfos.set(wsPath, { commit: commitOf.get(wsPath) ?? null, dirty: false, lastCommitTime: null });
  const graph = new ComponentGraph(produced.catalog.entities, produced.catalog.relations);
  const problems = [...tree.problems, ...produced.problems];
  const state: IndexState = {
    folders,
    repos: [],
    fileDigests: new Map([...table.entries.values()].map((f) => [f.path, f.digest])),
    commits: commitInfos,
    docs: snapshot.docs,
    sections: snapshot.sections,
    sectionOrdinalById: snapshot.ordinalById,
    lexical: store.postings,
    titleTerms: snapshot.titleTerms,
    contextTerms: snapshot.contextTerms,
    libraryFolders: produced.folders,
    packs: produced.packs,
    fieldLines: produced.catalog.fieldLines,
    entities: produced.catalog.entities,
    relations: produced.catalog.relations,
    graph,
    // A past run's verdict is not recorded in history; run health is unknown as of then.
    runHealth: new Map(),
    problems,
    indexedAt: new Date().toISOString(),
    counts: countState({
      docs: snapshot.docs,
      graph,
      entities: produced.catalog.entities,
      problems,
      files: table.size,
      sections: store.sectionCount,
    }),
  };
  return { state, commits, approximate, beforeHistory, notes };
}
