/**
 * Seeded randomness for the bench: the same seed gives the same sequence on every machine and
 * Node version (integer arithmetic only; no `Math.random`).
 */

/** A generator of floats in [0, 1) with helpers. mulberry32 (Tommy Ettinger, public domain). */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** `n` distinct items (fewer when `items` is shorter), in the order drawn. */
  sample<T>(items: readonly T[], n: number): T[] {
    const pool = items.slice();
    const out: T[] = [];
    while (out.length < n && pool.length > 0) {
      const i = Math.floor(this.next() * pool.length);
      out.push(pool[i]);
      pool[i] = pool[pool.length - 1];
      pool.pop();
    }
    return out;
  }

  /** A child generator whose sequence depends on this one's seed and `label` only. */
  fork(label: string): Random {
    let h = this.state ^ 0x9e3779b9;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
    return new Random(h >>> 0);
  }
}

/**
 * Draws ranks 0..n-1 with probability proportional to 1 / (rank + 1)^exponent (Zipf's law; 1.0 is
 * the classic exponent of English text).
 */
export class ZipfSampler {
  private readonly cdf: Float64Array;

  constructor(n: number, exponent = 1.0) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) this.cdf[i] = sum += 1 / (i + 1) ** exponent;
    for (let i = 0; i < n; i++) this.cdf[i] /= sum;
  }

  /** A rank; `minRank` skips the head of the distribution. */
  draw(random: Random, minRank = 0): number {
    const floor = minRank > 0 ? this.cdf[minRank - 1] : 0;
    const u = floor + random.next() * (1 - floor);
    let lo = minRank;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
