/**
 * Reads the files of a VSIX, which is a zip archive, with no library: the central directory at
 * the end lists every entry with its compression and the offset of its local header. vsce writes
 * entries stored (0) or deflated (8), without zip64 or encryption; anything else is refused.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

export interface ZipArchive {
  /** Every entry's path inside the archive, in the central directory's order. */
  names: string[];
  /** One entry's bytes (inflated on demand: a VSIX holds tens of MB), or undefined when absent. */
  read(name: string): Buffer | undefined;
}

/** The archive at `zipPath`: its entries' names, and each entry's bytes on demand. */
export function readZip(zipPath: string): ZipArchive {
  const zip = readFileSync(zipPath);
  // The end record is 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error(`${zipPath}: not a zip archive (no end of central directory)`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, { method: number; dataStart: number; compressedSize: number }>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER)
      throw new Error(`${zipPath}: central directory entry ${i} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (zip.readUInt32LE(localHeader) !== LOCAL_FILE_HEADER)
      throw new Error(`${zipPath}: local header of ${name} is damaged`);
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    entries.set(name, { method, dataStart, compressedSize });
  }
  return {
    names: [...entries.keys()],
    read(name) {
      const entry = entries.get(name);
      if (!entry) return undefined;
      const data = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
      if (entry.method === 0) return Buffer.from(data);
      if (entry.method === 8) return inflateRawSync(data);
      throw new Error(`${zipPath}: ${name} uses compression method ${entry.method}`);
    },
  };
}
