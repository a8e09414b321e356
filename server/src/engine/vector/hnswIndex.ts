/**
 * HNSW search through the native `hnswlib-node` addon: the only file that touches it. Selected
 * with the backend `hnswlib`; the default HNSW is the built-in graph over the int8 store
 * (graphIndex.ts), which holds the vectors once.
 *
 * Two copies of the vectors exist here, and no third: hnswlib's own float32 copy inside the
 * graph (the addon cannot search memory it does not own), and the int8 store (vectorStore.ts)
 * that answers `similarity`, the ranker's per-candidate cosine (a float copy per window in JS
 * besides cost ~380 MB at 250k MiniLM windows; the store is ~100 MB). The store is also what the
 * exact scan holds where the addon does not load, so both backends give the same cosines.
 *
 * The addon compiles at install (node-gyp, no prebuilt binaries), so it can be missing or broken
 * on a user's platform. It is required lazily inside try/catch; when it fails, `createVectorIndex`
 * with backend `hnswlib` throws and `vectorBackendStatus('hnswlib')` says why.
 *
 * Algorithm: Malkov & Yashunin, "Efficient and robust approximate nearest neighbor search using
 * Hierarchical Navigable Small World graphs" (2016), as implemented by hnswlib. Cosine space
 * (hnswlib normalizes vectors and reports distance = 1 - cosine). Removal is `markDelete`: the
 * node stays in the graph as a waypoint and is never returned; adding the same label again revives
 * it in place. Slots of deleted labels are not handed to new labels (hnswlib's replace-deleted
 * mode cannot say which label it evicted), so a workspace that churns many labels should rebuild
 * its index from the vector cache now and then (`deletedCount` tells how many slots are dead).
 */
import { readVectorFileHeader, writeVectorFileHeader } from './vectorFileHeader';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type * as Hnswlib from 'hnswlib-node';
import { checkDimension, checkLabel } from './vectorChecks';
import { Int8VectorStore } from './vectorStore';
import { HNSW_DEFAULTS, type HnswOptions } from './hnswOptions';
import type { SearchHit, VectorIndex } from './vectorIndex';

export type { HnswOptions } from './hnswOptions';

export type HnswlibModule = typeof Hnswlib;
/** Returns the addon module or throws; injectable so tests can simulate a failing addon. */
export type HnswLoader = () => HnswlibModule;

const DEFAULTS = HNSW_DEFAULTS;

let defaultLoad: { lib: HnswlibModule } | { error: string } | undefined;

function requireAddon(): HnswlibModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('hnswlib-node') as HnswlibModule;
}

