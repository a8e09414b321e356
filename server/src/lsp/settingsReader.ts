/**
 * The extension's settings (shared/settings.ts) mapped onto what the server runs: engine settings
 * and the decisions that need a new engine or a restarted endpoint when a setting changes.
 *
 * `sources.*` become the engine's globs and `embeddings.*` its embedder; `mcp.http.enabled` starts
 * or stops the endpoint; `budgets.contextPassages` is read by the search request.
 */
import type { WorkspaceContextSettings } from '../../../shared/settings';
import { engineGlobsFrom } from '../config/workspaceConfig';
import type { EmbeddingSettings, EngineSettings } from '../engine';

export function engineSettingsFrom(settings: WorkspaceContextSettings): Partial<EngineSettings> {
  return engineGlobsFrom(settings);
}

/**
 * The embedder the settings ask for (engine/embeddings/embedder.ts). `$WSCTX_EMBEDDINGS`
 * (off, local, openai) overrides the provider, as it does for `wsctx`.
 */
export function embeddingSettingsFrom(
  settings: WorkspaceContextSettings,
  env: NodeJS.ProcessEnv = process.env,
): Partial<EmbeddingSettings> {
  const e = settings.embeddings;
  const override = env.WSCTX_EMBEDDINGS;
  const provider = override === 'off' || override === 'local' || override === 'openai' ? override : e.provider;
  return { provider, localModel: e.localModel, baseUrl: e.baseUrl, model: e.model };
}

/** True when switching from `before` to `after` changes what the engine reads or embeds (a new engine is needed). */
export function needsNewEngine(before: WorkspaceContextSettings, after: WorkspaceContextSettings): boolean {
  return (
    JSON.stringify([before.sources, before.embeddings, before.vectorIndex]) !==
    JSON.stringify([after.sources, after.embeddings, after.vectorIndex])
  );
}
