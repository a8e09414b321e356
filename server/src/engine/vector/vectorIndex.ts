/**
 * Nearest-neighbour search over embeddings (DESIGN.md section 4): candidates by meaning.
 *
 * Two implementations behind one interface: HNSW through the native `hnswlib-node` addon (fast,
 * approximate) and an exact cosine scan (the fallback where the addon does not load, and the
 * recall oracle in tests). Both keep the vectors for `similarity` (the ranker's cosine of a
 * question with any held window) once, as int8 codes with a norm each in one contiguous store
 * (vectorStore.ts); the exact scan reads only that store, HNSW has hnswlib's float32 copy besides
 * for its graph search. An exact scan is fine up to a few thousand vectors.
 *
 * Labels are caller-chosen integers in 0..2^32-1 (a window or section number); scores are
 * cosine similarities in -1..1, best first. Vectors need not be normalized on the way in.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { ExactIndex, EXACT_INDEX_MAGIC } from './exactIndex';
import { HnswIndex, loadHnswlib, type HnswlibModule, type HnswLoader, type HnswOptions } from './hnswIndex';

export { vectorBackendStatus, type HnswLoader, type HnswOptions, type VectorBackendStatus } from './hnswIndex';

export interface SearchHit {
  label: number;
  /** Cosine similarity to the query. */
  score: number;
}

export type VectorIndexKind = 'hnsw' | 'exact';

export interface VectorIndex {
  readonly kind: VectorIndexKind;
  readonly dimension: number;
  /** Live vectors (removed ones not counted). */
  readonly size: number;
  /** Adds a vector, or replaces the vector a label already has. */
  add(label: number, vector: ArrayLike<number>): void;
  /** Removes a label; false when it was not there. */
  remove(label: number): boolean;
  has(label: number): boolean;
  /**
   * Cosine of a label's vector with a query, from the int8 store (within ~0.005 of the float32
   * cosine); null when the label is not held. The query array must not change between calls
   * (the store quantizes it once per array).
   */
  similarity(label: number, query: Float32Array): number | null;
  /**
   * A live label's int8 codes and 1 / |codes| as the store holds them (a copy), or null when the
   * label is not held: what a PostgreSQL store writes, so its cosines equal this index's.
   */
  quantized(label: number): { codes: Int8Array; inverseNorm: number } | null;
  /** Bytes of the int8 store in memory (hnswlib's native graph and vectors not counted). */
  readonly bytes: number;
  /** Up to `k` nearest labels by cosine, best first; `filter` keeps only the labels it accepts. */
  search(query: ArrayLike<number>, k: number, filter?: (label: number) => boolean): SearchHit[];
  /** Writes the index to `path` (plus `path.int8` for HNSW, its int8 store), atomically per file. */
  save(path: string): void;
}

export interface CreateVectorIndexOptions {
  /** `auto` (default): HNSW when the addon loads, else exact. `hnsw` fails when it does not load. */
  backend?: 'auto' | VectorIndexKind;
  hnsw?: HnswOptions;
  /** Injected addon loader (tests simulate a platform where the addon fails). */
  loader?: HnswLoader;
  /** Told once why the exact index was chosen over HNSW. */
  log?: (message: string) => void;
}

/** Creates an empty index of the best available kind. */
export function createVectorIndex(dimension: number, options: CreateVectorIndexOptions = {}): VectorIndex {
  if (!Number.isInteger(dimension) || dimension < 1) throw new RangeError(`vector index: dimension must be a positive integer (got ${dimension})`);
  const backend = options.backend ?? 'auto';
  if (backend === 'exact') return new ExactIndex(dimension);
  const loaded = loadHnswlib(options.loader);
  if ('lib' in loaded) return new HnswIndex(loaded.lib, dimension, options.hnsw);
  if (backend === 'hnsw') throw new Error(`vector index: HNSW requested but ${loaded.error}`);
  options.log?.(`vector index: using the exact scan: ${loaded.error}`);
  return new ExactIndex(dimension);
}

/**
 * Reads an index written by `save`. Throws a clear error when the file is missing, damaged, or
 * an HNSW index on a platform where the addon does not load; callers then rebuild from the
 * vector cache.
 */
export function loadVectorIndex(path: string, options: Pick<CreateVectorIndexOptions, 'loader' | 'hnsw'> = {}): VectorIndex {
  const head = Buffer.alloc(4);
  try {
    // Only the magic: an HNSW file can be hundreds of megabytes.
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new Error(`vector index: cannot read ${path}: ${(err as Error).message}`);
  }
  if (head.toString('latin1') === EXACT_INDEX_MAGIC) return ExactIndex.load(path);
  return HnswIndex.load(hnswlibFor(path, options.loader), path, options.hnsw);
}

/**
 * `loadVectorIndex` without blocking the calling thread for the big reads: an HNSW index is read
 * by hnswlib on the libuv thread pool (a restart parses the lexical snapshot meanwhile). Same
 * errors as `loadVectorIndex`.
 */
export async function loadVectorIndexAsync(path: string, options: Pick<CreateVectorIndexOptions, 'loader' | 'hnsw'> = {}): Promise<VectorIndex> {
  const head = Buffer.alloc(4);
  try {
    const file = await open(path, 'r');
    try {
      await file.read(head, 0, 4, 0);
    } finally {
      await file.close();
    }
  } catch (err) {
    throw new Error(`vector index: cannot read ${path}: ${(err as Error).message}`);
  }
  if (head.toString('latin1') === EXACT_INDEX_MAGIC) return ExactIndex.load(path);
  return HnswIndex.loadAsync(hnswlibFor(path, options.loader), path, options.hnsw);
}

/** hnswlib-node for reading the HNSW index at `path`; throws, naming the file, where the addon does not load. */
function hnswlibFor(path: string, loader: HnswLoader | undefined): HnswlibModule {
  const loaded = loadHnswlib(loader);
  if (!('lib' in loaded)) throw new Error(`vector index: ${path} is an HNSW index but ${loaded.error}`);
  return loaded.lib;
}
