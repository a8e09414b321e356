/**
 * What changed since a snapshot, asked of git instead of a stat of every file (issue 44's warm
 * start). A snapshot records each repository's HEAD and the paths that differed from it; when
 * HEAD has not moved, a file can differ from what the snapshot read only if git lists it as
 * differing now (tracked edits, deletions, untracked files, each of them with ignore rules
 * applied) or listed it then (an edit since reverted). Those paths, and no others, are checked.
 *
 * Anything this cannot vouch for returns null and the caller runs the full stat pass: a root
 * outside git, a repository without a commit or without facts in the snapshot, a moved HEAD
 * (every file's last-commit time may have changed), or git failing.
 */
import * as path from 'node:path';
import type { DiscoveredRoot } from '../workspace/discovery';
import {
  dirtyPaths,
  gitRunningRoots,
  workTreeState,
  type RepoGitFacts,
  type WorkspaceGitFacts,
} from '../workspace/git';

export interface GitChanges {
  /** Absolute paths to check: differing from HEAD now or when the snapshot was written. */
  paths: string[];
  /** The snapshot's facts with each repository's dirty set as git answers now. */
  git: WorkspaceGitFacts;
}

export async function changesSinceSnapshot(
  roots: readonly DiscoveredRoot[],
  snapshotGit: WorkspaceGitFacts,
): Promise<GitChanges | null> {
  if (roots.length === 0 || roots.some((root) => root.gitAbsRoot === null)) return null;
  const byRoot = new Map(snapshotGit.repos.map((repo) => [repo.absRoot, repo]));
  const gitRoots = gitRunningRoots(roots);
  try {
    const repos = await Promise.all(
      gitRoots.map(async (root): Promise<RepoGitFacts | null> => {
        const before = byRoot.get(root.absRoot);
        if (!before?.git || before.head === null) return null;
        const now = await workTreeState(root.absRoot);
        if (!now || now.head !== before.head) return null;
        const dirty = await dirtyPaths(root.absRoot, { prefix: now.prefix });
        return { ...before, dirty };
      }),
    );
    if (repos.some((repo) => repo === null)) return null;
    const paths = new Set<string>();
    for (const [i, repo] of (repos as RepoGitFacts[]).entries()) {
      const before = byRoot.get(gitRoots[i]!.absRoot)!;
      for (const rel of [...before.dirty, ...repo.dirty]) paths.add(path.join(repo.absRoot, rel));
    }
    const fresh = new Map((repos as RepoGitFacts[]).map((repo) => [repo.absRoot, repo]));
    return {
      paths: [...paths],
      git: { repos: snapshotGit.repos.map((repo) => fresh.get(repo.absRoot) ?? repo), problems: snapshotGit.problems },
    };
  } catch {
    return null;
  }
}
