/**
 * Every discovered file with its digest, and its text once read: the engine's view of the working
 * tree. Parsers read through it (it is a `FileSource`), so a file is read from disk once per
 * change, and a file whose size and modification time match the previous table is not read at
 * all (git's own stat-cache rule). A table restored from a snapshot knows digests but no texts;
 * a text is then read on first use, which only happens when a parser must run again.
 */
import { promises as fs } from 'node:fs';
import { sha256Hex } from '../chunking/ids';
import type { Problem } from '../model';
import type { DiscoveredFile } from '../workspace/discovery';
import { stripBom } from '../workspace/diskFileSource';
import type { FileSource } from '../workspace/fileSource';

export interface FileEntry extends DiscoveredFile {
  /** SHA-256 hex of the UTF-8 text. */
  digest: string;
  /** The text when it has been read in this process (absent after a snapshot restore). */
  text?: string;
}

/** Files read concurrently when filling a table. */
const READ_CONCURRENCY = 32;

export class FileTable implements FileSource {
  private readonly paths: readonly string[];

  constructor(readonly entries: ReadonlyMap<string, FileEntry>) {
    this.paths = [...entries.keys()].sort(compareCodeUnits);
  }

  list(): readonly string[] {
    return this.paths;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  get(path: string): FileEntry | undefined {
    return this.entries.get(path);
  }

  async readText(path: string): Promise<string | null> {
    const entry = this.entries.get(path);
    if (!entry) return null;
    if (entry.text === undefined) {
      try {
        entry.text = stripBom(await fs.readFile(entry.absPath, 'utf8'));
      } catch {
        return null;
      }
    }
    return entry.text;
  }

  digest(path: string): string | undefined {
    return this.entries.get(path)?.digest;
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface FillResult {
  table: FileTable;
  /** Paths whose digest is new or changed, and paths gone since the previous table. */
  changed: string[];
  removed: string[];
  /** How many files were read from disk. */
  read: number;
  problems: Problem[];
}

/**
 * Builds the table for `files`, reusing the previous entry of every file whose size and mtime are
 * unchanged (or, in `forceRead`, whose digest is unchanged after reading it again).
 */
export async function fillFileTable(
  files: readonly DiscoveredFile[],
  previous: FileTable | undefined,
  options: { forceRead?: ReadonlySet<string> } = {},
): Promise<FillResult> {
  const entries = new Map<string, FileEntry>();
  const changed: string[] = [];
  const problems: Problem[] = [];
  let read = 0;
  let next = 0;

  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++];
      const before = previous?.get(file.path);
      const unchanged = before && before.size === file.size && before.mtimeMs === file.mtimeMs && before.absPath === file.absPath;
      if (unchanged && !options.forceRead?.has(file.path)) {
        entries.set(file.path, { ...file, digest: before.digest, ...(before.text !== undefined ? { text: before.text } : {}) });
        continue;
      }
      let text: string;
      try {
        text = stripBom(await fs.readFile(file.absPath, 'utf8'));
        read++;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        problems.push({ path: file.path, line: 1, severity: 'warning', code: 'workspace.read-failed', message: `File cannot be read (${code}); it is left out of the index.` });
        continue;
      }
      const digest = sha256Hex(text);
      entries.set(file.path, { ...file, digest, text });
      if (!before || before.digest !== digest) changed.push(file.path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, Math.max(1, files.length)) }, worker));

  const removed = previous ? previous.list().filter((p) => !entries.has(p)) : [];
  // Workers finish in any order; keep the table's iteration order stable (path order).
  const ordered = new Map([...entries.entries()].sort((a, b) => compareCodeUnits(a[0], b[0])));
  changed.sort(compareCodeUnits);
  return { table: new FileTable(ordered), changed, removed, read, problems };
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
