/**
 * The default vector index: HNSW (hnswGraph.ts) whose distances are the int8 store's cosines, so
 * each window's vector is held once, in the store (vectorStore.ts), and read by the graph search,
 * the ranker's `similarity` and a store's `quantized` alike. Scores are the exact scan's cosines
 * for the same labels (the same codes, the same dot product), so where the graph finds the exact
 * top k the answer is the exact scan's, bit for bit.
 *
 * Parameters (HnswOptions): M 16, efConstruction 200, efSearch 64, hnswlib-node's defaults here,
 * kept: with them, measured against the exact scan in the same runs (git history of bench/README.md, "The
 * built-in HNSW graph"), recall@10 / recall@150 was 0.461 / 0.558 against hnswlib's 0.456 / 0.549
 * at 100k x 384 generated stand-ins, and 0.650 / 0.511 against 0.661 / 0.510 over the 100k
 * workspace's 247,626 windows, whose 600 bench answers were the same with either graph. A larger
 * efSearch buys recall cheaply (0.72 at 128 for k 10 there, 0.54 ms p50) if real vectors need it.
 *
 * Removal marks the slot dead (a waypoint, never returned); adding the label again revives it in
 * place with the new vector and links it again. Slots of removed labels are not handed to other
 * labels (as with hnswlib-node).
 *
 * File layout (little-endian, every part 4-aligned): "WSHG" | format u32 | dimension u32 | m u32 |
 * efConstruction u32 | entry i32 | top level i32 | level generator state u32 | upper-level u32s
 * in use u32 | the int8 store (vectorStore.ts) | the links (hnswGraphFile.ts).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { HnswGraph } from './hnswGraph';
import { graphLinksBytes, readGraphLinks, writeGraphLinks } from './hnswGraphFile';
import { HNSW_DEFAULTS, type HnswOptions } from './hnswOptions';
import { checkDimension, checkLabel } from './vectorChecks';
import { readVectorFileHeader, VECTOR_FILE_HEADER_BYTES, writeVectorFileHeader } from './vectorFileHeader';
import { Int8VectorStore, unitQuery } from './vectorStore';
import type { SearchHit, VectorIndex } from './vectorIndex';

export const GRAPH_INDEX_MAGIC = 'WSHG';
const FORMAT = 1;
const HEADER_BYTES = VECTOR_FILE_HEADER_BYTES + 24;

export class GraphIndex implements VectorIndex {
  readonly kind = 'hnsw' as const;
  private readonly opts: Required<HnswOptions>;
  private store: Int8VectorStore;
  private graph: HnswGraph;
  /** Search output, kept between searches. */
  private outSlots = new Uint32Array(64);
  private outScores = new Float64Array(64);

  constructor(
    readonly dimension: number,
    options: HnswOptions = {},
    existing?: { store: Int8VectorStore; graph: HnswGraph },
  ) {
    if (!Number.isInteger(dimension) || dimension < 1)
      throw new RangeError(`vector index: dimension must be a positive integer (got ${dimension})`);
    this.opts = { ...HNSW_DEFAULTS, ...options };
    this.store = existing?.store ?? new Int8VectorStore(dimension, Math.max(16, this.opts.initialCapacity));
    this.graph =
      existing?.graph ??
      new HnswGraph(
        this.store,
        { m: this.opts.m, efConstruction: this.opts.efConstruction, seed: this.opts.randomSeed },
        this.store.capacity,
      );
  }

  get size(): number {
    return this.store.liveCount;
  }

  /** Graph degree the index was built with. */
  get m(): number {
    return this.graph.m;
  }

  /** Candidate list the index was built with. */
  get efConstruction(): number {
    return this.graph.efConstruction;
  }

  /** Removed labels whose slots are still allocated. */
  get deletedCount(): number {
    return this.store.count - this.store.liveCount;
  }

  /** Bytes of the int8 store and the graph's links (allocated capacity): all this index holds. */
  get bytes(): number {
    return this.store.bytes + this.graph.bytes;
  }

  /** Level-0 neighbours of a label's slot, as labels (for tests and checks); null when never added. */
  neighboursOf(label: number): number[] | null {
    const slot = this.store.slotOf.get(label);
    return slot === undefined ? null : this.graph.neighbours(slot, 0).map((s) => this.store.labels[s]);
  }

  has(label: number): boolean {
    return this.store.liveSlot(label) !== undefined;
  }

  add(label: number, vector: ArrayLike<number>): void {
    checkLabel(label);
    checkDimension(vector, this.dimension);
    const slot = this.store.slotOf.get(label);
    if (slot === undefined) {
      this.link(this.store.append(label, vector));
      return;
    }
    this.store.write(slot, vector);
    this.store.setLive(slot, true);
    this.graph.relink(slot);
  }

  /**
   * Adds a new label from codes quantized elsewhere (Int8VectorStore.appendQuantized), so its
   * cosines are bit for bit the ones of the store that quantized them; replaces nothing.
   */
  addQuantized(label: number, codes: ArrayLike<number>, inverseNorm: number): void {
    if (this.store.slotOf.has(label)) throw new Error(`vector index: label ${label} is already held`);
    this.link(this.store.appendQuantized(label, codes, inverseNorm));
  }

  remove(label: number): boolean {
    const slot = this.store.liveSlot(label);
    if (slot === undefined) return false;
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
    const store = this.store;
    const want = Math.min(Math.floor(k), store.liveCount);
    if (want <= 0) return [];
    store.setQuery(unitQuery(query));
    if (this.outSlots.length < want) {
      this.outSlots = new Uint32Array(want);
      this.outScores = new Float64Array(want);
    }
    const live = store.live;
    const labels = store.labels;
    const accept = filter
      ? (slot: number) => live[slot] === 1 && filter(labels[slot])
      : (slot: number) => live[slot] === 1;
    const n = this.graph.search(want, Math.max(this.opts.efSearch, want), accept, this.outSlots, this.outScores);
    const hits: SearchHit[] = new Array(n);
    for (let i = 0; i < n; i++) hits[i] = { label: labels[this.outSlots[i]], score: this.outScores[i] };
    return hits;
  }

  /**
   * Writes the store and the links to `path` through a temporary file and a rename. An int8 store
   * an hnswlib-node index left beside the same path (`path.int8`) is removed: this file holds it.
   */
  save(path: string): void {
    const store = this.store;
    const graph = this.graph;
    const storeBytes = store.serializedBytes();
    const buf = Buffer.alloc(HEADER_BYTES + storeBytes + graphLinksBytes(graph, store.count));
    writeVectorFileHeader(buf, GRAPH_INDEX_MAGIC, FORMAT, this.dimension);
    let at = VECTOR_FILE_HEADER_BYTES;
    for (const value of [graph.m, graph.efConstruction]) at = buf.writeUInt32LE(value, at);
    for (const value of [graph.entry, graph.maxLevel]) at = buf.writeInt32LE(value, at);
    for (const value of [graph.rngState, graph.upperUsed]) at = buf.writeUInt32LE(value >>> 0, at);
    at = store.serialize(buf, HEADER_BYTES);
    writeGraphLinks(graph, buf, at, store.count);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, buf);
      renameSync(tmp, path);
    } finally {
      rmSync(tmp, { force: true });
    }
    rmSync(`${path}.int8`, { force: true });
  }

  /** Reads what `save` wrote; errors name the file (not this kind, another format, truncated or damaged). */
  static load(path: string, options: HnswOptions = {}): GraphIndex {
    let raw: Buffer;
    try {
      raw = readFileSync(path);
    } catch (err) {
      throw new Error(`vector index: cannot read ${path}: ${(err as Error).message}`);
    }
    return GraphIndex.fromBytes(path, raw, options);
  }

  /** `load` from the file's bytes already read (`path` names it in errors). */
  static fromBytes(path: string, raw: Buffer, options: HnswOptions = {}): GraphIndex {
    const { buf, dimension } = readVectorFileHeader(raw, path, {
      magic: GRAPH_INDEX_MAGIC,
      format: FORMAT,
      what: 'an HNSW graph index file',
      minBytes: HEADER_BYTES,
    });
    const bad = () => new Error(`vector index: ${path} is truncated or damaged`);
    let at = VECTOR_FILE_HEADER_BYTES;
    const m = buf.readUInt32LE(at);
    const efConstruction = buf.readUInt32LE(at + 4);
    const entry = buf.readInt32LE(at + 8);
    const maxLevel = buf.readInt32LE(at + 12);
    const rngState = buf.readUInt32LE(at + 16);
    const upperUsed = buf.readUInt32LE(at + 20);
    if (m < 2 || m > 100 || efConstruction < 1) throw bad();
    const { store, end } = Int8VectorStore.deserialize(buf, HEADER_BYTES, dimension, path);
    at = end;
    const params = { m, efConstruction, seed: 0 };
    const { graph, end: graphEnd } = readGraphLinks(
      store,
      params,
      { entry, maxLevel, rngState, upperUsed },
      buf,
      at,
      path,
    );
    if (graphEnd !== buf.length) throw bad();
    return new GraphIndex(dimension, { ...options, m, efConstruction }, { store, graph });
  }

  /** Links a slot the store just appended (growing the graph with the store). */
  private link(slot: number): void {
    this.graph.ensureCapacity(this.store.capacity);
    this.graph.insert(slot);
  }
}
