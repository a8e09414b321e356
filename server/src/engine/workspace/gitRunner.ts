/**
 * Running the git CLI: `execFile` with an argument list (never a shell), a quiet environment,
 * and config that keeps output machine-readable whatever the user's settings say.
 *
 * Every git call in the engine goes through a `GitRunner`, so a host can point at another git
 * binary and a test can count the processes a function spawns. The engine's default runner
 * (gitHelper.ts `defaultGitRunner`) starts git from a helper process on Linux.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface GitRunResult {
  /** Exit code; 0 on success. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitRunner {
  /** The git executable (`git` from PATH by default); `git cat-file --batch` is spawned with it. */
  readonly gitPath: string;
  /**
   * Runs git in `cwd`. Resolves with any exit code; rejects with `GitUnavailableError` when the
   * executable cannot be started and with an Error when the output outgrows the buffer.
   */
  run(args: readonly string[], cwd: string): Promise<GitRunResult>;
}

/** Git could not be started (not installed, not on PATH, or not executable). */
export class GitUnavailableError extends Error {
  constructor(
    readonly gitPath: string,
    cause: string,
  ) {
    super(`git is not available (${gitPath}: ${cause}); install git or put it on PATH`);
    this.name = 'GitUnavailableError';
  }
}

/** Default output limit of one git call: 512 MiB, enough for `git log --name-only` of a large history. */
export const DEFAULT_GIT_MAX_BUFFER = 512 * 1024 * 1024;

/**
 * Config passed with `-c` on every call: no pager, no colour, no signature checks in `log`,
 * unquoted paths (we use `-z` anyway).
 */
export const GIT_CONFIG_ARGS: readonly string[] = [
  '-c', 'core.quotepath=off',
  '-c', 'color.ui=false',
  '-c', 'log.showSignature=false',
  '-c', 'core.pager=cat',
];

/** Environment for git: never prompt, never take optional locks a user's git would wait on. */
export function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', LANGUAGE: 'C' };
}

/** How one git call ended, as `execFile` reports it. */
export interface GitCallOutcome {
  /** Exit code, or null when git did not run to an exit (not started, killed, output too large). */
  code: number | null;
  /** The error's code when git did not start (`ENOENT`, `EACCES`...) or its output was cut. */
  errCode: string | null;
  message: string;
  stdout: string;
  stderr: string;
}

/**
 * The one mapping from a git call's outcome to the runner's answer: any exit code resolves;
 * a missing executable rejects with `GitUnavailableError`; anything else rejects with an Error.
 */
export function settleGitRun(
  gitPath: string,
  args: readonly string[],
  cwd: string,
  outcome: GitCallOutcome,
  resolve: (result: GitRunResult) => void,
  reject: (error: Error) => void,
): void {
  const { code, errCode, stdout, stderr } = outcome;
  if (code !== null) return resolve({ code, stdout, stderr });
  // A missing cwd also surfaces as ENOENT from spawn; only a missing executable means no git.
  if (errCode === 'ENOENT' && !existsSync(cwd)) return reject(new Error(`git cannot run in ${cwd}: no such directory`));
  if (errCode === 'ENOENT' || errCode === 'EACCES') return reject(new GitUnavailableError(gitPath, errCode));
  reject(new Error(`git ${args[0] ?? ''} failed: ${outcome.message}`));
}

/**
 * The runner that starts each git process from the engine's own process.
 * @param gitPath executable to run; default `git` from PATH
 * @param maxBuffer output limit per call in bytes; default {@link DEFAULT_GIT_MAX_BUFFER}
 */
export function execFileGitRunner(gitPath = 'git', maxBuffer = DEFAULT_GIT_MAX_BUFFER): GitRunner {
  return {
    gitPath,
    run: (args, cwd) =>
      new Promise((resolve, reject) => {
        execFile(
          gitPath,
          [...GIT_CONFIG_ARGS, ...args],
          { cwd, env: gitEnv(), maxBuffer, encoding: 'utf8', windowsHide: true },
          (error, stdout, stderr) => {
            const err = error as (NodeJS.ErrnoException & { code?: number | string }) | null;
            const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
            const errCode = err && typeof err.code === 'string' ? err.code : null;
            settleGitRun(gitPath, args, cwd, { code, errCode, message: err?.message ?? '', stdout, stderr }, resolve, reject);
          },
        );
      }),
  };
}
