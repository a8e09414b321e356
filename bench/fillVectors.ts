/**
 * Bench-only: gives an engine section vectors without running the model, through the one door
 * the engine already has for vectors it did not compute in this process, its on-disk vector
 * cache (`<cacheDir>/vectors`, keyed by model id and the digest of each window's text).
 *
 * {@link fillVectorCache} plans every section's windows exactly as the engine does
 * (`embeddingText` + `splitWindows` with the model's window options) and writes one given vector
 * per distinct window text. An engine then started on that cache folder with the same model
 * attaches every section's vectors in its first pass (`SectionVectors.sync`), builds its vector
 * index from them, and embeds nothing; measureMeaning.ts checks that it did.
 */
import * as path from 'node:path';
import type { IndexState } from '../server/src/engine/indexState';
import { LocalEmbedder } from '../server/src/engine/embeddings/localEmbedder';
import { localModelSpec, type LocalModelName } from '../server/src/engine/embeddings/localModels';
import { textDigest, VectorCache } from '../server/src/engine/embeddings/vectorCache';
import { splitWindows, windowOptionsFor } from '../server/src/engine/embeddings/windows';
import { embeddingText } from '../server/src/engine/meaning/sectionVectors';

export interface WindowPlan {
  sections: number;
  /** Windows over all sections. */
  windows: number;
  /** Distinct window texts in first-seen order (their digests): what the model would embed. */
  digests: string[];
}

/** The windows the engine embeds for `state`'s sections with the packaged `model`. */
export function planWindows(state: IndexState, model: LocalModelName = 'minilm'): WindowPlan {
  const options = windowOptionsFor(localModelSpec(model));
  const seen = new Set<string>();
  const digests: string[] = [];
  let sections = 0;
  let windows = 0;
  for (const entry of state.sections) {
    if (!entry) continue;
    sections++;
    for (const w of splitWindows(embeddingText(entry), options)) {
      windows++;
      const digest = textDigest(w.text);
      if (seen.has(digest)) continue;
      seen.add(digest);
      digests.push(digest);
    }
  }
  return { sections, windows, digests };
}

/**
 * Writes `vectorAt(i)` for the i-th distinct window of `state` into the vector cache of
 * `cacheDir` for the packaged `model` (which must produce vectors of that length: 384 for
 * `minilm`). Returns the plan it filled.
 */
export function fillVectorCache(
  state: IndexState,
  cacheDir: string,
  vectorAt: (i: number) => Float32Array,
  model: LocalModelName = 'minilm',
): WindowPlan {
  const plan = planWindows(state, model);
  const dimension = localModelSpec(model).dimension;
  // The id the engine's embedder will have (it names the runtime too); constructing it starts no worker.
  const modelId = new LocalEmbedder({ model }).id;
  const cache = VectorCache.open({ dir: path.join(cacheDir, 'vectors'), modelId, dimension });
  try {
    const BATCH = 4096; // one write per batch: a 100k workspace has ~250k windows
    for (let start = 0; start < plan.digests.length; start += BATCH) {
      const records: [string, Float32Array[]][] = [];
      for (let i = start; i < Math.min(plan.digests.length, start + BATCH); i++) {
        const vector = vectorAt(i);
        if (vector.length !== dimension)
          throw new Error(`bench: a stand-in vector has ${vector.length} dimensions, ${model} has ${dimension}`);
        records.push([plan.digests[i], [vector]]);
      }
      // The cache keeps a copy of every vector in memory too: fine in the fill's own process.
      cache.putMany(records);
    }
  } finally {
    cache.close();
  }
  return plan;
}
