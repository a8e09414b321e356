/**
 * `workspace_expand`: walk the component graph from one entity (docs/ARCHITECTURE.md, workspace_context's contract).
 *
 * Depth over 3 and limit over 100 are refused with a message rather than clamped: a silently
 * smaller graph looks complete. Whatever the limit or the byte budget drops is reported as
 * `candidates-capped` with counts.
 */
import { z } from 'zod';
import { boundedList, boundedString, INPUT_LIMITS, oneOf, wholeNumber } from './inputLimits';
import {
  type WorkspaceIndex,
  type GraphEdge,
  resolveEntityInput,
  summarizeEntity,
  inverseType,
  RELATION_TYPES,
  MAX_WALK_DEPTH,
  typesAgainstDirection,
  walkGraph,
  type WalkDirection,
  type RelationType,
} from '../engine';
import { ToolInputError } from './toolError';
import type { Services } from '../services/services';
import type { ToolDefinition } from './toolDefinition';
import { stateForQuery } from './queryState';
import { logged } from './callLog';

export const EXPAND_DEFAULT_LIMIT = 50;
export const EXPAND_MAX_LIMIT = 100;
/** Serialized size the edges and nodes of one answer may take (JSON bytes). */
export const EXPAND_BYTE_BUDGET = 48 * 1024;

const input = {
  workspace: boundedString(INPUT_LIMITS.workspace)
    .min(1)
    .describe(`Workspace folder to answer from: its name or path (at most ${INPUT_LIMITS.workspace} characters).`),
  entityRef: boundedString(INPUT_LIMITS.entityRef)
    .min(1)
    .describe(
      `Entity to start from: \`kind:namespace/name\`, \`kind:name\`, or a name when only one entity has it (at most ${INPUT_LIMITS.entityRef} characters).`,
    ),
  depth: wholeNumber(
    1,
    MAX_WALK_DEPTH,
    1,
    'deeper walks are refused, never clamped (a smaller graph would look complete): expand again from an entity at the edge',
  ).describe(`Hops to walk, 1 to ${MAX_WALK_DEPTH} (default 1). Deeper asks are refused, not clamped.`),
  direction: oneOf(['out', 'in', 'both'] as const, 'a direction')
    .optional()
    .describe(
      "By the relation's meaning: `out` for what the entity depends on or points to (dependsOn, consumesApi, providesApi, ownedBy, partOf, childOf, memberOf); `in` for what depends on it or points to it (dependencyOf, apiConsumedBy, apiProvidedBy, ownerOf, hasPart, parentOf, hasMember); `both` (default) for either.",
    ),
  edgeTypes: boundedList(oneOf(RELATION_TYPES, 'a relation type', true))
    .optional()
    .describe(
      `Relation types to follow, as Backstage names them read from the entity at hand, so each type has one direction (dependsOn is out, dependencyOf in; a type of the other side with an explicit direction is refused): ${RELATION_TYPES.join(', ')}.`,
    ),
  limit: wholeNumber(
    1,
    EXPAND_MAX_LIMIT,
    EXPAND_DEFAULT_LIMIT,
    'narrow the walk with edgeTypes or direction instead',
  ).describe(`Most edges to return, 1 to ${EXPAND_MAX_LIMIT} (default ${EXPAND_DEFAULT_LIMIT}).`),
  asOf: boundedString(INPUT_LIMITS.asOf)
    .optional()
    .describe(`ISO date-time or commit: walk the catalog as it was then (at most ${INPUT_LIMITS.asOf} characters).`),
};

const entitySummary = z.object({
  ref: z.string(),
  kind: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  type: z.string().optional(),
  lifecycle: z.string().optional(),
  owner: z.string().optional(),
  sourceRef: z.string(),
});

const expandEdge = z.object({
  source: z.string(),
  type: z.string(),
  target: z.string(),
  /** Hop at which the edge was reached. */
  depth: z.number(),
  resolved: z.boolean(),
  /** Where the relation is declared: `path:line`, and the field. */
  declaredAt: z.string(),
  field: z.string(),
});

const expandNode = z.object({
  ref: z.string(),
  kind: z.string(),
  title: z.string().optional(),
  depth: z.number(),
  resolved: z.boolean(),
});

