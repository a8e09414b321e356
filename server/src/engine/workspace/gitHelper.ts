/**
 * A `GitRunner` that starts git from a small helper process instead of from the engine's own.
 *
 * Why: on Linux, Node starts a child with fork(), whose cost grows with the parent's memory (its
 * page tables are copied) and which blocks the event loop while it runs. Measured on Node 20:
 * about 5 ms per git process from a 50 MB process and 14 ms from a 600 MB one. An index of 100k
 * sections over 700 repositories runs four git processes per repository on every full pass:
 * half a minute of blocked event loop from the engine, a few seconds from a helper that stays
 * small and runs on another core. macOS (posix_spawn) and Windows (CreateProcess) have no such
 * cost, so the default runner uses the helper on Linux only (`defaultGitRunner` below).
 *
 * The helper is Node itself (`process.execPath -e <script>`, so it exists wherever the engine
 * runs) reading one JSON request per line on stdin and answering one JSON line each on stdout,
 * running git through `execFile` exactly as `execFileGitRunner` does: the same arguments,
 * environment, output limit and error mapping. It starts on first use, never keeps the engine's
 * process alive, and exits after `idleMs` without requests. When it cannot start or dies, the
 * calls in flight and every later call run through `execFileGitRunner` instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  DEFAULT_GIT_MAX_BUFFER,
  DEFAULT_GIT_TIMEOUT_MS,
  execFileGitRunner,
  gitEnv,
  gitPrefixArgs,
  settleGitRun,
  type GitRunner,
  type GitRunResult,
} from './gitRunner';

/** Default idle time before the helper exits: 30 s. */
export const DEFAULT_GIT_HELPER_IDLE_MS = 30_000;
/** Default time a new helper has to say it is ready before git runs directly instead: 10 s. */
export const DEFAULT_GIT_HELPER_START_MS = 10_000;

/**
 * The helper's program: argv[1] is the git executable, argv[2] the output limit, argv[3] the
 * time limit per call. A request is
 * `{"id":n,"args":[...],"cwd":"..."}`; an answer `{"id":n,"code":0|n|null,"errCode":..,"message":..,"stdout":..,"stderr":..}`.
 */
const HELPER_SOURCE = `
const { execFile } = require('node:child_process');
const [gitPath, maxBuffer, timeout] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
process.stdout.write('{"ready":true}\\n');
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\\n'); end >= 0; end = buffered.indexOf('\\n')) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    if (line) run(JSON.parse(line));
  }
});
function run(request) {
  execFile(gitPath, request.args, { cwd: request.cwd, env: process.env, maxBuffer, timeout, killSignal: 'SIGKILL', encoding: 'utf8', windowsHide: true }, (error, stdout, stderr) => {
    const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
    const errCode = error && typeof error.code === 'string' ? error.code : null;
    process.stdout.write(JSON.stringify({ id: request.id, code, errCode, message: error ? error.message : '', stdout, stderr }) + '\\n');
  });
}
`;

interface HelperAnswer {
  /** Set on the helper's first line only. */
  ready?: true;
  id: number;
  code: number | null;
  errCode: string | null;
  message: string;
  stdout: string;
  stderr: string;
}

interface Pending {
  args: readonly string[];
  cwd: string;
  resolve: (result: GitRunResult) => void;
  reject: (error: Error) => void;
}

export interface GitHelperOptions {
  /** The git executable; default `git` from PATH. */
  gitPath?: string;
  /** Output limit per call in bytes; default `DEFAULT_GIT_MAX_BUFFER`. */
  maxBuffer?: number;
  /** Milliseconds without requests after which the helper exits; default 30 s, at least 100. */
  idleMs?: number;
  /** The Node executable that runs the helper; default `process.execPath`. */
  nodePath?: string;
  /** Milliseconds a new helper has to say it is ready; default 10 s. */
  startMs?: number;
}

/** A runner whose git processes are started by a helper process (see the module comment). */
export class HelperGitRunner implements GitRunner {
  readonly gitPath: string;
  private readonly maxBuffer: number;
  private readonly idleMs: number;
  private readonly nodePath: string;
  private readonly startMs: number;
  private readonly direct: GitRunner;
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private received = '';
  private idleTimer: NodeJS.Timeout | undefined;
  /** Set when the helper could not start or died: every call then runs directly. */
  private broken = false;
  /** True once the running helper said it is ready. */
  private ready = false;
  /** Helper processes started so far (tests read it). */
  starts = 0;

