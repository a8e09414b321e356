/**
 * `repoStatus` of many repositories with few processes started from Node (issue 44's warm start).
 *
 * A warm start asks `git status` of every repository: at 700 repositories that was 700 processes
 * started by the engine's git helper, each costing the helper a fork of a Node process (a few
 * milliseconds of its event loop, one at a time) on top of git's own work, so the check took
 * three times what git alone takes. `git for-each-repo` runs `git -C <repo> <command>` for each
 * repository of a list, one after another, forking from git instead: here it runs the very
 * `git status` of `repoStatus` for a batch of repositories in one call, a few batches at a time.
 *
 * The answer is the same as `repoStatus` for each repository, or it comes from `repoStatus`:
 * - the list is passed as command-line config under a key drawn at random for each call, so no
 *   config file (a repository's own, read where the call runs) can add a repository to it;
 * - the command-line config of the engine (`GIT_SAFE_CONFIG`, safe directories) reaches each
 *   `git -C` through the environment, as git passes `-c` to the processes it starts;
 * - each repository's output starts with its `# branch.oid` header, so the output splits into
 *   one part per repository, in the list's order;
 * - a repository whose config may name a filter driver runs alone (`repoStatus` empties its
 *   drivers first); so does every repository of a batch past the last one that surely answered
 *   when the batch fails (a repository gone, a git without `for-each-repo`, older than 2.30):
 *   `repoStatus` gives those their own answer or error.
 */
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import { defaultGitRunner } from './gitHelper';
import { GitUnavailableError, type GitRunResult } from './gitRunner';
import { mayNameFilters, parseStatusV2, repoStatus, STATUS_V2_ARGS, type GitOptions, type RepoStatus } from './git';

/** Batches run at once (as `eachRoot` reads repositories). */
const BATCH_CONCURRENCY = 4;
/** Most repositories in one batch. */
const MAX_BATCH = 64;
/** Most characters of paths in one batch: a Windows command line holds 32,767. */
const MAX_BATCH_CHARS = 16_000;
/**
 * Batches of `startRepoStatusesAtOnce`: the caller's thread keeps one core busy meanwhile, so git
 * gets few processes (each git process more would take a share of that core); two keep a second
 * core busy while one waits. All are started at once, so no batch limit but Windows' line applies.
 */
const AT_ONCE_BATCHES = 2;

/**
 * `repoStatus` of each work tree top in `absRoots`, in their order.
 * @throws as `repoStatus` does, for the first repository that fails alone
 */
export async function repoStatuses(
  absRoots: readonly string[],
  options: GitOptions = {},
): Promise<(RepoStatus | null)[]> {
  return (await startRepoStatuses(absRoots, options, false)).statuses;
}

/** Statuses asked of git and not awaited yet (held in an object: a promise would be awaited with it). */
export interface StartedStatuses {
  /** `repoStatuses`'s answer; rejects as it throws. */
  statuses: Promise<(RepoStatus | null)[]>;
}

/**
 * `repoStatuses` asked all at once, in AT_ONCE_BATCHES batches: resolves when every batch's git
 * call has been handed to the runner (the helper process starts the git processes on its own, gitHelper.ts), so git works
 * while the caller's thread is busy (a warm start parses the snapshot meanwhile, issue 44). The
 * repositories that run alone (a filter driver, a batch that failed) are asked as their turn
 * comes, four at a time, when the caller's thread is free again.
 */
export async function startRepoStatusesAtOnce(
  absRoots: readonly string[],
  options: GitOptions = {},
): Promise<StartedStatuses> {
  return startRepoStatuses(absRoots, options, true);
}

/**
 * Plans the batches and starts them: four at a time, or with `allBatchesNow` every batch at once;
 * resolves once the first calls are handed to the runner.
 */
