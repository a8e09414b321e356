/**
 * What every feature reads: the engine and its last complete state, the documents, the settings,
 * the mention index and the results documents. Features take this and the request's params and
 * return the answer; none of them touches the connection (main.ts wires them).
 */
import type { WorkspaceContextSettings } from '../../../../shared/settings';
import type { Engine, IndexState, MentionIndex } from '../../engine';
import type { Services } from '../../services/services';
import type { DocumentStore } from './documents';
import type { ResultsStore } from './resultsDocument';

export interface FeatureContext {
  /** The engine, or undefined when no workspace folder is open. */
  engine(): Engine | undefined;
  /** The engine with the collaborators its tools use (built with it); undefined with no engine. */
  services(): Services | undefined;
  /** The last complete index state; undefined until the first pass is in service. */
  state(): IndexState | undefined;
  readonly documents: DocumentStore;
  settings(): WorkspaceContextSettings;
  /** Where entities are named across the workspace (built on first use). */
  mentions(): MentionIndex | undefined;
  readonly results: ResultsStore;
  log(message: string): void;
}

/** How often a feature waiting for the first pass looks again. */
const FIRST_PASS_POLL_MS = 100;

/**
 * The state in service, waiting up to `timeoutMs` for the first pass when none is yet: a request
 * asked in the first seconds after the folder opens (VS Code shows "Loading..." meanwhile) is
 * answered when the index comes into service, rather than empty and never asked again. Resolves
 * undefined when no engine runs or the pass outlasts the wait.
 */
export async function stateWhenInService(ctx: FeatureContext, timeoutMs: number): Promise<IndexState | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = ctx.state();
    if (state || !ctx.engine() || Date.now() >= deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, FIRST_PASS_POLL_MS));
  }
}
