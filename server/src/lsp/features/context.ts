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
