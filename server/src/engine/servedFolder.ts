/**
 * Which served folder a tool's `workspace` argument names, for every kind of index (the engine's
 * folders, a store's namespaces): the same words find the same folder either way.
 */
import * as path from 'node:path';
import type { WorkspaceFolder } from './indexState';

/** By name (exact, then ignoring case), else by absolute path or path from the cwd. */
export function findServedFolder(folders: readonly WorkspaceFolder[], arg: string): WorkspaceFolder | undefined {
  const wanted = arg.trim();
  const byName =
    folders.find((f) => f.name === wanted) ?? folders.find((f) => f.name.toLowerCase() === wanted.toLowerCase());
  if (byName) return byName;
  const abs = path.resolve(wanted);
  return folders.find((f) => f.absPath === abs);
}
