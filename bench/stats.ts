/** Summaries of repeated measurements, and memory readings after a full garbage collection. */

/** Samples (milliseconds or bytes) and their order statistics. */
export interface Summary {
  /** How many samples. */
  n: number;
  median: number;
  /** 95th percentile (nearest rank); equals the maximum below 20 samples. */
  p95: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of ascending `sorted` (p in 0..100); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Median (mean of the two middle samples for an even count); NaN when empty. */
export function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: median(sorted),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

/** Process memory after a full GC (needs `--expose-gc`; without it the figures include garbage). */
export interface MemoryReading {
  rss: number;
  heapUsed: number;
  /** ArrayBuffers (typed arrays) live outside the JS heap: counted apart. */
  arrayBuffers: number;
  external: number;
  gcExposed: boolean;
}

export function memoryAfterGc(): MemoryReading {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    // Twice: the first pass can leave weakly held and finalizable objects for the second.
    gc();
    gc();
  }
  const m = process.memoryUsage();
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    arrayBuffers: m.arrayBuffers,
    external: m.external,
    gcExposed: gc !== undefined,
  };
}

/** Memory once the process has sat idle long enough for V8 to give memory back. */
export interface SettledReading extends MemoryReading {
  /** Idle time before this reading, ms. */
  idleMs: number;
  /** Whether V8 shrank its heap within the wait (its memory reducer ran). */
  shrank: boolean;
}

/**
 * Waits with the event loop idle, as a server sits after an index, until V8 has given back what
 * it keeps for a busy process, then reads memory after a full GC. A forced GC keeps the young
 * generation's committed space (32 MB at 100k) and compacts little; V8's memory reducer, which
 * starts on its own some seconds after the last full GC once the process allocates little,
 * shrinks both. Polls `heapTotal` every second; stops 2 s after it has fallen, or after `maxMs`.
 */
export async function memoryOnceIdle(maxMs = 45_000): Promise<SettledReading> {
  const started = performance.now();
  const first = process.memoryUsage().heapTotal;
  let lowest = first;
  let fellAt: number | undefined;
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const total = process.memoryUsage().heapTotal;
    if (total < lowest) {
      lowest = total;
      fellAt = performance.now();
    } else if (fellAt !== undefined && performance.now() - fellAt >= 2000) break;
  }
  return { ...memoryAfterGc(), idleMs: performance.now() - started, shrank: lowest < first };
}
