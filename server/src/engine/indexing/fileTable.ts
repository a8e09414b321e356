/**
 * Every discovered file with its digest, and its text once read: the engine's view of the working
 * tree. Parsers read through it (it is a `FileSource`), so a file is read from disk once per
 * change, and a file whose size and modification time match the previous table is not read at
 * all (git's own stat-cache rule). A table restored from a snapshot knows digests but no texts;
 * a text is then read on first use, which only happens when a parser must run again. Every read
 * goes through the table's `WorkspaceReader` (readGuard.ts): inside the served folders, regular
 * files only, size capped on the bytes read.
 */
import { sha256Hex } from '../chunking/ids';
import type { Problem } from '../model';
import type { DiscoveredFile } from '../workspace/discovery';
import { sortedUnder, type FileSource } from '../workspace/fileSource';
import type { GuardedText, WorkspaceReader } from '../workspace/readGuard';
import { readInWorkers } from './readPool';

export interface FileEntry extends DiscoveredFile {
  /** SHA-256 hex of the UTF-8 text. */
  digest: string;
  /** The text when it has been read in this process (absent after a snapshot restore). */
  text?: string;
}

/** Files read concurrently when filling a table on this thread. */
const READ_CONCURRENCY = 32;
/** Fewer files to read than this are read on this thread: a worker's start-up would cost more. */
export const WORKER_MIN_FILES = 512;

/**
 * How a table differs from the one it was made from: what lets memo.ts revalidate only what
 * depends on the files that changed. Holds the earlier table's id, never the table itself, so
 * tables do not chain in memory.
 */
export interface TableDelta {
  /** `id` of the table this one was made from. */
  from: number;
  /** Paths whose digest differs between the two: edited, added or removed. */
  paths: ReadonlySet<string>;
  /** True when files were added or removed (the path list differs). */
  listingChanged: boolean;
}

let nextTableId = 1;

export class FileTable implements FileSource {
  /** Unique per table in this process (TableDelta.from names it). */
  readonly id = nextTableId++;
  /** Set on tables made from an earlier one by `fillFileTable` or `refreshFileTable`. */
  delta: TableDelta | undefined;
  private readonly paths: readonly string[];
  private listingSignature: string | undefined;

  /**
   * @param sortedPaths the keys of `entries` already sorted (a table made from another with the
   *   same files); sorted here when left out
   */
  constructor(
    readonly entries: ReadonlyMap<string, FileEntry>,
    /** How this table reads files from disk. */
    readonly reader: WorkspaceReader,
    sortedPaths?: readonly string[],
  ) {
    this.paths = sortedPaths ?? [...entries.keys()].sort(compareCodeUnits);
  }

  /** A digest of the list of paths: equal signatures, same files (memo.ts compares them). */
  get signature(): string {
    this.listingSignature ??= sha256Hex(this.paths.join('\n'));
    return this.listingSignature;
  }

