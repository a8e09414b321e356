/**
 * Embeddings cached on disk by (model id, digest of the text embedded), so an unchanged text is
 * never embedded twice (DESIGN.md section 3).
 *
 * One append-only binary file per model in the cache folder, read once at open and indexed in a
 * Map. Little-endian layout (all platforms Node ships on):
 *
 *   header   "WSCV" | format u32 | dimension u32 | idBytes u32 | model id (UTF-8, zero-padded to 4)
 *   record   digest (32 bytes, SHA-256) | count u32 | crc32 u32 of the floats | count x dimension f32
 *
 * Every field is 4-byte aligned, so vectors are views into the loaded buffer with no copy. A file
 * with a bad header, another model id or dimension, or a record whose checksum fails is discarded
 * whole with a log line, never trusted. A file that ends inside a record (a crash mid-append) keeps
 * its complete records and loses the torn tail. `compact()` rewrites only the live records to a
 * temporary file and renames it over the old one, so a crash leaves either file intact.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { sha256Hex } from '../chunking/ids';

const MAGIC = 'WSCV';
/** Bumped whenever the layout changes; older files are discarded. */
export const VECTOR_CACHE_FORMAT = 1;
const DIGEST_BYTES = 32;
const RECORD_HEAD = DIGEST_BYTES + 8;

export interface VectorCacheOptions {
  /** Folder holding the cache files (created when missing). */
  dir: string;
  modelId: string;
  /** Vector length when known; an HTTP embedder's is learned from the first `put`. */
  dimension?: number;
  log?: (message: string) => void;
}

/** File name for a model's cache: readable prefix plus a hash so any id is a safe name. */
export function vectorCacheFileName(modelId: string): string {
  const readable = modelId.replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 40);
  return `vectors-${readable}-${sha256Hex(modelId).slice(0, 12)}.bin`;
}

/** SHA-256 hex of a text: the cache key of its embedding. */
export function textDigest(text: string): string {
  return sha256Hex(text);
}

export class VectorCache {
  readonly file: string;
  readonly modelId: string;
  private dim: number;
  private readonly log: (message: string) => void;
  private readonly entries = new Map<string, Float32Array[]>();
  private fd: number | null = null;
  /** Records in the file that a later record for the same digest replaced. */
  private stale = 0;
  private disabled = false;

  /** Opens (loads) the cache for one model; never throws on a bad file. */
  static open(options: VectorCacheOptions): VectorCache {
    return new VectorCache(options);
  }

  private constructor(options: VectorCacheOptions) {
    this.modelId = options.modelId;
    this.dim = options.dimension ?? 0;
    this.log = options.log ?? (() => {});
    this.file = path.join(options.dir, vectorCacheFileName(options.modelId));
    if (endianness() !== 'LE') {
      this.disabled = true;
      this.log('vector cache: big-endian platform, embeddings will not be cached');
      return;
    }
    mkdirSync(options.dir, { recursive: true });
    this.load();
  }

  /** Vector length of the cached records (0 while unknown). */
  get dimension(): number {
    return this.dim;
  }

  /** Digests held. */
  get size(): number {
    return this.entries.size;
  }

  has(digest: string): boolean {
    return this.entries.has(digest);
  }

  get(digest: string): Float32Array[] | undefined {
    return this.entries.get(digest);
  }

  /** Stores the vectors of one text (one per window) and appends them to the file at once. */
  put(digest: string, vectors: readonly Float32Array[]): void {
    this.putMany([[digest, vectors]]);
  }

  /** Stores many records with one write. Vectors must all have the cache's dimension. */
  putMany(records: Iterable<readonly [string, readonly Float32Array[]]>): void {
    const chunks: Buffer[] = [];
    for (const [digest, vectors] of records) {
      if (!/^[0-9a-f]{64}$/.test(digest)) throw new Error(`vector cache: '${digest}' is not a SHA-256 hex digest`);
      if (vectors.length === 0) continue;
      if (this.dim === 0) this.dim = vectors[0].length;
      for (const v of vectors) {
        if (v.length !== this.dim) {
          throw new Error(`vector cache: a ${v.length}-dimension vector cannot join a ${this.dim}-dimension cache for ${this.modelId}`);
        }
      }
      const record = encodeRecord(digest, vectors, this.dim);
      if (this.entries.has(digest)) this.stale++;
      this.entries.set(digest, vectors.map((v) => Float32Array.from(v)));
      chunks.push(record);
    }
    if (chunks.length === 0 || this.disabled) return;
    try {
      this.appendFd();
      writeAll(this.fd!, Buffer.concat(chunks));
    } catch (err) {
      this.disabled = true;
      this.log(`vector cache: cannot write ${this.file}; caching in memory only: ${(err as Error).message}`);
    }
  }

