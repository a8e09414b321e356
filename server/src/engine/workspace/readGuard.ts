/**
 * The one way the engine reads a workspace file. The workspace is untrusted input: a link can
 * point anywhere (`/proc/self/environ`, `/etc`), a "file" can be a FIFO that blocks the reader
 * forever or a device that never ends, and a `/proc` file reports size 0 whatever it holds. So a
 * read here:
 *
 * 1. refuses anything that is not a regular file before opening it (FIFO, socket, device, folder);
 * 2. opens it with O_NONBLOCK, so a FIFO swapped in after that check cannot block the open;
 * 3. checks the descriptor it opened: a regular file (fstat), whose real path lies inside one of
 *    the allowed roots, and whose real path names that very file (same device and inode), so a
 *    link swapped between the check and the open is refused rather than followed;
 * 4. reads from that descriptor at most `maxBytes + 1` bytes, and refuses the file when the extra
 *    byte arrives: the cap holds on the bytes read, not on what `stat` claims.
 *
 * Not covered (README "Security"): hard links (a second name of an outside file, which only someone
 * who could already write both places can make) and bind mounts look like inside files.
 */
import * as fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import * as path from 'node:path';
import { isWithin } from './paths';

/** Why a read was refused. */
export type ReadRefusal =
  /** The real path lies outside every allowed root (a link out of the workspace). */
  | 'outside'
  /** Not a regular file: a FIFO, socket, device or directory. */
  | 'not-regular'
  /** More bytes than the cap. */
  | 'too-large'
  /** Missing, unreadable, or replaced while it was being opened. */
  | 'unreadable';

export type GuardedBytes =
  | { ok: true; bytes: Buffer; realPath: string }
  | { ok: false; refusal: ReadRefusal; message: string };

export type GuardedText =
  | {
      ok: true;
      /** UTF-8 text, a leading byte-order mark dropped; invalid sequences replaced by U+FFFD. */
      text: string;
      /** Set when the bytes were not valid UTF-8: where the first bad byte is (1-based line). */
      invalidUtf8?: { offset: number; line: number };
    }
  | { ok: false; refusal: ReadRefusal; message: string };

/** Flags of every guarded open. O_NONBLOCK is POSIX; Windows has no FIFOs to fear and no such flag. */
export const GUARDED_OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

/** Bytes read per `read` call. */
const CHUNK = 64 * 1024;
/** Bytes per `read` call into a buffer sized from fstat (a large file): 32 MiB. */
const BIG_READ = 32 * 1024 * 1024;

/**
 * Reads `absPath` through the guard (module comment).
 * @param roots real paths (fs.realpath) of the folders the file must lie in
 * @param maxBytes largest file accepted, in bytes
 */
