/**
 * A binary heap of (score, slot) pairs in typed arrays, for the HNSW graph's search loop
 * (hnswGraph.ts): no objects per entry, and the arrays are kept between searches, so a search
 * allocates nothing once the heap has grown to its working size.
 *
 * `order` 'max' keeps the highest score on top (the candidates still to expand, best first);
 * 'min' keeps the lowest on top (the results so far, the weakest first so it is the one evicted).
 * Ties are broken by nothing: equal scores come out in heap order.
 */
export class ScoredHeap {
  /** Scores times `sign`, so one max-heap serves both orders. */
  private keys: Float64Array;
  private ids: Uint32Array;
  private readonly sign: number;
  size = 0;

  /** @param capacity entries allocated up front; doubles when full. */
  constructor(order: 'max' | 'min', capacity = 64) {
    this.sign = order === 'max' ? 1 : -1;
    this.keys = new Float64Array(Math.max(4, capacity));
    this.ids = new Uint32Array(Math.max(4, capacity));
  }

  clear(): void {
    this.size = 0;
  }

  /** The top entry's score (undefined behaviour when empty: check `size`). */
  get topScore(): number {
    return this.keys[0] * this.sign;
  }

  get topId(): number {
    return this.ids[0];
  }

  push(score: number, id: number): void {
    if (this.size === this.keys.length) this.grow();
    const key = score * this.sign;
    const keys = this.keys;
    const ids = this.ids;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] >= key) break;
      keys[i] = keys[parent];
      ids[i] = ids[parent];
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** Removes the top entry and returns its id. */
  pop(): number {
    const keys = this.keys;
    const ids = this.ids;
    const top = ids[0];
    const n = --this.size;
    if (n > 0) {
      const key = keys[n];
      const id = ids[n];
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && keys[child + 1] > keys[child]) child++;
        if (keys[child] <= key) break;
        keys[i] = keys[child];
        ids[i] = ids[child];
        i = child;
      }
      keys[i] = key;
      ids[i] = id;
    }
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const ids = new Uint32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.keys = keys;
    this.ids = ids;
  }
}
