/**
 * The check discovery makes of each file it would keep (discovery.ts): a regular file, at most
 * the size cap, no NUL byte in its first 8 KiB (git's own binary heuristic), and for a
 * documentation file whether its top says it is generated (docFiles.ts), read from those same
 * first bytes. One open, one fstat and one read of at most 8 KiB; a file an earlier discovery kept
 * and one `stat` shows unchanged costs only that `stat` (git's stat-cache rule).
 */
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
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
 */
export async function checkFile(absPath: string, maxFileSize: number, docFile: boolean): Promise<FileVerdict> {
  let handle: FileHandle | undefined;
  try {
    // Non-blocking: a FIFO swapped in for the file since the directory was listed cannot hang the open.
    handle = await fs.open(absPath, GUARDED_OPEN_FLAGS);
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'none' };
    if (stat.size > maxFileSize) {
      return {
        kind: 'refused',
        severity: 'info',
        code: 'workspace.too-large',
        message: `File is ${stat.size} bytes, over the ${maxFileSize}-byte size cap (maxFileSize); not read.`,
        reason: 'too-big',
      };
    }
    let generated = false;
    if (stat.size > 0) {
      const head = Buffer.alloc(Math.min(BINARY_SNIFF_BYTES, stat.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      const bytes = head.subarray(0, bytesRead);
      if (bytes.includes(0)) {
        return {
          kind: 'refused',
          severity: 'info',
          code: 'workspace.binary',
          message: 'File looks binary (a NUL byte in its first 8 KiB); not read.',
          reason: 'unreadable',
        };
      }
      if (docFile) generated = isMarkedGenerated(bytes.subarray(0, GENERATED_SNIFF_BYTES).toString('utf8'));
    }
    return { kind: 'keep', size: stat.size, mtimeMs: stat.mtimeMs, generated };
  } catch (error) {
    return {
      kind: 'refused',
      severity: 'warning',
      code: 'workspace.unreadable-file',
      message: `File cannot be read: ${errorReason(error)}.`,
      reason: 'unreadable',
    };
  } finally {
    await handle?.close().catch(() => undefined);
  }
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
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(absPath);
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
