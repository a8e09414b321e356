/**
 * The expectations file read as every other workspace file is: through the read guard
 * (workspace/readGuard.ts). It lies in the workspace, so it is the workspace's to write: a FIFO
 * in its place would stall `wsctx check` (and a CI job) forever, a link out of the folder would
 * print another file's questions, and a file of 400 MB was read whole. So it is read only when it
 * is a regular file whose real path lies inside the folders given, of at most
 * {@link MAX_EXPECTATIONS_BYTES}; otherwise it is refused with the reason, naming the file. How
 * many of its entries are checked is parseExpectations' cap (MAX_EXPECTATIONS).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeText, readGuardedBytes } from '../workspace/readGuard';
import { type ExpectationsFile, parseExpectations } from './expectationsFile';

/** Largest expectations file read: 1 MiB (200 entries of a few pages each take about 40 KB). */
export const MAX_EXPECTATIONS_BYTES = 1024 * 1024;

export type ExpectationsRead =
  /** No file there (nothing to check). */
  | { kind: 'absent' }
  /** There, and not read: `message` says why (`could not be read: ...`). */
  | { kind: 'refused'; message: string }
  | { kind: 'read'; file: ExpectationsFile };

/**
 * Reads and parses the expectations file at `absPath`.
 * @param folders the folders it must lie in (absolute; their real paths are taken here)
 * @param shownAs how the file is named in problems (a workspace path, or as the user typed it)
 */
export async function readExpectationsFile(
  absPath: string,
  folders: readonly string[],
  shownAs: string,
): Promise<ExpectationsRead> {
  const roots = await Promise.all(folders.map((f) => fs.promises.realpath(f).catch(() => path.resolve(f))));
  const read = await readGuardedBytes(absPath, roots, MAX_EXPECTATIONS_BYTES);
  if (read.ok) return { kind: 'read', file: parseExpectations(shownAs, decodeText(read.bytes).text) };
  if (read.refusal === 'unreadable' && /ENOENT|ENOTDIR/.test(read.message)) return { kind: 'absent' };
  const why =
    read.refusal === 'too-large'
      ? `it holds more than ${MAX_EXPECTATIONS_BYTES.toLocaleString('en-US')} bytes, the most an expectations file may hold; not read`
      : read.message;
  return { kind: 'refused', message: `could not be read: ${why}` };
}
