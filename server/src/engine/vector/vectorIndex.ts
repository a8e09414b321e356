/**
 * Nearest-neighbour search over embeddings (docs/ARCHITECTURE.md, "Text analysis and candidates"): candidates by meaning.
 *
 * Three implementations behind one interface, all holding the vectors once as int8 codes with a
 * norm each in one contiguous store (vectorStore.ts), which answers `similarity` (the ranker's
 * cosine of a question with any held window):
 * - `hnsw` (default): the built-in HNSW graph (graphIndex.ts, hnswGraph.ts) whose distances are
 *   the store's int8 cosines: nothing besides the store but the links (~130 bytes a vector).
 * - `hnswlib`: HNSW through the native `hnswlib-node` addon (hnswIndex.ts), which keeps its own
 *   float32 copy of every vector for its graph search (~1.7 kB a 384-d vector more).
 * - `exact`: a cosine scan of the store (the recall oracle in tests, the reference a store's
 *   exact path is compared with).
 *
 * Labels are caller-chosen integers in 0..2^32-1 (a window or section number); scores are
 * cosine similarities in -1..1, best first. Vectors need not be normalized on the way in.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { ExactIndex, EXACT_INDEX_MAGIC } from './exactIndex';
import { GraphIndex, GRAPH_INDEX_MAGIC } from './graphIndex';
import {
  HnswIndex,
  hnswStorePath,
  loadHnswlib,
  readHnswlibStore,
  type HnswlibModule,
  type HnswLoader,
} from './hnswIndex';
import type { HnswOptions } from './hnswOptions';
import type { Int8VectorStore } from './vectorStore';

export type { HnswLoader } from './hnswIndex';
export type { HnswOptions } from './hnswOptions';

export interface SearchHit {
  label: number;
  /** Cosine similarity to the query. */
  score: number;
}

/** `hnsw`: the built-in graph over the int8 store; `hnswlib`: hnswlib-node; `exact`: the scan. */
export type VectorIndexKind = 'hnsw' | 'hnswlib' | 'exact';

/** The backend option: `auto` is `hnsw`. */
export type VectorBackendChoice = 'auto' | VectorIndexKind;

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
  /** The live labels, in the index's own slot order (a copy). */
  labels(): number[];
  /** Bytes of the int8 store in memory, and the built-in graph's links (hnswlib's native graph and vectors not counted). */
  readonly bytes: number;
  /** Up to `k` nearest labels by cosine, best first; `filter` keeps only the labels it accepts. */
  search(query: ArrayLike<number>, k: number, filter?: (label: number) => boolean): SearchHit[];
  /** Writes the index to `path` (plus `path.int8` for hnswlib-node, its int8 store), atomically per file. */
  save(path: string): void;
}

export interface VectorBackendStatus {
  backend: VectorIndexKind;
  /** Why this backend: the default, the option, or the error that stopped hnswlib-node. */
  reason: string;
}

/**
 * Which backend an index created with `choice` runs and why. `hnswlib` where the addon does not
 * load runs the built-in graph instead, and the reason says why.
 */
export function vectorBackendStatus(choice: VectorBackendChoice = 'auto', loader?: HnswLoader): VectorBackendStatus {
  if (choice === 'exact') return { backend: 'exact', reason: 'the exact cosine scan, as configured' };
  if (choice === 'hnswlib') {
    const loaded = loadHnswlib(loader);
    if ('lib' in loaded)
      return {
        backend: 'hnswlib',
        reason: 'hnswlib-node loaded, as configured (a float32 copy of every vector besides the int8 store)',
      };
    return {
      backend: 'hnsw',
      reason: `hnswlib configured, but ${loaded.error}; using the built-in HNSW graph over the int8 vector store`,
    };
  }
  return { backend: 'hnsw', reason: 'the built-in HNSW graph over the int8 vector store' };
}

export interface CreateVectorIndexOptions {
  /**
   * `auto` (default) and `hnsw`: the built-in graph; `hnswlib`: hnswlib-node (the built-in graph,
   * with a log line, where the addon does not load); `exact`: the scan.
   */
  backend?: VectorBackendChoice;
  hnsw?: HnswOptions;
  /** Injected addon loader (tests simulate a platform where the addon fails). */
  loader?: HnswLoader;
  /** Told when the chosen backend cannot run, or a saved index is rebuilt as another backend. */
  log?: (message: string) => void;
}

