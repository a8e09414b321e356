/**
 * The check discovery makes of each file it would keep (discovery.ts): a regular file, at most
 * the size cap, no NUL byte in its first 8 KiB (git's own binary heuristic), and for a
 * documentation file whether its top says it is generated (docFiles.ts), read from those same
 * first bytes. One open, one fstat and one read of at most 8 KiB; a file an earlier discovery kept
 * and one `stat` shows unchanged costs only that `stat` (git's stat-cache rule).
 */
import * as fs from 'node:fs';
import type { Severity } from '../model';
import { GENERATED_SNIFF_BYTES, isMarkedGenerated } from './docFiles';
import { GUARDED_OPEN_FLAGS } from './readGuard';

/** How many leading bytes are checked for a NUL byte (git's own binary heuristic size). */
export const BINARY_SNIFF_BYTES = 8192;

/** What the check found. */
export type FileVerdict =
  /** Readable, within the cap, not binary; `generated` only asked of documentation files. */
  | { kind: 'keep'; size: number; mtimeMs: number; generated: boolean }
  /** Not a regular file (a FIFO, socket or device swapped in): nothing to say. */
  | { kind: 'none' }
  /** Not read, with the problem to report and how coverage counts it. */
  | {
      kind: 'refused';
      severity: Severity;
      code: string;
      message: string;
      reason: 'too-big' | 'unreadable';
    };

/**
 * Checks one file. `docFile`: a documentation file, whose first {@link GENERATED_SNIFF_BYTES}
 * bytes are also checked for a generated marker. Never throws.
 *
 * Written on fs's callback API: the same open, fstat, read and close as `fs.promises`' file
 * handles, without a promise and a handle object per step. Discovery checks every file it keeps
 * (23,840 at the bench's 100k sections), and there the promise form cost 0.9-1.0 s of wall time
 * and 1.2-1.4 s of CPU against 0.40-0.45 s and 0.6-0.7 s (bench/RESULTS.md).
 */
export function checkFile(absPath: string, maxFileSize: number, docFile: boolean): Promise<FileVerdict> {
  return new Promise((resolve) => {
    try {
      // Non-blocking: a FIFO swapped in for the file since the directory was listed cannot hang the open.
      fs.open(absPath, GUARDED_OPEN_FLAGS, (error, fd) => {
        if (error) resolve(unreadable(error));
        else checkOpenFile(fd, maxFileSize, docFile, (verdict) => fs.close(fd, () => resolve(verdict)));
      });
    } catch (error) {
      // A path fs refuses outright (a NUL byte in it) throws here instead of calling back.
      resolve(unreadable(error));
    }
  });
}

/** The checks of {@link checkFile} on its open file; `done` is called once, with the verdict. */
function checkOpenFile(fd: number, maxFileSize: number, docFile: boolean, done: (verdict: FileVerdict) => void): void {
  fs.fstat(fd, (statError, stat) => {
    if (statError) return done(unreadable(statError));
    if (!stat.isFile()) return done({ kind: 'none' });
    if (stat.size > maxFileSize) {
      return done({
        kind: 'refused',
        severity: 'info',
        code: 'workspace.too-large',
        message: `File is ${stat.size} bytes, over the ${maxFileSize}-byte size cap (maxFileSize); not read.`,
        reason: 'too-big',
      });
    }
    if (stat.size === 0) return done(kept(stat, false));
    const head = Buffer.alloc(Math.min(BINARY_SNIFF_BYTES, stat.size));
    fs.read(fd, head, 0, head.length, 0, (readError, bytesRead) => {
      if (readError) return done(unreadable(readError));
      let verdict: FileVerdict;
      try {
        verdict = verdictOnHead(head.subarray(0, bytesRead), stat, docFile);
      } catch (error) {
        verdict = unreadable(error);
      }
      done(verdict);
    });
  });
}

/** Binary (a NUL byte), else kept, and for a documentation file whether its top says generated. */
function verdictOnHead(bytes: Buffer, stat: fs.Stats, docFile: boolean): FileVerdict {
  if (bytes.includes(0)) {
    return {
      kind: 'refused',
      severity: 'info',
      code: 'workspace.binary',
      message: 'File looks binary (a NUL byte in its first 8 KiB); not read.',
      reason: 'unreadable',
    };
  }
  return kept(stat, docFile && isMarkedGenerated(bytes.subarray(0, GENERATED_SNIFF_BYTES).toString('utf8')));
}

/** The verdict on a file discovery keeps. */
function kept(stat: fs.Stats, generated: boolean): FileVerdict {
  return { kind: 'keep', size: stat.size, mtimeMs: stat.mtimeMs, generated };
}

/** The verdict on a file that could not be opened, stat'ed or read. */
function unreadable(error: unknown): FileVerdict {
  return {
    kind: 'refused',
    severity: 'warning',
    code: 'workspace.unreadable-file',
    message: `File cannot be read: ${errorReason(error)}.`,
    reason: 'unreadable',
  };
}

/**
 * The file's size and modification time when one `stat` shows it as an earlier discovery kept it
 * (same size and time, still a regular file within the cap); null sends it through
 * {@link checkFile}.
 */
export async function unchangedSince(
  absPath: string,
  known: { size: number; mtimeMs: number },
  maxFileSize: number,
): Promise<{ size: number; mtimeMs: number } | null> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(absPath);
  } catch {
    return null;
  }
  if (!stat.isFile() || stat.size !== known.size || stat.mtimeMs !== known.mtimeMs || stat.size > maxFileSize)
    return null;
  return { size: stat.size, mtimeMs: stat.mtimeMs };
}

/** An error's code (`ENOENT`, `EACCES`...) or message. */
export function errorReason(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  return err?.code ?? (err instanceof Error ? err.message : String(error));
}
