/**
 * Worker-thread entry for the local models (bundled to `dist/embedWorker.js`). One worker loads
 * one model, named by `workerData.model` (see `localModels.ts`), and never the other's packages.
 *
 * On the WASM engines texts are embedded one at a time, and the worker yields to its message
 * queue between texts, so a query that arrives while a bulk batch runs is served next (it waits
 * for one text, not for the batch) and a cancelled batch stops at once. On ONNX Runtime a message's
 * texts run in one model call, one text per run inside it (`ortMiniLmModel.ts`); the pool gives queries a
 * worker of their own, since a run blocks its thread.
 *
 * Protocol (see `workerPool.ts`):
 *   in:  { type: 'embed', id, texts, priority }   priority: a query, served before bulk batches
 *        { type: 'cancel', id }
 *        { type: 'close' }   end the thread as soon as no model call runs (see `closeWhenIdle`)
 *   out: { type: 'ready', dimension } | { type: 'failed', message }      once, at start-up
 *        { type: 'result', id, count, data }  data: Float32Array of count x dimension, normalized
 *        { type: 'error', id, message } | { type: 'cancelled', id }
 *        { type: 'log', message }                  whatever the worker prints (see workerConsole.ts)
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { DEFAULT_LOCAL_MODEL, localModelSpec, type LocalModelName, type SentenceModel } from './localModels';
import { loadMiniLm } from './miniLmModel';
import type { MiniLmPrecision } from './miniLmOnnxGraph';
import { loadOrtMiniLm } from './ortMiniLmModel';
import { loadUseLite } from './useLiteModel';
import { normalizeInPlace } from './vectorMath';
import { routeConsoleToParent, type WorkerLog } from './workerConsole';

export interface EmbedWorkerData {
  model: LocalModelName;
  /** `onnx`: MiniLM on onnxruntime-node; `wasm` (default): the model's WASM engine. */
  runtime?: 'onnx' | 'wasm';
  /** ONNX only: matmul precision. Default int8. */
  precision?: MiniLmPrecision;
  /** ONNX only: intra-op threads of this worker's session. Default 1. */
  threads?: number;
  /** ONNX only: folder for the assembled model file. */
  modelCacheDir?: string;
  /**
   * A bulk worker: its thread (and the threads the model starts from it) run at a lower priority
   * (`BACKGROUND_NICE`), so embedding in the background never slows what the user is waiting for.
   */
  background?: boolean;
}

/** Nice value of a background worker's thread on Linux (0 is normal, 19 the lowest). Default 10. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers this worker thread's scheduling priority. On Linux a thread has its own nice value, set
 * through its thread id (`/proc/thread-self` names it) and inherited by the threads it starts
 * later (ONNX Runtime's intra-op pool). Elsewhere `setPriority` would renice the whole process,
 * the language server with it, so nothing is done; a refusal is reported, not fatal.
 */
function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, BACKGROUND_NICE);
  } catch (err) {
    console.error(`could not lower the background worker's priority: ${message(err)}`);
  }
}

export type WorkerRequest =
  | { type: 'embed'; id: number; texts: string[]; priority: boolean }
  | { type: 'cancel'; id: number }
  | { type: 'quiesce' }
  | { type: 'close' };

export type WorkerReply =
  | { type: 'ready'; dimension: number }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; count: number; data: Float32Array }
  | { type: 'error'; id: number; message: string }
  | { type: 'cancelled'; id: number }
  /** Answers `quiesce`: no model call runs and none will start. */
  | { type: 'quiet' }
  | WorkerLog;

interface Task {
  id: number;
  texts: string[];
  priority: boolean;
  vectors: ArrayLike<number>[];
  cancelled: boolean;
}

function loadModel(data: EmbedWorkerData): Promise<SentenceModel> {
  const name = localModelSpec(data.model ?? DEFAULT_LOCAL_MODEL).name;
  if (name === 'use-lite') return loadUseLite();
  if (data.runtime === 'onnx') {
    return loadOrtMiniLm({
      precision: data.precision ?? 'int8',
      threads: data.threads ?? 1,
      cacheDir: data.modelCacheDir,
      log: (m) => console.error(m),
    });
  }
  return loadMiniLm();
}

