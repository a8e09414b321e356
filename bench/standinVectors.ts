/**
 * Stand-in section vectors for sizes the packaged model cannot embed in a bench run (10k sections
 * are ~25k windows: about 50 minutes at ~8 windows/s on one worker here; 100k take hours).
 *
 * A pool of real all-MiniLM-L6-v2 vectors is grown to any count: vector `j` is pool row `j` while
 * the pool lasts, then a copy of row `j mod rows` plus Gaussian noise (sigma {@link NOISE_SIGMA}
 * per dimension, seeded by the bench seed and `j`), normalised. The pool comes from, in order:
 *
 * - `scifact`: the vectors `npm run eval -- --dataset scifact --embeddings local` caches for the
 *   BEIR SciFact abstracts (read-only, from {@link SCIFACT_VECTOR_DIR}); real scientific prose;
 * - `generated`: {@link GENERATED_PASSAGES} passages written by the bench's prose generator and
 *   embedded once with the packaged model (minutes), cached under {@link GENERATED_CACHE_DIR};
 * - `synthetic`: seeded clustered Gaussian vectors, no model at all (`--quick` only: its figures
 *   exercise the code paths; recall on them says little about real embeddings).
 *
 * The last {@link HELD_OUT} rows of a pool are never part of a grown set: they are the queries a
 * recall figure asks (held out, as in ANN benchmarks), so no query has its own copy in the index.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createEmbedder, DEFAULT_EMBEDDING_SETTINGS } from '../server/src/engine/embeddings/embedder';
import { embedTextsCached } from '../server/src/engine/embeddings/cachedEmbedding';
import { localModelId, MINILM_DIMENSION } from '../server/src/engine/embeddings/localModels';
import {
  textDigest,
  VectorCache,
  vectorCacheFileName,
  VECTOR_CACHE_FORMAT,
} from '../server/src/engine/embeddings/vectorCache';
import { makeTopic, Prose } from './prose';
import { Random } from './random';

export type StandinSource = 'scifact' | 'generated' | 'synthetic';

/** Per-dimension noise of a grown copy: noise norm ~0.49 at 384 dimensions, cosine to its row ~0.90. */
export const NOISE_SIGMA = 0.025;
/** Pool rows kept apart as queries. */
export const HELD_OUT = 200;
export const SCIFACT_VECTOR_DIR = path.join(os.tmpdir(), 'wsctx-eval-cache', 'scifact', 'vectors');
export const GENERATED_CACHE_DIR = path.join(os.tmpdir(), 'wsctx-bench-standin');
/** Passages embedded for the `generated` pool (~6 minutes on one worker, once per machine). */
export const GENERATED_PASSAGES = 3_000;
const SYNTHETIC_ROWS = 2_000;
const SYNTHETIC_CLUSTERS = 64;

export interface VectorPool {
  source: StandinSource;
  /** One line for the notes: what the rows are. */
  describe: string;
  dimension: number;
  /** Rows usable for grown sets (held-out rows excluded). */
  rows: number;
  /** `rows + held-out` normalised rows, row-major; the held-out ones last. */
  data: Float32Array;
  /** Held-out rows (queries). */
  heldOut: number;
}

/** The pool `choice` names; `auto` is SciFact when its cache exists, else generated passages. */
export async function loadPool(
  choice: StandinSource | 'auto',
  seed: number,
  log: (m: string) => void,
): Promise<VectorPool> {
  if (choice === 'synthetic') return syntheticPool(seed);
  if (choice === 'scifact' || choice === 'auto') {
    const pool = scifactPool();
    if (typeof pool !== 'string') return pool;
    if (choice === 'scifact') throw new Error(`bench: --standin scifact: ${pool}`);
    log(`stand-in vectors: ${pool}; using generated passages instead`);
  }
  return generatedPool(seed, log);
}

/** Vector `j` of the grown set (a fresh array). */
export function grownVector(pool: VectorPool, j: number, seed: number): Float32Array {
  const d = pool.dimension;
  const row = j % pool.rows;
  const out = pool.data.slice(row * d, (row + 1) * d);
  if (j < pool.rows) return out;
  const random = new Random((Math.imul(j + 1, 0x9e3779b1) ^ seed) >>> 0);
  for (let i = 0; i < d; i++) out[i] += NOISE_SIGMA * gaussian(random);
  return normalise(out);
}

/** Held-out row `q` (0-based) of the pool: a query vector. */
export function heldOutVector(pool: VectorPool, q: number): Float32Array {
  const row = pool.rows + (q % pool.heldOut);
  return pool.data.slice(row * pool.dimension, (row + 1) * pool.dimension);
}

