/**
 * Git facts for indexing (docs/ARCHITECTURE.md, "Identity, commits, freshness"): each repository's HEAD, the last commit that
 * touched each file, and which files differ from HEAD. A repository costs a fixed handful of git
 * processes whatever its size (never one per file); a folder without git, or a machine without
 * git, still indexes with `commit: null`, `dirty: false`, `lastCommitTime: null`.
 *
 * Paths are relative to the directory git runs in (`absRoot`), which may be a subdirectory of
 * the work tree (a workspace folder opened inside a monorepo): history and status are limited to
 * that subtree.
 */
import { detach } from '../text/detach';
import * as path from 'node:path';
import type { FileCommitInfo, Problem, RepoInfo } from '../model';
import type { DiscoveredRoot } from './discovery';
import { defaultGitRunner } from './gitHelper';
import { GIT_LOG_SAFE_OPTIONS, GitUnavailableError, type GitRunner } from './gitRunner';
import { fromWorkspacePath, isWithin, relativePosix, type WorkspaceFolderRef } from './paths';
import { readSmallFile } from './readGuard';
import { RootMap } from './rootMap';

export { resolveAsOf, type AsOfFailure, type AsOfResolution } from './asOf';
export { GitTreeFileSource, type GitTreeOptions, type TreeAtCommit } from './gitTreeFileSource';
export { execFileGitRunner, GitUnavailableError, type GitRunner, type GitRunResult } from './gitRunner';
export { defaultGitRunner, HelperGitRunner, type GitHelperOptions } from './gitHelper';

export interface GitOptions {
  /** How git is run; default: `git` from PATH through `execFile`. */
  runner?: GitRunner;
}

export interface HistoryOptions extends GitOptions {
  /**
   * Newest commits `lastCommitTimes` reads (`--max-count`); files last touched before them get no
   * time. Default: all of HEAD's history. Set it for very large histories (hundreds of thousands
   * of commits), where one full walk takes long and its output is large.
   */
  maxCommits?: number;
}

