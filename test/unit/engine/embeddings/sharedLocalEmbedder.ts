/**
 * One local embedder per model shared by the embedding tests: each worker loads its model
 * (150-300 MB), and the machine's cores are shared, so the suites reuse one worker per model
 * instead of starting several.
 */
import { LocalEmbedder } from '../../../../server/src/engine/embeddings/localEmbedder';
import type { LocalModelName } from '../../../../server/src/engine/embeddings/localModels';

/** A model and, for MiniLM, its engine: ONNX Runtime (the default where it loads) or the WASM fallback. */
export type SharedEmbedderKey = LocalModelName | 'minilm-wasm';

export const SHARED_EMBEDDER_KEYS: readonly SharedEmbedderKey[] = ['minilm', 'minilm-wasm', 'use-lite'];

const shared = new Map<SharedEmbedderKey, LocalEmbedder>();

/**
 * The shared embedder for a model (default: the default model, MiniLM on ONNX Runtime): one bulk
 * worker (plus, on ONNX Runtime, the query worker), batches of 8.
 */
export function sharedLocalEmbedder(key: SharedEmbedderKey = 'minilm'): LocalEmbedder {
  let embedder = shared.get(key);
  if (!embedder) {
    embedder =
      key === 'minilm-wasm'
        ? new LocalEmbedder({ model: 'minilm', runtime: 'wasm', workers: 1, batchSize: 8 })
        : new LocalEmbedder({ model: key, workers: 1, batchSize: 8, threads: 1 });
    shared.set(key, embedder);
  }
  return embedder;
}

// Registered when a spec file first imports this module: a root-level hook, run once at the end.
after(async () => {
  await Promise.all([...shared.values()].map((e) => e.dispose()));
  shared.clear();
});
