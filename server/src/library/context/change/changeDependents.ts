/**
 * What depends on the entities a change owns (`get_context`'s `depends-on-changed` items), read
 * off the component graph as Backstage stores it (engine/graph/): from each owned entity,
 *
 * - the entities that depend on it (its `dependencyOf` relations: `spec.dependsOn` elsewhere, or
 *   its own `spec.dependencyOf`);
 * - the consumers of each API it provides (`providesApi`, then the API's `apiConsumedBy`);
 * - for an owned API: its consumers, then its providers (they implement it).
 *
 * One hop by default; a second hop (what depends on those) when the caller has budget for it.
 * Consumers of an owned API come first: when an API definition changed, they are who breaks.
 * Owned entities are never their own dependents; groups and users are never dependents.
 */
import { type EntityKey, type IndexState, type RelationType, walkGraph } from '../../../engine';

export interface DependentLink {
  /** The owned (or first-hop) entity it depends on, its display ref. */
  on: string;
  /** How: `dependsOn`, `consumesApi` (through `api`), `providesApi` (it serves the changed API). */
  relation: 'dependsOn' | 'consumesApi' | 'providesApi';
  /** The API it consumes, for `consumesApi`. */
  api?: string;
}

export interface Dependent {
  key: EntityKey;
  ref: string;
  /** 1: depends on an owned entity; 2: on a first-hop dependent. */
  hop: 1 | 2;
  via: DependentLink[];
}

const NEVER = new Set(['group', 'user', 'location', 'template', 'domain']);

/**
 * The dependents of `owned` (keys, in the change's order), first hop then, with `hops` 2, the
 * second; each once, with every link that brought it.
 */
export function dependentsOf(state: IndexState, owned: readonly EntityKey[], hops: 1 | 2 = 1): Dependent[] {
  const graph = state.graph;
  const ownedSet = new Set(owned);
  const found = new Map<EntityKey, Dependent>();
  const add = (key: EntityKey, ref: string, hop: 1 | 2, link: DependentLink) => {
    if (ownedSet.has(key)) return;
    const entity = graph.get(key);
    if (entity && NEVER.has(entity.kind.toLowerCase())) return;
    const known = found.get(key);
    if (known) {
      if (!known.via.some((v) => v.on === link.on && v.relation === link.relation && v.api === link.api))
        known.via.push(link);
      return;
    }
    found.set(key, { key, ref: entity?.ref ?? ref, hop, via: [link] });
  };
  const step = (from: readonly EntityKey[], hop: 1 | 2) => {
    // An owned API's consumers first, across every owned entity: they are who a changed definition breaks.
    for (const key of from) {
      const entity = graph.get(key);
      if (entity?.kind.toLowerCase() !== 'api') continue;
      for (const s of near(state, key, 'in', ['apiConsumedBy']))
        add(s.target, s.targetRef, hop, { on: entity.ref, relation: 'consumesApi', api: entity.ref });
      for (const s of near(state, key, 'in', ['apiProvidedBy']))
        add(s.target, s.targetRef, hop, { on: entity.ref, relation: 'providesApi', api: entity.ref });
    }
    for (const key of from) {
      const entity = graph.get(key);
      const ref = entity?.ref ?? key;
      for (const s of near(state, key, 'in', ['dependencyOf']))
        add(s.target, s.targetRef, hop, { on: ref, relation: 'dependsOn' });
      for (const api of near(state, key, 'out', ['providesApi'])) {
        // An API the change owns itself already brought its consumers, through it.
        if (ownedSet.has(api.target)) continue;
        for (const s of near(state, api.target, 'in', ['apiConsumedBy']))
          add(s.target, s.targetRef, hop, { on: ref, relation: 'consumesApi', api: api.targetRef });
      }
    }
  };
  step(owned, 1);
  if (hops === 2) {
    const first = [...found.values()].filter((d) => d.hop === 1).map((d) => d.key);
    for (const key of first) ownedSet.add(key);
    step(first, 2);
  }
  return [...found.values()];
}

/** The relations of `types` one hop from `key`, read from it (the far end is `target`). */
function near(state: IndexState, key: EntityKey, direction: 'in' | 'out', types: readonly RelationType[]) {
  return walkGraph(state.graph, key, { depth: 1, direction, edgeTypes: new Set(types) }).steps.map((s) => s.edge);
}
