/**
 * The snapshot file: one JSON part and one binary part (the postings index), behind a header
 * with a magic string and a format version, and a CRC-32 over everything before it.
 *
 *   "WSCTX-SNAPSHOT\n" | u32 format | u32 jsonLength | json (UTF-8) | u32 binaryLength | binary | u32 crc32
 *
 * Writes are atomic: a temporary file in the same folder, then a rename over the old snapshot, so
 * a process killed mid-write leaves the previous snapshot intact. A file that is truncated, of
 * another format or fails its checksum is refused with the reason, never half-trusted.
 */
import { promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { InputError } from '../errors';
import { isWithin } from '../workspace/paths';
import { readGuardedBytes } from '../workspace/readGuard';

/** Largest snapshot read: 4 GiB (a Buffer's limit); larger is refused, never half-read. */
const MAX_SNAPSHOT_BYTES = 2 ** 32 - 1;

/** A temporary file older than this is an orphan even when its process id is alive again: 1 hour. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

const MAGIC = Buffer.from('WSCTX-SNAPSHOT\n', 'utf8');

export interface SnapshotParts {
  json: unknown;
  binary: Uint8Array;
}

export type SnapshotRead = { ok: true; parts: SnapshotParts } | { ok: false; reason: string };

export function encodeSnapshot(format: number, parts: SnapshotParts): Buffer {
  const json = Buffer.from(JSON.stringify(parts.json), 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32LE(format, 0);
  head.writeUInt32LE(json.length, 4);
  const binLength = Buffer.alloc(4);
  binLength.writeUInt32LE(parts.binary.byteLength, 0);
  const body = Buffer.concat([MAGIC, head, json, binLength, Buffer.from(parts.binary.buffer, parts.binary.byteOffset, parts.binary.byteLength)]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(body) >>> 0, 0);
  return Buffer.concat([body, crc]);
}

export function decodeSnapshot(format: number, bytes: Buffer): SnapshotRead {
  if (bytes.length < MAGIC.length + 16 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { ok: false, reason: 'not a snapshot file' };
  const body = bytes.subarray(0, bytes.length - 4);
  if ((crc32(body) >>> 0) !== bytes.readUInt32LE(bytes.length - 4)) return { ok: false, reason: 'checksum mismatch (truncated or corrupt)' };
  let offset = MAGIC.length;
  const found = bytes.readUInt32LE(offset);
  if (found !== format) return { ok: false, reason: `format ${found}, this version reads format ${format}` };
  const jsonLength = bytes.readUInt32LE(offset + 4);
  offset += 8;
  const json = JSON.parse(bytes.toString('utf8', offset, offset + jsonLength)) as unknown;
  offset += jsonLength;
  const binaryLength = bytes.readUInt32LE(offset);
  offset += 4;
  if (offset + binaryLength !== body.length) return { ok: false, reason: 'section lengths do not add up' };
  return { ok: true, parts: { json, binary: new Uint8Array(bytes.buffer, bytes.byteOffset + offset, binaryLength) } };
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
 * non-blocking (readGuard.ts).
 */
export async function readSnapshotFile(file: string, format: number): Promise<SnapshotRead | null> {
  try {
    await fs.stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { ok: false, reason: `cannot be read: ${(error as Error).message}` };
  }
  const read = await readGuardedBytes(file, [path.parse(path.resolve(file)).root], MAX_SNAPSHOT_BYTES);
  if (!read.ok) return { ok: false, reason: read.message };
  const bytes = read.bytes;
  try {
    return decodeSnapshot(format, bytes);
  } catch (error) {
    return { ok: false, reason: `cannot be decoded: ${(error as Error).message}` };
  }
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
      throw new InputError(`the cache folder ${cacheDir} lies inside the served folder ${folder.absPath}; the tool never writes into what it reads. Choose another with --cache-dir (or $WSCTX_CACHE_DIR), or use --no-cache.`);
    }
  }
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