function pack(vectors: ArrayLike<number>[]): { data: Float32Array; dimension: number } {
  const dimension = vectors[0]?.length ?? 0;
  const data = new Float32Array(vectors.length * dimension);
  vectors.forEach((v, i) => {
    if (v.length !== dimension)
      throw new Error(`the model returned vectors of ${dimension} and ${v.length} dimensions`);
    const row = data.subarray(i * dimension, (i + 1) * dimension);
    row.set(v);
    normalizeInPlace(row);
  });
  return { data, dimension };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Model calls in progress. onnxruntime-node aborts the whole process ("terminate called after
 * throwing an instance of 'Napi::Error'", seen here with 1.30) when `Worker.terminate()` lands
 * while a session is being created or run, so the pool asks the worker to close instead, and the
 * worker ends its own thread between calls. It aborts too when one worker's thread ends while
 * another worker runs a session (the native runtime is one per process): before closing them all
 * (`dispose`), the pool first quiesces every worker (no call runs, none starts) and waits until
 * each says it is quiet (workerPool.ts).
 */
let modelCalls = 0;
let closing = false;
/** Set by `quiesce`: no model call starts; `onQuiet` is told once none runs. */
let quiescing = false;
let onQuiet: (() => void) | undefined;

async function inModelCall<T>(call: () => Promise<T>): Promise<T> {
  if (quiescing || closing) throw new Error('the embedding worker is closing');
  modelCalls++;
  try {
    return await call();
  } finally {
    modelCalls--;
    if (modelCalls === 0) {
      if (closing) process.exit(0);
      if (quiescing) sayQuiet();
    }
  }
}

function closeWhenIdle(): void {
  closing = true;
  if (modelCalls === 0) process.exit(0); // in a worker: ends this thread, not the process
}

function quiesce(): void {
  quiescing = true;
  if (modelCalls === 0) sayQuiet();
}

function sayQuiet(): void {
  const tell = onQuiet;
  onQuiet = undefined;
  tell?.();
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) return; // loaded outside a worker (type imports, bundler probes): nothing to do
  routeConsoleToParent();
  const post = (reply: WorkerReply, transfer?: ArrayBuffer[]) => port.postMessage(reply, transfer);
  // Heard while the model loads, too.
  onQuiet = () => post({ type: 'quiet' });
  port.on('message', (req: WorkerRequest) => {
    if (req.type === 'close') closeWhenIdle();
    if (req.type === 'quiesce') quiesce();
  });
  const data = (workerData as EmbedWorkerData | null) ?? { model: DEFAULT_LOCAL_MODEL };
  if (data.background) lowerThreadPriority();
  let model: SentenceModel;
  let dimension: number;
  try {
    model = await inModelCall(() => loadModel(data));
    dimension = pack([await inModelCall(() => model.embedOne('warm up'))]).dimension;
  } catch (err) {
    // Asked to close while loading: the pool is going, nothing failed.
    if (!quiescing && !closing)
      post({ type: 'failed', message: `could not load the local embedding model: ${message(err)}` });
    return;
  }
  post({ type: 'ready', dimension });

  const tasks: Task[] = [];
  let draining = false;
  const finish = (task: Task) => {
    const i = tasks.indexOf(task);
    if (i >= 0) tasks.splice(i, 1);
  };

  const drain = async (): Promise<void> => {
    if (draining) return;
    draining = true;
    try {
      while (tasks.length) {
        const task = tasks.find((t) => t.priority) ?? tasks[0];
        if (task.vectors.length < task.texts.length) {
          try {
            if (model.embedBatch) {
              // The whole message in one model call (ONNX Runtime).
              const vectors = await inModelCall(() => model.embedBatch!(task.texts));
              if (task.cancelled) continue;
              task.vectors.push(...vectors);
            } else {
              const vector = await inModelCall(() => model.embedOne(task.texts[task.vectors.length]));
              if (task.cancelled) continue; // already answered and removed
              task.vectors.push(vector);
            }
          } catch (err) {
            if (!task.cancelled) post({ type: 'error', id: task.id, message: message(err) });
            finish(task);
            continue;
          }
        }
        if (task.vectors.length === task.texts.length) {
          finish(task);
          try {
            const { data } = pack(task.vectors);
            post({ type: 'result', id: task.id, count: task.texts.length, data }, [data.buffer as ArrayBuffer]);
          } catch (err) {
            post({ type: 'error', id: task.id, message: message(err) });
          }
        }
        // Let queries and cancels in before the next text (MiniLM's engine call is synchronous).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      draining = false;
    }
  };

  port.on('message', (req: WorkerRequest) => {
    if (req.type === 'close' || req.type === 'quiesce') return; // handled above
    if (req.type === 'cancel') {
      const task = tasks.find((t) => t.id === req.id);
      if (!task) return; // finished already; its reply is on the way
      task.cancelled = true;
      finish(task);
      post({ type: 'cancelled', id: req.id });
      return;
    }
    tasks.push({ id: req.id, texts: req.texts, priority: req.priority, vectors: [], cancelled: false });
    void drain();
  });
}

void main();
