/**
 * File watching for the long-running CLI modes (`wsctx mcp`, `wsctx serve`); the language server
 * gets the same events from the editor instead. Events go to `engine.update`, which debounces
 * them, so a storm of thousands of events (a branch switch, a `git pull`) becomes one pass.
 * Changes under `.git` and `node_modules` are never interesting and are dropped here.
 */
import { watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import type { Engine } from '../engine/engine';

const IGNORED_SEGMENTS = new Set(['.git', 'node_modules']);

export function watchWorkspace(engine: Engine, log: (message: string) => void): () => void {
  const watchers: FSWatcher[] = [];
  for (const folder of engine.folders) {
    try {
      const watcher = watch(folder.absPath, { recursive: true, persistent: false }, (_event, filename) => {
        if (!filename) return;
        const rel = filename.toString();
        if (rel.split(/[\\/]/).some((segment) => IGNORED_SEGMENTS.has(segment))) return;
        void engine.update([path.join(folder.absPath, rel)]);
      });
      watcher.on('error', (error) => log(`[watch] ${folder.absPath}: ${error.message}; changes will be picked up by the periodic refresh`));
      watchers.push(watcher);
    } catch (error) {
      log(`[watch] cannot watch ${folder.absPath}: ${(error as Error).message}; changes will be picked up by the periodic refresh`);
    }
  }
  return () => watchers.forEach((w) => w.close());
}
