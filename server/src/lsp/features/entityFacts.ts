/**
 * Facts about an entity that several features show: its neighbours grouped by edge type and
 * direction, its dependents, dependencies and attached documents, and where its name is written.
 */
import type { IndexState } from '../../engine/indexState';
import type { GraphEdge } from '../../engine/graph/componentGraph';
import { nearestRefs } from '../../engine/graph/nearestRefs';
import { inverseType, RELATION_PAIRS } from '../../engine/graph/relationTypes';
import type { CatalogEntity, Doc, EntityKey, RelationType } from '../../engine/model';

/** Edge types that make one entity need another at run time: what "depends" counts. */
export const DEPENDENCY_EDGE_TYPES: ReadonlySet<RelationType> = new Set<RelationType>(['dependsOn', 'consumesApi']);

export interface NeighbourGroup {
  /** The relation as seen from the entity: forward types outgoing, their inverses incoming. */
  type: RelationType;
  direction: 'out' | 'in';
  /** Far ends, as printed refs, with whether each is in the catalog. */
  refs: { ref: string; resolved: boolean }[];
}

/**
 * Neighbours grouped by edge type and direction: outgoing groups first, then incoming, each in
 * Backstage's pair order (dependsOn, consumesApi, providesApi, ownedBy, partOf, childOf, memberOf).
 */
export function neighbourGroups(state: IndexState, key: EntityKey): NeighbourGroup[] {
  const groups: NeighbourGroup[] = [];
  const add = (direction: 'out' | 'in', edges: readonly GraphEdge[]) => {
    for (const pair of RELATION_PAIRS) {
      const matching = edges.filter((e) => e.type === pair.forward);
      if (matching.length === 0) continue;
      groups.push({
        type: direction === 'out' ? pair.forward : inverseType(pair.forward),
        direction,
        refs: matching.map((e) => (direction === 'out' ? { ref: e.targetRef, resolved: state.graph.has(e.target) } : { ref: e.sourceRef, resolved: state.graph.has(e.source) })),
      });
    }
  };
  add('out', state.graph.outgoing(key));
  add('in', state.graph.incoming(key));
  return groups;
}

export interface DependencyCounts {
  /** Distinct entities that depend on it or consume its API. */
  dependents: number;
  /** Distinct entities it depends on or whose API it consumes. */
  dependencies: number;
  /** Documents attached to it (docs, overviews, epics, library pages; not its own catalog entry). */
  docs: number;
}

export function dependencyCounts(state: IndexState, key: EntityKey): DependencyCounts {
  const dependents = new Set(state.graph.incoming(key).filter((e) => DEPENDENCY_EDGE_TYPES.has(e.type)).map((e) => e.source));
  const dependencies = new Set(state.graph.outgoing(key).filter((e) => DEPENDENCY_EDGE_TYPES.has(e.type)).map((e) => e.target));
  return { dependents: dependents.size, dependencies: dependencies.size, docs: docsOf(state, key).length };
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
