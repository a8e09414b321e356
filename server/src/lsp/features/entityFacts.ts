/**
 * Facts about an entity that several features show: its neighbours grouped by edge type and
 * direction, its attached documents, and where its name is written.
 */
import type { ShowEntityDocsArgs } from '../../../../shared/protocol';
import {
  type IndexState,
  nearestRefs,
  RELATION_PAIRS,
  type CatalogEntity,
  type Doc,
  type EntityKey,
  type RelationType,
} from '../../engine';

export interface NeighbourGroup {
  /** The relation as the entity holds it (Backstage's `relations` of the entity). */
  type: RelationType;
  /** `out` for the half the entity usually declares (dependsOn, ownedBy...), `in` for its inverse. */
  direction: 'out' | 'in';
  /** Far ends, as printed refs, with whether each is in the catalog. */
  refs: { ref: string; resolved: boolean }[];
}

/**
 * The entity's relations grouped by type: forward types first, then their inverses, each in
 * Backstage's pair order (dependsOn, consumesApi, providesApi, ownedBy, partOf, childOf, memberOf).
 * Every relation is stored from both ends, so the entity's own relations are its whole
 * neighbourhood.
 */
export function neighbourGroups(state: IndexState, key: EntityKey): NeighbourGroup[] {
  const groups: NeighbourGroup[] = [];
  const own = state.graph.outgoing(key);
  const add = (direction: 'out' | 'in', type: RelationType) => {
    const matching = own.filter((e) => e.type === type);
    if (matching.length === 0) return;
    groups.push({
      type,
      direction,
      refs: matching.map((e) => ({ ref: e.targetRef, resolved: state.graph.has(e.target) })),
    });
  };
  for (const pair of RELATION_PAIRS) add('out', pair.forward);
  for (const pair of RELATION_PAIRS) add('in', pair.inverse);
  return groups;
}

const docsByState = new WeakMap<IndexState, Map<EntityKey, Doc[]>>();

/** Documents attached to an entity, by path. */
export function docsOf(state: IndexState, key: EntityKey): Doc[] {
  let byKey = docsByState.get(state);
  if (!byKey) {
    byKey = new Map();
    for (const doc of state.docs.values()) {
      if (doc.sourceKind === 'catalog_entity') continue;
      for (const ref of new Set(doc.entityRefs)) {
        const list = byKey.get(ref);
        if (list) list.push(doc);
        else byKey.set(ref, [doc]);
      }
    }
    for (const list of byKey.values()) list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    docsByState.set(state, byKey);
  }
  return byKey.get(key.toLowerCase()) ?? [];
}

/**
 * The entity's documents as the entity-docs command takes them: workspace-relative paths, never
 * URIs (the client opens a path only inside a served folder), and only those a served folder holds.
 */
export function entityDocsArgs(
  state: IndexState,
  entity: CatalogEntity,
  uriOf: (path: string) => string | null,
): ShowEntityDocsArgs {
  return {
    entityRef: entity.ref,
    docs: docsOf(state, entity.key).flatMap((doc) =>
      uriOf(doc.path) ? [{ title: doc.title, path: doc.path, sourceKind: doc.sourceKind }] : [],
    ),
  };
}

/** Line of the entity's `metadata.name` (its declaration), else its first line. */
export function declarationLine(state: IndexState, entity: CatalogEntity): number {
  return state.fieldLines[entity.key]?.['metadata.name'] ?? entity.location.startLine;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Suggestions offered for an unresolved ref. Default 3. */
export const MAX_SUGGESTIONS = 3;

/**
 * The nearest catalog refs to an unresolved key, those of the key's own kind first: a misspelt
 * `owner` should suggest groups, not the system whose name happens to be close.
 */
export function suggestionsFor(state: IndexState, key: EntityKey): string[] {
  const near = nearestRefs(key, state.graph.entities(), MAX_SUGGESTIONS * 3);
  const kind = key.slice(0, key.indexOf(':') + 1);
  const sameKind = kind ? near.filter((ref) => ref.toLowerCase().startsWith(kind)) : [];
  return (sameKind.length ? sameKind : near).slice(0, MAX_SUGGESTIONS);
}
