/**
 * What changed in the served git repositories since a snapshot, asked of git instead of a stat of
 * every file (issue 44's warm start). A snapshot records each repository's HEAD and the paths that
 * differed from it. A file can differ from what the snapshot read only if git lists it as
 * differing from HEAD now (tracked edits, deletions, untracked files, each with ignore rules
 * applied), listed it then (an edit since reverted), or, when HEAD moved, its content differs
 * between the snapshot's commit and HEAD (`git diff --name-only`). Those paths, and no others,
 * are checked. A repository whose HEAD moved gets its last-commit times read again, as a full
 * pass reads them, and every one of its files a new `commit`.
 *
 * A repository's own top costs one `git status --porcelain=v2 --branch` (git.ts `repoStatus`),
 * where HEAD, config and status apart were three times as many processes and took as long as the
 * full pass; and those statuses run a batch of repositories per process the engine starts
 * (gitStatuses.ts `repoStatuses`): at 700 repositories, 700 processes started from Node took
 * three times what git itself needs.
 *
 * Only the directories git runs in are asked here; the files outside every repository are walked
 * by warmWalk.ts. Anything git cannot vouch for returns null and the caller runs the full pass:
 * a repository without a commit or without facts in the snapshot (an older snapshot), a
 * snapshot's commit git no longer has, or git failing.
 */
import * as path from 'node:path';
import type { DiscoveredRoot } from '../workspace/discovery';
import {
  changedBetween,
  eachRoot,
  dirtyPaths,
  gitRunningRoots,
  lastCommitTimes,
  workTreeState,
  type RepoGitFacts,
  type WorkspaceGitFacts,
} from '../workspace/git';
import { repoStatuses, startRepoStatusesAtOnce, type StartedStatuses } from '../workspace/gitStatuses';
import type { WorkspaceFolder } from '../indexState';
import { toWorkspacePath } from '../workspace/paths';

export interface GitChanges {
  /** Absolute paths to check: differing from HEAD now or when the snapshot was written, or between the two HEADs. */
  paths: string[];
  /** The snapshot's facts with each repository's HEAD, dirty set and (HEAD moved) times as git answers now. */
  git: WorkspaceGitFacts;
  /** The repositories (`absRoot`) whose HEAD moved since the snapshot. */
  moved: string[];
}

interface RepoAnswer {
  facts: RepoGitFacts;
  /** Repository-relative paths whose content differs between the two HEADs. */
  committed: ReadonlySet<string>;
}

/**
 * Statuses asked of git before the snapshot was decoded (the engine starts them from the
 * snapshot's list of tops while it parses the rest, engine.ts `restoreSnapshotState`), for the
 * tops `tops` named. Used only when `tops` is the list the snapshot's discovery gives.
 */
export interface EarlyStatuses {
  tops: readonly string[];
  started: StartedStatuses;
}

/** The directories whose status one `git status` answers (`repoStatuses`): each repository's own top. */
export function statusTops(roots: readonly DiscoveredRoot[]): string[] {
  return gitRunningRoots(roots)
    .filter((root) => root.reasons.includes('git'))
    .map((root) => root.absRoot);
}

/**
 * Starts the statuses of `tops` (a snapshot's `statusTops`, read before the rest of it is decoded)
 * all at once; undefined when there are none, or when one is not an absolute path inside a served
 * folder (a snapshot is a file in the cache folder: what it names is checked before git runs there).
 */
export async function startEarlyStatuses(
  tops: readonly string[],
  folders: readonly WorkspaceFolder[],
): Promise<EarlyStatuses | undefined> {
  if (tops.length === 0) return undefined;
  for (const top of tops)
    if (!path.isAbsolute(top) || path.resolve(top) !== top || toWorkspacePath(folders, top) === null) return undefined;
  try {
    const started = await startRepoStatusesAtOnce(tops);
    // Awaited by the first pass, or never (the snapshot discarded): its failure is the pass's to say.
    started.statuses.catch(() => undefined);
    return { tops, started };
  } catch {
    return undefined;
  }
}

export async function changesSinceSnapshot(
  roots: readonly DiscoveredRoot[],
  snapshotGit: WorkspaceGitFacts,
  early?: EarlyStatuses,
): Promise<GitChanges | null> {
  const byRoot = new Map(snapshotGit.repos.map((repo) => [repo.absRoot, repo]));
  const gitRoots = gitRunningRoots(roots);
  // Without the snapshot's facts for every repository there is nothing to compare with.
  for (const root of gitRoots) {
    const before = byRoot.get(root.absRoot);
    if (!before?.git || before.head === null) return null;
  }
  try {
    // A repository's own top (a `.git` there): HEAD and status from one `git status`, run in
    // batches (gitStatuses.ts). A folder opened inside a bigger work tree needs its prefix first.
    // Asked already when the snapshot named the same tops (git looked before the load ended;
    // the host's file events since then are the caller's `watched` paths, engine.ts).
    const tops = statusTops(roots);
    const statuses = early && sameList(early.tops, tops) ? await early.started.statuses : await repoStatuses(tops);
    const statusOf = new Map(tops.map((absRoot, i) => [absRoot, statuses[i]]));
    // A few repositories at a time, as a full pass reads them (git.ts `eachRoot`).
    const answers = await eachRoot(gitRoots, async (root): Promise<RepoAnswer | null> => {
      const before = byRoot.get(root.absRoot);
      if (!before?.git || before.head === null) return null;
      const now = statusOf.has(root.absRoot)
        ? statusOf.get(root.absRoot)
        : await workTreeState(root.absRoot).then(
            async (state) =>
              state && { head: state.head, dirty: await dirtyPaths(root.absRoot, { prefix: state.prefix }) },
          );
      if (!now || now.head === null) return null;
      const dirty = now.dirty;
      if (now.head === before.head) return { facts: { ...before, dirty }, committed: new Set() };
      const [committed, times] = await Promise.all([
        changedBetween(root.absRoot, before.head, now.head),
        lastCommitTimes(root.absRoot),
      ]);
      if (committed === null) return null;
      return { facts: { ...before, head: now.head, lastCommitTimes: times, dirty }, committed };
    });
    if (answers.some((answer) => answer === null)) return null;
    const paths = new Set<string>();
    const moved: string[] = [];
    for (const [i, answer] of (answers as RepoAnswer[]).entries()) {
      const before = byRoot.get(gitRoots[i]!.absRoot)!;
      const { facts } = answer;
      if (facts.head !== before.head) moved.push(facts.absRoot);
      for (const rel of [...before.dirty, ...facts.dirty, ...answer.committed])
        paths.add(path.join(facts.absRoot, rel));
    }
    const fresh = new Map((answers as RepoAnswer[]).map(({ facts }) => [facts.absRoot, facts]));
    return {
      paths: [...paths],
      git: { repos: snapshotGit.repos.map((repo) => fresh.get(repo.absRoot) ?? repo), problems: snapshotGit.problems },
      moved,
    };
  } catch {
    return null;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