export async function readGuardedBytes(
  absPath: string,
  roots: readonly string[],
  maxBytes: number,
): Promise<GuardedBytes> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    const guarded = await openGuarded(absPath, roots);
    if (!guarded.ok) return guarded;
    handle = guarded.handle;
    const { opened, realPath } = guarded;
    const chunks: Buffer[] = [];
    let total = 0;
    // A file that says it is large is read into one buffer of its size plus the byte that would
    // show it grew, in a few big reads: 64 KiB reads of a 220 MB snapshot are 3,400 round trips
    // through the thread pool (queued behind the vector index's reads) and a copy at the end.
    if (opened.size > CHUNK) {
      const want = Math.min(opened.size, maxBytes) + 1;
      const buffer = Buffer.allocUnsafe(want);
      while (total < want) {
        const { bytesRead } = await handle.read(buffer, total, Math.min(BIG_READ, want - total), null);
        if (bytesRead === 0) break;
        total += bytesRead;
      }
      if (total > maxBytes) return refuse('too-large', `more than ${maxBytes} bytes (the size cap); not read`);
      chunks.push(total === want ? buffer : buffer.subarray(0, total));
      // Only when the file grew past its size since fstat does the chunked loop below read on.
      if (total < want) return { ok: true, bytes: chunks[0], realPath };
    }
    for (;;) {
      const want = Math.min(CHUNK, maxBytes + 1 - total);
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buffer, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return refuse('too-large', `more than ${maxBytes} bytes (the size cap); not read`);
    }
    return { ok: true, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total), realPath };
  } catch (error) {
    return refuse('unreadable', `cannot be read: ${errorCode(error)}`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A descriptor opened through the guard (steps 1 to 3 of the module comment), for a caller that reads it itself. */
export type GuardedHandle =
  | { ok: true; handle: fs.promises.FileHandle; opened: fs.Stats; realPath: string }
  | { ok: false; refusal: ReadRefusal; message: string };

/**
 * Opens `absPath` through the guard's checks (module comment, steps 1 to 3) and hands back the
 * descriptor, for a reader that reads a large file in parts of its own choosing (the index
 * snapshot). The caller closes the handle, and caps what it reads itself (step 4). Never throws.
 * @param roots real paths (fs.realpath) of the folders the file must lie in
 */
export async function openGuarded(absPath: string, roots: readonly string[]): Promise<GuardedHandle> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    const before = await fs.promises.stat(absPath);
    if (!before.isFile()) return refuse('not-regular', `${kindOf(before)}, not a regular file`);
    handle = await fs.promises.open(absPath, GUARDED_OPEN_FLAGS);
    const opened = await handle.stat();
    if (!opened.isFile()) return closing(handle, refuse('not-regular', `${kindOf(opened)}, not a regular file`));
    const realPath = await fs.promises.realpath(absPath);
    const placed = placement(realPath, roots);
    if (placed && !placed.ok) return closing(handle, placed);
    const atReal = await fs.promises.stat(realPath);
    if (atReal.ino !== opened.ino || atReal.dev !== opened.dev)
      return closing(handle, refuse('unreadable', 'the file was replaced while it was opened'));
    return { ok: true, handle, opened, realPath };
  } catch (error) {
    return closing(handle, refuse('unreadable', `cannot be read: ${errorCode(error)}`));
  }
}

/** `refusal`, after closing `handle` (when one was opened). */
async function closing<T>(handle: fs.promises.FileHandle | undefined, refusal: T): Promise<T> {
  await handle?.close().catch(() => undefined);
  return refusal;
}

/** A buffer reused from read to read (see `readGuardedBytesSync`); grown as a file needs. */
export interface ReadScratch {
  buffer: Buffer;
}

/**
 * `readGuardedBytes` without awaiting (for callers that are synchronous, like private notes).
 * With `scratch`, the bytes are read into its buffer and returned as a view of it, valid until the
 * next read with the same scratch: a reader of thousands of files (indexing/readWorker.ts) then
 * allocates nothing per file, and a worker thread's short-lived buffers do not scatter its
 * malloc arena (memory the process keeps after the thread ends).
 */
