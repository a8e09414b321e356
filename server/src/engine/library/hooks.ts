/**
 * What a host plugs into the library tools of one engine, kept beside the engine rather than in
 * it (the engine stays free of the tools' concerns):
 *
 * - `meaning`: the passage-meaning signal of `search_instructions` (embeddings). Without it the
 *   signal is absent and search ranks on the summary and exact-word signals.
 * - `activity`: the local call log `wsctx diagnostics` reads. Without it calls are not logged.
 * - `now`: the clock expiry is judged by (tests pin it).
 *
 * Also remembers which sessions already received the pinned documents, so they head only the
 * first answer of each session.
 *
 *   setLibraryHooks(engine, { activity: new ActivityLog(dir) });
 */
import type { ActivityLog } from '../activity/activityLog';
import type { Engine } from '../engine';
import type { MeaningScorer } from './ranking';

export interface LibraryHooks {
  meaning?: MeaningScorer;
  activity?: ActivityLog;
  now?: () => Date;
}

/** Sessions remembered per engine; the oldest are forgotten past this (long-lived HTTP servers). */
const MAX_SESSIONS = 10_000;

interface EngineLibraryState {
  hooks: LibraryHooks;
  servedSessions: Set<string>;
}

const states = new WeakMap<Engine, EngineLibraryState>();

function stateOf(engine: Engine): EngineLibraryState {
  let state = states.get(engine);
  if (!state) {
    state = { hooks: {}, servedSessions: new Set() };
    states.set(engine, state);
  }
  return state;
}

/** Installs (or, with `undefined` values, removes) hooks for `engine`. */
export function setLibraryHooks(engine: Engine, hooks: Partial<LibraryHooks>): void {
  const state = stateOf(engine);
  state.hooks = { ...state.hooks, ...hooks };
  for (const key of Object.keys(hooks) as (keyof LibraryHooks)[]) if (hooks[key] === undefined) delete state.hooks[key];
}

export function libraryHooks(engine: Engine): LibraryHooks {
  return stateOf(engine).hooks;
}

/** The current time by the engine's clock. */
export function nowFor(engine: Engine): Date {
  return stateOf(engine).hooks.now?.() ?? new Date();
}

/** True until {@link markPinnedServed} was called for this session. */
export function needsPinned(engine: Engine, sessionId: string): boolean {
  return !stateOf(engine).servedSessions.has(sessionId);
}

/** Records that `sessionId` received the pinned documents. */
export function markPinnedServed(engine: Engine, sessionId: string): void {
  const served = stateOf(engine).servedSessions;
  served.add(sessionId);
  if (served.size > MAX_SESSIONS) served.delete(served.values().next().value!);
}
