/**
 * The one copy of the vectors in JS memory: every vector of an index, quantized to int8, in one
 * contiguous array, with one float per vector that turns an int8 dot product back into a cosine.
 * The exact scan reads it directly and the HNSW index (hnswIndex.ts) answers cosines from it,
 * so no float32 copy of a window lives in JS (issue 12, item 5: 250k MiniLM windows are ~96 MB
 * here; float32 copies in the cache and the sections held 380 MB besides hnswlib's own storage,
 * which its graph search needs and which stays).
 *
 * Quantization: a vector is normalized, then scaled so its largest component is 127 and rounded.
 * `inverseNorm` is 1 / |codes|, so for a unit query q the cosine is dot(q, codes) x inverseNorm:
 * the error is the rounding's, about 0.002 in cosine for 384 dimensions (tested against float32).
 *
 * The codes live in a WebAssembly memory so the SIMD dot product (int8Dot.ts) reads them in
 * place: rows are padded to a multiple of 16 codes (`stride`; 384 needs none) and the first row
 * of the memory is scratch for a quantized query: a query is quantized the same way and compared
 * int8 with int8, about 40 ns per cosine at 384 dimensions (a float loop over the codes measured
 * 5-20 us here). The cosine's error against float32 is about 0.003 (tested under 0.005).
 *
 * Slots are positions in the arrays; labels are the caller's integers (0..2^32-1). A slot can be
 * marked dead (HNSW keeps dead nodes as waypoints) or moved (the exact scan packs its slots).
 *
 * Serialized layout (little-endian, every part 4-byte aligned): count u32 | labels u32 x count |
 * live u8 x count (padded to 4) | inverseNorm f32 x count | codes i8 x count x stride.
 */
import { createWasmMemory, int8DotOver, WASM_PAGE as PAGE, type Int8Dot, type WasmMemory } from './int8Dot';
import { checkDimension, checkLabel } from './vectorChecks';

export class Int8VectorStore {
  /** Codes per row: `dimension` rounded up to a multiple of 16 (the padding is zero). */
  readonly stride: number;
  /** The WebAssembly memory: a query row, then one row per slot. */
  private readonly memory: WasmMemory;
  /** The SIMD dot product over `codes` (byte offsets): the HNSW graph (hnswGraph.ts) calls it directly. */
  readonly dotCodes: Int8Dot;
  /** int8 codes over the memory: row 0 the query, slot s at row s + 1. */
  codes: Int8Array;
  /** 1 / |quantized query codes|, set by `setQuery`. */
  queryInverseNorm = 0;
  /** The query array the scratch row holds. */
  private lastQuery: ArrayLike<number> | null = null;
  /** 1 / |codes of the slot|: multiplies an int8 dot product into a cosine. */
  inverseNorms: Float32Array;
  labels: Uint32Array;
  /** 1 when the slot's label is live, 0 when removed (the slot keeps its vector). */
  live: Uint8Array;
  /** Label -> slot, live or dead. */
  readonly slotOf = new LabelSlots();
  /** Slots in use. */
  count = 0;
  /** Slots whose label is live. */
  liveCount = 0;

  /** @param initialCapacity slots allocated up front; default 256, doubles when full. */
  constructor(
    readonly dimension: number,
    initialCapacity = 256,
  ) {
    const cap = Math.max(1, initialCapacity);
    this.stride = Math.ceil(dimension / 16) * 16;
    this.memory = createWasmMemory(Math.ceil(((cap + 1) * this.stride) / PAGE));
    this.dotCodes = int8DotOver(this.memory);
    this.codes = new Int8Array(this.memory.buffer, 0, (cap + 1) * this.stride);
    this.inverseNorms = new Float32Array(cap);
    this.labels = new Uint32Array(cap);
    this.live = new Uint8Array(cap);
  }

  get capacity(): number {
    return this.labels.length;
  }

  /** Bytes the arrays take (allocated capacity). */
  get bytes(): number {
    return this.memory.buffer.byteLength + this.inverseNorms.byteLength + this.labels.byteLength + this.live.byteLength;
  }

  /** Appends a slot for a new label (the caller checked it is new) and returns it. */
  append(label: number, vector: ArrayLike<number>): number {
    checkLabel(label);
    checkDimension(vector, this.dimension);
    const slot = this.newSlot(label);
    this.write(slot, vector);
    return slot;
  }

  /**
   * Appends a slot for a new label from codes quantized elsewhere (a store's copy of this
   * layout: `dimension` codes and their 1 / |codes|), so cosines are bit for bit the ones the
   * store that quantized them gives.
   */
  appendQuantized(label: number, codes: ArrayLike<number>, inverseNorm: number): number {
    checkLabel(label);
    if (codes.length !== this.dimension)
      throw new RangeError(`vector store: expected ${this.dimension} codes, got ${codes.length}`);
    const slot = this.newSlot(label);
    this.codes.set(codes, (slot + 1) * this.stride);
    this.inverseNorms[slot] = inverseNorm;
    return slot;
  }