/** A git command that ran and failed for a reason other than "no repository" or "no commits". */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (exit ${code}): ${firstLine(stderr)}`);
    this.name = 'GitCommandError';
  }
}

/** Where a directory sits in git. */
export interface WorkTreeInfo {
  /** The directory's path below the work tree's top, with a trailing `/` ('' at the top). */
  prefix: string;
  /** True for a shallow clone (history is cut off). */
  shallow: boolean;
}

/** Work-tree facts of `absRoot`, or null when it is not inside a git work tree. */
export async function workTreeInfo(absRoot: string, options: GitOptions = {}): Promise<WorkTreeInfo | null> {
  const runner = options.runner ?? defaultGitRunner();
  const result = await runner.run(
    ['rev-parse', '--is-inside-work-tree', '--is-shallow-repository', '--show-prefix'],
    absRoot,
  );
  if (result.code !== 0) return null;
  const [inside, shallow, prefix = ''] = result.stdout.split('\n');
  if (inside !== 'true') return null;
  return { prefix, shallow: shallow === 'true' };
}

/** HEAD's commit id, or null when `absRoot` is not in a work tree or has no commits yet. */
export async function repoHead(absRoot: string, options: GitOptions = {}): Promise<string | null> {
  const runner = options.runner ?? defaultGitRunner();
  const result = await runner.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], absRoot);
  return result.code === 0 ? result.stdout.trim() : null;
}

/**
 * `workTreeInfo` and `repoHead` from ONE git process: where `absRoot` sits in its work tree and
 * HEAD's commit (null before the first commit). Null when `absRoot` is not in a work tree.
 */
export async function workTreeState(
  absRoot: string,
  options: GitOptions = {},
): Promise<(WorkTreeInfo & { head: string | null }) | null> {
  const runner = options.runner ?? defaultGitRunner();
  const args = [
    'rev-parse',
    '--is-inside-work-tree',
    '--is-shallow-repository',
    '--show-prefix',
    '--verify',
    '--quiet',
    'HEAD^{commit}',
  ];
  const result = await runner.run(args, absRoot);
  // Exit 1 with the first three answers printed: a work tree whose HEAD has no commit yet.
  if (result.code !== 0 && result.code !== 1) return null;
  const [inside, shallow, prefix = '', head = ''] = result.stdout.split('\n');
  if (inside !== 'true') return null;
  return { prefix, shallow: shallow === 'true', head: result.code === 0 && head.trim() !== '' ? head.trim() : null };
}

/** Separates commits in `lastCommitTimes`' log output. */
const RECORD = '\x1e';

/**
 * Epoch milliseconds of the last commit touching each path, from ONE `git log` over HEAD's
 * history (`--name-only -z`, paths relative to `absRoot`).
 *
 * - Time is the committer time; a path keeps the newest time any commit gives it.
 * - Renames count as touching the new path (`--no-renames` lists the old path as deleted and the
 *   new one as added), which is what `git log -1 -- <new path>` reports.
 * - A merge contributes the files it changed relative to its first parent: a file changed on a
 *   branch gets the time the branch landed, and conflict resolutions are not missed.
 * - A shallow clone's oldest commit lists every file it holds, so older files get its time.
 *
 * Empty map when `absRoot` is not in a work tree or HEAD has no commits.
 * @throws GitUnavailableError without git; GitCommandError when git fails otherwise
 */
export async function lastCommitTimes(absRoot: string, options: HistoryOptions = {}): Promise<Map<string, number>> {
  const runner = options.runner ?? defaultGitRunner();
  const limit = options.maxCommits !== undefined ? [`--max-count=${Math.max(1, Math.floor(options.maxCommits))}`] : [];
  let args = [
    'log',
    ...GIT_LOG_SAFE_OPTIONS,
    ...limit,
    '-z',
    `--format=${RECORD}%ct`,
    '--name-only',
    '--no-renames',
    '--diff-merges=first-parent',
    '--root',
    '--relative',
    'HEAD',
    '--',
  ];
  let result = await runner.run(args, absRoot);
  if (result.code !== 0 && /diff-merges/.test(result.stderr)) {
    // git before 2.31: merges then contribute nothing of their own (git log's default).
    args = args.filter((arg) => arg !== '--diff-merges=first-parent');
    result = await runner.run(args, absRoot);
  }
  if (result.code !== 0) {
    if (isNoRepoOrNoCommits(result.stderr)) return new Map();
    throw new GitCommandError(args, result.code, result.stderr);
  }
  return parseLogNames(result.stdout);
}

/** Parses `git log -z --format=<RECORD>%ct --name-only` output. */
export function parseLogNames(stdout: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const record of stdout.split(RECORD)) {
    const headerEnd = record.indexOf('\0');
    if (headerEnd < 0) continue;
    const time = Number(record.slice(0, headerEnd)) * 1000;
    if (!Number.isFinite(time)) continue;
    for (const name of record.slice(headerEnd + 1).split('\0')) {
      // The name list starts after a newline that follows the header.
      const file = name.startsWith('\n') ? name.slice(1) : name;
      if (file === '') continue;
      const seen = times.get(file);
      // A copy: the map outlives git's output, which a slice would keep whole (text/detach.ts).
      if (seen === undefined) times.set(detach(file), time);
      else if (time > seen) times.set(file, time);
    }
  }
  return times;
}

/**
 * Paths that differ from HEAD below `absRoot`, relative to it, from ONE `git status --porcelain=v1
 * -z` call: modified, added (staged), untracked (each file, not just its directory), deleted,
 * and both sides of a rename or copy. Empty set outside a work tree.
 * @param prefix `absRoot`'s prefix in the work tree (workTreeInfo); looked up when left out
 * @throws GitUnavailableError without git; GitCommandError when git fails otherwise
 */
export async function dirtyPaths(
  absRoot: string,
  options: GitOptions & { prefix?: string } = {},
): Promise<Set<string>> {
  const runner = options.runner ?? defaultGitRunner();
  let prefix = options.prefix;
  if (prefix === undefined) {
    const info = await workTreeInfo(absRoot, options);
    if (!info) return new Set();
    prefix = info.prefix;
  }
  const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all', '--', '.'];
  const result = await runner.run([...(await driverOverrides(runner, absRoot)), ...args], absRoot);
  if (result.code !== 0) {
    if (isNoRepoOrNoCommits(result.stderr)) return new Set();
    throw new GitCommandError(args, result.code, result.stderr);
  }
  return parseStatus(result.stdout, prefix);
}

/** A full commit id (SHA-1 or SHA-256): what a snapshot records as a repository's HEAD. */
const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Paths whose content differs between commits `from` and `to` below `absRoot`, relative to it,
 * from ONE `git diff --name-only` (no renames: both sides of a move are listed). Null when either
 * is not a full commit id or git cannot compare them (a commit gone after a rebase and `gc`).
 * @throws GitUnavailableError without git
 */
export async function changedBetween(
  absRoot: string,
  from: string,
  to: string,
  options: GitOptions = {},
): Promise<Set<string> | null> {
  if (!COMMIT_ID.test(from) || !COMMIT_ID.test(to)) return null;
  const runner = options.runner ?? defaultGitRunner();
  const args = [
    'diff',
    ...GIT_LOG_SAFE_OPTIONS,
    '--name-only',
    '-z',
    '--no-renames',
    '--relative',
    '--end-of-options',
    from,
    to,
    '--',
    '.',
  ];
  const result = await runner.run(args, absRoot);
  if (result.code !== 0) return null;
  return new Set(result.stdout.split('\0').filter((name) => name !== ''));
}

/** HEAD and the paths that differ from it, as one `git status` gives them. */
export interface RepoStatus {
  /** HEAD's commit, null before the first commit. */
  head: string | null;
  /** Paths (relative to the work tree's top) that differ from HEAD, as `dirtyPaths` lists them. */
  dirty: Set<string>;
}

/**
 * `repoHead` and `dirtyPaths` of the work tree whose top is `absRoot`, from ONE `git status
 * --porcelain=v2 --branch` (its `# branch.oid` header is HEAD), plus the `git config` that
 * `driverOverrides` runs only when the repository's own config could name a filter driver (a
 * `filter` or `include` section in `.git/config`, or a `.git` that is not a directory). A warm
 * start asks this of every repository: at 700 repositories, one process each instead of three.
 * Null when `absRoot` is not in a work tree.
 * @throws GitUnavailableError without git; GitCommandError when git fails otherwise
 */
