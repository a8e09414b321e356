/**
 * Running the git CLI: `execFile` with an argument list (never a shell), a quiet environment,
 * and config that keeps output machine-readable whatever the user's settings say.
 *
 * Every git call in the engine goes through a `GitRunner`, so a host can point at another git
 * binary and a test can count the processes a function spawns.
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

/**
 * The default runner.
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
            if (!error) return resolve({ code: 0, stdout, stderr });
            const err = error as NodeJS.ErrnoException & { code?: number | string };
            if (typeof err.code === 'number') return resolve({ code: err.code, stdout, stderr });
            // A missing cwd also surfaces as ENOENT from spawn; only a missing executable means no git.
            if (err.code === 'ENOENT' && !existsSync(cwd)) return reject(new Error(`git cannot run in ${cwd}: no such directory`));
            if (err.code === 'ENOENT' || err.code === 'EACCES') return reject(new GitUnavailableError(gitPath, err.code));
            reject(new Error(`git ${args[0] ?? ''} failed: ${err.message}`));
          },
        );
      }),
  };
}

let defaultRunner: GitRunner | undefined;

/** The shared default runner (`git` from PATH). */
export function defaultGitRunner(): GitRunner {
  defaultRunner ??= execFileGitRunner();
  return defaultRunner;
}
