/**
 * `wsctx graph`: the whole component graph, every entity and every relation with its type and
 * whether it resolved, as JSON (for scripts) or Graphviz DOT (for drawing).
 *
 * JSON holds every relation as Backstage stores it, both halves of each pair (`A dependsOn B` and
 * `B dependencyOf A`). DOT draws one arrow per pair, the half the dependent declares, since two
 * arrows for one fact only clutter a drawing.
 */
import { isForward, isRelationType } from '../../engine/graph/relationTypes';
import type { IndexState } from '../../engine/indexState';

export interface GraphExport {
  indexedAt: string;
  entities: { ref: string; kind: string; name: string; title?: string; sourceRef: string }[];
  edges: { source: string; type: string; target: string; resolved: boolean; declaredAt: string; field: string }[];
}

export function exportGraph(state: IndexState): GraphExport {
  return {
    indexedAt: state.indexedAt,
    entities: state.entities.map((e) => ({
      ref: e.ref,
      kind: e.kind,
      name: e.name,
      ...(e.title ? { title: e.title } : {}),
      sourceRef: `${e.location.path}:${e.location.startLine}-${e.location.endLine}`,
    })),
    edges: state.graph.edges().map((e) => ({
      source: e.sourceRef,
      type: e.type,
      target: e.targetRef,
      resolved: e.resolved,
      declaredAt: `${e.origin.path}:${e.origin.line}`,
      field: e.origin.field,
    })),
  };
}

const KIND_SHAPES: Record<string, string> = {
  component: 'box',
  api: 'component',
  resource: 'cylinder',
  system: 'box3d',
  domain: 'tab',
  group: 'house',
  user: 'ellipse',
  location: 'note',
};

/** Graphviz DOT; unresolved targets are drawn dashed and grey. */
export function renderDot(graph: GraphExport): string {
  const lines = ['digraph catalog {', '  rankdir=LR;', '  node [fontname="Helvetica", fontsize=10];', '  edge [fontname="Helvetica", fontsize=8];'];
  const known = new Set(graph.entities.map((e) => e.ref.toLowerCase()));
  for (const e of graph.entities) {
    const label = e.title ? `${e.ref}\n${e.title}` : e.ref;
    lines.push(`  ${quote(e.ref)} [label=${quote(label)}, shape=${KIND_SHAPES[e.kind.toLowerCase()] ?? 'box'}];`);
  }
  const missing = new Set<string>();
  for (const e of graph.edges) {
    for (const end of [e.source, e.target]) if (!known.has(end.toLowerCase())) missing.add(end);
  }
  for (const ref of [...missing].sort()) lines.push(`  ${quote(ref)} [style=dashed, color=grey, fontcolor=grey];`);
  for (const e of graph.edges) {
    if (isRelationType(e.type) && !isForward(e.type)) continue;
    const style = e.resolved ? '' : ', style=dashed, color=grey';
    lines.push(`  ${quote(e.source)} -> ${quote(e.target)} [label=${quote(e.type)}${style}];`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** A DOT string literal: backslashes and quotes escaped, newlines as DOT's `\n` line break. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
