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
import type { Engine } from '../engine';

const IGNORED_SEGMENTS = new Set(['.git', 'node_modules']);

/** Default interval between looks at each folder: 1 s. */
export const DEFAULT_REARM_MS = 1_000;

interface Watched {
  watcher: FSWatcher;
  /**
   * The folder's identity when the watcher was made (inode and birth time): another identity is
   * another folder. A re-created folder can get the old inode back, so the engine's own finding
   * that a folder went missing also drops its watcher (see the state listener below).
   */
  id: string;
}

export function watchWorkspace(engine: Engine, log: (message: string) => void, rearmMs = DEFAULT_REARM_MS): () => void {
  const watched = new Map<string, Watched | undefined>();

  const arm = (absPath: string): boolean => {
    const id = identityOf(absPath);
    if (id === null) return false;
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
      watched.set(absPath, { watcher, id });
      return true;
    } catch (error) {
      log(
        `[watch] cannot watch ${absPath}: ${(error as Error).message}; changes will be picked up by the periodic refresh`,
      );
      return false;
    }
  };
  const disarm = (absPath: string): void => {
    watched.get(absPath)?.watcher.close();
    watched.set(absPath, undefined);
  };

  for (const folder of engine.folders) arm(folder.absPath);

  // The engine noticed a folder is gone (its watcher may not have): that watcher is dead.
  const unlisten = engine.onDidChangeState(() => {
    const missing = new Set(engine.status().missingFolders);
    for (const folder of engine.folders)
      if (missing.has(folder.name) && watched.get(folder.absPath)) disarm(folder.absPath);
  });

  const timer = setInterval(
    () => {
      for (const folder of engine.folders) {
        const current = watched.get(folder.absPath);
        const id = identityOf(folder.absPath);
        if (id === null) {
          if (!current) continue;
          log(`[watch] ${folder.absPath} is gone; answering from the last index until it is back`);
          disarm(folder.absPath);
          void engine.update([folder.absPath]);
        } else if (!current || current.id !== id) {
          if (current) disarm(folder.absPath);
          if (!arm(folder.absPath)) continue;
          log(`[watch] ${folder.absPath} is back; watching and indexing it again`);
          void engine.update([folder.absPath]);
          // A recursive watcher sets itself up on subfolders asynchronously: an edit made meanwhile
          // is not reported, so the folder is walked once more when the watcher has settled.
          setTimeout(() => void engine.update([folder.absPath]), 2 * Math.max(50, rearmMs)).unref();
        }
      }
    },
    Math.max(50, rearmMs),
  );
  timer.unref();

  return () => {
    unlisten();
    clearInterval(timer);
    for (const absPath of [...watched.keys()]) disarm(absPath);
  };
}

function identityOf(absPath: string): string | null {
  try {
    const stat = statSync(absPath);
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}:${stat.birthtimeMs}` : null;
  } catch {
    return null;
  }
}