  constructor(options: GitHelperOptions = {}) {
    this.gitPath = options.gitPath ?? 'git';
    this.maxBuffer = options.maxBuffer ?? DEFAULT_GIT_MAX_BUFFER;
    this.idleMs = Math.max(100, options.idleMs ?? DEFAULT_GIT_HELPER_IDLE_MS);
    this.nodePath = options.nodePath ?? process.execPath;
    this.startMs = options.startMs ?? DEFAULT_GIT_HELPER_START_MS;
    this.direct = execFileGitRunner(this.gitPath, this.maxBuffer);
  }

  run(args: readonly string[], cwd: string): Promise<GitRunResult> {
    const child = this.broken ? undefined : this.helper();
    if (!child) return this.direct.run(args, cwd);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { args, cwd, resolve, reject });
      this.hold(true);
      child.stdin!.write(`${JSON.stringify({ id, args: [...gitPrefixArgs(this.gitPath), ...args], cwd })}\n`);
    });
  }

  /** True while a helper process is up. */
  get running(): boolean {
    return this.child !== undefined;
  }

  /** Stops the helper now; calls in flight finish through the direct runner. */
  dispose(): void {
    this.stop(true);
  }

  private helper(): ChildProcess | undefined {
    if (this.child) return this.child;
    let child: ChildProcess;
    try {
      const env = gitEnv();
      // The engine's own Node options (an inspector port, a loader) are not the helper's.
      delete env.NODE_OPTIONS;
      child = spawn(
        this.nodePath,
        ['-e', HELPER_SOURCE, this.gitPath, String(this.maxBuffer), String(DEFAULT_GIT_TIMEOUT_MS)],
        { stdio: ['pipe', 'pipe', 'ignore'], env, windowsHide: true },
      );
    } catch {
      this.broken = true;
      return undefined;
    }
    this.starts++;
    this.child = child;
    this.received = '';
    this.ready = false;
    // A binary that is not Node (or hangs) would leave every call waiting: it must say it is ready.
    const startTimer = setTimeout(() => {
      if (this.child === child && !this.ready) this.fail(child);
    }, this.startMs);
    startTimer.unref();
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.receive(chunk));
    child.on('error', () => this.fail(child));
    child.on('exit', () => this.fail(child));
    child.stdin!.on('error', () => this.fail(child));
    this.hold(false);
    return child;
  }

  private receive(chunk: string): void {
    this.received += chunk;
    for (let end = this.received.indexOf('\n'); end >= 0; end = this.received.indexOf('\n')) {
      const line = this.received.slice(0, end);
      this.received = this.received.slice(end + 1);
      if (line === '') continue;
      let answer: HelperAnswer;
      try {
        answer = JSON.parse(line) as HelperAnswer;
      } catch {
        this.fail(this.child);
        return;
      }
      if (answer.ready) {
        this.ready = true;
        continue;
      }
      const call = this.pending.get(answer.id);
      if (!call) continue;
      this.pending.delete(answer.id);
      settleGitRun(this.gitPath, call.args, call.cwd, answer, call.resolve, call.reject);
    }
    this.hold(this.pending.size > 0);
  }

  /** The helper failed or died: what was in flight runs directly, and so does everything after. */
  private fail(child: ChildProcess | undefined): void {
    if (!child || this.child !== child) return; // stopped on purpose
    this.broken = true;
    this.stop(true);
  }

  /**
   * Keeps the engine's process alive while calls are in flight (a one-shot CLI awaits them), and
   * never otherwise; arms the idle timer when nothing is in flight.
   */
  private hold(busy: boolean): void {
    const child = this.child;
    if (!child) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const stdout = child.stdout as unknown as { ref(): void; unref(): void };
    const stdin = child.stdin as unknown as { ref?(): void; unref?(): void };
    if (busy) {
      child.ref();
      stdout.ref();
      stdin.ref?.();
      return;
    }
    child.unref();
    stdout.unref();
    stdin.unref?.();
    this.idleTimer = setTimeout(() => this.stop(), this.idleMs);
    this.idleTimer.unref();
  }

  /** Ends the helper when idle, or with `force` at once (calls in flight then run directly). */
  private stop(force = false): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const child = this.child;
    if (!child || (this.pending.size > 0 && !force)) return;
    this.child = undefined;
    child.stdin!.end();
    child.kill();
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) this.direct.run(call.args, call.cwd).then(call.resolve, call.reject);
  }
}

let defaultRunner: GitRunner | undefined;

/**
 * The shared default runner (`git` from PATH): on Linux a `HelperGitRunner` (see the module
 * comment), elsewhere `execFileGitRunner`.
 */
export function defaultGitRunner(): GitRunner {
  defaultRunner ??= process.platform === 'linux' ? new HelperGitRunner() : execFileGitRunner();
  return defaultRunner;
}