/** Creates an empty index of the chosen kind. */
export function createVectorIndex(dimension: number, options: CreateVectorIndexOptions = {}): VectorIndex {
  if (!Number.isInteger(dimension) || dimension < 1)
    throw new RangeError(`vector index: dimension must be a positive integer (got ${dimension})`);
  const backend = options.backend ?? 'auto';
  if (backend === 'exact') return new ExactIndex(dimension);
  if (backend === 'hnswlib') {
    const loaded = loadHnswlib(options.loader);
    if ('lib' in loaded) return new HnswIndex(loaded.lib, dimension, options.hnsw);
    options.log?.(`vector index: ${vectorBackendStatus('hnswlib', options.loader).reason}`);
  }
  return new GraphIndex(dimension, options.hnsw);
}

export interface LoadVectorIndexOptions extends CreateVectorIndexOptions {
  /**
   * What to do with a file another backend saved: `rebuild` (default) builds the chosen backend
   * from its int8 vectors before returning; `refuse` throws, naming both backends, so a caller
   * that must not wait (a restart: the graph's insertions take minutes of CPU at 250k vectors)
   * rebuilds in the background from the vector cache instead.
   */
  foreign?: 'rebuild' | 'refuse';
}

/** Throws for `foreign: 'refuse'` when the saved kind is not the chosen one. */
function refuseForeign(
  path: string,
  from: VectorIndexKind,
  wanted: VectorIndexKind,
  options: LoadVectorIndexOptions,
): void {
  if (options.foreign === 'refuse' && from !== wanted)
    throw new Error(
      `vector index: ${path} was saved by the ${BACKEND_NAMES[from]}, the ${BACKEND_NAMES[wanted]} is chosen`,
    );
}

/** What a saved index file at `path` is, by its first bytes. */
function kindOfFile(head: Buffer): VectorIndexKind {
  const magic = head.toString('latin1');
  if (magic === EXACT_INDEX_MAGIC) return 'exact';
  if (magic === GRAPH_INDEX_MAGIC) return 'hnsw';
  // hnswlib's own format has no magic: its first bytes are offsets.
  return 'hnswlib';
}

/** (label, int8 codes, 1 / |codes|) of every live vector: what a rebuild as another backend copies. */
type CodesSource = { count: number; each: () => Iterable<[number, { codes: Int8Array; inverseNorm: number }]> };

function codesOfIndex(index: VectorIndex): CodesSource {
  return {
    count: index.size,
    *each() {
      for (const label of index.labels()) yield [label, index.quantized(label)!];
    },
  };
}

function codesOfStore(store: Int8VectorStore): CodesSource {
  return {
    count: store.liveCount,
    *each() {
      for (let slot = 0; slot < store.count; slot++)
        if (store.live[slot] === 1) yield [store.labels[slot], store.quantizedOf(slot)];
    },
  };
}

/**
 * A new index of the backend `options` choose, with a log line, and how to add a vector's codes
 * to it so its cosines stay the same: the built-in graph and the exact scan take the codes as they
 * are; hnswlib-node takes them dequantized (quantized again, they give the same codes).
 */
function rebuildTarget(
  path: string,
  from: VectorIndexKind,
  source: CodesSource,
  dimension: number,
  options: LoadVectorIndexOptions,
) {
  const target = createVectorIndex(dimension, options);
  options.log?.(
    `vector index: ${path} was saved by the ${BACKEND_NAMES[from]}; building the ${BACKEND_NAMES[target.kind]} from its int8 vectors (${source.count}), once`,
  );
  const add = (label: number, { codes, inverseNorm }: { codes: Int8Array; inverseNorm: number }) => {
    if (target instanceof GraphIndex || target instanceof ExactIndex) target.addQuantized(label, codes, inverseNorm);
    else
      target.add(
        label,
        Float32Array.from(codes, (c) => c * inverseNorm),
      );
  };
  return { target, add };
}

/** `source`'s vectors in a new index of the chosen backend (rebuildTarget). */
function rebuildAs(
  path: string,
  from: VectorIndexKind,
  source: CodesSource,
  dimension: number,
  options: LoadVectorIndexOptions,
): VectorIndex {
  const { target, add } = rebuildTarget(path, from, source, dimension, options);
  for (const [label, codes] of source.each()) add(label, codes);
  return target;
}