  list(): readonly string[] {
    return this.paths;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Files inside directory `dir` by binary search over the sorted paths (fileSource.ts). */
  listUnder(dir: string): readonly string[] {
    return sortedUnder(this.paths, dir);
  }

  get(path: string): FileEntry | undefined {
    return this.entries.get(path);
  }

  async readText(path: string): Promise<string | null> {
    const entry = this.entries.get(path);
    if (!entry) return null;
    if (entry.text === undefined) {
      const read = await this.reader.readText(entry.absPath);
      if (!read.ok) return null;
      entry.text = read.text;
      this.loaded.push(path);
    }
    return entry.text;
  }

  digest(path: string): string | undefined {
    return this.entries.get(path)?.digest;
  }

  /**
   * Forgets the texts of files `keep` does not take; a later `readText` reads them from disk
   * again, as after a snapshot restore. With `only`, looks at those paths and at the files
   * `readText` loaded since the last release, instead of at every file. Parsed documents keep their own copy of what they need
   * (the sections' text), so a text held here as well only doubles the memory.
   */
  releaseTexts(keep: (entry: FileEntry) => boolean, only?: Iterable<string>): void {
    const release = (entry: FileEntry | undefined) => {
      if (entry && entry.text !== undefined && !keep(entry)) delete entry.text;
    };
    if (only) {
      for (const path of only) release(this.entries.get(path));
      for (const path of this.loaded.splice(0)) release(this.entries.get(path));
    } else {
      for (const entry of this.entries.values()) release(entry);
      this.loaded = [];
    }
  }
  /** Paths whose text was read from disk since the last `releaseTexts` (refreshFileTable, readText). */
  private loaded: string[] = [];

  /** Records files read into this table's entries (see `releaseTexts`). */
  noteLoaded(paths: Iterable<string>): void {
    for (const path of paths) this.loaded.push(path);
  }

  /** A table of the same files (same paths) with other entries: the path list is shared. */
  withEntries(entries: ReadonlyMap<string, FileEntry>): FileTable {
    const table = new FileTable(entries, this.reader, this.paths);
    table.listingSignature = this.listingSignature;
    return table;
  }

  /**
   * Files whose bytes were not valid UTF-8 when last read, by path: their problems stay reported
   * while the file is unchanged (and so not read again). Tables made from this one take it over.
   */
  encodingProblems = new Map<string, Problem>();

  get size(): number {
    return this.entries.size;
  }
}

export interface FillResult {
  table: FileTable;
  /** Paths whose digest is new or changed, and paths gone since the previous table. */
  changed: string[];
  removed: string[];
  /** Listed files that could not be read (each has a problem in `problems`). */
  unread: string[];
  /** How many files were read from disk. */
  read: number;
  /** Where the reads ran: worker threads (readPool.ts) or this thread. */
  readOn: 'workers' | 'main';
  problems: Problem[];
}

/** `onProgress` hears of every this many files checked, or of every 1% when that is more. */
const PROGRESS_EVERY_FILES = 200;

/**
 * Builds the table for `files`, reusing the previous entry of every file whose size and mtime are
 * unchanged (or, in `forceRead`, whose digest is unchanged after reading it again). `onProgress`
 * hears how many files have been checked so far, and once more when all have. With `readWorkers`
 * and at least {@link WORKER_MIN_FILES} files to read (a cold pass), the reads run in that many
 * worker threads (readPool.ts); when they cannot, on this thread as always: the table is the same.
 */
export async function fillFileTable(
  files: readonly DiscoveredFile[],
  previous: FileTable | undefined,
  reader: WorkspaceReader,
  options: {
    forceRead?: ReadonlySet<string>;
    onProgress?: (checked: number, total: number) => void;
    /** Worker threads for the reads; 0 or absent reads on this thread. */
    readWorkers?: number;
    /** The read worker's entry (tests); see readPool.ts. */
    readWorkerScript?: string;
  } = {},
): Promise<FillResult> {
  const entries = new Map<string, FileEntry>();
  const changed: string[] = [];
  const problems: Problem[] = [];
  const unread: string[] = [];
  const encoding = new Map<string, Problem>();
  let read = 0;
  const report = options.onProgress;
  const reportEvery = Math.max(PROGRESS_EVERY_FILES, Math.ceil(files.length / 100));

  // Unchanged files keep their entry without a read; the rest are read below.
  const toRead: DiscoveredFile[] = [];
  for (const file of files) {
    const before = previous?.get(file.path);
    const unchanged =
      before && before.size === file.size && before.mtimeMs === file.mtimeMs && before.absPath === file.absPath;
    if (!unchanged || options.forceRead?.has(file.path)) {
      toRead.push(file);
      continue;
    }
    entries.set(file.path, {
      ...file,
      digest: before.digest,
      ...(before.text !== undefined ? { text: before.text } : {}),
    });
    const kept = previous!.encodingProblems.get(file.path);
    if (kept) encoding.set(file.path, kept);
  }
  const kept = files.length - toRead.length;
  let lastReport = 0;
  const progress = (readSoFar: number): void => {
    const checked = kept + readSoFar;
    if (!report || checked - lastReport < reportEvery) return;
    lastReport = checked;
    report(checked, files.length);
  };
  const record = (file: DiscoveredFile, entry: FileEntry | null): void => {
    if (!entry) {
      unread.push(file.path);
      return;
    }
    read++;
    entries.set(file.path, entry);
    const before = previous?.get(file.path);
    if (!before || before.digest !== entry.digest) changed.push(file.path);
  };

  const pooled =
    (options.readWorkers ?? 0) > 0 && toRead.length >= WORKER_MIN_FILES
      ? await readInWorkers(
          toRead.map((file) => file.absPath),
          await reader.realRoots(),
          reader.maxBytes,
          { workers: options.readWorkers!, onProgress: progress, script: options.readWorkerScript },
        )
      : null;
  if (pooled) {
    for (let i = 0; i < toRead.length; i++) {
      const file = toRead[i];
      const result = pooled[i];
      // A real path outside the roots may mean a folder re-created since: the reader looks again.
      if (!result.ok && result.refusal === 'outside') record(file, await readEntry(file, reader, problems, encoding));
      else record(file, entryOf(file, result, problems, encoding));
    }
  } else {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < toRead.length) {
        const file = toRead[next++];
        progress(next);
        record(file, await readEntry(file, reader, problems, encoding));
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, Math.max(1, toRead.length)) }, worker));
  }
  // Reads finish in any order: their problems are listed in path order.
  problems.sort((a, b) => compareCodeUnits(a.path, b.path));
  report?.(files.length, files.length);

  const removed = previous ? previous.list().filter((p) => !entries.has(p)) : [];
  // Workers finish in any order; keep the table's iteration order stable (path order).
  const ordered = new Map([...entries.entries()].sort((a, b) => compareCodeUnits(a[0], b[0])));
  changed.sort(compareCodeUnits);
  unread.sort(compareCodeUnits);
  const table = new FileTable(ordered, reader);
  table.encodingProblems = encoding;
  problems.push(...[...encoding.values()].sort((a, b) => compareCodeUnits(a.path, b.path)));
  if (previous)
    table.delta = deltaOf(previous, changed, removed, removed.length > 0 || changed.some((p) => !previous.has(p)));
  return { table, changed, removed, unread, read, readOn: pooled ? 'workers' : 'main', problems };
}

