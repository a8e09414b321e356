/** Workspace-relative path helpers (`/` separators, '' for the workspace root). */
import { posix } from 'node:path';

/** Folder of a path ('' at the top). */
export function dirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Resolves `relative` against folder `dir`. Returns '' for the root itself and null when the
 * result leaves the workspace (`../` past the top) or `relative` is absolute.
 */
export function joinPath(dir: string, relative: string): string | null {
  if (relative.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(relative)) return null;
  const joined = posix.normalize(posix.join(dir === '' ? '.' : dir, relative.replace(/\\/g, '/')));
  if (joined === '..' || joined.startsWith('../')) return null;
  const trimmed = joined.replace(/\/+$/, '');
  return trimmed === '.' ? '' : trimmed;
}

/** True when `path` lies inside folder `dir` ('' contains everything). */
export function isInside(path: string, dir: string): boolean {
  return dir === '' || path.startsWith(`${dir}/`);
}

/** Lower-cased extension without the dot ('' when none). */
export function extName(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}
