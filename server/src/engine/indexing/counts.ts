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
  const entitiesByKind: Record<string, number> = {};
  for (const entity of input.entities) entitiesByKind[entity.kind] = (entitiesByKind[entity.kind] ?? 0) + 1;
  const edgesByType: Record<string, number> = {};
  let unresolvedEdges = 0;
  for (const edge of input.graph.edges()) {
    edgesByType[edge.type] = (edgesByType[edge.type] ?? 0) + 1;
    if (!edge.resolved) unresolvedEdges++;
  }
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