  /**
   * Rewrites the file with only the digests in `keep` (default: everything held, dropping
   * superseded records), atomically: temp file, then rename. Forgotten digests leave memory too.
   */
  compact(keep?: ReadonlySet<string>): void {
    if (keep) for (const digest of [...this.entries.keys()]) if (!keep.has(digest)) this.entries.delete(digest);
    this.stale = 0;
    if (this.disabled || this.dim === 0) return;
    this.close();
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      const fd = openSync(tmp, 'w');
      try {
        writeAll(fd, encodeHeader(this.modelId, this.dim));
        const batch: Buffer[] = [];
        for (const [digest, vectors] of this.entries) {
          batch.push(encodeRecord(digest, vectors, this.dim));
          if (batch.length >= 1024) writeAll(fd, Buffer.concat(batch.splice(0)));
        }
        if (batch.length) writeAll(fd, Buffer.concat(batch));
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (err) {
      rmSync(tmp, { force: true });
      this.log(`vector cache: compaction of ${this.file} failed, keeping the old file: ${(err as Error).message}`);
    }
  }

  /** Records in the file that compaction would drop (superseded or forgotten). */
  get staleRecords(): number {
    return this.stale;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private appendFd(): void {
    if (this.fd !== null) return;
    const fresh = !existsSync(this.file);
    this.fd = openSync(this.file, 'a');
    if (fresh) writeAll(this.fd, encodeHeader(this.modelId, this.dim));
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    let buf: Buffer;
    try {
      buf = readFileSync(this.file);
    } catch (err) {
      this.discard(`cannot be read (${(err as Error).message})`);
      return;
    }
    // Float32Array views need a 4-aligned offset; small reads can come from Node's shared pool.
    if (buf.byteOffset % 4 !== 0) buf = Buffer.from(buf);
    const header = decodeHeader(buf);
    if (typeof header === 'string') return this.discard(header);
    if (header.modelId !== this.modelId) return this.discard(`was written by model '${header.modelId}', not '${this.modelId}'`);
    if (this.dim !== 0 && header.dimension !== this.dim) {
      return this.discard(`holds ${header.dimension}-dimension vectors, expected ${this.dim}`);
    }
    this.dim = header.dimension;
    const recordFloats = (count: number) => count * this.dim * 4;
    let at = header.length;
    while (at < buf.length) {
      if (at + RECORD_HEAD > buf.length) break;
      const count = buf.readUInt32LE(at + DIGEST_BYTES);
      const sum = buf.readUInt32LE(at + DIGEST_BYTES + 4);
      const bytes = recordFloats(count);
      if (count === 0 || count > 1_000_000) return this.discard(`has a record with ${count} vectors at byte ${at}`);
      if (at + RECORD_HEAD + bytes > buf.length) break;
      const body = buf.subarray(at + RECORD_HEAD, at + RECORD_HEAD + bytes);
      if (crc32(body) !== sum) return this.discard(`has a record whose checksum fails at byte ${at}`);
      const digest = buf.toString('hex', at, at + DIGEST_BYTES);
      const vectors: Float32Array[] = [];
      for (let i = 0; i < count; i++) vectors.push(new Float32Array(buf.buffer, buf.byteOffset + at + RECORD_HEAD + i * this.dim * 4, this.dim));
      if (this.entries.has(digest)) this.stale++;
      this.entries.set(digest, vectors);
      at += RECORD_HEAD + bytes;
    }
    if (at < buf.length) {
      // A torn append: keep the complete records and cut the tail so appends line up again.
      this.log(`vector cache: ${this.file} ends inside a record; dropping the last ${buf.length - at} bytes`);
      if (this.entries.size > 0) this.compact();
      else this.discard('holds no complete record');
    }
  }

  private discard(why: string): void {
    this.log(`vector cache: discarding ${this.file}: it ${why}`);
    this.entries.clear();
    this.stale = 0;
    this.close();
    try {
      rmSync(this.file, { force: true });
    } catch (err) {
      this.disabled = true;
      this.log(`vector cache: cannot remove ${this.file}; caching in memory only: ${(err as Error).message}`);
    }
  }
}

function encodeHeader(modelId: string, dimension: number): Buffer {
  const id = Buffer.from(modelId, 'utf8');
  const padded = Math.ceil(id.length / 4) * 4;
  const buf = Buffer.alloc(16 + padded);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(VECTOR_CACHE_FORMAT, 4);
  buf.writeUInt32LE(dimension, 8);
  buf.writeUInt32LE(id.length, 12);
  id.copy(buf, 16);
  return buf;
}

function decodeHeader(buf: Buffer): { modelId: string; dimension: number; length: number } | string {
  if (buf.length < 16 || buf.toString('latin1', 0, 4) !== MAGIC) return 'is not a vector cache file';
  const format = buf.readUInt32LE(4);
  if (format !== VECTOR_CACHE_FORMAT) return `has format ${format}, expected ${VECTOR_CACHE_FORMAT}`;
  const dimension = buf.readUInt32LE(8);
  const idBytes = buf.readUInt32LE(12);
  const length = 16 + Math.ceil(idBytes / 4) * 4;
  if (dimension === 0 || dimension > 65_536 || idBytes > 4096 || length > buf.length) return 'has a damaged header';
  return { modelId: buf.toString('utf8', 16, 16 + idBytes), dimension, length };
}

function encodeRecord(digest: string, vectors: readonly Float32Array[], dimension: number): Buffer {
  const bytes = vectors.length * dimension * 4;
  const buf = Buffer.alloc(RECORD_HEAD + bytes);
  buf.write(digest, 0, 'hex');
  buf.writeUInt32LE(vectors.length, DIGEST_BYTES);
  const floats = new Float32Array(buf.buffer, buf.byteOffset + RECORD_HEAD, vectors.length * dimension);
  vectors.forEach((v, i) => floats.set(v, i * dimension));
  buf.writeUInt32LE(crc32(buf.subarray(RECORD_HEAD)), DIGEST_BYTES + 4);
  return buf;
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}
