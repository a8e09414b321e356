/**
 * The figures `wsctx index` and the status bar show: documents by source kind, entities by kind,
 * edges by type, unresolved edges, problems.
 */
import type { ComponentGraph } from '../graph/componentGraph';
import type { IndexCounts } from '../indexState';
import { SOURCE_KINDS, type CatalogEntity, type Doc, type Problem, type Relation, type SourceKind } from '../model';

export function countState(input: {
  docs: ReadonlyMap<string, Doc>;
  graph: ComponentGraph;
  entities: readonly CatalogEntity[];
  problems: readonly Problem[];
  files: number;
  sections: number;
  /** Documents by source kind when the caller keeps them (the section store does); else counted from `docs`. */
  bySourceKind?: Record<SourceKind, number>;
  /**
   * The graph before a catalog update, the relations that went and came, and the changed files'
   * entities before and after (catalogUpdate.ts).
   */
  catalogChange?: CatalogCountChange;
}): IndexCounts {
  let bySourceKind = input.bySourceKind;
  if (!bySourceKind) {
    bySourceKind = Object.fromEntries(SOURCE_KINDS.map((k) => [k, 0])) as Record<SourceKind, number>;
    for (const doc of input.docs.values()) bySourceKind[doc.sourceKind]++;
  }
  const { entitiesByKind, edgesByType, unresolvedEdges } = catalogCounts(
    input.entities,
    input.graph,
    input.catalogChange,
  );
  return {
    files: input.files,
    documents: input.docs.size,
    sections: input.sections,
    bySourceKind,
    entitiesByKind,
    edgesByType,
    unresolvedEdges,
    problems: input.problems.length,
  };
}

interface CatalogCountChange {
  from: ComponentGraph;
  removed: readonly Relation[];
  added: readonly Relation[];
  before?: readonly CatalogEntity[];
  after?: readonly CatalogEntity[];
}

interface CatalogCounts {
  entitiesByKind: Record<string, number>;
  edgesByType: Record<string, number>;
  unresolvedEdges: number;
}

/** Computed once per catalog: the graph object changes exactly when the catalog does. */
const catalogCountCache = new WeakMap<ComponentGraph, { entities: readonly CatalogEntity[]; counts: CatalogCounts }>();

function catalogCounts(
  entities: readonly CatalogEntity[],
  graph: ComponentGraph,
  change: CatalogCountChange | undefined,
): CatalogCounts {
  const known = catalogCountCache.get(graph);
  if (known && known.entities === entities)
    return {
      ...known.counts,
      entitiesByKind: { ...known.counts.entitiesByKind },
      edgesByType: { ...known.counts.edgesByType },
    };
  const before = change && catalogCountCache.get(change.from)?.counts;
  const entitiesByKind = (before && change && kindsAfter(before.entitiesByKind, change)) ?? kindsOf(entities);
  const byType = new Map<string, number>();
  let unresolvedEdges = 0;
  const edgesByType: Record<string, number> = {};
  if (change && before) {
    // After a catalog update: the last counts, less the relations that went, plus those that came,
    // listed in the order a full walk meets the types (a walk that stops once it met them all).
    for (const [type, n] of Object.entries(before.edgesByType)) byType.set(type, n);
    unresolvedEdges = before.unresolvedEdges;
    for (const edge of change.removed) {
      byType.set(edge.type, (byType.get(edge.type) ?? 0) - 1);
      if (!edge.resolved) unresolvedEdges--;
    }
    for (const edge of change.added) {
      byType.set(edge.type, (byType.get(edge.type) ?? 0) + 1);
      if (!edge.resolved) unresolvedEdges++;
    }
    let types = 0;
    for (const n of byType.values()) if (n > 0) types++;
    for (const edge of graph.edges()) {
      if (Object.hasOwn(edgesByType, edge.type)) continue;
      edgesByType[edge.type] = byType.get(edge.type)!;
      if (--types === 0) break;
    }
  } else {
    for (const edge of graph.edges()) {
      edgesByType[edge.type] = (edgesByType[edge.type] ?? 0) + 1;
      if (!edge.resolved) unresolvedEdges++;
    }
  }
  const counts = { entitiesByKind, edgesByType, unresolvedEdges };
  catalogCountCache.set(graph, { entities, counts });
  return { ...counts, entitiesByKind: { ...entitiesByKind }, edgesByType: { ...edgesByType } };
}

function kindsOf(entities: readonly CatalogEntity[]): Record<string, number> {
  const byKind: Record<string, number> = {};
  for (const entity of entities) byKind[entity.kind] = (byKind[entity.kind] ?? 0) + 1;
  return byKind;
}

/**
 * The entity counts after a catalog update, when they are those before it: each changed file's
 * entities are of the same kinds in the same order as before, so every entity's kind is where it was and
 * the counts, and the order the kinds are first met in (the record's key order), are the same.
 * Undefined otherwise (then every entity is counted).
 */
function kindsAfter(last: Record<string, number>, change: CatalogCountChange): Record<string, number> | undefined {
  const { before, after } = change;
  if (!before || !after || before.length !== after.length) return undefined;
  for (let i = 0; i < before.length; i++)
    if (before[i].kind !== after[i].kind || before[i].location.path !== after[i].location.path) return undefined;
  return { ...last };
}