/** A standard normal draw (Box-Muller). */
export function gaussian(random: Random): number {
  const u = 1 - random.next(); // (0, 1]: log(0) would be -Infinity
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

export function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/** The SciFact pool, or why there is none. Reads the cache file without touching it. */
export function scifactPool(dir = SCIFACT_VECTOR_DIR): VectorPool | string {
  const modelId = localModelId('minilm');
  const file = path.join(dir, vectorCacheFileName(modelId));
  if (!existsSync(file))
    return `no SciFact vector cache at ${file} (npm run eval -- --dataset scifact --embeddings local makes it)`;
  const records = readCacheFile(readFileSync(file), modelId);
  if (typeof records === 'string') return `${file} ${records}`;
  // Digest order: the same pool for the same cached texts, whatever order they were embedded in.
  const digests = [...records.keys()].sort();
  if (digests.length <= HELD_OUT * 2) return `${file} holds only ${digests.length} vectors`;
  return fromRows(
    'scifact',
    `${digests.length - HELD_OUT} all-MiniLM-L6-v2 vectors of BEIR SciFact abstract windows (the eval's cache)`,
    digests.map((d) => records.get(d)!),
  );
}

/**
 * Records of a vector cache file (embeddings/vectorCache.ts layout), one vector each; a string
 * says why the file cannot be used. Read here rather than through `VectorCache.open`, which
 * deletes a file written for another model, and this one belongs to the eval.
 */
function readCacheFile(buf: Buffer, modelId: string): Map<string, Float32Array> | string {
  if (buf.byteOffset % 4 !== 0) buf = Buffer.from(buf);
  if (buf.length < 16 || buf.toString('latin1', 0, 4) !== 'WSCV') return 'is not a vector cache file';
  if (buf.readUInt32LE(4) !== VECTOR_CACHE_FORMAT)
    return `has format ${buf.readUInt32LE(4)}, expected ${VECTOR_CACHE_FORMAT}`;
  const dimension = buf.readUInt32LE(8);
  const idBytes = buf.readUInt32LE(12);
  const id = buf.toString('utf8', 16, 16 + idBytes);
  if (id !== modelId || dimension !== MINILM_DIMENSION)
    return `was written by ${id} (${dimension} dimensions), not ${modelId}`;
  const records = new Map<string, Float32Array>();
  let at = 16 + Math.ceil(idBytes / 4) * 4;
  while (at + 40 <= buf.length) {
    const count = buf.readUInt32LE(at + 32);
    const end = at + 40 + count * dimension * 4;
    if (count === 0 || end > buf.length) break;
    if (count === 1)
      records.set(buf.toString('hex', at, at + 32), new Float32Array(buf.buffer, buf.byteOffset + at + 40, dimension));
    at = end;
  }
  return records;
}

/**
 * Generated passages (one topic's heading and paragraph of 50-110 words each, one model window),
 * embedded with the packaged model through a cache of their own, so only the first run pays.
 */
export async function generatedPool(seed: number, log: (m: string) => void): Promise<VectorPool> {
  const random = new Random(seed).fork('standin-passages');
  const prose = new Prose(random);
  const topics = Array.from({ length: 100 }, () => makeTopic(random, prose.rareWord()));
  const passages = Array.from({ length: GENERATED_PASSAGES }, (_, i) => {
    const topic = topics[i % topics.length];
    return `${prose.heading(topic)}\n\n${prose.paragraph(topic, random.int(50, 110))}`;
  });
  const embedder = createEmbedder({
    ...DEFAULT_EMBEDDING_SETTINGS,
    provider: 'local',
    workers: Math.max(1, Math.min(2, os.cpus().length)),
  })!;
  const cache = VectorCache.open({ dir: GENERATED_CACHE_DIR, modelId: embedder.id, log });
  try {
    const missing = passages.filter((p) => !cache.has(textDigest(p))).length;
    if (missing > 0)
      log(`stand-in vectors: embedding ${missing} generated passages once (cached in ${GENERATED_CACHE_DIR})`);
    const started = performance.now();
    let last = started;
    const { vectors } = await embedTextsCached(embedder, passages, {
      cache,
      onProgress: (done, total) => {
        if (performance.now() - last < 15_000) return;
        last = performance.now();
        log(`stand-in vectors: ${done}/${total} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      },
    });
    return fromRows(
      'generated',
      `${GENERATED_PASSAGES - HELD_OUT} all-MiniLM-L6-v2 vectors of generated passages (seed ${seed})`,
      vectors,
    );
  } finally {
    cache.close();
    await embedder.dispose();
  }
}

/** Clustered Gaussian vectors: {@link SYNTHETIC_CLUSTERS} random unit centres, members at cosine ~0.7. */
export function syntheticPool(seed: number, dimension = MINILM_DIMENSION): VectorPool {
  const random = new Random(seed).fork('standin-synthetic');
  const unit = () => normalise(Float32Array.from({ length: dimension }, () => gaussian(random)));
  const centres = Array.from({ length: SYNTHETIC_CLUSTERS }, unit);
  const rows = Array.from({ length: SYNTHETIC_ROWS + HELD_OUT }, () => {
    const centre = random.pick(centres);
    return normalise(Float32Array.from(centre, (x) => x + 0.05 * gaussian(random)));
  });
  return fromRows(
    'synthetic',
    `${SYNTHETIC_ROWS} synthetic clustered vectors, no model (--quick: timing paths only)`,
    rows,
  );
}

function fromRows(source: StandinSource, describe: string, rows: readonly Float32Array[]): VectorPool {
  const dimension = rows[0].length;
  const data = new Float32Array(rows.length * dimension);
  rows.forEach((r, i) => data.set(normalise(Float32Array.from(r)), i * dimension));
  return { source, describe, dimension, rows: rows.length - HELD_OUT, data, heldOut: HELD_OUT };
}
