/**
 * One local-model embedder shared by the embedding tests: each worker loads the model (~300 MB),
 * and the machine's cores are shared, so the suites reuse one worker instead of starting several.
 */
import { LocalUseEmbedder } from '../../../../server/src/engine/embeddings/localUseEmbedder';

let shared: LocalUseEmbedder | undefined;

export function sharedLocalEmbedder(): LocalUseEmbedder {
  shared ??= new LocalUseEmbedder({ workers: 1, batchSize: 8 });
  return shared;
}

// Registered when a spec file first imports this module: a root-level hook, run once at the end.
after(async () => {
  await shared?.dispose();
  shared = undefined;
});
