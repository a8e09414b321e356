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
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';

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

export async function readSnapshotFile(file: string, format: number): Promise<SnapshotRead | null> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { ok: false, reason: `cannot be read: ${(error as Error).message}` };
  }
  try {
    return decodeSnapshot(format, bytes);
  } catch (error) {
    return { ok: false, reason: `cannot be decoded: ${(error as Error).message}` };
  }
}
