/**
 * One long-lived `git cat-file --batch` process per repository: objects are read by id over its
 * stdin/stdout, so reading a thousand files at a commit costs one process, not a thousand.
 *
 * Protocol (git-cat-file(1)): each request is `<object>\n`; each answer is
 * `<oid> <type> <size>\n<contents>\n`, or `<object> missing\n`. Answers come in request order,
 * so requests are pipelined and answered from a FIFO.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnv, gitPrefixArgs, GitUnavailableError } from './gitRunner';

interface Pending {
  resolve(content: Buffer | null): void;
  reject(error: Error): void;
  /** Size of the object being received, once its header has arrived. */
  size?: number;
}

export class CatFileBatch {
  private process: ChildProcessWithoutNullStreams | undefined;
  private exited: Promise<void> | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private failure: Error | undefined;
  private disposed = false;

  constructor(
    private readonly gitPath: string,
    private readonly cwd: string,
  ) {}

  /** The object's bytes, or null when the repository has no such object. */
  read(objectId: string): Promise<Buffer | null> {
    if (this.disposed) return Promise.reject(new Error('git cat-file: reader was disposed'));
    if (this.failure) return Promise.reject(this.failure);
    if (!/^[0-9a-f]{4,64}$/i.test(objectId))
      return Promise.reject(new Error(`git cat-file: "${objectId}" is not an object id`));
    const child = this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      child.stdin.write(`${objectId}\n`);
    });
  }

  /** Ends the process (closing its stdin) and waits for it to exit; pending reads fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (!this.process) return;
    this.process.stdin.end();
    const timer = setTimeout(() => this.process?.kill(), 2000);
    await this.exited;
    clearTimeout(timer);
  }

  /** True while the process runs (for tests and status). */
  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.process) return this.process;
    const child = spawn(this.gitPath, [...gitPrefixArgs(this.gitPath), 'cat-file', '--batch'], {
      cwd: this.cwd,
      env: gitEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.process = child;
    let stderr = '';
    this.exited = new Promise((resolve) => {
      child.on('close', (code, signal) => {
        this.fail(new Error(`git cat-file exited (${signal ?? code})${stderr ? `: ${stderr.trim()}` : ''}`));
        resolve();
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        this.fail(error.code === 'ENOENT' ? new GitUnavailableError(this.gitPath, error.code) : error);
        resolve();
      });
    });
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    // A write after the process died raises EPIPE here; the close handler fails the reads.
    child.stdin.on('error', () => undefined);
    return child;
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      if (head.size === undefined) {
        const newline = this.buffer.indexOf(0x0a);
        if (newline < 0) return;
        const header = this.buffer.subarray(0, newline).toString('utf8');
        this.buffer = this.buffer.subarray(newline + 1);
        if (/ (missing|ambiguous)$/.test(header)) {
          this.queue.shift();
          head.resolve(null);
          continue;
        }
        const size = Number(header.split(' ')[2]);
        if (!Number.isInteger(size) || size < 0) {
          this.fail(new Error(`git cat-file: unexpected answer "${header}"`));
          this.process?.kill();
          return;
        }
        head.size = size;
      }
      if (this.buffer.length < head.size + 1) return;
      const content = Buffer.from(this.buffer.subarray(0, head.size));
      this.buffer = this.buffer.subarray(head.size + 1);
      this.queue.shift();
      head.resolve(content);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const pending of this.queue.splice(0)) pending.reject(this.failure);
  }
}