/**
 * The table after an update pass, in O(touched files): `reread` files are read again (edited, or
 * unreadable last time), `removed` ones dropped, every other entry kept as it is. Takes over
 * `previous`'s entry map: `previous` must not be read afterwards. Gives what `fillFileTable` gives for the same files when only `reread`
 * can have changed (its `forceRead` = `reread`).
 */
export async function refreshFileTable(
  previous: FileTable,
  reread: readonly DiscoveredFile[],
  removedPaths: Iterable<string>,
): Promise<FillResult> {
  // The previous table is the indexer's and is replaced by this one: its map is taken over
  // rather than copied (an update pass then costs nothing per unchanged file).
  const before = new Map<string, FileEntry | undefined>(reread.map((file) => [file.path, previous.get(file.path)]));
  const entries = previous.entries as Map<string, FileEntry>;
  const removed: string[] = [];
  const encoding = previous.encodingProblems;
  for (const path of removedPaths) {
    encoding.delete(path);
    if (entries.delete(path)) removed.push(path);
  }
  const changed: string[] = [];
  const problems: Problem[] = [];
  const unread: string[] = [];
  let read = 0;
  let added = false;
  const readPaths: string[] = [];
  for (const file of [...reread].sort((a, b) => compareCodeUnits(a.path, b.path))) {
    const old = before.get(file.path);
    const entry = await readEntry(file, previous.reader, problems, encoding);
    if (!entry) {
      unread.push(file.path);
      if (entries.delete(file.path)) removed.push(file.path);
      continue;
    }
    read++;
    readPaths.push(file.path);
    entries.set(file.path, entry);
    if (!old) added = true;
    if (!old || old.digest !== entry.digest) changed.push(file.path);
  }
  removed.sort(compareCodeUnits);
  // The same files in the same order: the sorted list (and its signature) carry over.
  const sameFiles = removed.length === 0 && !added;
  const table = sameFiles
    ? previous.withEntries(entries)
    : new FileTable(
        added ? new Map([...entries].sort((a, b) => compareCodeUnits(a[0], b[0]))) : entries,
        previous.reader,
      );
  table.delta = deltaOf(previous, changed, removed, !sameFiles);
  table.noteLoaded(readPaths);
  table.encodingProblems = encoding;
  problems.push(...[...encoding.values()].sort((a, b) => compareCodeUnits(a.path, b.path)));
  return { table, changed, removed, unread, read, readOn: 'main', problems };
}

function deltaOf(
  previous: FileTable,
  changed: readonly string[],
  removed: readonly string[],
  listingChanged: boolean,
): TableDelta {
  return { from: previous.id, paths: new Set([...changed, ...removed]), listingChanged };
}

/** Problem codes of a refused read (readGuard.ts `ReadRefusal`). */
const REFUSAL_CODES = {
  outside: 'workspace.outside',
  'not-regular': 'workspace.not-regular',
  'too-large': 'workspace.too-large',
  unreadable: 'workspace.read-failed',
} as const;

/** Reads one file into an entry through the guard (see entryOf). */
async function readEntry(
  file: DiscoveredFile,
  reader: WorkspaceReader,
  problems: Problem[],
  encoding: Map<string, Problem>,
): Promise<FileEntry | null> {
  return entryOf(file, await reader.readText(file.absPath), problems, encoding);
}

/**
 * A file's entry from its guarded read, or null with a problem saying why it was not read. Text
 * that is not valid UTF-8 is kept (invalid bytes become U+FFFD) and reported where the first bad
 * byte is. `read.digest`, when given (a read worker took it), is the text's SHA-256.
 */
function entryOf(
  file: DiscoveredFile,
  read: GuardedText & { digest?: string },
  problems: Problem[],
  encoding: Map<string, Problem>,
): FileEntry | null {
  encoding.delete(file.path);
  if (!read.ok) {
    problems.push({
      path: file.path,
      line: 1,
      severity: 'warning',
      code: REFUSAL_CODES[read.refusal],
      message: `File ${read.message}; it is left out of the index.`,
    });
    return null;
  }
  if (read.invalidUtf8) {
    encoding.set(file.path, {
      path: file.path,
      line: read.invalidUtf8.line,
      severity: 'warning',
      code: 'workspace.invalid-utf8',
      message: `File is not valid UTF-8 (first invalid byte at offset ${read.invalidUtf8.offset}); invalid bytes are read as U+FFFD. Save it as UTF-8.`,
    });
  }
  return { ...file, digest: read.digest ?? sha256Hex(read.text), text: read.text };
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
