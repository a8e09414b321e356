/**
 * A change as git sees it, for `get_context`'s change bundle (`wsctx context --diff`, the
 * editor's "Context for my change"): the unified diff of the working tree, the index or a
 * revision range, and the untracked files a working-tree diff does not list.
 *
 * Git runs read-only and hardened, as every other git call of the engine (gitRunner.ts): no
 * pager, no external diff or textconv program (`--no-ext-diff --no-textconv`), the repository's
 * filter drivers emptied (a working-tree diff runs a file's clean filter when its stat data
 * changed, as `git status` does), no optional locks, no colour. A range is refused when it could
 * be read as an option or holds anything but the characters of a revision range, so nothing the
 * caller types reaches git as a flag.
 */
import { defaultGitRunner } from './gitHelper';
import { driverOverrides, GitCommandError, workTreeInfo, type GitOptions } from './git';
import { GIT_LOG_SAFE_OPTIONS } from './gitRunner';

/** Which change to read. */
export interface GitDiffRequest {
  /**
   * A revision or range as `git diff` takes it: `HEAD~3`, `main...HEAD`, `v1.2..v1.3`. Absent:
   * the working tree (staged and unstaged) against HEAD, plus untracked files.
   */
  range?: string;
  /** The index (staged changes) against HEAD instead of the working tree. Not with `range`. */
  staged?: boolean;
}

export interface GitDiffResult {
  /** The unified diff as `git diff` prints it, paths relative to the folder it ran in. */
  diff: string;
  /** Untracked files (working-tree diffs only), relative to the folder, not ignored by git. */
  untracked: string[];
  /** What was compared, in words: "the working tree against HEAD", "main...HEAD". */
  compared: string;
}

/** A range git would read as an option, or that holds characters no revision range needs. */
export class GitRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitRangeError';
  }
}

/** Longest range accepted, in characters. */
export const MAX_RANGE_LENGTH = 256;

/**
 * Why `range` cannot be passed to git, or undefined when it can: it must not start with `-`
 * (git would take it as an option), must not be empty, and holds only what revisions and ranges
 * are written with (letters, digits, `/ . _ - ~ ^ @ { } :` and `..` / `...`), nothing a shell or
 * git's pathspec magic would read.
 */
export function rangeProblem(range: string): string | undefined {
  if (range.trim() === '') return 'a range names one or two revisions, e.g. main...HEAD or HEAD~3';
  if (range.length > MAX_RANGE_LENGTH) return `a range may be at most ${MAX_RANGE_LENGTH} characters long`;
  if (range.startsWith('-')) return `"${range}" starts with "-", which git would read as an option: name a revision`;
  if (!/^[A-Za-z0-9/._~^@{}:+-]+$/.test(range))
    return `"${range}" holds characters no revision range is written with (letters, digits and / . _ - ~ ^ @ { } : only)`;
  if (range.split(/\.{2,3}/).some((part) => part.startsWith('-')))
    return `"${range}" names a revision that starts with "-", which git would read as an option`;
  return undefined;
}

/**
 * The unified diff of `absRoot`'s change (relative paths: `--relative`, so a folder inside a
 * bigger work tree gets its own part only). Throws {@link GitRangeError} for a range it refuses,
 * GitCommandError when git fails (not a work tree, an unknown revision: git's own message), and
 * GitUnavailableError without git.
 */
export async function readGitDiff(
  absRoot: string,
  request: GitDiffRequest = {},
  options: GitOptions = {},
): Promise<GitDiffResult> {
  if (request.range !== undefined && request.staged)
    throw new GitRangeError('a range and the staged changes cannot be asked together: give one');
  if (request.range !== undefined) {
    const problem = rangeProblem(request.range);
    if (problem) throw new GitRangeError(problem);
  }
  const runner = options.runner ?? defaultGitRunner();
  const info = await workTreeInfo(absRoot, { runner });
  if (!info) throw new GitCommandError(['rev-parse'], 128, `${absRoot} is not inside a git work tree`);
  const args = [
    'diff',
    ...GIT_LOG_SAFE_OPTIONS,
    '--no-color',
    '--no-renames',
    '--relative',
    ...(request.staged ? ['--cached'] : []),
    // The range goes after `--end-of-options`, so even a revision git would parse as a flag is not one.
    '--end-of-options',
    request.range ?? 'HEAD',
    '--',
    '.',
  ];
  // A working-tree diff reads files whose stat data changed through their clean filter: emptied.
  const filters = request.range === undefined ? await driverOverrides(runner, absRoot) : [];
  const result = await runner.run([...filters, ...args], absRoot);
  if (result.code !== 0) throw new GitCommandError(args, result.code, result.stderr);
  let untracked: string[] = [];
  if (request.range === undefined && !request.staged) {
    const listed = await runner.run(['ls-files', '--others', '--exclude-standard', '-z', '--', '.'], absRoot);
    if (listed.code !== 0)
      throw new GitCommandError(['ls-files', '--others', '--exclude-standard'], listed.code, listed.stderr);
    untracked = listed.stdout.split('\0').filter((p) => p !== '');
  }
  const compared =
    request.range !== undefined
      ? request.range
      : request.staged
        ? 'the staged changes against HEAD'
        : 'the working tree against HEAD';
  return { diff: result.stdout, untracked, compared };
}