export async function repoStatus(absRoot: string, options: GitOptions = {}): Promise<RepoStatus | null> {
  const runner = options.runner ?? defaultGitRunner();
  const filters = (await mayNameFilters(absRoot)) ? await driverOverrides(runner, absRoot) : [];
  const args = STATUS_V2_ARGS;
  const result = await runner.run([...filters, ...args], absRoot);
  if (result.code !== 0) {
    if (/not a git repository/i.test(result.stderr)) return null;
    throw new GitCommandError(args, result.code, result.stderr);
  }
  return parseStatusV2(result.stdout);
}

/** The `git status` arguments of `repoStatus`, run in the work tree's top. */
export const STATUS_V2_ARGS: readonly string[] = [
  'status',
  '--porcelain=v2',
  '-z',
  '--branch',
  '--untracked-files=all',
  '--ignore-submodules=all',
  '--',
  '.',
];

/** True unless `.git/config` is read and names no `filter` or `include` section. */
export async function mayNameFilters(absRoot: string): Promise<boolean> {
  try {
    // Through the guard: a workspace's `.git/config` may be a FIFO or a link out of it.
    const text = await readSmallFile(path.join(absRoot, '.git', 'config'));
    return /^\s*\[\s*(filter|include)/im.test(text);
  } catch {
    // A `.git` file (a linked work tree, a submodule) or a config that cannot be read: ask git.
    return true;
  }
}

/**
 * Parses `git status --porcelain=v2 -z --branch`: HEAD from `# branch.oid`, and every changed
 * (`1`), renamed or copied (`2`, both paths), unmerged (`u`) and untracked (`?`) path.
 */
export function parseStatusV2(stdout: string): RepoStatus {
  let head: string | null = null;
  const dirty = new Set<string>();
  const fields = stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (entry.startsWith('# branch.oid ')) {
      const oid = entry.slice('# branch.oid '.length).trim();
      head = oid === '(initial)' ? null : oid;
    } else if (entry.startsWith('1 ')) dirty.add(afterFields(entry, 8));
    else if (entry.startsWith('2 ')) {
      dirty.add(afterFields(entry, 9));
      dirty.add(fields[++i] ?? '');
    } else if (entry.startsWith('u ')) dirty.add(afterFields(entry, 10));
    else if (entry.startsWith('? ')) dirty.add(entry.slice(2));
  }
  dirty.delete('');
  return { head, dirty };
}

/** What follows the first `count` space-separated fields (a path may hold spaces). */
function afterFields(entry: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count && at >= 0; n++) at = entry.indexOf(' ', at) + 1 || -1;
  return at > 0 ? entry.slice(at) : '';
}

/** The program-naming keys of a filter driver (git-config(1) `filter.<driver>.*`). */
const FILTER_PROGRAM_KEYS = ['clean', 'smudge', 'process'] as const;

