/**
 * Similarity of a question to short texts (Good-for phrasings, section questions) for get_context,
 * from the same embedder and on-disk cache as the section vectors.
 *
 * The engine embeds the library's phrasings with the index ({@link TextSimilarity.prepare}, after
 * the sections' vectors), so the first request and every later one compare with the same vectors.
 * Never blocks an answer on embedding: when any text of a request has no vector yet (the index is
 * still being embedded, or a model wrote new phrasings) the whole request compares on words,
 * never on a mix that changes from one call to the next, and the missing texts are embedded in
 * the background.
 */
import type { Embedder } from '../embeddings/embedder';
import { embedTextsCached } from '../embeddings/cachedEmbedding';
import { textDigest, type VectorCache } from '../embeddings/vectorCache';
import { dot } from '../embeddings/vectorMath';
import { meaningRaw } from '../ranking/contract';

/**
 * Similarity of a query to short texts from embeddings, mapped to 0..1 (0.5 and above: close).
 * Null when embeddings are off or not ready; an entry is null when that text has no vector yet.
 */
export interface TextMeaning {
  similarities(query: string, texts: readonly string[]): Promise<(number | null)[] | null>;
}

export class TextSimilarity implements TextMeaning {
  private readonly memory = new Map<string, Float32Array>();
  private readonly queued = new Set<string>();
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly embedder: Embedder,
    private readonly cache: VectorCache | null,
    private readonly embedQuery: (text: string) => Promise<Float32Array | null>,
    private readonly log: (message: string) => void,
  ) {}

  async similarities(query: string, texts: readonly string[]): Promise<(number | null)[] | null> {
    // The texts first: when one has no vector the answer is "on words" whatever the query's, so
    // the query is not embedded (nor the model waited for) in vain.
    const vectors = texts.map((text) => this.vectorOf(text));
    const missing = texts.filter((_, i) => !vectors[i]);
    if (missing.length) {
      this.embedLater(missing);
      return null;
    }
    const q = await this.embedQuery(query);
    if (!q) return null;
    return vectors.map((vector) => meaningRaw(dot(q, vector!), this.embedder.similarity));
  }

  /** Embeds (or reads from the cache) every text that has no vector yet; resolves when done. */
  async prepare(texts: readonly string[]): Promise<void> {
    const fresh = [...new Set(texts)].filter((t) => !this.vectorOf(t));
    if (fresh.length === 0) return;
    try {
      const { vectors } = await embedTextsCached(this.embedder, fresh, { cache: this.cache });
      fresh.forEach((t, i) => this.memory.set(textDigest(t), vectors[i]));
    } catch (error) {
      this.log(`[meaning] phrasings could not be embedded: ${(error as Error).message}`);
    }
  }

  /** Resolves when texts queued so far are embedded (tests). */
  idle(): Promise<void> {
    return this.running;
  }

  private vectorOf(text: string): Float32Array | undefined {
    const digest = textDigest(text);
    const known = this.memory.get(digest);
    if (known) return known;
    const cached = this.cache?.get(digest);
    if (cached?.length === 1) {
      this.memory.set(digest, cached[0]);
      return cached[0];
    }
    return undefined;
  }

  private embedLater(texts: readonly string[]): void {
    const fresh = texts.filter((t) => !this.queued.has(t));
    if (fresh.length === 0) return;
    for (const t of fresh) this.queued.add(t);
    this.running = this.running.then(async () => {
      try {
        const { vectors } = await embedTextsCached(this.embedder, fresh, { cache: this.cache });
        fresh.forEach((t, i) => this.memory.set(textDigest(t), vectors[i]));
      } catch (error) {
        this.log(`[meaning] phrasings could not be embedded: ${(error as Error).message}`);
      } finally {
        for (const t of fresh) this.queued.delete(t);
      }
    });
  }
}
