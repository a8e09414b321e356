/**
 * Read access to a workspace's files, as they are now or as they were at a commit.
 *
 * Parsers and loaders take a `FileSource` instead of touching the file system, so the same code
 * reads the present working tree and a past commit (`asOf`, read from git objects), and never
 * writes anything.
 */

export interface FileSource {
  /** Workspace-relative paths of every readable file the discovery kept, sorted. */
  list(): readonly string[];
  /** True when `path` is one of the listed files. */
  has(path: string): boolean;
  /**
   * Optional: the listed files inside directory `dir` (`''`: every file), in `list()` order.
   * Sources that keep a sorted list answer in O(log n + matches); callers use `filesUnder`,
   * which falls back to filtering `list()`.
   */
  listUnder?(dir: string): readonly string[];
  /** UTF-8 text of a listed file, or null when it cannot be read (the reason goes to `problems`). */
  readText(path: string): Promise<string | null>;
}

/** The files of `source` inside directory `dir` (`''`: every file), in `list()` order. */
export function filesUnder(source: FileSource, dir: string): readonly string[] {
  if (source.listUnder) return source.listUnder(dir);
  if (dir === '') return source.list();
  const prefix = `${dir}/`;
  return source.list().filter((path) => path.startsWith(prefix));
}

/**
 * The paths of `sorted` (ascending by UTF-16 code unit, as `Array.prototype.sort` orders strings)
 * inside directory `dir`: one contiguous run, found by two binary searches. Every path starting
 * with `dir/` sorts at or after `dir/` and before `dir0` (`0` follows `/` in code unit order).
 */
export function sortedUnder(sorted: readonly string[], dir: string): readonly string[] {
  if (dir === '') return sorted;
  const start = lowerBound(sorted, `${dir}/`);
  const end = lowerBound(sorted, `${dir}0`, start);
  return sorted.slice(start, end);
}

/** First index in `sorted` at or after `from` whose value is not below `value`. */
function lowerBound(sorted: readonly string[], value: string, from = 0): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A `FileSource` over an in-memory map; used for tests and for content already read. */
export class MemoryFileSource implements FileSource {
  private readonly paths: string[];
  constructor(private readonly files: ReadonlyMap<string, string>) {
    this.paths = [...files.keys()].sort();
  }
  list(): readonly string[] {
    return this.paths;
  }
  has(path: string): boolean {
    return this.files.has(path);
  }
  listUnder(dir: string): readonly string[] {
    return sortedUnder(this.paths, dir);
  }
  async readText(path: string): Promise<string | null> {
    return this.files.get(path) ?? null;
  }
}
