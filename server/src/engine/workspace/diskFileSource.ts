/**
 * A `FileSource` over the working tree, limited to the files a discovery kept.
 */
import { promises as fs } from 'node:fs';
import type { Problem } from '../model';
import type { DiscoveredFile, WorkspaceDiscovery } from './discovery';
import type { FileSource } from './fileSource';

/** Reads discovered files as UTF-8 (a leading byte-order mark is dropped). */
export class DiskFileSource implements FileSource {
  /** Read failures, one per failed `readText` call. */
  readonly problems: Problem[] = [];
  private readonly byPath: ReadonlyMap<string, DiscoveredFile>;
  private readonly paths: readonly string[];

  constructor(discovery: Pick<WorkspaceDiscovery, 'files'>) {
    this.byPath = new Map(discovery.files.map((file) => [file.path, file]));
    this.paths = [...this.byPath.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
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
      this.problems.push({ path, line: 1, severity: 'warning', code: 'workspace.not-listed', message: 'File is not part of the discovered workspace; not read.' });
      return null;
    }
    try {
      return stripBom(await fs.readFile(file.absPath, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      this.problems.push({ path, line: 1, severity: 'warning', code: 'workspace.read-failed', message: `File cannot be read: ${code}.` });
      return null;
    }
  }
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
