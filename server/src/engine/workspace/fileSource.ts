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
  /** UTF-8 text of a listed file, or null when it cannot be read (the reason goes to `problems`). */
  readText(path: string): Promise<string | null>;
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
  async readText(path: string): Promise<string | null> {
    return this.files.get(path) ?? null;
  }
}
