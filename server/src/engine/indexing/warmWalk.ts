/**
 * The part of the workspace a warm start walks (issue 44). Git answers for the files of each
 * repository (gitChanges.ts); what git cannot speak for is walked again, as a full pass walks
 * it, with the walk stopping at the root of every other repository:
 * - the files outside every repository: a served folder that is not itself a repository but
 *   holds repositories (a folder of clones with an `AGENTS.md` and a library beside them);
 * - a repository where git names a path the index has never seen and a walk must judge (a new
 *   file a source glob could match, a new directory or repository, a changed `.gitignore`): its
 *   files cost one `stat` each, and only that repository's.
 *
 * The walk must find the same roots there as the snapshot's walk did (a repository added or gone
 * returns null: the full pass runs). Its files, the documentation files it set aside and its
 * problems replace the snapshot's for that part; files added, gone, or whose size or modification
 * time moved are the ones to read again. A file whose roles changed also returns null.
 */
import * as path from 'node:path';
import type { Problem } from '../model';
import {
  discoverWorkspace,
  type DiscoveredFile,
  type DiscoveredRoot,
  type DiscoveryOptions,
  type SkippedDocFile,
  type WorkspaceDiscovery,
} from '../workspace/discovery';
import { gitRunningRoots } from '../workspace/git';
import { RootMap } from '../workspace/rootMap';

export interface WarmWalk {
  /** The discovery with the walked part as the walk found it (the rest as the snapshot's). */
  discovery: WorkspaceDiscovery;
  /** True for a workspace path in the walked part: the walk's verdict stands for it. */
  walked: (path: string) => boolean;
  /** Files to read: new ones, and those whose size or modification time moved. */
  changed: DiscoveredFile[];
  /** Workspace paths of files the walk no longer keeps (gone, or now ignored). */
  removed: string[];
}

/**
 * Walks the files outside every repository and inside the repositories `walkRepos` names
 * (`absRoot`s); null when the walk found other roots there or a file with other roles, or a
 * repository to walk lies inside one not walked.
 */
export async function walkOutsideRepos(
  discovery: WorkspaceDiscovery,
  walkRepos: ReadonlySet<string>,
  options: Pick<DiscoveryOptions, 'globs' | 'maxFileSize' | 'known'>,
): Promise<WarmWalk | null> {
  const inWalk = (root: DiscoveredRoot) => root.gitAbsRoot === null || walkRepos.has(root.gitAbsRoot);
  const walkedRoots = discovery.roots.filter(inWalk);
  if (walkedRoots.length === 0) return { discovery, walked: () => false, changed: [], removed: [] };
  const stopAt = gitRunningRoots(discovery.roots)
    .map((root) => root.absRoot)
    .filter((dir) => !walkRepos.has(dir));
  const stops = new Set(stopAt);
  // A repository inside one the walk stops at would never be reached.
  if ([...walkRepos].some((dir) => insideAny(dir, stops))) return null;
  const walk = await discoverWorkspace(discovery.folders, { ...options, stopAt: stops });
  if (!sameList(walk.roots, walkedRoots, rootKey)) return null;
  const expectedStops = stopAt.filter((dir) => !insideAny(dir, stops)).sort(compare);
  if (!sameList(walk.stoppedAt ?? [], expectedStops, (dir) => dir)) return null;

  const map = new RootMap(discovery.roots);
  const walked = (file: string): boolean => {
    const root = map.at(file)[0] ?? map.innermost(file);
    return root !== undefined && inWalk(root);
  };
  const before = new Map(discovery.files.filter((file) => walked(file.path)).map((file) => [file.path, file]));
  const changed: DiscoveredFile[] = [];
  for (const file of walk.files) {
    const was = before.get(file.path);
    before.delete(file.path);
    if (!was) changed.push(file);
    else if (fileKey(was) !== fileKey(file)) return null;
    else if (was.size !== file.size || was.mtimeMs !== file.mtimeMs) changed.push(file);
  }
  const removed = [...before.keys()];
  const walkedSkipped = discovery.skipped.filter((s) => walked(s.path));
  const walkedProblems = discovery.problems.filter((p) => walked(p.path));
  // Nothing moved: the snapshot's discovery stays (what is computed from it is not computed again).
  if (
    changed.length === 0 &&
    removed.length === 0 &&
    sameList(walk.skipped, walkedSkipped, skippedKey) &&
    sameList(walk.problems, walkedProblems, problemKey)
  )
    return { discovery, walked, changed, removed };
  const files = [...discovery.files.filter((file) => !walked(file.path)), ...walk.files].sort((a, b) =>
    compare(a.path, b.path),
  );
  const skipped = [...discovery.skipped.filter((s) => !walked(s.path)), ...walk.skipped].sort((a, b) =>
    compare(a.path, b.path),
  );
  const problems = [...discovery.problems.filter((p) => !walked(p.path)), ...walk.problems].sort(
    (a, b) => compare(a.path, b.path) || compare(a.code, b.code),
  );
  return { discovery: { ...discovery, files, skipped, problems }, walked, changed, removed };
}

/** True when `dir` lies strictly inside one of `dirs`. */
function insideAny(dir: string, dirs: ReadonlySet<string>): boolean {
  for (let child = dir, up = path.dirname(dir); up !== child; child = up, up = path.dirname(up))
    if (dirs.has(up)) return true;
  return false;
}

function sameList<T>(a: readonly T[], b: readonly T[], key: (item: T) => string): boolean {
  return a.length === b.length && a.every((item, i) => key(item) === key(b[i]));
}

function rootKey(root: DiscoveredRoot): string {
  return [root.root, root.folder, root.absRoot, root.reasons.join(','), root.git, root.gitAbsRoot].join('\0');
}

/** What a file is to the index, less the stat data an edit moves. */
function fileKey(file: DiscoveredFile): string {
  return [file.path, file.absPath, file.root, file.roles.join(','), file.generated === true].join('\0');
}

function skippedKey(skipped: SkippedDocFile): string {
  return `${skipped.path}\0${skipped.reason}`;
}

function problemKey(problem: Problem): string {
  return [problem.path, problem.line, problem.severity, problem.code, problem.message].join('\0');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
