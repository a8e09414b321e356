/**
 * Workspace-relative paths (model.ts conventions).
 *
 * A workspace-relative path uses `/` separators and is relative to its workspace folder, prefixed
 * with the folder's name only when the workspace has more than one folder, exactly as VS Code's
 * `asRelativePath` prints it. The folder itself is `''` in a single-root workspace and its name in
 * a multi-root one.
 */
import * as path from 'node:path';

/** A workspace folder: the name VS Code shows and its absolute path on disk. */
export interface WorkspaceFolderRef {
  name: string;
  absPath: string;
}

/** Replaces platform separators with `/`. */
export function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

/** Joins posix path parts, skipping empty ones (`joinPosix('', 'a')` is `'a'`). */
export function joinPosix(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('/');
}

/** True when the workspace prefixes paths with the folder name (more than one folder). */
export function usesFolderPrefix(folders: readonly WorkspaceFolderRef[]): boolean {
  return folders.length > 1;
}

/** Workspace-relative path of `relInFolder` (posix, relative to the folder named `folderName`). */
export function workspacePath(folders: readonly WorkspaceFolderRef[], folderName: string, relInFolder: string): string {
  return usesFolderPrefix(folders) ? joinPosix(folderName, relInFolder) : relInFolder;
}

/** True when `childAbs` is `parentAbs` or lies inside it. */
export function isWithin(parentAbs: string, childAbs: string): boolean {
  const rel = path.relative(parentAbs, childAbs);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** `path.relative` with posix separators; `''` when both are the same directory. */
export function relativePosix(fromAbs: string, toAbs: string): string {
  return toPosix(path.relative(fromAbs, toAbs));
}

/**
 * The folder holding `absPath`: the innermost one when folders nest, as VS Code's
 * `getWorkspaceFolder` picks it. Undefined when no folder holds it.
 */
export function folderOf(folders: readonly WorkspaceFolderRef[], absPath: string): WorkspaceFolderRef | undefined {
  let best: WorkspaceFolderRef | undefined;
  for (const folder of folders) {
    if (!isWithin(folder.absPath, absPath)) continue;
    if (!best || path.resolve(folder.absPath).length > path.resolve(best.absPath).length) best = folder;
  }
  return best;
}

/** Workspace-relative path of an absolute path, or null when it lies outside every folder. */
export function toWorkspacePath(folders: readonly WorkspaceFolderRef[], absPath: string): string | null {
  const folder = folderOf(folders, absPath);
  if (!folder) return null;
  return workspacePath(folders, folder.name, relativePosix(folder.absPath, absPath));
}

/** Where a workspace-relative path points. */
export interface ResolvedWorkspacePath {
  folder: WorkspaceFolderRef;
  /** Posix path relative to the folder (`''` for the folder itself). */
  relInFolder: string;
  absPath: string;
}

/**
 * Resolves a workspace-relative path back to its folder and absolute path, or null when a
 * multi-root path names no folder. Folder names may contain `/`; the longest matching name wins.
 */
export function fromWorkspacePath(
  folders: readonly WorkspaceFolderRef[],
  wsPath: string,
): ResolvedWorkspacePath | null {
  if (folders.length === 0) return null;
  let folder: WorkspaceFolderRef | undefined;
  let relInFolder = wsPath;
  if (!usesFolderPrefix(folders)) {
    folder = folders[0];
  } else {
    for (const candidate of folders) {
      const matches = wsPath === candidate.name || wsPath.startsWith(`${candidate.name}/`);
      if (matches && (!folder || candidate.name.length > folder.name.length)) folder = candidate;
    }
    if (!folder) return null;
    relInFolder = wsPath.slice(folder.name.length + 1);
  }
  // A path from anywhere but a walk (a snapshot, a client) may lead out: `..`, `.`, empty
  // segments and backslashes never name a file inside the folder.
  if (
    relInFolder !== '' &&
    !relInFolder
      .split('/')
      .every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !segment.includes('\\'))
  )
    return null;
  const absPath = relInFolder === '' ? folder.absPath : path.join(folder.absPath, ...relInFolder.split('/'));
  return { folder, relInFolder, absPath };
}

/** Path of `child` relative to the posix directory `dir` (`''` is the top), or null when outside. */
export function relativeTo(dir: string, child: string): string | null {
  if (dir === '') return child;
  if (child === dir) return '';
  return child.startsWith(`${dir}/`) ? child.slice(dir.length + 1) : null;
}
