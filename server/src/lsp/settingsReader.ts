/**
 * The extension's settings (shared/settings.ts) mapped onto what the server runs: engine settings
 * and the decisions that need a new engine or a restarted endpoint when a setting changes.
 *
 * Read today: `sources.*` (engine globs) and `mcp.http.enabled`; `budgets.contextPassages` is read
 * by the search request. `embeddings.*`, `judge.mode`, `budgets.getContextMaxTokens` and
 * `budgets.expandEdges` are carried for the engine options that will read them.
 */
import type { SourceGlobSettings, WorkspaceContextSettings } from '../../../shared/settings';
import type { EngineSettings } from '../engine/settings';

export function engineSettingsFrom(settings: WorkspaceContextSettings): Partial<EngineSettings> {
  const globs: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(settings.sources) as [keyof SourceGlobSettings, string[]][]) globs[key] = [...value];
  return { globs };
}

/** True when switching from `before` to `after` changes what the engine reads (a new engine is needed). */
export function needsNewEngine(before: WorkspaceContextSettings, after: WorkspaceContextSettings): boolean {
  return JSON.stringify(before.sources) !== JSON.stringify(after.sources);
}
