/**
 * What makes a directory a repository root, and where a git work tree keeps its excludes.
 *
 * Repository roots are:
 * - every git work tree: a directory holding `.git`, whether a directory (a clone) or a file
 *   (a linked worktree or a submodule);
 * - every workspace folder root;
 * - every directory holding both a catalog file (`catalog-info.yaml` or `catalog-info.yml`) and an
 *   `overview.md` (any case): a repository exported or copied without its `.git` folder still
 *   reads as the repository it was.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readSmallFile } from './readGuard';

/** How a directory qualified as a repository root; a root may qualify several ways. */
export type RootReason = 'folder' | 'git' | 'exported';

const CATALOG_NAMES = new Set(['catalog-info.yaml', 'catalog-info.yml']);

/** True when directory entry names hold `.git`. */
export function hasGitEntry(names: Iterable<string>): boolean {
  for (const name of names) if (name === '.git') return true;
  return false;
}

/** True when directory entry names hold a catalog file and an `overview.md` (any case). */
export function isExportedRepoRoot(names: Iterable<string>): boolean {
  let catalog = false;
  let overview = false;
  for (const name of names) {
    if (CATALOG_NAMES.has(name)) catalog = true;
    else if (name.toLowerCase() === 'overview.md') overview = true;
  }
  return catalog && overview;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The nearest directory at or above `absDir` holding `.git`, or null. Used for a workspace folder
 * opened inside a repository (a monorepo's subfolder): its git facts come from that work tree.
 */
export async function findEnclosingWorkTree(absDir: string): Promise<string | null> {
  let dir = path.resolve(absDir);
  for (;;) {
    if (await exists(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The `info/exclude` file of the work tree at `workTreeAbs`. `.git` may be a file holding
 * `gitdir: <path>` (worktrees, submodules); a linked worktree keeps `info/` in the common dir its
 * `commondir` file names. Null when the layout cannot be read.
 */
export async function infoExcludePath(workTreeAbs: string): Promise<string | null> {
  const dotGit = path.join(workTreeAbs, '.git');
  try {
    const stat = await fs.stat(dotGit);
    if (stat.isDirectory()) return path.join(dotGit, 'info', 'exclude');
    const text = await readSmallFile(dotGit);
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (!match) return null;
    const gitDir = path.resolve(workTreeAbs, match[1]);
    let commonDir = gitDir;
    try {
      commonDir = path.resolve(gitDir, (await readSmallFile(path.join(gitDir, 'commondir'))).trim());
    } catch {
      // No commondir file: a submodule's git dir is its own common dir.
    }
    return path.join(commonDir, 'info', 'exclude');
  } catch {
    return null;
  }
}
