/**
 * Breadth-first walk of the component graph (`workspace_expand`).
 *
 * Direction is the relation's meaning, not which half of the pair happens to be stored. Every
 * Backstage pair has a half the dependent end declares (`dependsOn`, `consumesApi`,
 * `providesApi`, `ownedBy`, `partOf`, `childOf`, `memberOf`: relationTypes.ts calls it the
 * forward half) and its inverse. From an entity `A`:
 *
 * - `out` follows the relations in which `A` points at the other end: what it depends on, the
 *   APIs it consumes or provides, its owner, the system or domain it is part of, its parent
 *   group, the groups it is a member of;
 * - `in` follows those in which the other end points at `A`: what depends on it, the components
 *   that consume or provide it (an API), what it owns, its parts, its child groups, its members;
 * - `both` follows either.
 *
 * The graph stores both halves of every pair, so the same relation is reachable twice; the walk
 * yields each relation once, read from the entity it was reached from (the step's edge has that
 * entity as its source, and the Backstage name of the half as seen from it: `A dependsOn B` out,
 * `A dependencyOf C` in). When only one half is stored, the other is read off it, so the answer
 * never depends on which half a catalog (or a store) kept.
 *
 * `edgeTypes` names relations as read from the entity at hand, so each type has one direction:
 * `dependsOn` is out, `dependencyOf` in. A type of the other side with an explicit direction
 * could never match; the tool refuses such an ask (see `typesAgainstDirection`).
 *
 * The walk itself never caps: it returns every relation within the depth, in a stable order (by
 * hop, then by the order of the frontier, then edge type and far end). Limits and byte budgets
 * belong to the tool that renders the answer, which can then say exactly what it dropped.
 */
import type { EntityKey, RelationType } from '../model';
import { compareEdges, type ComponentGraph, type GraphEdge } from './componentGraph';
import { forwardType, inverseType, isForward } from './relationTypes';

export type WalkDirection = 'out' | 'in' | 'both';

/** Deepest walk the contract allows; deeper asks are refused, never clamped (docs/ARCHITECTURE.md, workspace_context's contract). */
export const MAX_WALK_DEPTH = 3;

export interface WalkOptions {
  /** 1..MAX_WALK_DEPTH. */
  depth: number;
  direction: WalkDirection;
  /** Relation types to follow, as read from the entity at hand; undefined follows every type. */
  edgeTypes?: ReadonlySet<RelationType>;
}

export interface WalkStep {
  /** The relation as read from the entity it was reached from: that entity is its source. */
  edge: GraphEdge;
  /** Hop at which the edge was reached (1 = touches the start entity). */
  depth: number;
  /** `out` when the entity points at the far end (a forward half), `in` when the far end points at it. */
  via: 'out' | 'in';
}

export interface WalkNode {
  key: EntityKey;
  ref: string;
  depth: number;
  resolved: boolean;
}

export interface WalkResult {
  steps: WalkStep[];
  /** Every entity reached, start included (depth 0), in the order first reached. */
  nodes: WalkNode[];
}

/** The side a relation type, read from the entity holding it, lies on. */
export function sideOf(type: RelationType): 'out' | 'in' {
  return isForward(type) ? 'out' : 'in';
}

/**
 * The edge types (in the order given) that can never match `direction`: `dependencyOf` asked
 * with `out`, `dependsOn` with `in`. Empty for `both`.
 */
export function typesAgainstDirection(types: Iterable<RelationType>, direction: WalkDirection): RelationType[] {
  if (direction === 'both') return [];
  return [...types].filter((type) => sideOf(type) !== direction);
}

/** The one direction that follows exactly `types` (as read from the entity): `both` when they lie on both sides. */
export function directionOf(types: readonly RelationType[]): WalkDirection {
  const sides = new Set(types.map(sideOf));
  return sides.size === 1 ? [...sides][0] : 'both';
}

export function walkGraph(graph: ComponentGraph, start: EntityKey, options: WalkOptions): WalkResult {
  const startEntity = graph.get(start);
  const nodes: WalkNode[] = [{ key: start, ref: startEntity?.ref ?? start, depth: 0, resolved: !!startEntity }];
  const visited = new Set<EntityKey>([start]);
  const seenRelations = new Set<string>();
  const steps: WalkStep[] = [];
  let frontier: EntityKey[] = [start];

  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    const next: EntityKey[] = [];
    for (const key of frontier) {
      for (const edge of relationsOf(graph, key)) {
        const via = sideOf(edge.type);
        if (options.direction !== 'both' && via !== options.direction) continue;
        if (options.edgeTypes && !options.edgeTypes.has(edge.type)) continue;
        const relation = relationKey(edge);
        if (seenRelations.has(relation)) continue;
        seenRelations.add(relation);
        steps.push({ edge, depth, via });
        const far = edge.target;
        if (visited.has(far)) continue;
        visited.add(far);
        const resolved = graph.has(far);
        nodes.push({ key: far, ref: edge.targetRef, depth, resolved });
        // An entity missing from the catalog has no edges of its own to follow.
        if (resolved) next.push(far);
      }
    }
    frontier = next;
  }
  return { steps, nodes };
}

/**
 * Every relation the entity takes part in, each once and read from it (the entity as source):
 * the halves whose source it is, plus, for a relation whose only stored half names it as target,
 * that half turned round. Sorted by type, far end and near end, so the order never depends on
 * which half was stored.
 */
function relationsOf(graph: ComponentGraph, key: EntityKey): readonly GraphEdge[] {
  const own = graph.outgoing(key);
  const held = new Set(own.map(relationKey));
  const turned: GraphEdge[] = [];
  for (const edge of graph.incoming(key)) {
    if (edge.source === key) continue; // a self-relation: already among its own
    const half = turnRound(edge);
    const relation = relationKey(half);
    if (held.has(relation)) continue;
    held.add(relation);
    turned.push(half);
  }
  return turned.length === 0 ? own : [...own, ...turned].sort(compareEdges);
}

/** The other half of a relation: `B dependencyOf A` for `A dependsOn B`, declared at the same place. */
function turnRound(edge: GraphEdge): GraphEdge {
  return {
    source: edge.target,
    sourceRef: edge.targetRef,
    type: inverseType(edge.type),
    target: edge.source,
    targetRef: edge.sourceRef,
    resolved: edge.resolved,
    origin: edge.origin,
  };
}

/** One key for both halves of a relation: its forward half's source, type and target. */
function relationKey(edge: GraphEdge): string {
  return isForward(edge.type)
    ? `${edge.source} ${edge.type} ${edge.target}`
    : `${edge.target} ${forwardType(edge.type)} ${edge.source}`;
}
