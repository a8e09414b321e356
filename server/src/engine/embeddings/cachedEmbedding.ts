/**
 * Embedding through the on-disk cache: texts whose digest is cached are not embedded again, and
 * new vectors are saved as each chunk finishes, so a cancelled or crashed run keeps its progress.
 */
import type { Embedder, ProgressFn } from './embedder';
import { textDigest, type VectorCache } from './vectorCache';
import { planWindows, type WindowOptions } from './windows';

export interface CachedEmbedOptions {
  /** Cache for this embedder's model; without one every text is embedded. */
  cache?: VectorCache | null;
  signal?: AbortSignal;
  /** Texts done (cached ones count at once) out of all texts; windows for `embedSectionWindows`. */
  onProgress?: ProgressFn;
  /**
   * Texts per `embed` call. Calls are queued together, so workers stay busy, and each is saved
   * when it resolves. Default 64; minimum 1.
   */
  chunkSize?: number;
}

export interface CachedEmbedResult {
  /** One normalized vector per input text, in order. */
  vectors: Float32Array[];
  /** Distinct texts that went to the embedder (0 on a fully cached run). */
  embedded: number;
  /** Texts answered from the cache. */
  cached: number;
}

/** Embeds texts, reusing and filling the cache. Duplicate texts are embedded once. */
export async function embedTextsCached(
  embedder: Embedder,
  texts: readonly string[],
  options: CachedEmbedOptions = {},
): Promise<CachedEmbedResult> {
  const { cache, signal, onProgress } = options;
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 64));
  const digests = texts.map(textDigest);
  const vectors: Float32Array[] = new Array(texts.length);
  const missing = new Map<string, number[]>(); // digest -> positions needing it
  let cached = 0;
  digests.forEach((digest, i) => {
    // One vector per text: a record with several vectors belongs to another kind of caller.
    const hit = cache?.get(digest);
    if (hit && hit.length === 1) {
      vectors[i] = hit[0];
      cached++;
    } else {
      const positions = missing.get(digest);
      if (positions) positions.push(i);
      else missing.set(digest, [i]);
    }
  });
  const todo = [...missing.keys()];
  let done = cached;
  onProgress?.(done, texts.length);
  const chunks: string[][] = [];
  for (let s = 0; s < todo.length; s += chunkSize) chunks.push(todo.slice(s, s + chunkSize));
  // Queue every chunk now (workers stay busy), then collect them in order.
  const pending = chunks.map((chunk) =>
    embedder.embed(
      chunk.map((d) => texts[missing.get(d)![0]]),
      signal,
    ),
  );
  // Keep unobserved rejections of later chunks from surfacing when an earlier one fails.
  pending.forEach((p) => p.catch(() => {}));
  for (let c = 0; c < chunks.length; c++) {
    const result = await pending[c];
    cache?.putMany(chunks[c].map((digest, k) => [digest, [result[k]]] as const));
    chunks[c].forEach((digest, k) => {
      // The embedder's array itself: the cache keeps only the record's place in its file.
      const vector = result[k];
      for (const i of missing.get(digest)!) {
        vectors[i] = vector;
        done++;
      }
    });
    onProgress?.(done, texts.length);
  }
  return { vectors, embedded: todo.length, cached };
}

/** One embedded window of one section. */
export interface WindowVector {
  ordinal: number;
  window: number;
  vector: Float32Array;
}

/**
 * Embeds sections as windows (see `windows.ts`), through the cache. The result holds every
 * window's vector with its section's ordinal (its position in `texts`).
 */
export async function embedSectionWindows(
  embedder: Embedder,
  texts: readonly string[],
  windowOptions: WindowOptions,
  options: CachedEmbedOptions = {},
): Promise<{ windows: WindowVector[]; embedded: number; cached: number }> {
  const plan = planWindows(texts, windowOptions);
  const result = await embedTextsCached(
    embedder,
    plan.map((w) => w.text),
    options,
  );
  return {
    windows: plan.map((w, i) => ({ ordinal: w.ordinal, window: w.window, vector: result.vectors[i] })),
    embedded: result.embedded,
    cached: result.cached,
  };
}