export function readGuardedBytesSync(
  absPath: string,
  roots: readonly string[],
  maxBytes: number,
  scratch?: ReadScratch,
): GuardedBytes {
  let fd: number | undefined;
  try {
    const before = fs.statSync(absPath);
    if (!before.isFile()) return refuse('not-regular', `${kindOf(before)}, not a regular file`);
    fd = fs.openSync(absPath, GUARDED_OPEN_FLAGS);
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return refuse('not-regular', `${kindOf(opened)}, not a regular file`);
    // The native realpath(3), as `fs.promises.realpath` in the awaited variant and for the roots:
    // the same answer, and fs's own JavaScript walk (an lstat per component) took twice as long
    // over a cold pass's 24k files.
    const realPath = fs.realpathSync.native(absPath);
    const placed = placement(realPath, roots);
    if (placed) return placed;
    const atReal = fs.statSync(realPath);
    if (atReal.ino !== opened.ino || atReal.dev !== opened.dev)
      return refuse('unreadable', 'the file was replaced while it was opened');
    if (scratch) return readIntoScratch(fd, scratch, maxBytes, realPath);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK, maxBytes + 1 - total);
      const buffer = Buffer.allocUnsafe(want);
      const bytesRead = fs.readSync(fd, buffer, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return refuse('too-large', `more than ${maxBytes} bytes (the size cap); not read`);
    }
    return { ok: true, bytes: Buffer.concat(chunks, total), realPath };
  } catch (error) {
    return refuse('unreadable', `cannot be read: ${errorCode(error)}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Step 4 of the module comment into `scratch`: at most `maxBytes + 1` bytes, refused past the cap. */
function readIntoScratch(fd: number, scratch: ReadScratch, maxBytes: number, realPath: string): GuardedBytes {
  const cap = maxBytes + 1;
  let total = 0;
  for (;;) {
    if (total === scratch.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(cap, Math.max(CHUNK, total * 2)));
      scratch.buffer.copy(grown, 0, 0, total);
      scratch.buffer = grown;
    }
    const bytesRead = fs.readSync(fd, scratch.buffer, total, Math.min(scratch.buffer.length, cap) - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) return refuse('too-large', `more than ${maxBytes} bytes (the size cap); not read`);
  }
  return { ok: true, bytes: scratch.buffer.subarray(0, total), realPath };
}

/** Largest config-like file read (a `.gitignore`, `info/exclude`, a `.git` file): 1 MiB. */
export const MAX_RULES_BYTES = 1024 * 1024;

/**
 * Text of a small file whose content is never served (ignore rules, a `.git` file's `gitdir:`
 * line) and that may lie outside the workspace (a linked worktree's git dir): regular files only,
 * non-blocking, at most {@link MAX_RULES_BYTES}. Throws an Error with `code` ENOENT when missing,
 * EINVAL when refused.
 */
export async function readSmallFile(absPath: string): Promise<string> {
  const read = await readGuardedBytes(absPath, [path.parse(path.resolve(absPath)).root], MAX_RULES_BYTES);
  if (read.ok) return stripBom(read.bytes.toString('utf8'));
  const missing = read.refusal === 'unreadable' && /ENOENT|ENOTDIR/.test(read.message);
  throw Object.assign(new Error(`${absPath}: ${read.message}`), { code: missing ? 'ENOENT' : 'EINVAL' });
}

/** Decodes guarded bytes as text, noting where the first invalid UTF-8 byte is. */
export function decodeText(bytes: Buffer): { text: string; invalidUtf8?: { offset: number; line: number } } {
  const text = stripBom(bytes.toString('utf8'));
  if (isUtf8(bytes)) return { text };
  const offset = firstInvalidUtf8(bytes);
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return { text, invalidUtf8: { offset, line } };
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/**
 * Reads the files of a set of folders through the guard: the folders' real paths are the roots,
 * resolved once and again whenever a file seems to lie outside them (a folder re-created or
 * re-mounted since).
 */
export class WorkspaceReader {
  private roots: Promise<string[]> | undefined;

  /**
   * @param folders the folders files must lie in (absolute paths)
   * @param maxBytes largest file read, in bytes (discovery's `maxFileSize`, default 2 MiB)
   */
  constructor(
    readonly folders: readonly { absPath: string }[],
    readonly maxBytes: number,
  ) {}

  async readBytes(absPath: string, maxBytes = this.maxBytes): Promise<GuardedBytes> {
    let read = await readGuardedBytes(absPath, await this.realRoots(), maxBytes);
    if (!read.ok && read.refusal === 'outside') {
      this.roots = undefined;
      read = await readGuardedBytes(absPath, await this.realRoots(), maxBytes);
    }
    return read;
  }

  async readText(absPath: string): Promise<GuardedText> {
    const read = await this.readBytes(absPath);
    return read.ok ? { ok: true, ...decodeText(read.bytes) } : read;
  }

  /** The real paths of the served folders (what a read must lie in). */
  realRoots(): Promise<string[]> {
    this.roots ??= Promise.all(
      this.folders.map((folder) => fs.promises.realpath(folder.absPath).catch(() => path.resolve(folder.absPath))),
    );
    return this.roots;
  }
}

function placement(realPath: string, roots: readonly string[]): GuardedBytes | null {
  if (roots.some((root) => isWithin(root, realPath))) return null;
  return refuse('outside', `its real path (${realPath}) is outside the served folders; not read`);
}

function refuse(refusal: ReadRefusal, message: string): { ok: false; refusal: ReadRefusal; message: string } {
  return { ok: false, refusal, message };
}

function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isDirectory()) return 'a directory';
  return 'not a file';
}

function errorCode(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  return err?.code ?? (err instanceof Error ? err.message : String(error));
}
