/**
 * Test helpers: a `FileSource` over a real directory (a plain recursive walk; the product's
 * discovery module is not used here) and a writer for temporary workspaces.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileSource } from '../../../../../server/src/engine/workspace/fileSource';

export class DirectoryFileSource implements FileSource {
  private readonly paths: string[] = [];
  private readonly set = new Set<string>();

  constructor(private readonly root: string) {
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const abs = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(abs);
        else if (entry.isFile()) this.paths.push(path.relative(root, abs).split(path.sep).join('/'));
      }
    };
    walk(root);
    this.paths.sort();
    for (const p of this.paths) this.set.add(p);
  }

  list(): readonly string[] {
    return this.paths;
  }

  has(p: string): boolean {
    return this.set.has(p);
  }

  async readText(p: string): Promise<string | null> {
    if (!this.set.has(p)) return null;
    return fs.readFileSync(path.join(this.root, ...p.split('/')), 'utf8');
  }
}

/** Writes `files` (workspace-relative path -> content) under a new temporary directory. */
export function writeWorkspace(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-catalog-'));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return root;
}

export function removeWorkspace(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}
