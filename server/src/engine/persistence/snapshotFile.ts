/**
 * The snapshot file: one JSON part and binary parts (the postings index, the section texts),
 * behind a header with a magic string and a format version, and a CRC-32 over everything before it.
 *
 *   "WSCTX-SNAPSHOT\n" | u32 format | u32 jsonLength | json (UTF-8) |
 *   u32 partCount | partCount x (u32 length | bytes) | u32 crc32
 *
 * (Formats up to 4 had exactly one binary part and no count; the format is checked before
 * anything after it is read, so an older file is refused by its number.) `readSnapshotFile` hands
 * back each binary part in a buffer of its own; `decodeSnapshot` (a whole file already in memory)
 * hands back views on that buffer.
 *
 * Writes are atomic: a temporary file in the same folder, then a rename over the old snapshot, so
 * a process killed mid-write leaves the previous snapshot intact. A file that is truncated, of
 * another format or fails its checksum is refused with the reason, never half-trusted.
 */
import { chmodSync, lstatSync, mkdirSync, promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { InputError } from '../errors';
import { isWithin } from '../workspace/paths';
import { openGuarded } from '../workspace/readGuard';

/** Largest snapshot read: 4 GiB (a Buffer's limit); larger is refused, never half-read. */
const MAX_SNAPSHOT_BYTES = 2 ** 32 - 1;

/** A temporary file older than this is an orphan even when its process id is alive again: 1 hour. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

const MAGIC = Buffer.from('WSCTX-SNAPSHOT\n', 'utf8');

export interface SnapshotParts {
  json: unknown;
  binaries: Uint8Array[];
}

export type SnapshotRead = { ok: true; parts: SnapshotParts } | { ok: false; reason: string };

export function encodeSnapshot(format: number, parts: SnapshotParts): Buffer {
  const json = Buffer.from(JSON.stringify(parts.json), 'utf8');
  const head = Buffer.alloc(12);
  head.writeUInt32LE(format, 0);
  head.writeUInt32LE(json.length, 4);
  const pieces: Buffer[] = [MAGIC, head.subarray(0, 8), json];
  head.writeUInt32LE(parts.binaries.length, 8);
  pieces.push(head.subarray(8, 12));
  for (const binary of parts.binaries) {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(binary.byteLength, 0);
    pieces.push(length, Buffer.from(binary.buffer, binary.byteOffset, binary.byteLength));
  }
  const body = Buffer.concat(pieces);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(body) >>> 0, 0);
  return Buffer.concat([body, crc]);
}

export function decodeSnapshot(format: number, bytes: Buffer): SnapshotRead {
  if (bytes.length < MAGIC.length + 16 || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    return { ok: false, reason: 'not a snapshot file' };
  const body = bytes.subarray(0, bytes.length - 4);
  if (crc32(body) >>> 0 !== bytes.readUInt32LE(bytes.length - 4))
    return { ok: false, reason: 'checksum mismatch (truncated or corrupt)' };
  let offset = MAGIC.length;
  const found = bytes.readUInt32LE(offset);
  if (found !== format) return { ok: false, reason: `format ${found}, this version reads format ${format}` };
  const jsonLength = bytes.readUInt32LE(offset + 4);
  offset += 8;
  if (offset + jsonLength + 4 > body.length) return { ok: false, reason: 'section lengths do not add up' };
  const jsonAt = offset;
  offset += jsonLength;
  const count = bytes.readUInt32LE(offset);
  offset += 4;
  const binaries: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 4 > body.length) return { ok: false, reason: 'section lengths do not add up' };
    const length = bytes.readUInt32LE(offset);
    offset += 4;
    if (offset + length > body.length) return { ok: false, reason: 'section lengths do not add up' };
    binaries.push(new Uint8Array(bytes.buffer, bytes.byteOffset + offset, length));
    offset += length;
  }
  if (offset !== body.length) return { ok: false, reason: 'section lengths do not add up' };
  // Parsed last: the lengths are checked before the largest single cost of a read.
  const json = JSON.parse(bytes.toString('utf8', jsonAt, jsonAt + jsonLength)) as unknown;
  return { ok: true, parts: { json, binaries } };
}

/** Writes `bytes` to `file` atomically (temporary file + rename). */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * The snapshot at `file`, null when there is none. Anything but a regular file there (a FIFO
 * would block the read forever) is refused before it is opened, and the file is opened
 * non-blocking (readGuard.ts). Each part is read into a buffer of its own, on the thread pool:
 * the postings part is then used where it lies (no copy out of a whole-file buffer, which its
 * views would otherwise keep alive), and the JSON and text buffers are freed once decoded. The
 * checksum is computed part by part over the same bytes `encodeSnapshot` wrote.
 *
 * `beforeParse` is handed the binary parts once the checksum is known good and before the JSON,
 * the largest single cost of a read, is parsed: a warm start starts git from a small part there,
 * so git runs while this thread parses (indexSnapshot.ts `snapshotStatusTops`).
 */
export async function readSnapshotFile(
  file: string,
  format: number,
  beforeParse?: (binaries: readonly Uint8Array[]) => Promise<void>,
): Promise<SnapshotRead | null> {
  try {
    await fs.stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { ok: false, reason: `cannot be read: ${(error as Error).message}` };
  }
  const guarded = await openGuarded(file, [path.parse(path.resolve(file)).root]);
  if (!guarded.ok) return { ok: false, reason: guarded.message };
  try {
    const uid = process.getuid?.();
    if (uid !== undefined && guarded.opened.uid !== uid)
      return {
        ok: false,
        reason: `it belongs to another user (uid ${guarded.opened.uid}, you are ${uid}), who could have planted it; not read`,
      };
    if (guarded.opened.size > MAX_SNAPSHOT_BYTES)
      return { ok: false, reason: `more than ${MAX_SNAPSHOT_BYTES} bytes (the size cap); not read` };
    return await readParts(guarded.handle, guarded.opened.size, format, beforeParse);
  } catch (error) {
    return { ok: false, reason: `cannot be decoded: ${(error as Error).message}` };
  } finally {
    await guarded.handle.close().catch(() => undefined);
  }
}

/** Bytes per read call of a part: 32 MiB. */
const PART_READ = 32 * 1024 * 1024;

/** The layout `encodeSnapshot` writes, read part by part from a file of `size` bytes. */
async function readParts(
  handle: fs.FileHandle,
  size: number,
  format: number,
  beforeParse: ((binaries: readonly Uint8Array[]) => Promise<void>) | undefined,
): Promise<SnapshotRead> {
  const truncated: SnapshotRead = { ok: false, reason: 'checksum mismatch (truncated or corrupt)' };
  const bodyEnd = size - 4;
  let position = 0;
  let crc = 0;
  /** The next `length` bytes of the body in a buffer of their own, or null past its end. */
  const next = async (length: number): Promise<Buffer | null> => {
    if (length > bodyEnd - position) return null;
    const buffer = Buffer.allocUnsafe(length);
    for (let got = 0; got < length; ) {
      const { bytesRead } = await handle.read(buffer, got, Math.min(PART_READ, length - got), position + got);
      if (bytesRead === 0) return null;
      got += bytesRead;
    }
    position += length;
    crc = crc32(buffer, crc);
    return buffer;
  };
  if (size < MAGIC.length + 16) return { ok: false, reason: 'not a snapshot file' };
  const head = await next(MAGIC.length + 8);
  if (!head?.subarray(0, MAGIC.length).equals(MAGIC)) return { ok: false, reason: 'not a snapshot file' };
  const found = head.readUInt32LE(MAGIC.length);
  if (found !== format) return { ok: false, reason: `format ${found}, this version reads format ${format}` };
  const json = await next(head.readUInt32LE(MAGIC.length + 4));
  const countBytes = json && (await next(4));
  if (!json || !countBytes) return truncated;
  const count = countBytes.readUInt32LE(0);
  // Every part takes at least its 4-byte length: a count beyond that is damage, not parts.
  if (count > (bodyEnd - position) / 4) return truncated;
  const binaries: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const length = await next(4);
    const part = length && (await next(length.readUInt32LE(0)));
    if (!part) return truncated;
    binaries.push(part);
  }
  if (position !== bodyEnd) return { ok: false, reason: 'section lengths do not add up' };
  const stored = Buffer.alloc(4);
  const { bytesRead } = await handle.read(stored, 0, 4, bodyEnd);
  if (bytesRead !== 4 || crc >>> 0 !== stored.readUInt32LE(0)) return truncated;
  await beforeParse?.(binaries);
  // Parsed last: the checksum is known good before the largest single cost of a read.
  return { ok: true, parts: { json: JSON.parse(json.toString('utf8')) as unknown, binaries } };
}