/**
 * `-c filter.<driver>.<key>=` for every filter driver the repository's config names (its
 * `.git/config` and the files it includes), plus `required=false`: `git status` runs a file's clean
 * filter when the file's stat data changed (an extracted archive: every file), and the driver is
 * a program the repository chose. Emptied, git reads the file as it is. Driver names are
 * wildcards, so they are listed first with `git config`, which runs no program itself.
 */
export async function driverOverrides(runner: GitRunner, absRoot: string): Promise<string[]> {
  const listed = await runner.run(['config', '--null', '--name-only', '--get-regexp', '^filter\\.'], absRoot);
  // Exit 1: no such keys.
  if (listed.code !== 0) return [];
  const drivers = new Set<string>();
  for (const key of listed.stdout.split('\0')) {
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (match) drivers.add(match[1]);
  }
  return [...drivers].flatMap((driver) => [
    ...FILTER_PROGRAM_KEYS.flatMap((key) => ['-c', `filter.${driver}.${key}=`]),
    '-c',
    `filter.${driver}.required=false`,
  ]);
}

/** Parses porcelain v1 `-z` output; paths there are relative to the work tree's top. */
export function parseStatus(stdout: string, prefix = ''): Set<string> {
  const dirty = new Set<string>();
  const add = (topPath: string): void => {
    if (topPath.startsWith(prefix)) dirty.add(topPath.slice(prefix.length));
  };
  const fields = stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    add(entry.slice(3));
    // A rename or copy is followed by its source path as a field of its own.
    if (/[RC]/.test(status)) add(fields[++i] ?? '');
  }
  return dirty;
}

function isNoRepoOrNoCommits(stderr: string): boolean {
  return /not a git repository|does not have any commits|unknown revision|bad revision 'HEAD'|bad default revision|ambiguous argument 'HEAD'/i.test(
    stderr,
  );
}

// ---------------------------------------------------------------------------------------------
// Facts per repository and per file

/** Everything `fileCommitInfo` needs about one directory git runs in. */
export interface RepoGitFacts {
  absRoot: string;
  /** False when `absRoot` is not in a git work tree or git is unavailable. */
  git: boolean;
  head: string | null;
  /** Repo-relative path -> epoch ms of the last commit touching it. */
  lastCommitTimes: ReadonlyMap<string, number>;
  /** Repo-relative paths that differ from HEAD. */
  dirty: ReadonlySet<string>;
}

export interface WorkspaceGitFacts {
  repos: RepoGitFacts[];
  problems: Problem[];
}

/** Repositories read at once; each runs four short git processes. */
const REPO_CONCURRENCY = 4;

/**
 * Loads facts for every root that runs its own git (`gitAbsRoot === absRoot`): four git processes
 * per repository (rev-parse, log, config, status; three before the first commit). Never throws: git missing from PATH
 * gives one `git.unavailable` Problem and facts without git; a failing repository gives a
 * `git.failed` Problem and facts without git for that repository.
 */
export async function loadGitFacts(
  roots: readonly DiscoveredRoot[],
  options: HistoryOptions = {},
): Promise<WorkspaceGitFacts> {
  const gitRoots = gitRunningRoots(roots);
  const problems: Problem[] = [];
  let unavailable: GitUnavailableError | undefined;
  const repos = await eachRoot(gitRoots, async (root) => {
    try {
      return unavailable ? noGit(root.absRoot) : await loadRepoGitFacts(root.absRoot, options);
    } catch (error) {
      if (error instanceof GitUnavailableError) unavailable ??= error;
      else
        problems.push({
          path: root.root,
          line: 1,
          severity: 'warning',
          code: 'git.failed',
          message: `Git facts for this repository are unavailable: ${(error as Error).message}`,
        });
      return noGit(root.absRoot);
    }
  });
  if (unavailable) {
    problems.unshift({
      path: gitRoots[0]?.root ?? '',
      line: 1,
      severity: 'warning',
      code: 'git.unavailable',
      message: `${unavailable.message}. Files index without commit, dirty state or recency.`,
    });
  }
  return { repos, problems };
}

/** The roots that run their own git (`gitAbsRoot === absRoot`): one git directory each. */
export function gitRunningRoots(roots: readonly DiscoveredRoot[]): DiscoveredRoot[] {
  return roots.filter((root) => root.gitAbsRoot !== null && root.gitAbsRoot === root.absRoot);
}