const output = {
  workspace: z.string(),
  /** Absent when there was nothing to walk (cold index, workspace not served). */
  entity: entitySummary.optional(),
  /** Why the answer is empty, when it is. */
  notice: z.string().optional(),
  depth: z.number(),
  direction: z.enum(['out', 'in', 'both']),
  edgeTypes: z.array(z.string()).nullable(),
  edges: z.array(expandEdge),
  nodes: z.array(expandNode),
  /** Edges the walk found before limits. */
  totalEdges: z.number(),
  candidatesCapped: z
    .object({ droppedByLimit: z.number(), droppedByBudget: z.number(), limit: z.number(), byteBudget: z.number() })
    .optional(),
  degraded: z.array(z.string()),
  indexedAt: z.string().nullable(),
};

export type ExpandEdge = z.infer<typeof expandEdge>;
export type ExpandNode = z.infer<typeof expandNode>;
export type ExpandOutput = z.infer<z.ZodObject<typeof output>>;

export const workspaceExpandTool: ToolDefinition<typeof input, typeof output> = {
  name: 'workspace_expand',
  title: 'Walk the component graph',
  description: [
    'Walk the Backstage component graph from one entity once you know which entity matters.',
    'Relations are Backstage\'s; each comes back once, read from the entity it was reached from (`A dependsOn B`, `A dependencyOf C`). `direction: "out"` is what the entity depends on or points to: dependencies, APIs it consumes or provides, its owner, its system or domain, its parent group, its groups; `"in"` is what depends on it or points to it: dependents, an API\'s consumers and providers, what a group owns, a system\'s parts, child groups, members; `"both"` (default) either. edgeTypes narrows to relation types as read from the entity, e.g. `["dependencyOf"]` for what depends on it.',
    `Returns the edges (source, relation type, target, hop, where it is declared) and the entities reached. Depth 1-${MAX_WALK_DEPTH}; deeper asks are refused, not clamped. Default limit ${EXPAND_DEFAULT_LIMIT} edges (max ${EXPAND_MAX_LIMIT}); anything dropped is reported as candidates-capped.`,
    'Follow up with workspace_context to read the docs of an entity you found, or expand again from an entity at the edge of the walk.',
  ].join(' '),
  input,
  output,
  run(services: Services, args, context) {
    return logged(
      services,
      context,
      'workspace_expand',
      {
        entityRef: args.entityRef,
        depth: args.depth,
        direction: args.direction,
        edgeTypes: args.edgeTypes,
        limit: args.limit,
        asOf: args.asOf,
      },
      () => walk(services.engine, args),
      (out) => ({ resultIds: out.nodes.map((n) => n.ref), empty: out.edges.length === 0 }),
    );
  },
  unreadable: (args, notice) => ({
    workspace: args.workspace,
    notice,
    depth: args.depth ?? 1,
    direction: args.direction ?? 'both',
    edgeTypes: args.edgeTypes ? [...new Set(args.edgeTypes)] : null,
    edges: [],
    nodes: [],
    totalEdges: 0,
    degraded: ['scope-unreadable'],
    indexedAt: null,
  }),
  renderText: renderExpand,
};

type Args = z.infer<z.ZodObject<typeof input>>;

