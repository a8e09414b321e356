/**
 * Embeddings cached on disk by (model id, digest of the text embedded), so an unchanged text is
 * never embedded twice (docs/ARCHITECTURE.md, "Identity, commits, freshness").
 *
 * One append-only binary file per model in the cache folder. It is scanned once, at the first
 * use (not at open: a restart served from the saved vector index never reads it), into a Map from
 * digest to the record's offset; `get` reads that record from the file. Memory holds offsets, not
 * vectors: the vector index (vector/vectorStore.ts) is the one copy in memory. Little-endian
 * layout (all platforms Node ships on):
 *
 *   header   "WSCV" | format u32 | dimension u32 | idBytes u32 | model id (UTF-8, zero-padded to 4)
 *   record   digest (32 bytes, SHA-256) | count u32 | crc32 u32 of the floats | count x dimension f32
 *
 * Every field is 4-byte aligned, so vectors are views into the record read. A file with a bad
 * header, another model id or dimension, or a record whose checksum fails is discarded
 * whole with a log line, never trusted. A file that ends inside a record (a crash mid-append) keeps
 * its complete records and loses the torn tail. `compact()` rewrites only the live records to a
 * temporary file and renames it over the old one, so a crash leaves either file intact.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
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
  /** Digest -> byte offset of its record in the file. */
  private readonly offsets = new Map<string, number>();
  /** Records held in memory only: when the file cannot be written (disabled). */
  private readonly memoryOnly = new Map<string, Float32Array[]>();
  private fd: number | null = null;
  private readFd: number | null = null;
  /** Bytes in the file (the offset of the next append). */
  private fileBytes = 0;
  private loaded = false;
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
  }

  /** Vector length of the cached records (0 while unknown). */
  get dimension(): number {
    this.ensureLoaded();
    return this.dim;
  }

  /** Digests held. */
  get size(): number {
    this.ensureLoaded();
    return this.offsets.size + this.memoryOnly.size;
  }

  has(digest: string): boolean {
    this.ensureLoaded();
    return this.offsets.has(digest) || this.memoryOnly.has(digest);
  }

  /** The vectors of one text, read from the file (fresh arrays each call). */
  get(digest: string): Float32Array[] | undefined {
    this.ensureLoaded();
    const at = this.offsets.get(digest);
    if (at === undefined) return this.memoryOnly.get(digest);
    try {
      return this.readRecord(at);
    } catch (err) {
      this.log(`vector cache: cannot read a record of ${this.file}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Stores the vectors of one text (one per window) and appends them to the file at once. */
  put(digest: string, vectors: readonly Float32Array[]): void {
    this.putMany([[digest, vectors]]);
  }

  /** Stores many records with one write. Vectors must all have the cache's dimension. */
  putMany(records: Iterable<readonly [string, readonly Float32Array[]]>): void {
    this.ensureLoaded();
    const chunks: Buffer[] = [];
    const added: [string, number][] = [];
    let at = this.fileBytes;
    for (const [digest, vectors] of records) {
      if (!/^[0-9a-f]{64}$/.test(digest)) throw new Error(`vector cache: '${digest}' is not a SHA-256 hex digest`);
      if (vectors.length === 0) continue;
      if (this.dim === 0) this.dim = vectors[0].length;
      for (const v of vectors) {
        if (v.length !== this.dim) {
          throw new Error(
            `vector cache: a ${v.length}-dimension vector cannot join a ${this.dim}-dimension cache for ${this.modelId}`,
          );
        }
      }
      if (this.has(digest)) this.stale++;
      if (this.disabled) {
        this.memoryOnly.set(
          digest,
          vectors.map((v) => Float32Array.from(v)),
        );
        continue;
      }
      const record = encodeRecord(digest, vectors, this.dim);
      if (at === 0) at = encodeHeader(this.modelId, this.dim).length;
      added.push([digest, at]);
      at += record.length;
      chunks.push(record);
    }
    if (chunks.length === 0) return;
    try {
      this.appendFd();
      writeAll(this.fd!, Buffer.concat(chunks));
      this.fileBytes = at;
      for (const [digest, offset] of added) {
        this.memoryOnly.delete(digest);
        this.offsets.set(digest, offset);
      }
    } catch (err) {
      this.disabled = true;
      this.log(`vector cache: cannot write ${this.file}; caching in memory only: ${(err as Error).message}`);
      // What could not be written stays in memory.
      for (const chunk of chunks) {
        const digest = chunk.toString('hex', 0, DIGEST_BYTES);
        this.memoryOnly.set(digest, decodeVectors(chunk, 0, this.dim));
      }
    }
  }

  /**
   * Rewrites the file with only the digests in `keep` (default: everything held, dropping
   * superseded records), atomically: temp file, then rename. Forgotten digests leave memory too.
   */
  compact(keep?: ReadonlySet<string>): void {
    this.ensureLoaded();
    if (keep) {
      for (const digest of [...this.offsets.keys()]) if (!keep.has(digest)) this.offsets.delete(digest);
      for (const digest of [...this.memoryOnly.keys()]) if (!keep.has(digest)) this.memoryOnly.delete(digest);
    }
    this.stale = 0;
    if (this.disabled || this.dim === 0) return;
    this.closeAppend();
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      const fd = openSync(tmp, 'w');
      const moved = new Map<string, number>();
      try {
        const header = encodeHeader(this.modelId, this.dim);
        writeAll(fd, header);
        let at = header.length;
        const batch: Buffer[] = [];
        // Records are copied from the old file one by one: memory stays one batch.
        for (const [digest, offset] of this.offsets) {
          const record = this.readRecordBytes(offset);
          moved.set(digest, at);
          at += record.length;
          batch.push(record);
          if (batch.length >= 1024) writeAll(fd, Buffer.concat(batch.splice(0)));
        }
        if (batch.length) writeAll(fd, Buffer.concat(batch));
        this.fileBytes = at;
      } finally {
        closeSync(fd);
      }
      this.closeRead();
      renameSync(tmp, this.file);
      for (const [digest, offset] of moved) this.offsets.set(digest, offset);
    } catch (err) {
      rmSync(tmp, { force: true });
      this.fileBytes = existsSync(this.file) ? fstatSyncSize(this.file) : 0;
      this.log(`vector cache: compaction of ${this.file} failed, keeping the old file: ${(err as Error).message}`);
    }
  }

  /** Records in the file that compaction would drop (superseded or forgotten). */
  get staleRecords(): number {
    return this.stale;
  }

  close(): void {
    this.closeAppend();
    this.closeRead();
  }

  private closeAppend(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private closeRead(): void {
    if (this.readFd !== null) closeSync(this.readFd);
    this.readFd = null;
  }

  private appendFd(): void {
    if (this.fd !== null) return;
    const fresh = !existsSync(this.file);
    this.fd = openSync(this.file, 'a');
    if (fresh) {
      const header = encodeHeader(this.modelId, this.dim);
      writeAll(this.fd, header);
      this.fileBytes = header.length;
    }
  }

  /** A record's bytes (head and floats) at `offset`. */
  private readRecordBytes(offset: number): Buffer {
    this.readFd ??= openSync(this.file, 'r');
    const head = Buffer.alloc(RECORD_HEAD);
    readExactly(this.readFd, head, offset);
    const count = head.readUInt32LE(DIGEST_BYTES);
    const record = Buffer.alloc(RECORD_HEAD + count * this.dim * 4);
    readExactly(this.readFd, record, offset);
    return record;
  }

  private readRecord(offset: number): Float32Array[] {
    return decodeVectors(this.readRecordBytes(offset), 0, this.dim);
  }

  private ensureLoaded(): void {
    if (this.loaded) return;
    this.loaded = true;
    if (!this.disabled) this.load();
  }

  /** Scans the file in chunks, checking every record, and keeps each digest's offset. */
  private load(): void {
    if (!existsSync(this.file)) return;
    let fd: number;
    let size: number;
    try {
      fd = openSync(this.file, 'r');
      size = fstatSync(fd).size;
    } catch (err) {
      this.discard(`cannot be read (${(err as Error).message})`);
      return;
    }
    let torn = false;
    let at = 0;
    try {
      const first = Buffer.alloc(Math.min(size, 16 + 4096));
      readExactly(fd, first, 0);
      const header = decodeHeader(first);
      if (typeof header === 'string') return this.discard(header);
      if (header.modelId !== this.modelId)
        return this.discard(`was written by model '${header.modelId}', not '${this.modelId}'`);
      if (this.dim !== 0 && header.dimension !== this.dim) {
        return this.discard(`holds ${header.dimension}-dimension vectors, expected ${this.dim}`);
      }
      this.dim = header.dimension;
      at = header.length;
      // Chunks of about 16 MB, each ending on a record boundary.
      let chunk = Buffer.alloc(16 << 20);
      let chunkStart = at;
      let chunkEnd = at;
      const ensure = (from: number, bytes: number): boolean => {
        if (from + bytes > size) return false;
        if (from >= chunkStart && from + bytes <= chunkEnd) return true;
        if (bytes > chunk.length) chunk = Buffer.alloc(bytes);
        const length = Math.min(chunk.length, size - from);
        readExactly(fd, chunk.subarray(0, length), from);
        chunkStart = from;
        chunkEnd = from + length;
        return true;
      };
      while (at < size) {
        if (!ensure(at, RECORD_HEAD)) {
          torn = true;
          break;
        }
        const head = at - chunkStart;
        const count = chunk.readUInt32LE(head + DIGEST_BYTES);
        const sum = chunk.readUInt32LE(head + DIGEST_BYTES + 4);
        if (count === 0 || count > 1_000_000) return this.discard(`has a record with ${count} vectors at byte ${at}`);
        const bytes = RECORD_HEAD + count * this.dim * 4;
        if (!ensure(at, bytes)) {
          torn = true;
          break;
        }
        const base = at - chunkStart;
        if (crc32(chunk.subarray(base + RECORD_HEAD, base + bytes)) !== sum)
          return this.discard(`has a record whose checksum fails at byte ${at}`);
        const digest = chunk.toString('hex', base, base + DIGEST_BYTES);
        if (this.offsets.has(digest)) this.stale++;
        this.offsets.set(digest, at);
        at += bytes;
      }
    } catch (err) {
      return this.discard(`cannot be read (${(err as Error).message})`);
    } finally {
      closeSync(fd);
    }
    this.fileBytes = at;
    if (torn) {
      // A torn append: keep the complete records and cut the tail so appends line up again.
      this.log(`vector cache: ${this.file} ends inside a record; dropping the last ${size - at} bytes`);
      if (this.offsets.size > 0) this.compact();
      else this.discard('holds no complete record');
    }
  }

  private discard(why: string): void {
    this.log(`vector cache: discarding ${this.file}: it ${why}`);
    this.offsets.clear();
    this.stale = 0;
    this.fileBytes = 0;
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

/** The vectors of a record that starts at `at` in `buf`, as fresh aligned arrays. */
function decodeVectors(buf: Buffer, at: number, dimension: number): Float32Array[] {
  const count = buf.readUInt32LE(at + DIGEST_BYTES);
  const floats = new Float32Array(count * dimension);
  new Uint8Array(floats.buffer).set(buf.subarray(at + RECORD_HEAD, at + RECORD_HEAD + count * dimension * 4));
  const out: Float32Array[] = [];
  for (let i = 0; i < count; i++) out.push(floats.subarray(i * dimension, (i + 1) * dimension));
  return out;
}

function readExactly(fd: number, buf: Buffer, position: number): void {
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, position + done);
    if (n === 0) throw new Error(`unexpected end of file at byte ${position + done}`);
    done += n;
  }
}

function fstatSyncSize(file: string): number {
  const fd = openSync(file, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}
