/**
 * A bounded memo table for the analysis hot path (stems, analysed tokens).
 *
 * Two generations instead of a true LRU: lookups hit `young`, then `old` (promoting the entry);
 * when `young` reaches the limit it becomes `old` and the previous `old` is dropped. Entries used
 * at least once per generation survive, memory stays under two generations, and a lookup costs one
 * or two `Map.get`s with no bookkeeping per hit.
 */
export class BoundedCache<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();

  /**
   * @param generationSize entries per generation; the cache holds at most twice this many.
   *   Default 50,000 (enough for a large workspace's working vocabulary); minimum 1.
   */
  constructor(private readonly generationSize = 50_000) {
    if (!(generationSize >= 1)) throw new RangeError('BoundedCache: generationSize must be >= 1');
  }

  get(key: string): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  set(key: string, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  /** Entries currently held (both generations; a promoted key may be counted twice). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }
}
