/**
 * Exact cosine search: every query is scored against every vector.
 *
 * Vectors are normalized into one growable Float32Array (capacity doubles), so a score is a dot
 * product over contiguous memory. Removal moves the last vector into the freed slot, keeping the
 * array dense. This is the fallback where `hnswlib-node` cannot load and the oracle HNSW recall is
 * measured against.
 *
 * File layout (little-endian): "WSVX" | format u32 | dimension u32 | count u32 |
 * labels u32 x count | vectors f32 x count x dimension.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SearchHit, VectorIndex } from './vectorIndex';

export const EXACT_INDEX_MAGIC = 'WSVX';
const FORMAT = 1;
const HEADER_BYTES = 16;

export class ExactIndex implements VectorIndex {
  readonly kind = 'exact' as const;
  private data: Float32Array;
  private labels: Uint32Array;
  private readonly slotOf = new Map<number, number>();
  private count = 0;

  /** @param initialCapacity vectors allocated up front; default 256, grows by doubling. */
  constructor(readonly dimension: number, initialCapacity = 256) {
    const cap = Math.max(1, initialCapacity);
    this.data = new Float32Array(cap * dimension);
    this.labels = new Uint32Array(cap);
  }

  get size(): number {
    return this.count;
  }

  has(label: number): boolean {
    return this.slotOf.has(label);
  }

  add(label: number, vector: ArrayLike<number>): void {
    checkLabel(label);
    checkDimension(vector, this.dimension);
    let slot = this.slotOf.get(label);
    if (slot === undefined) {
      if (this.count === this.labels.length) this.grow();
      slot = this.count++;
      this.slotOf.set(label, slot);
      this.labels[slot] = label;
    }
    const row = this.data.subarray(slot * this.dimension, (slot + 1) * this.dimension);
    let sum = 0;
    for (let i = 0; i < this.dimension; i++) sum += vector[i] * vector[i];
    const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let i = 0; i < this.dimension; i++) row[i] = vector[i] * inv;
  }

  remove(label: number): boolean {
    const slot = this.slotOf.get(label);
    if (slot === undefined) return false;
    this.slotOf.delete(label);
    const last = --this.count;
    if (slot !== last) {
      const movedLabel = this.labels[last];
      this.data.copyWithin(slot * this.dimension, last * this.dimension, (last + 1) * this.dimension);
      this.labels[slot] = movedLabel;
      this.slotOf.set(movedLabel, slot);
    }
    return true;
  }

  search(query: ArrayLike<number>, k: number, filter?: (label: number) => boolean): SearchHit[] {
    checkDimension(query, this.dimension);
    const want = Math.min(Math.floor(k), this.count);
    if (want <= 0) return [];
    const q = normalized(query);
    const dim = this.dimension;
    const data = this.data;
    // Best `want` kept in ascending order; a new score enters only when it beats the weakest.
    const topScores: number[] = [];
    const topLabels: number[] = [];
    for (let slot = 0; slot < this.count; slot++) {
      const label = this.labels[slot];
      if (filter && !filter(label)) continue;
      let s = 0;
      const base = slot * dim;
      for (let i = 0; i < dim; i++) s += q[i] * data[base + i];
      if (topScores.length === want && s <= topScores[0]) continue;
      let lo = 0;
      let hi = topScores.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (topScores[mid] < s) lo = mid + 1;
        else hi = mid;
      }
      topScores.splice(lo, 0, s);
      topLabels.splice(lo, 0, label);
      if (topScores.length > want) {
        topScores.shift();
        topLabels.shift();
      }
    }
    const hits: SearchHit[] = [];
    for (let i = topScores.length - 1; i >= 0; i--) hits.push({ label: topLabels[i], score: topScores[i] });
    return hits;
  }

  /** Every live (label, normalized vector) pair; the vectors are views, copy before keeping. */
  *entries(): IterableIterator<[number, Float32Array]> {
    for (let slot = 0; slot < this.count; slot++) {
      yield [this.labels[slot], this.data.subarray(slot * this.dimension, (slot + 1) * this.dimension)];
    }
  }

  save(path: string): void {
    const n = this.count;
    const buf = Buffer.alloc(HEADER_BYTES + n * 4 + n * this.dimension * 4);
    buf.write(EXACT_INDEX_MAGIC, 0, 'latin1');
    buf.writeUInt32LE(FORMAT, 4);
    buf.writeUInt32LE(this.dimension, 8);
    buf.writeUInt32LE(n, 12);
    new Uint32Array(buf.buffer, buf.byteOffset + HEADER_BYTES, n).set(this.labels.subarray(0, n));
    new Float32Array(buf.buffer, buf.byteOffset + HEADER_BYTES + n * 4, n * this.dimension).set(this.data.subarray(0, n * this.dimension));
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, buf);
    renameSync(tmp, path);
  }

  static load(path: string): ExactIndex {
    let buf = readFileSync(path);
    if (buf.byteOffset % 4 !== 0) buf = Buffer.from(buf);
    const bad = (why: string) => new Error(`vector index: ${path} ${why}`);
    if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 4) !== EXACT_INDEX_MAGIC) throw bad('is not an exact index file');
    const format = buf.readUInt32LE(4);
    if (format !== FORMAT) throw bad(`has format ${format}, expected ${FORMAT}`);
    const dimension = buf.readUInt32LE(8);
    const n = buf.readUInt32LE(12);
    if (dimension < 1 || buf.length !== HEADER_BYTES + n * 4 + n * dimension * 4) throw bad('is truncated or damaged');
    const index = new ExactIndex(dimension, Math.max(n, 1));
    index.labels.set(new Uint32Array(buf.buffer, buf.byteOffset + HEADER_BYTES, n));
    index.data.set(new Float32Array(buf.buffer, buf.byteOffset + HEADER_BYTES + n * 4, n * dimension));
    for (let slot = 0; slot < n; slot++) {
      if (index.slotOf.has(index.labels[slot])) throw bad(`repeats label ${index.labels[slot]}`);
      index.slotOf.set(index.labels[slot], slot);
    }
    index.count = n;
    return index;
  }

  private grow(): void {
    const cap = this.labels.length * 2;
    const data = new Float32Array(cap * this.dimension);
    data.set(this.data);
    const labels = new Uint32Array(cap);
    labels.set(this.labels);
    this.data = data;
    this.labels = labels;
  }
}

/** Labels are stored as uint32 (hnswlib-node's label type too). */
export function checkLabel(label: number): void {
  if (!Number.isInteger(label) || label < 0 || label > 0xffffffff) {
    throw new RangeError(`vector index: label must be an integer in 0..4294967295 (got ${label})`);
  }
}

export function checkDimension(vector: ArrayLike<number>, dimension: number): void {
  if (vector.length !== dimension) {
    throw new RangeError(`vector index: expected a ${dimension}-dimension vector, got ${vector.length}`);
  }
}

function normalized(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i] * out[i];
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < out.length; i++) out[i] *= inv;
  }
  return out;
}
