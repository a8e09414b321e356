/**
 * Whether a tool can answer, so hosts list it only then (a tool listed with nothing to answer
 * from wastes an agent's call). Before the first complete state every tool can: it answers cold
 * (`index-cold`), or, over a store, from the store, which holds no state in memory. Afterwards a
 * tool needs its sources: the graph tool an entity, workspace_context a section, the library tools
 * a library document; explain_result sections, and the whole index in its question states (not a
 * store's, which hold the question's candidates only). A failed first pass lists none: there is
 * nothing to answer from.
 */
import type { WorkspaceIndex } from '../engine';

export function canAnswer(index: WorkspaceIndex, tool: string): boolean {
  if (tool === 'explain_result' && !index.holdsWholeIndex) return false;
  const state = index.current();
  if (!state) return index.status().lastError === null;
  if (tool === 'workspace_expand') return state.entities.length > 0;
  if (tool === 'workspace_context' || tool === 'explain_result') return state.counts.sections > 0;
  return state.counts.bySourceKind.library > 0;
}