/** Loads the addon once per loader (the default result is remembered). Never throws. */
export function loadHnswlib(loader?: HnswLoader): { lib: HnswlibModule } | { error: string } {
  if (!loader && defaultLoad) return defaultLoad;
  let result: { lib: HnswlibModule } | { error: string };
  try {
    const lib = (loader ?? requireAddon)();
    if (typeof lib?.HierarchicalNSW !== 'function') throw new Error('the module has no HierarchicalNSW class');
    result = { lib };
  } catch (err) {
    result = {
      error: `hnswlib-node could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
    };
  }
  if (!loader) defaultLoad = result;
  return result;
}

/** First bytes of the store file beside an HNSW index (`path.int8`). */
export const HNSW_STORE_MAGIC = 'WSHS';
/** 1: meta, the hnswlib file's size, then the int8 store (the older `.meta.json` is rebuilt). */
const STORE_FORMAT = 1;
/** magic | format | dimension | m | efConstruction | hnswlib file bytes (f64) */
const STORE_HEADER_BYTES = 28;

/** The file beside an HNSW index that holds its int8 store and build parameters. */
export function hnswStorePath(path: string): string {
  return `${path}.int8`;
}

export class HnswIndex implements VectorIndex {
  readonly kind = 'hnswlib' as const;
  private readonly index: Hnswlib.HierarchicalNSW;
  /** The int8 copy: every label hnswlib holds, live or deleted, at one slot each (never moved). */
  private store: Int8VectorStore;
  private readonly opts: Required<HnswOptions>;

  constructor(
    lib: HnswlibModule,
    readonly dimension: number,
    options: HnswOptions = {},
    existing?: { raw: Hnswlib.HierarchicalNSW; store: Int8VectorStore },
  ) {
    this.opts = { ...DEFAULTS, ...options };
    this.index = existing?.raw ?? new lib.HierarchicalNSW('cosine', dimension);
    this.store = existing?.store ?? new Int8VectorStore(dimension, 256);
    if (!existing) {
      this.index.initIndex({
        maxElements: Math.max(16, this.opts.initialCapacity),
        m: this.opts.m,
        efConstruction: this.opts.efConstruction,
        randomSeed: this.opts.randomSeed,
      });
    }
  }

  get size(): number {
    return this.store.liveCount;
  }

  /** Graph degree the index was built with. */
  get m(): number {
    return this.opts.m;
  }

  /** Candidate list the index was built with. */
  get efConstruction(): number {
    return this.opts.efConstruction;
  }

  /** Removed labels whose slots are still allocated. */
  get deletedCount(): number {
    return this.store.count - this.store.liveCount;
  }

  /** Bytes of the int8 store (hnswlib's native memory is not counted: the bench measures RSS). */
  get bytes(): number {
    return this.store.bytes;
  }

  has(label: number): boolean {
    return this.store.liveSlot(label) !== undefined;
  }

  add(label: number, vector: ArrayLike<number>): void {
    checkLabel(label);
    checkDimension(vector, this.dimension);
    const slot = this.store.slotOf.get(label);
    if (slot === undefined && this.index.getCurrentCount() >= this.index.getMaxElements()) {
      this.index.resizeIndex(this.index.getMaxElements() * 2);
    }
    // The addon accepts plain arrays only. For a known label hnswlib updates the vector in place
    // (and unmarks it when it was deleted).
    this.index.addPoint(Array.from(vector), label);
    if (slot === undefined) this.store.append(label, vector);
    else {
      this.store.write(slot, vector);
      this.store.setLive(slot, true);
    }
  }

  remove(label: number): boolean {
    const slot = this.store.liveSlot(label);
    if (slot === undefined) return false;
    this.index.markDelete(label);
    this.store.setLive(slot, false);
    return true;
  }

  labels(): number[] {
    return this.store.liveLabels();
  }

  quantized(label: number): { codes: Int8Array; inverseNorm: number } | null {
    const slot = this.store.liveSlot(label);
    return slot === undefined ? null : this.store.quantizedOf(slot);
  }

  similarity(label: number, query: Float32Array): number | null {
    const slot = this.store.liveSlot(label);
    return slot === undefined ? null : this.store.similarity(slot, query);
  }

  search(query: ArrayLike<number>, k: number, filter?: (label: number) => boolean): SearchHit[] {
    checkDimension(query, this.dimension);
    const want = Math.min(Math.floor(k), this.store.liveCount);
    if (want <= 0) return [];
    this.index.setEf(Math.max(this.opts.efSearch, want));
    const { distances, neighbors } = this.index.searchKnn(Array.from(query), want, filter);
    return neighbors.map((label, i) => ({ label, score: 1 - distances[i] }));
  }

  /**
   * Writes hnswlib's own file at `path` (its binary format: graph and float vectors) and the int8
   * store at `path.int8`, each through a temporary file and a rename. The store file names the
   * hnswlib file's size, so a pair torn by a crash between the renames is refused on load.
   */
  save(path: string): void {
    const tmp = `${path}.${process.pid}.tmp`;
    const storeTmp = `${hnswStorePath(path)}.${process.pid}.tmp`;
    try {
      this.index.writeIndexSync(tmp);
      const buf = Buffer.alloc(STORE_HEADER_BYTES + this.store.serializedBytes());
      writeVectorFileHeader(buf, HNSW_STORE_MAGIC, STORE_FORMAT, this.dimension);
      buf.writeUInt32LE(this.opts.m, 12);
      buf.writeUInt32LE(this.opts.efConstruction, 16);
      buf.writeDoubleLE(statSync(tmp).size, 20);
      this.store.serialize(buf, STORE_HEADER_BYTES);
      writeFileSync(storeTmp, buf);
      renameSync(tmp, path);
      renameSync(storeTmp, hnswStorePath(path));
    } finally {
      rmSync(tmp, { force: true });
      rmSync(storeTmp, { force: true });
    }
  }

  /**
   * Reads what `save` wrote: hnswlib's file through `readIndexSync` and the int8 store. Throws a
   * message naming the file when either is missing, damaged or the two do not belong together.
   */
  static load(lib: HnswlibModule, path: string, options: HnswOptions = {}): HnswIndex {
    const storeFile = hnswStorePath(path);
    let buf: Buffer;
    try {
      buf = readFileSync(storeFile);
    } catch (err) {
      throw new Error(`vector index: ${path} has no readable store file ${storeFile}: ${(err as Error).message}`);
    }
    const header = readStoreHeader(path, buf);
    const raw = new lib.HierarchicalNSW('cosine', header.dimension);
    try {
      raw.readIndexSync(path);
    } catch (err) {
      throw new Error(`vector index: cannot read HNSW index ${path}: ${(err as Error).message}`);
    }
    return HnswIndex.assemble(lib, path, header, raw, options);
  }

  /**
   * `load` without blocking: hnswlib reads its file on the libuv thread pool while the caller's
   * thread goes on (a restart parses the lexical snapshot meanwhile), and the store is read
   * asynchronously. Same checks and errors as `load`.
   */
  static async loadAsync(lib: HnswlibModule, path: string, options: HnswOptions = {}): Promise<HnswIndex> {
    const storeFile = hnswStorePath(path);
    let buf: Buffer;
    try {
      buf = await readFile(storeFile);
    } catch (err) {
      throw new Error(`vector index: ${path} has no readable store file ${storeFile}: ${(err as Error).message}`);
    }
    const header = readStoreHeader(path, buf);
    const raw = new lib.HierarchicalNSW('cosine', header.dimension);
    try {
      await raw.readIndex(path);
    } catch (err) {
      throw new Error(`vector index: cannot read HNSW index ${path}: ${(err as Error).message}`);
    }
    return HnswIndex.assemble(lib, path, header, raw, options);
  }

  /** The index from hnswlib's loaded graph and the store's bytes, once they are known to belong together. */
  private static assemble(
    lib: HnswlibModule,
    path: string,
    header: StoreHeader,
    raw: Hnswlib.HierarchicalNSW,
    options: HnswOptions,
  ): HnswIndex {
    const storeFile = hnswStorePath(path);
    const { store, end } = Int8VectorStore.deserialize(header.buf, STORE_HEADER_BYTES, header.dimension, storeFile);
    if (end !== header.buf.length) throw new Error(`vector index: ${storeFile} is truncated or damaged`);
    const labels = raw.getIdsList();
    if (
      raw.getNumDimensions() !== header.dimension ||
      labels.length !== store.count ||
      labels.some((label) => !store.slotOf.has(label))
    ) {
      throw new Error(`vector index: ${path} does not match ${storeFile} (saved by an interrupted write?)`);
    }
    return new HnswIndex(
      lib,
      header.dimension,
      { ...options, m: header.m, efConstruction: header.efConstruction },
      { raw, store },
    );
  }
}

interface StoreHeader {
  buf: Buffer;
  dimension: number;
  m: number;
  efConstruction: number;
}

/**
 * The store file's header, checked: its magic and format, and that hnswlib's file at `path` has
 * the size the store recorded (a pair torn by a crash between the renames differs).
 */
function readStoreHeader(path: string, raw: Buffer): StoreHeader {
  const storeFile = hnswStorePath(path);
  const { buf, dimension } = readVectorFileHeader(raw, storeFile, {
    magic: HNSW_STORE_MAGIC,
    format: STORE_FORMAT,
    what: 'an HNSW store file',
    minBytes: STORE_HEADER_BYTES,
  });
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new Error(`vector index: cannot read HNSW index ${path}: ${(err as Error).message}`);
  }
  if (size !== buf.readDoubleLE(20))
    throw new Error(`vector index: ${path} does not match ${storeFile} (saved by an interrupted write?)`);
  return { buf, dimension, m: buf.readUInt32LE(12), efConstruction: buf.readUInt32LE(16) };
}

/**
 * The int8 store saved beside hnswlib's file at `path` (`raw`: the bytes of `path.int8`), read
 * without the addon: what the built-in graph is rebuilt from when the backend changed. Same checks
 * and errors as `HnswIndex.load` for the store file.
 */
export function readHnswlibStore(path: string, raw: Buffer): Int8VectorStore {
  const header = readStoreHeader(path, raw);
  const { store, end } = Int8VectorStore.deserialize(
    header.buf,
    STORE_HEADER_BYTES,
    header.dimension,
    hnswStorePath(path),
  );
  if (end !== header.buf.length) throw new Error(`vector index: ${hnswStorePath(path)} is truncated or damaged`);
  return store;
}
