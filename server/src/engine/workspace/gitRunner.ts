/**
 * Running the git CLI: `execFile` with an argument list (never a shell), a quiet environment,
 * and config that keeps output machine-readable and that no repository can use to run a program
 * (GIT_SAFE_CONFIG).
 *
 * Every git call in the engine goes through a `GitRunner`, so a host can point at another git
 * binary and a test can count the processes a function spawns. The engine's default runner
 * (gitHelper.ts `defaultGitRunner`) starts git from a helper process on Linux.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as os from 'node:os';

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
 * Longest one git call may run before it is killed: 5 minutes. A repository's config can name an
 * include file that never ends (a FIFO), and a pass must not wait on it forever.
 */
export const DEFAULT_GIT_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * Config that no file in the workspace can override, passed with `-c` on every call (command-line
 * config wins over the repository's `.git/config` and every file it includes). The workspace is
 * untrusted input: an extracted archive or a shared folder brings its own `.git/config`, and any
 * key there that names a program would otherwise run it. Each key of git-config(1) that names or
 * starts a program is set here to a value that runs nothing, or is out of reach for the commands
 * the engine runs (rev-parse, log, status, ls-tree, cat-file, config), as noted.
 *
 * Out of reach and still neutralised where a value exists that runs nothing:
 * - network keys (`core.sshCommand`, `core.gitProxy`, `credential.helper`, `remote.*.vcs`,
 *   `uploadpack.*`, `core.alternateRefsCommand`): no transport is allowed at all
 *   (`protocol.allow=never`), and the credential list is emptied;
 * - `pager.<command>`: `--no-pager` (GIT_GLOBAL_OPTIONS);
 * - `diff.<driver>.command|textconv`: `--no-ext-diff --no-textconv` on every `log`;
 * - `filter.<driver>.clean|smudge|process`: only `status` could run one (on files whose stat data
 *   changed); `dirtyPaths` empties every driver the repository's config names (driverOverrides);
 * - `merge.<driver>.driver`, `*tool.<name>.cmd`, `browser.*`, `man.*`, `sendemail.*`: the
 *   engine never merges, opens tools, browsers or mail.
 */
export const GIT_SAFE_CONFIG: readonly (readonly [key: string, value: string])[] = [
  // Output that stays machine-readable whatever the repository says.
  ['core.quotepath', 'off'],
  ['color.ui', 'false'],
  // Programs git would start by itself while reading.
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', os.devNull],
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.askPass', ''],
  ['diff.external', ''],
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['core.attributesFile', os.devNull],
  ['submodule.recurse', 'false'],
  ['status.submoduleSummary', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  // Nothing reaches the network, so no helper, proxy or ssh command is ever started.
  ['protocol.allow', 'never'],
  ['credential.helper', ''],
  ['core.sshCommand', 'false'],
  ['core.gitProxy', ''],
  ['core.alternateRefsCommand', ''],
];

/** Options before the git command on every call: no pager for any command, no optional locks. */
export const GIT_GLOBAL_OPTIONS: readonly string[] = ['--no-pager', '--no-optional-locks'];

/** The arguments every call starts with: global options, then `-c key=value` for each safe setting. */
export const GIT_CONFIG_ARGS: readonly string[] = [
  ...GIT_GLOBAL_OPTIONS,
  ...GIT_SAFE_CONFIG.flatMap(([key, value]) => ['-c', `${key}=${value}`]),
];

/** Options for every `log`: no external diff, no textconv driver (both name programs). */
export const GIT_LOG_SAFE_OPTIONS: readonly string[] = ['--no-ext-diff', '--no-textconv'];

/** Environment variables from the caller's environment that would point git elsewhere. */
const DROPPED_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_COMMON_DIR',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_EXTERNAL_DIFF',
  'GIT_EXEC_PATH',
];

/**
 * Environment for git: never prompt, never take optional locks a user's git would wait on, no
 * system or global config (git reads only the repository's, under GIT_SAFE_CONFIG; the user's own
 * `safe.directory` entries are carried over on the command line, see {@link safeDirectoryArgs}),
 * and every program git could take from the environment set to one that does nothing.
 */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_ATTR_NOSYSTEM: '1',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_PAGER: 'cat',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
  };
  for (const name of DROPPED_ENV) delete env[name];
  return env;
}

const safeDirectories = new Map<string, readonly string[]>();

/**
 * `-c safe.directory=...` for each entry of the user's own system and global config: those files
 * are not read (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL), but a repository the user marked safe
 * (a container's mount owned by another uid) must stay readable. Git honours `safe.directory`
 * only from protected config, which the command line is, so a repository cannot add itself.
 * Read once per git executable (one short synchronous `git config` call).
 */
export function safeDirectoryArgs(gitPath: string): readonly string[] {
  let args = safeDirectories.get(gitPath);
  if (args) return args;
  const values = new Set<string>();
  for (const scope of ['--system', '--global']) {
    try {
      const out = execFileSync(gitPath, ['config', scope, '--null', '--get-all', 'safe.directory'], {
        encoding: 'utf8',
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: scope === '--system' ? '0' : '1' },
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 10_000,
        windowsHide: true,
      });
      for (const value of out.split('\0')) if (value !== '') values.add(value);
    } catch {
      // No such entries (exit 1), no git, or no config file: nothing to carry over.
    }
  }
  args = [...values].flatMap((value) => ['-c', `safe.directory=${value}`]);
  safeDirectories.set(gitPath, args);
  return args;
}

/** Every argument before the git command itself, for `gitPath`. */
export function gitPrefixArgs(gitPath: string): string[] {
  return [...GIT_CONFIG_ARGS, ...safeDirectoryArgs(gitPath)];
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
 * @param timeoutMs a call running longer is killed; default {@link DEFAULT_GIT_TIMEOUT_MS}
 */
export function execFileGitRunner(
  gitPath = 'git',
  maxBuffer = DEFAULT_GIT_MAX_BUFFER,
  timeoutMs = DEFAULT_GIT_TIMEOUT_MS,
): GitRunner {
  return {
    gitPath,
    run: (args, cwd) =>
      new Promise((resolve, reject) => {
        execFile(
          gitPath,
          [...gitPrefixArgs(gitPath), ...args],
          {
            cwd,
            env: gitEnv(),
            maxBuffer,
            timeout: timeoutMs,
            killSignal: 'SIGKILL',
            encoding: 'utf8',
            windowsHide: true,
          },
          (error, stdout, stderr) => {
            const err = error as (NodeJS.ErrnoException & { code?: number | string }) | null;
            const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
            const errCode = err && typeof err.code === 'string' ? err.code : null;
            settleGitRun(
              gitPath,
              args,
              cwd,
              { code, errCode, message: err?.message ?? '', stdout, stderr },
              resolve,
              reject,
            );
          },
        );
      }),
  };
}
