/**
 * The figures `wsctx index` and the status bar show: documents by source kind, entities by kind,
 * edges by type, unresolved edges, problems.
 */
import type { ComponentGraph } from '../graph/componentGraph';
import type { IndexCounts } from '../indexState';
import { SOURCE_KINDS, type CatalogEntity, type Doc, type Problem, type SourceKind } from '../model';

export function countState(input: {
  docs: ReadonlyMap<string, Doc>;
  graph: ComponentGraph;
  entities: readonly CatalogEntity[];
  problems: readonly Problem[];
  files: number;
  sections: number;
}): IndexCounts {
  const bySourceKind = Object.fromEntries(SOURCE_KINDS.map((k) => [k, 0])) as Record<SourceKind, number>;
  for (const doc of input.docs.values()) bySourceKind[doc.sourceKind]++;
  const { entitiesByKind, edgesByType, unresolvedEdges } = catalogCounts(input.entities, input.graph);
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

interface CatalogCounts {
  entitiesByKind: Record<string, number>;
  edgesByType: Record<string, number>;
  unresolvedEdges: number;
}

/** Computed once per catalog: the graph object changes exactly when the catalog does. */
const catalogCountCache = new WeakMap<ComponentGraph, { entities: readonly CatalogEntity[]; counts: CatalogCounts }>();

function catalogCounts(entities: readonly CatalogEntity[], graph: ComponentGraph): CatalogCounts {
  const known = catalogCountCache.get(graph);
  if (known && known.entities === entities)
    return {
      ...known.counts,
      entitiesByKind: { ...known.counts.entitiesByKind },
      edgesByType: { ...known.counts.edgesByType },
    };
  const entitiesByKind: Record<string, number> = {};
  for (const entity of entities) entitiesByKind[entity.kind] = (entitiesByKind[entity.kind] ?? 0) + 1;
  const edgesByType: Record<string, number> = {};
  let unresolvedEdges = 0;
  for (const edge of graph.edges()) {
    edgesByType[edge.type] = (edgesByType[edge.type] ?? 0) + 1;
    if (!edge.resolved) unresolvedEdges++;
  }
  const counts = { entitiesByKind, edgesByType, unresolvedEdges };
  catalogCountCache.set(graph, { entities, counts });
  return { ...counts, entitiesByKind: { ...entitiesByKind }, edgesByType: { ...edgesByType } };
}