async function startRepoStatuses(
  absRoots: readonly string[],
  options: GitOptions,
  allBatchesNow: boolean,
): Promise<StartedStatuses> {
  const results: (RepoStatus | null)[] = new Array(absRoots.length);
  const alone: number[] = [];
  const batched: number[] = [];
  const filters = await Promise.all(absRoots.map((absRoot) => mayNameFilters(absRoot)));
  for (const [i, absRoot] of absRoots.entries()) (filters[i] || !batchable(absRoot) ? alone : batched).push(i);
  const batches = allBatchesNow
    ? splitBatches(
        batched,
        absRoots,
        Math.ceil(batched.length / AT_ONCE_BATCHES),
        Number.POSITIVE_INFINITY,
        process.platform === 'win32' ? MAX_BATCH_CHARS : Number.POSITIVE_INFINITY,
      )
    : splitBatches(batched, absRoots, Math.ceil(batched.length / BATCH_CONCURRENCY));
  // A batch of one gains nothing: it runs alone.
  for (const batch of batches.filter((b) => b.length === 1)) alone.push(...batch);
  const batchJobs = batches
    .filter((batch) => batch.length > 1)
    .map((batch) => async () => {
      const answers = await statusBatch(
        batch.map((i) => absRoots[i]),
        options,
      );
      for (const [k, i] of batch.entries()) {
        if (k < answers.length) results[i] = answers[k];
        else results[i] = await repoStatus(absRoots[i], options);
      }
    });
  const aloneJobs = alone.map((i) => async () => {
    results[i] = await repoStatus(absRoots[i], options);
  });
  // Each job calls the runner before its first wait: a job started here is handed to it now.
  const startedNow = allBatchesNow ? batchJobs.map((job) => job()) : [];
  const jobs = allBatchesNow ? aloneJobs : [...batchJobs, ...aloneJobs];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) await jobs[next++]();
  };
  const workers = Array.from({ length: Math.min(BATCH_CONCURRENCY, jobs.length) }, worker);
  const statuses = Promise.all([...startedNow, ...workers]).then(() => results);
  return { statuses };
}

/** A path `for-each-repo` takes as it is: absolute (no `~` to expand), on one line. */
function batchable(absRoot: string): boolean {
  return !/[\n\r\0]/.test(absRoot) && !absRoot.startsWith('~');
}

/** Consecutive indexes, at most `size` (and `maxBatch`, `maxChars` of paths) to a batch. */
function splitBatches(
  indexes: readonly number[],
  absRoots: readonly string[],
  size: number,
  maxBatch = MAX_BATCH,
  maxChars = MAX_BATCH_CHARS,
): number[][] {
  const batches: number[][] = [];
  let batch: number[] = [];
  let chars = 0;
  for (const i of indexes) {
    const length = absRoots[i].length + 32;
    if (batch.length > 0 && (batch.length >= Math.min(size, maxBatch) || chars + length > maxChars)) {
      batches.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push(i);
    chars += length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * The statuses of the first repositories of `absRoots` that surely answered: all of them when
 * the call succeeded with one part for each; else all but the last part (a repository that
 * failed may have written part of an answer first). Never throws but for `GitUnavailableError`.
 */
async function statusBatch(absRoots: readonly string[], options: GitOptions): Promise<RepoStatus[]> {
  const runner = options.runner ?? defaultGitRunner();
  const key = `wsctx.r${randomBytes(8).toString('hex')}`;
  const list = absRoots.flatMap((absRoot) => ['-c', `${key}=${absRoot}`]);
  let result: GitRunResult;
  try {
    result = await runner.run([...list, 'for-each-repo', `--config=${key}`, ...STATUS_V2_ARGS], os.tmpdir());
  } catch (error) {
    // Killed at the time limit or past the output limit, which a batch reaches sooner than one
    // repository: each is asked alone, with the limits to itself.
    if (error instanceof GitUnavailableError) throw error;
    return [];
  }
  const parts = splitStatusOutput(result.stdout);
  if (result.code === 0) return parts.length === absRoots.length ? parts.map(parseStatusV2) : [];
  return parts.slice(0, Math.max(0, parts.length - 1)).map(parseStatusV2);
}

/**
 * `git status --porcelain=v2 -z --branch` outputs written one after another, split where each
 * starts (its `# branch.oid` header). A renamed entry (`2`) is followed by its original path,
 * which is skipped over: a file may be named like a header.
 */
export function splitStatusOutput(stdout: string): string[] {
  const fields = stdout.split('\0');
  const parts: string[] = [];
  let start = -1;
  let at = 0;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field.startsWith('# branch.oid ')) {
      if (start >= 0) parts.push(stdout.slice(start, at));
      start = at;
    } else if (field.startsWith('2 ') && i + 1 < fields.length) {
      at += field.length + 1;
      i++;
      at += fields[i].length + 1;
      continue;
    }
    at += field.length + 1;
  }
  if (start >= 0) parts.push(stdout.slice(start));
  return parts;
}