  /** A live slot at the end for `label` (growing the arrays when full); its vector is written by the caller. */
  private newSlot(label: number): number {
    if (this.count === this.capacity) this.grow(this.capacity * 2);
    const slot = this.count++;
    this.labels[slot] = label;
    this.slotOf.set(label, slot);
    this.live[slot] = 1;
    this.liveCount++;
    return slot;
  }

  /** The slot holding `label`, when it is live (held and not removed); else undefined. */
  liveSlot(label: number): number | undefined {
    const slot = this.slotOf.get(label);
    return slot !== undefined && this.live[slot] === 1 ? slot : undefined;
  }

  /** The live slots' labels, in slot order (a copy). */
  liveLabels(): number[] {
    const out: number[] = [];
    for (let slot = 0; slot < this.count; slot++) if (this.live[slot] === 1) out.push(this.labels[slot]);
    return out;
  }

  /** A slot's int8 codes (a copy, `dimension` long) and its 1 / |codes|. */
  quantizedOf(slot: number): { codes: Int8Array; inverseNorm: number } {
    const base = (slot + 1) * this.stride;
    return { codes: this.codes.slice(base, base + this.dimension), inverseNorm: this.inverseNorms[slot] };
  }

  /** Replaces a slot's vector (quantized again). */
  write(slot: number, vector: ArrayLike<number>): void {
    checkDimension(vector, this.dimension);
    this.inverseNorms[slot] = this.quantize(vector, (slot + 1) * this.stride);
  }

  /** Quantizes a query into the scratch row, for `queryDot`. */
  setQuery(query: ArrayLike<number>): void {
    checkDimension(query, this.dimension);
    this.queryInverseNorm = this.quantize(query, 0);
    this.lastQuery = query;
  }

  /** Cosine of the last `setQuery` query with a slot, both quantized. */
  queryDot(slot: number): number {
    return this.dotCodes(0, (slot + 1) * this.stride, this.stride) * this.queryInverseNorm * this.inverseNorms[slot];
  }

  /** Writes int8 codes at `base` and returns 1 / |codes| (0 for a zero vector). */
  private quantize(vector: ArrayLike<number>, base: number): number {
    const dim = this.dimension;
    let max = 0;
    for (let i = 0; i < dim; i++) max = Math.max(max, Math.abs(vector[i]));
    const scale = max > 0 ? 127 / max : 0;
    let sum = 0;
    for (let i = 0; i < dim; i++) {
      const c = Math.round(vector[i] * scale);
      this.codes[base + i] = c;
      sum += c * c;
    }
    return sum > 0 ? 1 / Math.sqrt(sum) : 0;
  }

  /** Marks a slot live or dead, keeping `liveCount`. */
  setLive(slot: number, live: boolean): void {
    if ((this.live[slot] === 1) === live) return;
    this.live[slot] = live ? 1 : 0;
    this.liveCount += live ? 1 : -1;
  }

  /** Moves the last slot into `slot` (the exact scan's removal) and forgets `slot`'s label. */
  removeByMovingLast(slot: number): void {
    const stride = this.stride;
    this.slotOf.delete(this.labels[slot]);
    if (this.live[slot]) this.liveCount--;
    const last = --this.count;
    if (slot !== last) {
      this.codes.copyWithin((slot + 1) * stride, (last + 1) * stride, (last + 2) * stride);
      this.inverseNorms[slot] = this.inverseNorms[last];
      this.labels[slot] = this.labels[last];
      this.live[slot] = this.live[last];
      this.slotOf.set(this.labels[slot], slot);
    }
    this.live[last] = 0;
  }

  /**
   * Cosine of a query with a slot, by the SIMD dot product of the quantized query (the query is
   * quantized into the scratch row once and reused while the same array is asked again: a caller
   * must not change a query array in place between calls).
   */
  similarity(slot: number, query: ArrayLike<number>): number {
    if (query !== this.lastQuery) this.setQuery(query);
    return this.queryDot(slot);
  }

  /** The slot's vector, dequantized to unit length (a copy). */
  vector(slot: number): Float32Array {
    const out = new Float32Array(this.dimension);
    const inv = this.inverseNorms[slot];
    const base = (slot + 1) * this.stride;
    for (let i = 0; i < this.dimension; i++) out[i] = this.codes[base + i] * inv;
    return out;
  }

  /** Bytes `serialize` writes for the current count. */
  serializedBytes(): number {
    return this.serializedBytesFor(this.count);
  }

