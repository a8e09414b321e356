/**
 * Everything a host can tune in the engine, with defaults. Hosts map their own configuration
 * (VS Code settings, CLI flags) onto this one shape.
 */
import type { SourceGlobs } from './workspace/globs';
import { DEFAULT_MAX_FILE_SIZE } from './workspace/discovery';

export interface EngineSettings {
  /** Per-field overrides of the source globs (workspace/globs.ts documents each default). */
  globs: Partial<SourceGlobs>;
  /** Files larger than this are skipped with an info problem. Default 2 MiB. */
  maxFileSize: number;
  /**
   * A question refreshes the index in the background when the last full pass is older than
   * this (workspace_context's contract's (docs/ARCHITECTURE.md) freshness rule). Default 5 minutes; 0 disables.
   */
  refreshAfterMs: number;
  /** Quiet time before queued file changes are applied, so a storm of events is one pass. Default 150 ms. */
  updateDebounceMs: number;
  /** Quiet time after a pass before the snapshot is written. Default 2 s. */
  snapshotDelayMs: number;
  /**
   * How often a served folder that disappeared (deleted, unmounted, renamed) is looked for; when
   * it is back it is indexed again. Default 1 s, at least 50 ms.
   */
  folderPollMs: number;
  /**
   * Run git for commits, dirty state, recency and `asOf`. Default true; hosts turn it off in an
   * untrusted workspace, where a repository's own git config must not run anything.
   */
  useGit: boolean;
  /**
   * Worker threads that read the files of a full pass that reads many (a cold index), and then
   * count the terms of its sections (indexing/termPool.ts), so the answering thread neither
   * drives every read nor tokenises every section. Default 2; 0 does both on the answering
   * thread, as does a host where a worker cannot start.
   */
  readWorkers: number;
}

export const DEFAULT_ENGINE_SETTINGS: Readonly<EngineSettings> = Object.freeze({
  globs: {},
  maxFileSize: DEFAULT_MAX_FILE_SIZE,
  refreshAfterMs: 5 * 60_000,
  updateDebounceMs: 150,
  snapshotDelayMs: 2_000,
  folderPollMs: 1_000,
  useGit: true,
  readWorkers: 2,
});

export function resolveEngineSettings(overrides: Partial<EngineSettings> = {}): EngineSettings {
  return { ...DEFAULT_ENGINE_SETTINGS, ...stripUndefined(overrides) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
