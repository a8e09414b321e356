/**
 * The worker-thread pool behind the local embedders (`localEmbedder.ts`), whatever the model.
 *
 * Models run in worker threads (`embedWorker.ts`), never on the main thread: answers must keep
 * flowing while a workspace embeds. Bulk work is sorted by length (so a batch pads little) and
 * cut into batches; each bulk worker holds at most one bulk batch and takes the next when it
 * finishes one. Queries never wait behind a batch:
 * - with `queryWorker` (ONNX Runtime, whose runs block their thread for a whole batch), queries go
 *   to a worker of their own with its own session, started together with the first work of any
 *   kind so it is warm when the first question comes;
 * - without (the WASM engines, which embed one text at a time and yield between texts), a query
 *   goes to an idle worker or else to a busy one, which serves it before its batch's next text.
 * Workers start lazily, on the first call, and a crashed one is replaced, up to `MAX_RESPAWNS`
 * crashes in a row. A bulk worker with no bulk work for `bulkIdleMs` is closed (a model copy is
 * ~130 MB of the process's memory: a server that has embedded its workspace keeps only what
 * answers questions); the pool keeps one worker that can take queries, and starts bulk workers
 * again when bulk work comes.
 */
import { Worker } from 'node:worker_threads';
import { abortError } from './abort';
import type { ProgressFn } from './embedder';
import { disableOnnxTelemetry } from './onnxRuntime';
import type { EmbedWorkerData, WorkerReply, WorkerRequest } from './embedWorker';
import { resolveWorkerEntry, workerLaunch, type WorkerLaunch } from '../workerEntry';

/** Crashes in a row (no worker became ready in between) before the pool gives up. */
const MAX_RESPAWNS = 3;
/** How long a closing worker may finish its model call before it is terminated. */
const CLOSE_TIMEOUT_MS = 30_000;

export interface WorkerPoolOptions {
  /** Worker threads. Default 1; range 1..8 (each holds its model: ~160-270 MB). */
  workers?: number;
  /** Texts per bulk message: the unit of progress. Default 16; minimum 1. */
  batchSize?: number;
  /** Which model the workers load (a query worker gets the same with `threads` 1). */
  workerData: EmbedWorkerData;
  /** Serve queries on a worker of their own (see above). Default false. */
  queryWorker?: boolean;
  /** Vector length the model should report when ready; a mismatch is logged. */
  dimension: number;
  log?: (message: string) => void;
  /** Worker entry override; by default `embedWorker.js` beside the bundle or `.ts` beside this file. */
  workerScript?: string;
  /**
   * Milliseconds a bulk worker may wait without bulk work before it is closed. Default 30,000;
   * `Infinity` keeps workers until `dispose`. The worker that serves queries is never closed.
   */
  bulkIdleMs?: number;
}

/** Default for `bulkIdleMs`: longer than the pause between a workspace's update passes. */
export const DEFAULT_BULK_IDLE_MS = 30_000;

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
  /** Where each text of the batch sits in the job's input. */
  positions: number[];
  texts: string[];
  priority: boolean;
}

interface Slot {
  worker: Worker;
  /** The dedicated query worker (`queryWorker`), which never takes bulk batches. */
  forQueries: boolean;
  ready: boolean;
  /** Batches sent and not yet answered, by request id. */
  inFlight: Map<number, Batch>;
  /** The uncaught error that is ending the worker; reported when it has exited. */
  crash?: string;
  /** Closes the worker when it has stayed without bulk work (`bulkIdleMs`); cleared when work comes. */
  idleTimer?: ReturnType<typeof setTimeout>;
  /** Told when the worker says it is quiet (`quiesce`, during `dispose`). */
  onQuiet?: () => void;
}

export class EmbedWorkerPool {
  private readonly workerCount: number;
  private readonly batchSize: number;
  private readonly bulkIdleMs: number;
  private readonly log: (message: string) => void;
  private readonly options: WorkerPoolOptions;
  private readonly slots: Slot[] = [];
  private readonly queries: Batch[] = [];
  private readonly bulk: Batch[] = [];
  private nextRequestId = 1;
  private respawns = 0;
  private started = 0;
  private fatal: Error | null = null;
  private disposed = false;