/**
 * Removes the temporary files an interrupted `writeFileAtomic` of `file` left behind
 * (`<file>.<pid>.<time>.tmp`): those of a process that is gone, and any older than an hour.
 * Returns the paths removed. Never throws.
 */
export async function removeOrphanTemps(file: string, now = Date.now()): Promise<string[]> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = /^(\d+)\.(\d+)\.tmp$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '');
    if (!match) continue;
    const [pid, written] = [Number(match[1]), Number(match[2])];
    if (pid === process.pid || (processAlive(pid) && now - written < ORPHAN_AGE_MS)) continue;
    try {
      await fs.rm(path.join(dir, name), { force: true });
      removed.push(path.join(dir, name));
    } catch {
      // Not ours to remove after all (permissions): left alone.
    }
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Refuses a cache folder inside a served folder: the tool would write into what it reads (and
 * index its own snapshots). Compared by real path; a folder that does not exist yet is placed by
 * its nearest existing parent. @throws InputError naming the cache folder and the served folder
 */
export function assertCacheOutside(cacheDir: string, folders: readonly { name: string; absPath: string }[]): void {
  const cache = realPathOf(cacheDir);
  for (const folder of folders) {
    const root = realPathOf(folder.absPath);
    if (isWithin(root, cache)) {
      throw new InputError(
        `the cache folder ${cacheDir} lies inside the served folder ${folder.absPath}; the tool never writes into what it reads. Choose another with --cache-dir (or $WSCTX_CACHE_DIR), or use --no-cache.`,
      );
    }
  }
}

/**
 * Makes the cache folder ready, or says why it cannot be used: created 0700 when missing, made
 * 0700 when it lets others in, and refused when it is not a folder or belongs to another user
 * (who could have planted a snapshot in it, or read the questions in its call log).
 */
export function prepareCacheFolder(cacheDir: string): void {
  const dir = path.resolve(cacheDir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // A folder that cannot be made is said by the first write, with its reason (as before).
    return;
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory())
    throw new InputError(
      `the cache folder ${cacheDir} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; choose another with --cache-dir (or $WSCTX_CACHE_DIR), or use --no-cache.`,
    );
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new InputError(
      `the cache folder ${cacheDir} belongs to another user (uid ${stat.uid}, you are ${uid}); a snapshot there could have been planted, and your questions would be readable. Choose your own with --cache-dir (or $WSCTX_CACHE_DIR), or use --no-cache.`,
    );
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** The real path of `target`, or of its nearest existing parent joined with the rest. */
function realPathOf(target: string): string {
  let current = path.resolve(target);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest);
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...rest);
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}