async function walk(engine: WorkspaceIndex, args: Args): Promise<ExpandOutput> {
  const depth = args.depth ?? 1;
  const limit = args.limit ?? EXPAND_DEFAULT_LIMIT;
  const edgeTypes = args.edgeTypes ? new Set<RelationType>(args.edgeTypes) : undefined;
  const direction = args.direction ?? 'both';
  const against = typesAgainstDirection(edgeTypes ?? [], direction);
  if (against.length > 0) throw new ToolInputError(againstMessage(against, direction));
  const found = await stateForQuery(engine, args.workspace, args.asOf);
  if (found.kind !== 'ready') {
    const notice = 'The index is still empty; indexing has started. Ask again in a moment.';
    return {
      workspace: found.workspace.name,
      notice,
      depth,
      direction,
      edgeTypes: edgeTypes ? [...edgeTypes] : null,
      edges: [],
      nodes: [],
      totalEdges: 0,
      degraded: found.degraded,
      indexedAt: null,
    };
  }
  const { state, degraded, workspace } = found;

  const lookup = resolveEntityInput(state.graph, args.entityRef);
  if (!lookup.ok) throw new ToolInputError(`entityRef: ${lookup.message}`);
  const walk = walkGraph(state.graph, lookup.key, { depth, direction, edgeTypes });

  const edges: ExpandEdge[] = [];
  let bytes = 0;
  let droppedByLimit = 0;
  let droppedByBudget = 0;
  for (const step of walk.steps) {
    if (edges.length >= limit) {
      droppedByLimit++;
      continue;
    }
    const edge = toExpandEdge(step.edge, step.depth);
    const size = JSON.stringify(edge).length + 1;
    if (bytes + size > EXPAND_BYTE_BUDGET) {
      droppedByBudget++;
      continue;
    }
    bytes += size;
    edges.push(edge);
  }
  const touched = new Set<string>([lookup.key]);
  for (const e of edges) {
    touched.add(e.source.toLowerCase());
    touched.add(e.target.toLowerCase());
  }
  const nodes = walk.nodes
    .filter((n) => touched.has(n.key))
    .map((n): ExpandNode => {
      const entity = state.graph.get(n.key);
      return {
        ref: n.ref,
        kind: entity?.kind ?? n.ref.split(':')[0],
        title: entity?.title,
        depth: n.depth,
        resolved: n.resolved,
      };
    });
  const capped = droppedByLimit + droppedByBudget > 0;
  return {
    workspace: workspace.name,
    entity: summarizeEntity(state.graph, lookup.key),
    depth,
    direction,
    edgeTypes: edgeTypes ? [...edgeTypes] : null,
    edges,
    nodes,
    totalEdges: walk.steps.length,
    ...(capped ? { candidatesCapped: { droppedByLimit, droppedByBudget, limit, byteBudget: EXPAND_BYTE_BUDGET } } : {}),
    degraded: capped ? [...degraded, 'candidates-capped'] : degraded,
    indexedAt: state.indexedAt,
  };
}

/**
 * A filter that can never match is refused rather than answered with an empty walk (an empty
 * graph looks like an entity without relations), naming the type of the asked side.
 */
function againstMessage(types: RelationType[], direction: WalkDirection): string {
  const other = direction === 'out' ? 'in' : 'out';
  const named = types
    .map((t) => `${t} is ${other} (read from the entity; its ${direction} half is ${inverseType(t)})`)
    .join('; ');
  return `edgeTypes: ${named}. With direction "${direction}" it can never match: ask direction "${other}" or "both", or name ${types.map(inverseType).join(', ')}.`;
}

function toExpandEdge(edge: GraphEdge, depth: number): ExpandEdge {
  return {
    source: edge.sourceRef,
    type: edge.type,
    target: edge.targetRef,
    depth,
    resolved: edge.resolved,
    declaredAt: `${edge.origin.path}:${edge.origin.line}`,
    field: edge.origin.field,
  };
}

export function renderExpand(out: ExpandOutput): string {
  const lines: string[] = [];
  const e = out.entity;
  if (!e)
    return [out.notice ?? 'Nothing to walk.', out.degraded.length ? `degraded: ${out.degraded.join(', ')}` : '']
      .filter(Boolean)
      .join('\n');
  lines.push(`# ${e.ref}${e.title ? ` (${e.title})` : ''}`);
  const facts = [
    e.type && `type ${e.type}`,
    e.lifecycle && `lifecycle ${e.lifecycle}`,
    e.owner && `owner ${e.owner}`,
  ].filter(Boolean);
  if (facts.length) lines.push(facts.join(', '));
  if (e.description) lines.push(e.description);
  lines.push('');
  const filter = out.edgeTypes ? `, edge types ${out.edgeTypes.join(', ')}` : '';
  lines.push(
    `Walk: depth ${out.depth}, direction ${out.direction}${filter}; ${out.edges.length} of ${out.totalEdges} edges.`,
  );
  for (const edge of out.edges) {
    const mark = edge.resolved ? '' : '  [unresolved]';
    lines.push(
      `  ${'  '.repeat(edge.depth - 1)}${edge.source} --${edge.type}--> ${edge.target}${mark}   (${edge.declaredAt})`,
    );
  }
  if (out.edges.length === 0) lines.push('  (no edges)');
  if (out.candidatesCapped) {
    const c = out.candidatesCapped;
    lines.push(
      `candidates-capped: ${c.droppedByLimit} edges over the limit of ${c.limit}, ${c.droppedByBudget} over the ${c.byteBudget}-byte budget. Narrow with edgeTypes or direction.`,
    );
  }
  if (out.degraded.length) lines.push(`degraded: ${out.degraded.join(', ')}`);
  lines.push(`indexedAt: ${out.indexedAt ?? 'never'}`);
  return lines.join('\n');
}