  /** Writes the used slots into `buf` at `offset` (4-aligned); returns the offset after them. */
  serialize(buf: Buffer, offset: number): number {
    const n = this.count;
    let at = offset;
    buf.writeUInt32LE(n, at);
    at += 4;
    new Uint32Array(buf.buffer, buf.byteOffset + at, n).set(this.labels.subarray(0, n));
    at += n * 4;
    buf.set(this.live.subarray(0, n), at);
    at += pad4(n);
    new Float32Array(buf.buffer, buf.byteOffset + at, n).set(this.inverseNorms.subarray(0, n));
    at += n * 4;
    buf.set(new Uint8Array(this.memory.buffer, this.stride, n * this.stride), at);
    at += n * this.stride;
    return at;
  }

  /**
   * Reads what `serialize` wrote (`buf` 4-aligned). The arrays are copied out of `buf` with room
   * for `spare` more slots. Throws a message naming what is wrong; `what` names the file.
   */
  static deserialize(
    buf: Buffer,
    offset: number,
    dimension: number,
    what: string,
    spare = 0,
  ): { store: Int8VectorStore; end: number } {
    const bad = (why: string) => new Error(`vector index: ${what} ${why}`);
    if (offset + 4 > buf.length) throw bad('is truncated or damaged');
    const n = buf.readUInt32LE(offset);
    const store = new Int8VectorStore(dimension, Math.max(1, n + spare));
    const end = offset + store.serializedBytesFor(n);
    if (end > buf.length) throw bad('is truncated or damaged');
    let at = offset + 4;
    store.labels.set(new Uint32Array(buf.buffer, buf.byteOffset + at, n));
    at += n * 4;
    store.live.set(buf.subarray(at, at + n));
    at += pad4(n);
    store.inverseNorms.set(new Float32Array(buf.buffer, buf.byteOffset + at, n));
    at += n * 4;
    store.codes.set(new Int8Array(buf.buffer, buf.byteOffset + at, n * store.stride), store.stride);
    store.count = n;
    for (let slot = 0; slot < n; slot++) {
      const label = store.labels[slot];
      if (store.slotOf.has(label)) throw bad(`repeats label ${label}`);
      store.slotOf.set(label, slot);
      if (store.live[slot] > 1) throw bad('is truncated or damaged');
      store.liveCount += store.live[slot];
    }
    return { store, end };
  }

  private serializedBytesFor(n: number): number {
    return 4 + n * 4 + pad4(n) + n * 4 + n * this.stride;
  }

  /** Reallocates every array for `capacity` slots. */
  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    const bytes = (capacity + 1) * this.stride;
    if (bytes > this.memory.buffer.byteLength)
      this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE));
    // Growing detaches the old buffer: view the new one.
    this.codes = new Int8Array(this.memory.buffer, 0, bytes);
    const norms = new Float32Array(capacity);
    norms.set(this.inverseNorms);
    const labels = new Uint32Array(capacity);
    labels.set(this.labels);
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.inverseNorms = norms;
    this.labels = labels;
    this.live = live;
  }
}

/** Rounds a byte count up to a multiple of 4. */
export function pad4(n: number): number {
  return Math.ceil(n / 4) * 4;
}

/** A unit-length float copy of a query. */
export function unitQuery(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i] * out[i];
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < out.length; i++) out[i] *= inv;
  }
  return out;
}

/** Labels below this go in the dense array; larger ones in a Map. */
const DENSE_LABELS = 1 << 24;

/**
 * Label -> slot. The engine's labels are dense small integers (window numbers), so they index an
 * Int32Array (-1: none), which builds ~10x faster than a Map at 250k labels (a restart builds it);
 * labels from 2^24 up, allowed by the interface, go in a Map.
 */
export class LabelSlots {
  private dense = new Int32Array(0);
  private readonly sparse = new Map<number, number>();

  get(label: number): number | undefined {
    if (label < DENSE_LABELS) {
      const slot = label < this.dense.length ? this.dense[label] : -1;
      return slot < 0 ? undefined : slot;
    }
    return this.sparse.get(label);
  }

  has(label: number): boolean {
    return this.get(label) !== undefined;
  }

  set(label: number, slot: number): void {
    if (label >= DENSE_LABELS) {
      this.sparse.set(label, slot);
      return;
    }
    if (label >= this.dense.length) {
      const grown = new Int32Array(Math.min(DENSE_LABELS, Math.max(1024, label + 1, this.dense.length * 2))).fill(-1);
      grown.set(this.dense);
      this.dense = grown;
    }
    this.dense[label] = slot;
  }

  delete(label: number): void {
    if (label >= DENSE_LABELS) this.sparse.delete(label);
    else if (label < this.dense.length) this.dense[label] = -1;
  }
}
