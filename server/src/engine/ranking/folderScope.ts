/**
 * One workspace folder of an index that serves several, as an index state of its own: its
 * documents, sections, entities and repositories only, with every number the ranker scores by
 * (section count, each term's document frequency, average field lengths, mean title length, the
 * named entities' share) counted over that folder alone.
 *
 * So a folder's passages score exactly as they do when the folder is served alone, whatever other
 * folders are served beside it: `workspace_context` ranks each served folder this way and merges
 * the rankings (tools/workspaceContext.ts), as a store ranks each of its namespaces
 * (store/scopedState.ts); asked of several at once, only the question's term weights are shared
 * (questionStatistics.ts). Words are identical; with meaning on, the question's crowd is read from
 * the folder's own sections (meaning/questionAnchors.ts), in their order in the shared index.
 *
 * Built once per index state and folder (a memo keyed by the immutable state) in one pass over
 * the state's sections.
 */
import type { IndexState, SectionEntry } from '../indexState';
import type { CatalogEntity, Doc } from '../model';

const scoped = new WeakMap<IndexState, Map<string, IndexState>>();

/** `state` narrowed to the workspace folder named `folder` (see the module comment). */
export function folderScopedState(state: IndexState, folder: string): IndexState {
  let byFolder = scoped.get(state);
  if (!byFolder) scoped.set(state, (byFolder = new Map()));
  let narrowed = byFolder.get(folder);
  if (!narrowed) byFolder.set(folder, (narrowed = narrow(state, folder)));
  return narrowed;
}

function narrow(state: IndexState, folder: string): IndexState {
  const docs = new Map<string, Doc>();
  for (const [id, doc] of state.docs) if (doc.folder === folder) docs.set(id, doc);
  const sections: (SectionEntry | undefined)[] = new Array(state.sections.length).fill(undefined);
  const inScope = new Uint8Array(state.sections.length);
  const ordinals: number[] = [];
  for (let o = 0; o < state.sections.length; o++) {
    const entry = state.sections[o];
    if (!entry || entry.doc.folder !== folder) continue;
    sections[o] = entry;
    inScope[o] = 1;
    ordinals.push(o);
  }
  // The folder's entities are those its catalog files declare (their documents are its own).
  const keys = new Set<string>();
  for (const doc of docs.values())
    if (doc.sourceKind === 'catalog_entity') for (const key of doc.entityRefs) keys.add(key);
  const entities: CatalogEntity[] = state.entities.filter((entity) => keys.has(entity.key));
  return {
    ...state,
    repos: state.repos.filter((repo) => repo.folder === folder),
    docs,
    sections,
    lexical: state.lexical.scopedTo(inScope),
    entities,
    scope: { folder, ordinals: Uint32Array.from(ordinals) },
  };
}
