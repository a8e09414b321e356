/**
 * A `FileSource` over the working tree, limited to the files a discovery kept, read through the
 * read guard (readGuard.ts).
 */
import type { Problem } from '../model';
import { DEFAULT_MAX_FILE_SIZE, type DiscoveredFile, type WorkspaceDiscovery } from './discovery';
import type { FileSource } from './fileSource';
import { WorkspaceReader } from './readGuard';

export { stripBom } from './readGuard';

/** Reads discovered files as UTF-8 (a leading byte-order mark is dropped). */
export class DiskFileSource implements FileSource {
  /** Read failures, one per failed `readText` call, and files that are not valid UTF-8. */
  readonly problems: Problem[] = [];
  private readonly byPath: ReadonlyMap<string, DiscoveredFile>;
  private readonly paths: readonly string[];
  private readonly reader: WorkspaceReader;

  /**
   * @param discovery the files to serve and the folders they must lie in
   * @param maxBytes largest file read; default the discovery's default cap (2 MiB)
   */
  constructor(discovery: Pick<WorkspaceDiscovery, 'files' | 'folders'>, maxBytes = DEFAULT_MAX_FILE_SIZE) {
    this.byPath = new Map(discovery.files.map((file) => [file.path, file]));
    this.paths = [...this.byPath.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.reader = new WorkspaceReader(discovery.folders, maxBytes);
  }

  list(): readonly string[] {
    return this.paths;
  }

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  /** The discovery's record of a listed file. */
  file(path: string): DiscoveredFile | undefined {
    return this.byPath.get(path);
  }

  async readText(path: string): Promise<string | null> {
    const file = this.byPath.get(path);
    if (!file) {
      this.problems.push({
        path,
        line: 1,
        severity: 'warning',
        code: 'workspace.not-listed',
        message: 'File is not part of the discovered workspace; not read.',
      });
      return null;
    }
    const read = await this.reader.readText(file.absPath);
    if (!read.ok) {
      this.problems.push({
        path,
        line: 1,
        severity: 'warning',
        code: 'workspace.read-failed',
        message: `File ${read.message}.`,
      });
      return null;
    }
    if (read.invalidUtf8) {
      this.problems.push({
        path,
        line: read.invalidUtf8.line,
        severity: 'warning',
        code: 'workspace.invalid-utf8',
        message: `File is not valid UTF-8 (first invalid byte at offset ${read.invalidUtf8.offset}); invalid bytes are read as U+FFFD.`,
      });
    }
    return read.text;
  }
}
