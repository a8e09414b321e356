/**
 * HNSW search through the native `hnswlib-node` addon: the only file that touches it.
 *
 * The addon compiles at install (node-gyp, no prebuilt binaries), so it can be missing or broken
 * on a user's platform. It is required lazily inside try/catch; when it fails,
 * `createVectorIndex` falls back to the exact scan and `vectorBackendStatus()` says why.
 *
 * Algorithm: Malkov & Yashunin, "Efficient and robust approximate nearest neighbor search using
 * Hierarchical Navigable Small World graphs" (2016), as implemented by hnswlib. Cosine space
 * (hnswlib normalizes vectors and reports distance = 1 - cosine). Removal is `markDelete`: the
 * node stays in the graph as a waypoint and is never returned; adding the same label again revives
 * it in place. Slots of deleted labels are not handed to new labels (hnswlib's replace-deleted
 * mode cannot say which label it evicted), so a workspace that churns many labels should rebuild
 * its index from the vector cache now and then (`deletedCount` tells how many slots are dead).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type * as Hnswlib from 'hnswlib-node';
import { checkDimension, checkLabel } from './exactIndex';
import type { SearchHit, VectorIndex } from './vectorIndex';

export type HnswlibModule = typeof Hnswlib;
/** Returns the addon module or throws; injectable so tests can simulate a failing addon. */
export type HnswLoader = () => HnswlibModule;

export interface HnswOptions {
  /** Graph degree. Default 16; range 2..100 (higher: better recall, more memory, slower build). */
  m?: number;
  /** Candidate list while building. Default 200; range 10..1000. */
  efConstruction?: number;
  /**
   * Candidate list while searching, raised to `k` when smaller. Default 64: recall@10 1.00 on
   * clustered 100k x 384 vectors at 0.3 ms per query (notes/performance.md); 10 drops it to 0.91.
   * Range 10..1000.
   */
  efSearch?: number;
  /** Slots allocated up front; the index doubles when full. Default 1,024. */
  initialCapacity?: number;
  /** Seed for level assignment, so builds are reproducible. Default 100 (hnswlib's). */
  randomSeed?: number;
}

export interface VectorBackendStatus {
  backend: 'hnsw' | 'exact';
  /** Why: the addon loaded, or the error that stopped it. */
  reason: string;
}

const DEFAULTS = { m: 16, efConstruction: 200, efSearch: 64, initialCapacity: 1024, randomSeed: 100 };
const META_FORMAT = 1;

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
    result = { error: `hnswlib-node could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})` };
  }
  if (!loader) defaultLoad = result;
  return result;
}

/** Which vector backend runs here and why. */
export function vectorBackendStatus(loader?: HnswLoader): VectorBackendStatus {
  const loaded = loadHnswlib(loader);
  if ('lib' in loaded) return { backend: 'hnsw', reason: 'hnswlib-node loaded' };
  return { backend: 'exact', reason: `${loaded.error}; using the exact cosine scan` };
}

interface HnswMeta {
  format: number;
  kind: 'hnsw';
  dimension: number;
  m: number;
  efConstruction: number;
  /** Labels present in the file, live or deleted. */
  elements: number;
  deleted: number[];
}

/** Reads and checks `path.meta.json`; throws a clear error when it is missing or wrong. */
export function readHnswMeta(path: string): HnswMeta {
  const metaPath = `${path}.meta.json`;
  let meta: HnswMeta;
  try {
    meta = JSON.parse(readFileSync(metaPath, 'utf8')) as HnswMeta;
  } catch (err) {
    throw new Error(`vector index: ${path} is neither an exact index nor an HNSW index with a readable ${metaPath}: ${(err as Error).message}`);
  }
  if (meta?.kind !== 'hnsw' || meta.format !== META_FORMAT || !(meta.dimension >= 1) || !Array.isArray(meta.deleted)) {
    throw new Error(`vector index: ${metaPath} is not format ${META_FORMAT} HNSW metadata`);
  }
  return meta;
}

export class HnswIndex implements VectorIndex {
  readonly kind = 'hnsw' as const;
  private readonly index: Hnswlib.HierarchicalNSW;
  private readonly live = new Set<number>();
  private readonly deleted = new Set<number>();
  private readonly opts: Required<HnswOptions>;

  constructor(lib: HnswlibModule, readonly dimension: number, options: HnswOptions = {}, existing?: Hnswlib.HierarchicalNSW) {
    this.opts = { ...DEFAULTS, ...options };
    this.index = existing ?? new lib.HierarchicalNSW('cosine', dimension);
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
    return this.live.size;
  }

  /** Removed labels whose slots are still allocated. */
  get deletedCount(): number {
    return this.deleted.size;
  }

  has(label: number): boolean {
    return this.live.has(label);
  }

  add(label: number, vector: ArrayLike<number>): void {
    checkLabel(label);
    checkDimension(vector, this.dimension);
    const known = this.live.has(label) || this.deleted.has(label);
    if (!known && this.index.getCurrentCount() >= this.index.getMaxElements()) {
      this.index.resizeIndex(this.index.getMaxElements() * 2);
    }
    // The addon accepts plain arrays only. For a known label hnswlib updates the vector in place
    // (and unmarks it when it was deleted).
    this.index.addPoint(Array.from(vector), label);
    this.deleted.delete(label);
    this.live.add(label);
  }

  remove(label: number): boolean {
    if (!this.live.has(label)) return false;
    this.index.markDelete(label);
    this.live.delete(label);
    this.deleted.add(label);
    return true;
  }

  search(query: ArrayLike<number>, k: number, filter?: (label: number) => boolean): SearchHit[] {
    checkDimension(query, this.dimension);
    const want = Math.min(Math.floor(k), this.live.size);
    if (want <= 0) return [];
    this.index.setEf(Math.max(this.opts.efSearch, want));
    const { distances, neighbors } = this.index.searchKnn(Array.from(query), want, filter);
    return neighbors.map((label, i) => ({ label, score: 1 - distances[i] }));
  }

  save(path: string): void {
    const tmp = `${path}.${process.pid}.tmp`;
    const meta: HnswMeta = {
      format: META_FORMAT,
      kind: 'hnsw',
      dimension: this.dimension,
      m: this.opts.m,
      efConstruction: this.opts.efConstruction,
      elements: this.live.size + this.deleted.size,
      deleted: [...this.deleted],
    };
    try {
      this.index.writeIndexSync(tmp);
      writeFileSync(`${tmp}.meta.json`, JSON.stringify(meta));
      renameSync(tmp, path);
      renameSync(`${tmp}.meta.json`, `${path}.meta.json`);
    } finally {
      rmSync(tmp, { force: true });
      rmSync(`${tmp}.meta.json`, { force: true });
    }
  }

  static load(lib: HnswlibModule, path: string, meta: HnswMeta, options: HnswOptions = {}): HnswIndex {
    const raw = new lib.HierarchicalNSW('cosine', meta.dimension);
    try {
      raw.readIndexSync(path);
    } catch (err) {
      throw new Error(`vector index: cannot read HNSW index ${path}: ${(err as Error).message}`);
    }
    const labels = raw.getIdsList();
    if (raw.getNumDimensions() !== meta.dimension || labels.length !== meta.elements) {
      throw new Error(`vector index: ${path} does not match ${path}.meta.json (saved by an interrupted write?)`);
    }
    const index = new HnswIndex(lib, meta.dimension, { ...options, m: meta.m, efConstruction: meta.efConstruction }, raw);
    const deleted = new Set(meta.deleted);
    for (const label of labels) (deleted.has(label) ? index.deleted : index.live).add(label);
    return index;
  }
}