  constructor(options: WorkerPoolOptions) {
    this.options = options;
    this.workerCount = Math.max(1, Math.min(8, Math.round(options.workers ?? 1)));
    this.batchSize = Math.max(1, Math.round(options.batchSize ?? 16));
    this.bulkIdleMs = Math.max(0, options.bulkIdleMs ?? DEFAULT_BULK_IDLE_MS);
    this.log = options.log ?? (() => {});
  }

  /**
   * Embeds texts in order. `priority` (queries) puts each text ahead of all bulk work. Aborting
   * `signal` drops the batches not yet sent, stops those in flight and rejects with its reason.
   */
  run(
    texts: readonly string[],
    priority: boolean,
    signal?: AbortSignal,
    onProgress?: ProgressFn,
  ): Promise<Float32Array[]> {
    if (this.disposed) return Promise.reject(new Error('embeddings: the local embedder was disposed'));
    if (this.fatal) return Promise.reject(this.fatal);
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise<Float32Array[]>((resolve, reject) => {
      const job: Job = {
        texts,
        results: new Array(texts.length),
        done: 0,
        pending: 0,
        settled: false,
        resolve,
        reject,
        onProgress,
        signal,
      };
      const queue = priority ? this.queries : this.bulk;
      const size = priority ? 1 : this.batchSize;
      // Longest first: each batch holds texts of about one length, and the slow ones start early.
      const order = texts.map((_, i) => i);
      if (!priority) order.sort((a, b) => texts[b].length - texts[a].length || a - b);
      for (let start = 0; start < order.length; start += size) {
        const positions = order.slice(start, start + size);
        queue.push({ job, positions, texts: positions.map((i) => texts[i]), priority });
        job.pending++;
      }
      if (signal) {
        job.onAbort = () => this.stop(job, abortError(signal));
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.pump();
    });
  }

  /** Workers currently running (the query worker included). */
  get runningWorkers(): number {
    return this.slots.length;
  }

  /** Bulk workers whose model is loaded and answering (0 while the first loads, and after idle ones closed). */
  get readyBulkWorkers(): number {
    return this.slots.filter((s) => s.ready && !s.forQueries).length;
  }

  /** Workers started since the pool was made (restarts included): 0 proves no model was loaded. */
  get startedWorkers(): number {
    return this.started;
  }

  /** Stops the workers; pending calls reject. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const err = new Error('embeddings: the local embedder was disposed');
    for (const batch of [...this.queries, ...this.bulk, ...this.slots.flatMap((s) => [...s.inFlight.values()])])
      this.fail(batch.job, err);
    this.queries.length = 0;
    this.bulk.length = 0;
    for (const slot of this.slots) clearTimeout(slot.idleTimer);
    // Every worker quiet before any ends: a thread that ends while another runs a session aborts
    // the process (embedWorker.ts), as the embedding job's worker ending beside the query worker's
    // warm-up did in most runs of test/unit/engine/meaning/queryWhileEmbedding.test.ts.
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => quiesceWorker(slot)));
    await Promise.all(slots.map((slot) => closeWorker(slot.worker)));
  }

  /** Fails a job now: drops its queued batches and tells workers to stop the ones in flight. */
  private stop(job: Job, err: Error): void {
    this.fail(job, err);
    for (const queue of [this.queries, this.bulk]) {
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i].job === job) queue.splice(i, 1);
    }
    for (const slot of this.slots) {
      for (const [id, batch] of slot.inFlight) {
        if (batch.job === job) slot.worker.postMessage({ type: 'cancel', id } satisfies WorkerRequest);
      }
    }
  }

  private fail(job: Job, err: Error): void {
    if (job.settled) return;
    job.settled = true;
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    job.reject(err);
  }

  /** Hands queued batches to workers (queries first) and starts workers as needed. */
  private pump(): void {
    if (this.disposed || this.fatal) return;
    const dedicated = this.options.queryWorker === true;
    const waiting = this.queries.length + this.bulk.length;
    if (dedicated && waiting > 0 && !this.slots.some((s) => s.forQueries)) {
      if (!this.spawn(true)) return;
    }
    const bulkSlots = () => this.slots.filter((s) => !s.forQueries);
    const bulkWaiting = dedicated ? this.bulk.length : waiting;
    const busy = bulkSlots().filter((s) => s.inFlight.size > 0).length;
    while (bulkSlots().length < this.workerCount && bulkSlots().length < bulkWaiting + busy) {
      if (!this.spawn(false)) return;
    }
    const ready = this.slots.filter((s) => s.ready);
    const holds = (s: Slot, priority: boolean) => [...s.inFlight.values()].some((b) => b.priority === priority);
    while (this.queries.length) {
      // The query worker; else an idle worker, else one busy with bulk work; one query per worker at a time.
      const slot = dedicated
        ? ready.find((s) => s.forQueries && !holds(s, true))
        : (ready.find((s) => s.inFlight.size === 0) ?? ready.find((s) => !holds(s, true)));
      if (!slot) break;
      this.send(slot, this.queries.shift()!);
    }
    while (this.bulk.length) {
      const slot = ready.find((s) => !s.forQueries && !holds(s, false));
      if (!slot) break;
      this.send(slot, this.bulk.shift()!);
    }
    if (this.bulk.length === 0) for (const slot of bulkSlots()) if (slot.inFlight.size === 0) this.closeWhenIdle(slot);
  }

  /** Arms the slot's idle timer (once); `send` disarms it. */
  private closeWhenIdle(slot: Slot): void {
    if (slot.idleTimer || !Number.isFinite(this.bulkIdleMs)) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      if (this.disposed || slot.inFlight.size > 0 || this.bulk.length > 0) return;
      // Without a query worker, queries go to bulk workers: the last one stays to answer them.
      const takesQueries = this.slots.filter((s) => s.forQueries || s !== slot);
      if (this.options.queryWorker !== true && takesQueries.length === 0) return;
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      // Out of the pool first, so its exit is not taken for a crash (onExit ignores it).
      this.slots.splice(i, 1);
      this.log(`embeddings: closed an idle bulk worker (${this.bulkIdleMs} ms without bulk work)`);
      void closeWorker(slot.worker);
    }, this.bulkIdleMs);
    slot.idleTimer.unref();
  }

  private send(slot: Slot, batch: Batch): void {
    const id = this.nextRequestId++;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.inFlight.set(id, batch);
    slot.worker.ref();
    slot.worker.postMessage({
      type: 'embed',
      id,
      texts: batch.texts,
      priority: batch.priority,
    } satisfies WorkerRequest);
  }

  private spawn(forQueries: boolean): boolean {
    let worker: Worker;
    try {
      const { file, execArgv } = this.resolveWorker();
      // Bulk workers run below normal priority: loading a model and embedding a workspace in the
      // background must leave the cores to the editor, the language server's answers and queries.
      const workerData: EmbedWorkerData = forQueries
        ? { ...this.options.workerData, threads: 1 }
        : { ...this.options.workerData, background: true };
      // The worker reroutes its own console to 'log' messages (workerConsole.ts).
      // Before the worker loads ONNX Runtime: only this thread's setting reaches its environment.
      disableOnnxTelemetry();
      worker = new Worker(file, { execArgv, workerData });
      this.started++;
    } catch (err) {
      this.abandon(new Error(`embeddings: could not start the embedding worker: ${errorText(err)}`));
      return false;
    }
    const slot: Slot = { worker, forQueries, ready: false, inFlight: new Map() };
    this.slots.push(slot);
    worker.on('message', (msg: WorkerReply) => this.onMessage(slot, msg));
    // An uncaught error is always followed by 'exit', and what the worker posted before it (its
    // last log lines) is delivered before 'exit': reporting the crash then keeps those lines, where
    // terminating at 'error' could drop them.
    worker.on('error', (err) => (slot.crash = `crashed: ${err.message}`));
    worker.on('exit', (code) => this.onExit(slot, slot.crash ?? `exited with code ${code}`));
    const role = forQueries
      ? 'the query worker'
      : `a bulk worker (${this.slots.filter((s) => !s.forQueries).length}/${this.workerCount})`;
    this.log(
      `embeddings: started ${role} for ${this.options.workerData.model} on ${this.options.workerData.runtime ?? 'wasm'}`,
    );
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
        if (msg.dimension !== this.options.dimension) {
          this.log(`embeddings: local model reports ${msg.dimension} dimensions, expected ${this.options.dimension}`);
        }
        break;
      case 'failed':
        this.abandon(new Error(`embeddings: ${msg.message}`));
        return;
      case 'quiet':
        slot.onQuiet?.();
        return;
      case 'result':
      case 'error':
      case 'cancelled': {
        const batch = slot.inFlight.get(msg.id);
        if (!batch) return;
        slot.inFlight.delete(msg.id);
        if (msg.type !== 'cancelled') this.finishBatch(batch, msg);
        break;
      }
    }
    if (slot.inFlight.size === 0) slot.worker.unref();
    this.pump();
  }

  private finishBatch(batch: Batch, msg: Extract<WorkerReply, { type: 'result' | 'error' }>): void {
    const job = batch.job;
    if (job.settled) return; // cancelled or failed while in flight: the result is dropped
    if (msg.type === 'error') {
      this.stop(job, new Error(`embeddings: the local model failed on a batch: ${msg.message}`));
      return;
    }
    const dim = msg.count > 0 ? msg.data.length / msg.count : 0;
    for (let i = 0; i < msg.count; i++) job.results[batch.positions[i]] = msg.data.subarray(i * dim, (i + 1) * dim);
    job.done += msg.count;
    job.pending--;
    job.onProgress?.(job.done, job.texts.length);
    if (job.pending === 0 && !job.settled) {
      job.settled = true;
      if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
      job.resolve(job.results);
    }
  }

  /** A worker died: fail its batches, forget it, and start a replacement if work remains. */
  private onExit(slot: Slot, why: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    clearTimeout(slot.idleTimer);
    if (this.disposed) return;
    const err = new Error(`embeddings: the embedding worker ${why}`);
    this.log(err.message);
    for (const batch of slot.inFlight.values()) this.stop(batch.job, err);
    slot.inFlight.clear();
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
      clearTimeout(slot.idleTimer);
      for (const batch of slot.inFlight.values()) this.fail(batch.job, err);
      void closeWorker(slot.worker);
    }
  }

  private resolveWorker(): WorkerLaunch {
    if (this.options.workerScript) return workerLaunch(this.options.workerScript);
    // Built: this code is inlined into dist/<bundle>.js and the worker is dist/embedWorker.js.
    return resolveWorkerEntry(__dirname, 'embedWorker');
  }
}

/**
 * Asks a worker to start no model call and resolves once none runs (its `quiet`), or once it has
 * ended; a worker that has said neither after `CLOSE_TIMEOUT_MS` is closed all the same.
 */
function quiesceWorker(slot: Slot): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      slot.onQuiet = undefined;
      resolve();
    };
    const timer = setTimeout(done, CLOSE_TIMEOUT_MS);
    timer.unref();
    slot.onQuiet = done;
    slot.worker.once('exit', done);
    slot.worker.ref();
    try {
      slot.worker.postMessage({ type: 'quiesce' } satisfies WorkerRequest);
    } catch {
      done(); // already gone
    }
  });
}

/**
 * Asks a worker to end itself between model calls (embedWorker.ts: terminating it in the middle
 * of an ONNX Runtime call aborts the process) and resolves when it has; a worker that has not
 * ended after `CLOSE_TIMEOUT_MS` is terminated.
 */
function closeWorker(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => void worker.terminate().then(() => resolve()), CLOSE_TIMEOUT_MS);
    timer.unref();
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    // Kept referenced: the caller awaits the exit, which comes within one model call.
    worker.ref();
    try {
      worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    } catch {
      clearTimeout(timer);
      resolve(); // already gone
    }
  });
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