/** `read` for each root, REPO_CONCURRENCY at a time, results in the roots' order. */
export async function eachRoot<T>(
  roots: readonly DiscoveredRoot[],
  read: (root: DiscoveredRoot) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(roots.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < roots.length) {
      const index = next++;
      results[index] = await read(roots[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(REPO_CONCURRENCY, roots.length) }, worker));
  return results;
}

/**
 * Facts of one directory git runs in: four git processes (rev-parse, then log and config + status
 * side by side). @throws GitUnavailableError, GitCommandError
 */
export async function loadRepoGitFacts(absRoot: string, options: HistoryOptions = {}): Promise<RepoGitFacts> {
  const state = await workTreeState(absRoot, options);
  if (!state) return noGit(absRoot);
  const [times, dirty] = await Promise.all([
    state.head === null ? new Map<string, number>() : lastCommitTimes(absRoot, options),
    dirtyPaths(absRoot, { ...options, prefix: state.prefix }),
  ]);
  return { absRoot, git: true, head: state.head, lastCommitTimes: times, dirty };
}

function noGit(absRoot: string): RepoGitFacts {
  return { absRoot, git: false, head: null, lastCommitTimes: new Map(), dirty: new Set() };
}

const NO_GIT_INFO: Readonly<FileCommitInfo> = Object.freeze({ commit: null, dirty: false, lastCommitTime: null });

/** The repository whose facts cover `absPath`: the innermost one holding it. */
export function repoFor(repos: readonly RepoGitFacts[], absPath: string): RepoGitFacts | undefined {
  let best: RepoGitFacts | undefined;
  for (const repo of repos) {
    if (isWithin(repo.absRoot, absPath) && (!best || repo.absRoot.length > best.absRoot.length)) best = repo;
  }
  return best;
}

/** `FileCommitInfo` of a workspace-relative path (model.ts), from loaded facts. */
export function fileCommitInfo(
  path: string,
  folders: readonly WorkspaceFolderRef[],
  repos: readonly RepoGitFacts[],
): FileCommitInfo {
  const resolved = fromWorkspacePath(folders, path);
  const repo = resolved ? repoFor(repos, resolved.absPath) : undefined;
  if (!resolved || !repo?.git) return { ...NO_GIT_INFO };
  const rel = relativePosix(repo.absRoot, resolved.absPath);
  return { commit: repo.head, dirty: repo.dirty.has(rel), lastCommitTime: repo.lastCommitTimes.get(rel) ?? null };
}

/**
 * `fileCommitInfo` for many paths: each repository's facts are found from the path's own
 * directories (rootMap.ts) and its repository-relative path by slicing, with no absolute path
 * resolved per file. Gives what `fileCommitInfo` gives for every file a discovery listed: the
 * innermost root whose directory runs its own git (`gitAbsRoot === absRoot`, the roots
 * `loadGitFacts` reads) is the innermost repository holding the file on disk.
 */
export class CommitInfoLookup {
  private readonly roots: RootMap<{ root: string; facts: RepoGitFacts }>;

  constructor(roots: readonly DiscoveredRoot[], repos: readonly RepoGitFacts[]) {
    const byAbs = new Map(repos.map((repo) => [repo.absRoot, repo]));
    const withFacts: { root: string; facts: RepoGitFacts }[] = [];
    for (const root of roots) {
      const facts = byAbs.get(root.absRoot);
      if (facts) withFacts.push({ root: root.root, facts });
    }
    this.roots = new RootMap(withFacts);
  }

  /** Commit facts of a workspace-relative file path. */
  get(path: string): FileCommitInfo {
    const holder = this.roots.innermost(path);
    if (!holder?.facts.git) return { ...NO_GIT_INFO };
    const { facts } = holder;
    const rel = holder.root === '' ? path : path.slice(holder.root.length + 1);
    return { commit: facts.head, dirty: facts.dirty.has(rel), lastCommitTime: facts.lastCommitTimes.get(rel) ?? null };
  }
}

/** model.ts `RepoInfo` for each discovered root, with HEAD from the facts of its git directory. */
export function repoInfos(roots: readonly DiscoveredRoot[], repos: readonly RepoGitFacts[]): RepoInfo[] {
  const byAbs = new Map(repos.map((repo) => [repo.absRoot, repo]));
  return roots.map((root) => {
    const facts = root.gitAbsRoot === null ? undefined : byAbs.get(root.gitAbsRoot);
    return {
      root: root.root,
      folder: root.folder,
      absRoot: root.absRoot,
      head: facts?.head ?? null,
      git: facts?.git ?? false,
    };
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
