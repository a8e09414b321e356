/**
 * File watching for the long-running CLI modes (`wsctx mcp`, `wsctx serve`); the language server
 * gets the same events from the editor instead. Events go to `engine.update`, which debounces
 * them, so a storm of thousands of events (a branch switch, a `git pull`) becomes one pass.
 * Changes under `.git` and `node_modules` are never interesting and are dropped here.
 *
 * A watcher dies with its folder: a folder that is deleted (or replaced by a new one of the same
 * name) reports nothing more. So each folder is looked at every `rearmMs`: gone, its watcher is
 * closed and the engine told (it keeps answering from its last index, flagged
 * `workspace-missing`); back, or replaced, it is watched again and the engine indexes it again.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import type { Engine } from '../engine/engine';

const IGNORED_SEGMENTS = new Set(['.git', 'node_modules']);

/** Default interval between looks at each folder: 1 s. */
export const DEFAULT_REARM_MS = 1_000;

interface Watched {
  watcher: FSWatcher;
  /** The folder's inode when the watcher was made: another inode is another folder. */
  ino: number;
}

export function watchWorkspace(engine: Engine, log: (message: string) => void, rearmMs = DEFAULT_REARM_MS): () => void {
  const watched = new Map<string, Watched | undefined>();

  const arm = (absPath: string): boolean => {
    const ino = inodeOf(absPath);
    if (ino === null) return false;
    try {
      const watcher = watch(absPath, { recursive: true, persistent: false }, (_event, filename) => {
        if (!filename) return;
        const rel = filename.toString();
        if (rel.split(/[\\/]/).some((segment) => IGNORED_SEGMENTS.has(segment))) return;
        void engine.update([path.join(absPath, rel)]);
      });
      watcher.on('error', (error) => {
        log(`[watch] ${absPath}: ${error.message}; watching again when the folder is there`);
        disarm(absPath);
      });
      watched.set(absPath, { watcher, ino });
      return true;
    } catch (error) {
      log(`[watch] cannot watch ${absPath}: ${(error as Error).message}; changes will be picked up by the periodic refresh`);
      return false;
    }
  };
  const disarm = (absPath: string): void => {
    watched.get(absPath)?.watcher.close();
    watched.set(absPath, undefined);
  };

  for (const folder of engine.folders) arm(folder.absPath);

  const timer = setInterval(() => {
    for (const folder of engine.folders) {
      const current = watched.get(folder.absPath);
      const ino = inodeOf(folder.absPath);
      if (ino === null) {
        if (!current) continue;
        log(`[watch] ${folder.absPath} is gone; answering from the last index until it is back`);
        disarm(folder.absPath);
        void engine.update([folder.absPath]);
      } else if (!current || current.ino !== ino) {
        if (current) disarm(folder.absPath);
        if (!arm(folder.absPath)) continue;
        log(`[watch] ${folder.absPath} is back; watching and indexing it again`);
        void engine.update([folder.absPath]);
      }
    }
  }, Math.max(50, rearmMs));
  timer.unref();

  return () => {
    clearInterval(timer);
    for (const absPath of [...watched.keys()]) disarm(absPath);
  };
}

function inodeOf(absPath: string): number | null {
  try {
    const stat = statSync(absPath);
    return stat.isDirectory() ? stat.ino : null;
  } catch {
    return null;
  }
}
