/**
 * One local embedder per model shared by the embedding tests: each worker loads its model
 * (150-300 MB), and the machine's cores are shared, so the suites reuse one worker per model
 * instead of starting several.
 */
import { LocalEmbedder } from '../../../../server/src/engine/embeddings/localEmbedder';
import type { LocalModelName } from '../../../../server/src/engine/embeddings/localModels';

const shared = new Map<LocalModelName, LocalEmbedder>();

/** The shared embedder for a model (default: the default model, MiniLM): one worker, batches of 8. */
export function sharedLocalEmbedder(model: LocalModelName = 'minilm'): LocalEmbedder {
  let embedder = shared.get(model);
  if (!embedder) {
    embedder = new LocalEmbedder({ model, workers: 1, batchSize: 8 });
    shared.set(model, embedder);
  }
  return embedder;
}

// Registered when a spec file first imports this module: a root-level hook, run once at the end.
after(async () => {
  await Promise.all([...shared.values()].map((e) => e.dispose()));
  shared.clear();
});
