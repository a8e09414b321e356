/** Seeded, clustered random vectors for index tests (HNSW recall collapses on unstructured noise). */

/** Mulberry32: a small seeded PRNG, so every run sees the same vectors. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal sample (Box-Muller). */
function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
}

/** `count` vectors around `clusters` random centres; `spread` is the noise relative to a centre. */
export function clusteredVectors(
  count: number,
  dimension: number,
  clusters: number,
  spread: number,
  seed: number,
): Float32Array[] {
  const rand = seededRandom(seed);
  const centres = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dimension }, () => gaussian(rand)),
  );
  return Array.from({ length: count }, () => {
    const c = centres[Math.floor(rand() * clusters)];
    return Float32Array.from(c, (x) => x + spread * gaussian(rand));
  });
}

/** Cosine of two float vectors of any length scale: the reference the int8 cosines are checked against. */
export function floatCosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / Math.sqrt(na * nb);
}
