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

/**
 * A stand-in embedder for store tests: each window text's vector (by its digest, so the same text
 * always gets the same vector) is one of `centres` plus uniform noise of 0.9.
 */
export function vectorByDigest(centres: readonly Float32Array[]): (digest: string) => Float32Array {
  return (digest) => {
    const rand = seededRandom(parseInt(digest.slice(0, 8), 16));
    const centre = centres[Math.floor(rand() * centres.length)];
    return Float32Array.from(centre, (x) => x + 0.9 * (rand() * 2 - 1));
  };
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
