/**
 * `wsctx graph`: the whole component graph, every entity and every relation with its type and
 * whether it resolved: as text a person reads (the default), JSON (`--json`, for scripts) or
 * Graphviz DOT (`--format dot`, for drawing).
 *
 * The text lists each entity with where it is declared and the relations it declares, one line
 * per relation type, the far ends wrapped between names (never cut) within the line width.
 *
 * JSON holds every relation as Backstage stores it, both halves of each pair (`A dependsOn B` and
 * `B dependencyOf A`). DOT draws one arrow per pair, the half the dependent declares, since two
 * arrows for one fact only clutter a drawing.
 */
import { isForward, isRelationType, type IndexState } from '../../engine';
import { shortRef } from './entityLine';
import { wrap } from './expandCommand';

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
  const lines = [
    'digraph catalog {',
    '  rankdir=LR;',
    '  node [fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=8];',
  ];
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

/** Kinds in the order the text lists them: the structure first, then people. */
const KIND_ORDER = ['domain', 'system', 'component', 'api', 'resource', 'group', 'user', 'location'];

/** The graph as text within `columns` characters a line (a longer name stands on its own line). */
export function renderGraphText(graph: GraphExport, columns = 100): string {
  const width = Math.max(40, columns);
  const declared = graph.edges.filter((e) => !isRelationType(e.type) || isForward(e.type));
  const unresolved = declared.filter((e) => !e.resolved).length;
  const lines = [
    ...wrap(
      `${graph.entities.length} entities, ${declared.length} relations (${graph.edges.length} halves as Backstage stores them), ${unresolved} unresolved. Indexed ${graph.indexedAt}.`,
      width,
    ),
    ...wrap(
      'Each entity with the relations it declares; --json has both halves of every relation, --format dot draws them.',
      width,
    ),
  ];
  const bySource = new Map<string, typeof declared>();
  for (const e of declared) bySource.set(e.source.toLowerCase(), [...(bySource.get(e.source.toLowerCase()) ?? []), e]);
  const rank = (kind: string) => {
    const at = KIND_ORDER.indexOf(kind.toLowerCase());
    return at < 0 ? KIND_ORDER.length : at;
  };
  const entities = [...graph.entities].sort((a, b) => rank(a.kind) - rank(b.kind) || a.ref.localeCompare(b.ref));
  for (const entity of entities) {
    lines.push(
      '',
      ...wrap(
        `${shortRef(entity.ref)}${entity.title && entity.title !== entity.name ? ` (${entity.title})` : ''}`,
        width,
      ),
    );
    // One line, however long: a path is never broken.
    lines.push(`  declared at ${entity.sourceRef}`);
    const byType = new Map<string, string[]>();
    for (const e of bySource.get(entity.ref.toLowerCase()) ?? [])
      byType.set(e.type, [...(byType.get(e.type) ?? []), `${shortRef(e.target)}${e.resolved ? '' : ' [unresolved]'}`]);
    for (const [type, targets] of byType) {
      const [first, ...rest] = wrapList(targets, width - 4 - type.length - 1);
      lines.push(`  ${type} ${first}`, ...rest.map((l) => `${' '.repeat(3 + type.length)}${l}`));
    }
  }
  return lines.join('\n');
}

/** Names joined by ', ' into lines of at most `width`; a longer name has a line to itself. */
function wrapList(names: readonly string[], width: number): string[] {
  const lines: string[] = [];
  names.forEach((name, i) => {
    const item = i < names.length - 1 ? `${name},` : name;
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + item.length <= width) lines[last] += ` ${item}`;
    else lines.push(item);
  });
  return lines;
}

/** A DOT string literal: backslashes and quotes escaped, newlines as DOT's `\n` line break. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
