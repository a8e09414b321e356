/**
 * Reads many workspace files in worker threads (readWorker.ts) for a full pass, so the answering
 * thread only waits for the texts instead of driving every read. Paths go out in batches, each
 * worker holding two so it never waits for the next; results come back in the paths' order
 * whichever worker finished first. Resolves null when a worker cannot start or fails: the caller
 * then reads on its own thread as before (fileTable.ts), so a missing `readWorker.js` or a host
 * that forbids threads costs speed, never the index.
 */
import { Worker } from 'node:worker_threads';
import { resolveWorkerEntry, workerLaunch } from '../workerEntry';
import type { ReadReply, ReadRequest, ReadWorkerData, WorkerRead } from './readWorker';

/** Paths per message: big enough that messaging costs nothing, small enough to share work evenly. */
const BATCH = 256;

export interface PooledReadOptions {
  /** Worker threads to start (at least 1). */
  workers: number;
  /** Hears how many files have been read so far, after each batch. */
  onProgress?: (done: number) => void;
  /** Worker entry override (tests); by default `readWorker.js` beside the bundle or `.ts` beside this file. */
  script?: string;
}

/** The guarded reads of `paths`, in their order, or null when the workers could not do them. */
export function readInWorkers(
  paths: readonly string[],
  roots: readonly string[],
  maxBytes: number,
  options: PooledReadOptions,
): Promise<WorkerRead[] | null> {
  if (paths.length === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    const results = new Array<WorkerRead>(paths.length);
    const workers: Worker[] = [];
    const batches = Math.ceil(paths.length / BATCH);
    let nextBatch = 0;
    let done = 0;
    let settled = false;
    const settle = (value: WorkerRead[] | null): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      resolve(value);
    };
    const feed = (worker: Worker): void => {
      if (nextBatch >= batches) return;
      const id = nextBatch++;
      const request: ReadRequest = { id, paths: paths.slice(id * BATCH, (id + 1) * BATCH) };
      worker.postMessage(request);
    };
    try {
      const launch = options.script ? workerLaunch(options.script) : resolveWorkerEntry(__dirname, 'readWorker');
      const workerData: ReadWorkerData = { roots: [...roots], maxBytes };
      const count = Math.max(1, Math.min(options.workers, batches));
      for (let i = 0; i < count; i++) {
        const worker = new Worker(launch.file, { workerData, execArgv: launch.execArgv });
        workers.push(worker);
        worker.on('message', (reply: ReadReply) => {
          const from = reply.id * BATCH;
          for (let k = 0; k < reply.results.length; k++) results[from + k] = reply.results[k];
          done += reply.results.length;
          options.onProgress?.(done);
          if (done === paths.length) settle(results);
          else feed(worker);
        });
        worker.on('error', () => settle(null));
        worker.on('exit', () => settle(null));
        feed(worker);
        feed(worker);
      }
    } catch {
      settle(null);
    }
  });
}