/** `rebuildAs`, yielding to the event loop every 512 vectors (a graph insertion is ~1 ms at 250k). */
async function rebuildAsAsync(
  path: string,
  from: VectorIndexKind,
  source: CodesSource,
  dimension: number,
  options: LoadVectorIndexOptions,
): Promise<VectorIndex> {
  const { target, add } = rebuildTarget(path, from, source, dimension, options);
  let done = 0;
  for (const [label, codes] of source.each()) {
    add(label, codes);
    if (++done % 512 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return target;
}

const BACKEND_NAMES: Record<VectorIndexKind, string> = {
  hnsw: 'built-in HNSW graph',
  hnswlib: 'hnswlib-node index',
  exact: 'exact scan',
};

/** The kind `options` choose (`auto`: the graph; `hnswlib` where the addon does not load: the graph). */
function wantedKind(options: LoadVectorIndexOptions): VectorIndexKind {
  return vectorBackendStatus(options.backend ?? 'auto', options.loader).backend;
}

/**
 * Reads an index written by `save`, as the backend `options` choose: a file another backend
 * wrote is rebuilt from its int8 vectors with a log line (hnswlib-node's file needs no addon for
 * that: its int8 store beside it is read). Throws a clear error naming the file when it is
 * missing or damaged; callers then rebuild from the vector cache.
 */
export function loadVectorIndex(path: string, options: LoadVectorIndexOptions = {}): VectorIndex {
  const head = Buffer.alloc(4);
  try {
    // Only the magic: an hnswlib file can be hundreds of megabytes.
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new Error(`vector index: cannot read ${path}: ${(err as Error).message}`);
  }
  const kind = kindOfFile(head);
  const wanted = wantedKind(options);
  refuseForeign(path, kind, wanted, options);
  if (kind === 'hnswlib' && wanted !== 'hnswlib') {
    const store = readHnswlibStore(
      path,
      readStoreFile(path, () => readFileSync(hnswStorePath(path))),
    );
    return rebuildAs(path, kind, codesOfStore(store), store.dimension, options);
  }
  const index =
    kind === 'exact'
      ? ExactIndex.load(path)
      : kind === 'hnsw'
        ? GraphIndex.load(path, options.hnsw)
        : HnswIndex.load(hnswlibFor(path, options.loader), path, options.hnsw);
  return kind === wanted ? index : rebuildAs(path, kind, codesOfIndex(index), index.dimension, options);
}

/**
 * `loadVectorIndex` without blocking the calling thread for long: the file is read
 * asynchronously (hnswlib's on the libuv thread pool, while a restart parses the lexical
 * snapshot), and a rebuild as another backend yields to the event loop between slices. Same
 * errors as `loadVectorIndex`.
 */
export async function loadVectorIndexAsync(path: string, options: LoadVectorIndexOptions = {}): Promise<VectorIndex> {
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
  const kind = kindOfFile(head);
  const wanted = wantedKind(options);
  refuseForeign(path, kind, wanted, options);
  if (kind === 'hnswlib' && wanted !== 'hnswlib') {
    let raw: Buffer;
    try {
      raw = await readFile(hnswStorePath(path));
    } catch (err) {
      throw noStoreFile(path, err);
    }
    const store = readHnswlibStore(path, raw);
    return rebuildAsAsync(path, kind, codesOfStore(store), store.dimension, options);
  }
  let index: VectorIndex;
  if (kind === 'exact') index = ExactIndex.load(path);
  else if (kind === 'hnswlib') index = await HnswIndex.loadAsync(hnswlibFor(path, options.loader), path, options.hnsw);
  else {
    let raw: Buffer;
    try {
      raw = await readFile(path);
    } catch (err) {
      throw new Error(`vector index: cannot read ${path}: ${(err as Error).message}`);
    }
    index = GraphIndex.fromBytes(path, raw, options.hnsw);
  }
  return kind === wanted ? index : rebuildAsAsync(path, kind, codesOfIndex(index), index.dimension, options);
}

function noStoreFile(path: string, err: unknown): Error {
  return new Error(
    `vector index: ${path} has no readable store file ${hnswStorePath(path)}: ${(err as Error).message}`,
  );
}

function readStoreFile(path: string, read: () => Buffer): Buffer {
  try {
    return read();
  } catch (err) {
    throw noStoreFile(path, err);
  }
}

/** hnswlib-node for reading the HNSW index at `path`; throws, naming the file, where the addon does not load. */
function hnswlibFor(path: string, loader: HnswLoader | undefined): HnswlibModule {
  const loaded = loadHnswlib(loader);
  if (!('lib' in loaded)) throw new Error(`vector index: ${path} is an hnswlib-node index but ${loaded.error}`);
  return loaded.lib;
}
