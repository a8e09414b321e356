/**
 * Git mode of the workspace generator: each repository becomes a git repository whose files arrive
 * in back-dated commits (catalog and overview first, then the docs, then the epics), so the
 * engine's git facts (HEAD, last commit per file, recency) have something real to read.
 * Dates are fixed by the seed: the same seed gives the same commit hashes.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/** One repository: its folder (workspace-relative) and its files in commit order. */
export interface RepoCommitPlan {
  dir: string;
  /** Days before the reference date of the first commit's date (0-999). */
  seedDays: number;
  /** Workspace-relative paths, one group per commit; empty groups are skipped. */
  groups: string[][];
}

/** Reference date the commits are back-dated from. */
const REFERENCE_TIME = Date.UTC(2026, 9, 1, 12, 0, 0);
const DAY_MS = 86_400_000;
/** Days between consecutive commits of one repository. */
const COMMIT_SPACING_DAYS = 45;

const GIT_CONFIG = [
  '-c',
  'user.name=Bench Generator',
  '-c',
  'user.email=bench@example.com',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'core.autocrlf=false',
];

/**
 * Runs `git init` in each repository and commits its files. With `commitsPerRepo` 1 every file goes
 * in one commit (cheap at 100k sections); with 2-3 the groups are merged down to that many.
 */
export function commitRepositories(root: string, plans: readonly RepoCommitPlan[], commitsPerRepo: number): void {
  for (const plan of plans) {
    const cwd = path.join(root, plan.dir);
    git(cwd, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    const groups = mergeGroups(
      plan.groups.filter((g) => g.length > 0),
      Math.max(1, Math.min(3, commitsPerRepo)),
    );
    const first = REFERENCE_TIME - (plan.seedDays + COMMIT_SPACING_DAYS * groups.length) * DAY_MS;
    for (const [k, group] of groups.entries()) {
      const relative = group.map((p) => path.posix.relative(plan.dir, p));
      git(cwd, ['add', '--', ...relative]);
      const date = new Date(first + k * COMMIT_SPACING_DAYS * DAY_MS).toISOString();
      git(cwd, [...GIT_CONFIG, 'commit', '-q', '--no-verify', '-m', `${plan.dir}: part ${k + 1} of ${groups.length}`], {
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      });
    }
  }
}

function mergeGroups(groups: string[][], n: number): string[][] {
  if (groups.length <= n) return groups;
  const merged = groups.slice(0, n - 1);
  merged.push(groups.slice(n - 1).flat());
  return merged;
}

function git(cwd: string, args: readonly string[], env: Record<string, string> = {}): void {
  execFileSync('git', args, {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
  });
}
