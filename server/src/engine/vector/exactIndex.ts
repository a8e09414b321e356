/**
 * Exact cosine search: every query is scored against every vector of the int8 store
 * (vectorStore.ts). Removal moves the last vector into the freed slot, keeping the store dense.
 * This is the index below a few thousand vectors, the choice where a graph is not wanted, and the
 * oracle HNSW recall is measured against.
 *
 * File layout (little-endian): "WSVX" | format u32 | dimension u32 | store (vectorStore.ts).
 */
import { readVectorFileHeader, VECTOR_FILE_HEADER_BYTES, writeVectorFileHeader } from './vectorFileHeader';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { checkDimension, checkLabel } from './vectorChecks';
import { Int8VectorStore, unitQuery } from './vectorStore';
import type { SearchHit, VectorIndex } from './vectorIndex';

export const EXACT_INDEX_MAGIC = 'WSVX';
/** 2: int8 store (format 1 held float32 vectors; such a file is rebuilt from the vector cache). */
const FORMAT = 2;
const HEADER_BYTES = VECTOR_FILE_HEADER_BYTES;

export class ExactIndex implements VectorIndex {
  readonly kind = 'exact' as const;
  private store: Int8VectorStore;

  /** @param initialCapacity vectors allocated up front; default 256, grows by doubling. */
  constructor(
    readonly dimension: number,
    initialCapacity = 256,
  ) {
    this.store = new Int8VectorStore(dimension, initialCapacity);
  }

  get size(): number {
    return this.store.count;
  }

  /** Bytes the vectors take in memory. */
  get bytes(): number {
    return this.store.bytes;
  }

  has(label: number): boolean {
    return this.store.slotOf.has(label);
  }

  add(label: number, vector: ArrayLike<number>): void {
    checkLabel(label);
    checkDimension(vector, this.dimension);
    const slot = this.store.slotOf.get(label);
    if (slot === undefined) this.store.append(label, vector);
    else this.store.write(slot, vector);
  }

  /** Adds a new label from codes quantized elsewhere (Int8VectorStore.appendQuantized); replaces nothing. */
  addQuantized(label: number, codes: ArrayLike<number>, inverseNorm: number): void {
    if (this.store.slotOf.has(label)) throw new Error(`exact index: label ${label} is already held`);
    this.store.appendQuantized(label, codes, inverseNorm);
  }

  labels(): number[] {
    return this.store.liveLabels();
  }

  quantized(label: number): { codes: Int8Array; inverseNorm: number } | null {
    const slot = this.store.slotOf.get(label);
    return slot === undefined ? null : this.store.quantizedOf(slot);
  }

  /** The slot's unit vector dequantized from its codes (a copy), or null when not held. */
  unitVector(label: number): Float32Array | null {
    const slot = this.store.slotOf.get(label);
    return slot === undefined ? null : this.store.vector(slot);
  }

  remove(label: number): boolean {
    const slot = this.store.slotOf.get(label);
    if (slot === undefined) return false;
    this.store.removeByMovingLast(slot);
    return true;
  }

  similarity(label: number, query: Float32Array): number | null {
    const slot = this.store.slotOf.get(label);
    return slot === undefined ? null : this.store.similarity(slot, query);
  }

  search(query: ArrayLike<number>, k: number, filter?: (label: number) => boolean): SearchHit[] {
    checkDimension(query, this.dimension);
    const store = this.store;
    const want = Math.min(Math.floor(k), store.count);
    if (want <= 0) return [];
    const q = unitQuery(query);
    store.setQuery(q);
    // Scanned int8 with int8 (SIMD): the scores are the cosines `similarity` gives.
    // Best `want` kept in ascending order; a new score enters only when it beats the weakest.
    const topScores: number[] = [];
    const topSlots: number[] = [];
    for (let slot = 0; slot < store.count; slot++) {
      if (filter && !filter(store.labels[slot])) continue;
      const s = store.queryDot(slot);
      if (topScores.length === want && s <= topScores[0]) continue;
      let lo = 0;
      let hi = topScores.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (topScores[mid] < s) lo = mid + 1;
        else hi = mid;
      }
      topScores.splice(lo, 0, s);
      topSlots.splice(lo, 0, slot);
      if (topScores.length > want) {
        topScores.shift();
        topSlots.shift();
      }
    }
    const hits: SearchHit[] = [];
    for (let i = topScores.length - 1; i >= 0; i--)
      hits.push({ label: store.labels[topSlots[i]], score: topScores[i] });
    return hits;
  }

  /** Every live (label, unit vector) pair, dequantized (copies). */
  *entries(): IterableIterator<[number, Float32Array]> {
    for (let slot = 0; slot < this.store.count; slot++) yield [this.store.labels[slot], this.store.vector(slot)];
  }

  save(path: string): void {
    const buf = Buffer.alloc(HEADER_BYTES + this.store.serializedBytes());
    writeVectorFileHeader(buf, EXACT_INDEX_MAGIC, FORMAT, this.dimension);
    this.store.serialize(buf, HEADER_BYTES);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, buf);
    renameSync(tmp, path);
  }

  static load(path: string): ExactIndex {
    const { buf, dimension } = readVectorFileHeader(readFileSync(path), path, {
      magic: EXACT_INDEX_MAGIC,
      format: FORMAT,
      what: 'an exact index file',
      minBytes: HEADER_BYTES,
    });
    const bad = (why: string) => new Error(`vector index: ${path} ${why}`);
    const { store, end } = Int8VectorStore.deserialize(buf, HEADER_BYTES, dimension, path);
    if (end !== buf.length) throw bad('is truncated or damaged');
    if (store.liveCount !== store.count) throw bad('is truncated or damaged');
    const index = new ExactIndex(dimension, 1);
    index.store = store;
    return index;
  }
}

export { checkDimension, checkLabel } from './vectorChecks';
