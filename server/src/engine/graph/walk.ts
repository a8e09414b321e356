/**
 * Breadth-first walk of the component graph (`workspace_expand`).
 *
 * `out` follows the relations whose source is the entity at hand, `in` those whose target it is,
 * both as Backstage stores them (both halves of every pair), so from `A` with `A dependsOn B`,
 * `out` yields `A dependsOn B` and `in` yields `B dependencyOf A`.
 *
 * The walk itself never caps: it returns every edge within the depth, in a stable order (by hop,
 * then by the order of the frontier, then edge type and far end). Limits and byte budgets belong
 * to the tool that renders the answer, which can then say exactly what it dropped.
 */
import type { EntityKey, RelationType } from '../model';
import type { ComponentGraph, GraphEdge } from './componentGraph';

export type WalkDirection = 'out' | 'in' | 'both';

/** Deepest walk the contract allows; deeper asks are refused, never clamped (seed 001). */
export const MAX_WALK_DEPTH = 3;

export interface WalkOptions {
  /** 1..MAX_WALK_DEPTH. */
  depth: number;
  direction: WalkDirection;
  /** Relation types to follow, exactly as Backstage names them; undefined follows every type. */
  edgeTypes?: ReadonlySet<RelationType>;
}

export interface WalkStep {
  edge: GraphEdge;
  /** Hop at which the edge was reached (1 = touches the start entity). */
  depth: number;
  /** Whether the relation was followed from its source (`out`) or from its target (`in`). */
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

export function walkGraph(graph: ComponentGraph, start: EntityKey, options: WalkOptions): WalkResult {
  const startEntity = graph.get(start);
  const nodes: WalkNode[] = [{ key: start, ref: startEntity?.ref ?? start, depth: 0, resolved: !!startEntity }];
  const visited = new Set<EntityKey>([start]);
  const seenEdges = new Set<GraphEdge>();
  const steps: WalkStep[] = [];
  let frontier: EntityKey[] = [start];

  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    const next: EntityKey[] = [];
    for (const key of frontier) {
      for (const [via, edges] of edgesFrom(graph, key, options.direction)) {
        for (const edge of edges) {
          if (options.edgeTypes && !options.edgeTypes.has(edge.type)) continue;
          if (seenEdges.has(edge)) continue;
          seenEdges.add(edge);
          steps.push({ edge, depth, via });
          const far = via === 'out' ? edge.target : edge.source;
          if (visited.has(far)) continue;
          visited.add(far);
          const resolved = graph.has(far);
          nodes.push({ key: far, ref: via === 'out' ? edge.targetRef : edge.sourceRef, depth, resolved });
          // An entity missing from the catalog has no edges of its own to follow.
          if (resolved) next.push(far);
        }
      }
    }
    frontier = next;
  }
  return { steps, nodes };
}

function edgesFrom(graph: ComponentGraph, key: EntityKey, direction: WalkDirection): ['out' | 'in', readonly GraphEdge[]][] {
  if (direction === 'out') return [['out', graph.outgoing(key)]];
  if (direction === 'in') return [['in', graph.incoming(key)]];
  return [
    ['out', graph.outgoing(key)],
    ['in', graph.incoming(key)],
  ];
}
