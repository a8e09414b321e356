/**
 * The neighbourhood `workspace_context` answers with: the one-hop relations of every entity its
 * passages cite, within caps, so an answer places each passage in the catalog without a second
 * call (docs/ARCHITECTURE.md, workspace_context's contract).
 */
import { RELATION_PAIRS, type IndexState } from '../engine';

/** Neighbourhood caps: entities described, and edges listed per entity. */
export const NEIGHBOURHOOD_MAX_ENTITIES = 12;
export const NEIGHBOURHOOD_MAX_EDGES = 10;

/** One cited entity with its capped edges (workspace_context's `neighbourhood` items). */
export interface Neighbour {
  entity: string;
  kind: string;
  title?: string;
  edges: { source: string; type: string; target: string; resolved: boolean }[];
  moreEdges: number;
}

export function neighbourhood(
  states: readonly IndexState[],
  passages: readonly { entityRefs: readonly string[] }[],
): Neighbour[] {
  // Each passage's first entity before any passage's second, so a passage citing many entities
  // cannot use up the cap before the passages after it get theirs.
  const cited: string[] = [];
  const widest = Math.max(0, ...passages.map((p) => p.entityRefs.length));
  for (let i = 0; i < widest; i++) {
    for (const p of passages) {
      const ref = p.entityRefs[i]?.toLowerCase();
      if (ref && !cited.includes(ref)) cited.push(ref);
    }
  }
  return cited.slice(0, NEIGHBOURHOOD_MAX_ENTITIES).map((key) => {
    // In memory every folder shares one graph; a store's namespaces each have their own.
    const graph = (states.find((s) => s.graph.get(key)) ?? states[0]).graph;
    const entity = graph.get(key);
    // The entity's own relations: both halves of every pair are stored, so these are all of them.
    const edges = graph.outgoing(key);
    return {
      entity: entity?.ref ?? key,
      kind: entity?.kind ?? key.split(':')[0],
      ...(entity?.title ? { title: entity.title } : {}),
      edges: capEdges(edges, NEIGHBOURHOOD_MAX_EDGES).map((e) => ({
        source: e.sourceRef,
        type: e.type,
        target: e.targetRef,
        resolved: e.resolved,
      })),
      moreEdges: Math.max(0, edges.length - NEIGHBOURHOOD_MAX_EDGES),
    };
  });
}

/** ownedBy, then the other forward halves (dependsOn, partOf...), then the inverses, in Backstage's pair order. */
const EDGE_ORDER: readonly string[] = [
  'ownedBy',
  ...RELATION_PAIRS.map((p) => p.forward).filter((t) => t !== 'ownedBy'),
  ...RELATION_PAIRS.map((p) => p.inverse),
];

/** Position of each relation type in EDGE_ORDER: a sort comparator reads it per comparison (a Group owns hundreds). */
const EDGE_RANK = new Map<string, number>();
EDGE_ORDER.forEach((type, i) => {
  if (!EDGE_RANK.has(type)) EDGE_RANK.set(type, i);
});

function edgeRank(type: string): number {
  return EDGE_RANK.get(type) ?? EDGE_ORDER.length;
}

/**
 * At most `cap` of an entity's edges, taken one of each relation type in turn (EDGE_ORDER), so
 * nine `ownerOf` edges cannot crowd out the owner, the system or the members; returned grouped by
 * type in that order, each type's edges in the graph's order.
 */
function capEdges<E extends { type: string }>(edges: readonly E[], cap: number): E[] {
  if (edges.length <= cap) return [...edges].sort((a, b) => edgeRank(a.type) - edgeRank(b.type));
  const byType = new Map<string, E[]>();
  for (const e of [...edges].sort((a, b) => edgeRank(a.type) - edgeRank(b.type))) {
    const list = byType.get(e.type);
    if (list) list.push(e);
    else byType.set(e.type, [e]);
  }
  const taken = new Map<string, number>();
  let left = cap;
  for (let round = 0; left > 0; round++) {
    let any = false;
    for (const [type, list] of byType) {
      if (left === 0) break;
      if (round < list.length) {
        taken.set(type, round + 1);
        left--;
        any = true;
      }
    }
    if (!any) break;
  }
  return [...byType].flatMap(([type, list]) => list.slice(0, taken.get(type) ?? 0));
}
