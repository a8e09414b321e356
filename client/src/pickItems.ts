/**
 * Rows for the QuickPicks the commands show: a `workspace_expand` walk, the library's table of
 * contents (`get_toc`), the diagnostics report, the entities to expand from, an entity's documents.
 * Pure; commands.ts shows them. The tool outputs are read structurally (the client never imports
 * the server), with the fields the tools' output schemas declare.
 *
 * Imports no `vscode`.
 */
import type { DiagnosticsReport, ShowEntityDocsArgs } from '../../shared/protocol';

export type Row<T> =
  | { kind: 'separator'; label: string }
  | { kind: 'item'; label: string; description: string; detail?: string; value: T };

// ---------------------------------------------------------------------------------------------
// workspace_expand

export interface ExpandEdgeView {
  source: string;
  type: string;
  target: string;
  depth: number;
  resolved: boolean;
  /** `path:line` of the declaration. */
  declaredAt: string;
  field: string;
}

export interface ExpandView {
  entity?: { ref: string; title?: string; sourceRef: string };
  notice?: string;
  depth: number;
  direction: 'out' | 'in' | 'both';
  edges: ExpandEdgeView[];
  totalEdges: number;
  candidatesCapped?: { droppedByLimit: number; droppedByBudget: number; limit: number };
  degraded: string[];
}

export function expandTitle(out: ExpandView): string {
  if (!out.entity) return out.notice ?? 'Nothing to walk.';
  const name = out.entity.title ? `${out.entity.ref} (${out.entity.title})` : out.entity.ref;
  const capped = out.candidatesCapped ? ', capped' : '';
  return `${name} · ${DIRECTION_WORDS[out.direction]} · depth ${out.depth} · ${out.edges.length} of ${out.totalEdges} edges${capped}`;
}

export const DIRECTION_WORDS: Record<ExpandView['direction'], string> = {
  out: 'dependencies',
  in: 'dependents',
  both: 'both directions',
};

/** One row per edge, grouped under a separator per hop. */
export function expandRows(out: ExpandView): Row<ExpandEdgeView>[] {
  const rows: Row<ExpandEdgeView>[] = [];
  let hop = 0;
  for (const edge of [...out.edges].sort((a, b) => a.depth - b.depth)) {
    if (edge.depth !== hop) {
      hop = edge.depth;
      rows.push({ kind: 'separator', label: hop === 1 ? '1 hop' : `${hop} hops` });
    }
    rows.push({
      kind: 'item',
      label: `${edge.source} ─${edge.type}→ ${edge.target}`,
      description: edge.resolved ? '' : 'unresolved',
      detail: `declared at ${edge.declaredAt} (${edge.field})`,
      value: edge,
    });
  }
  return rows;
}

/**
 * The end of an edge away from the entity it was reached from. workspace_expand reads every
 * relation from that entity (`billing-worker dependsOn invoices-db` out, `invoices-db
 * dependencyOf billing-worker` in), so the far end is always the edge's target.
 */
export function farEnd(edge: Pick<ExpandEdgeView, 'source' | 'target'>): string {
  return edge.target;
}

/** `path:line` (or `path:start-end`) -> path and 1-based line; undefined when it is not one. */
export function parsePathLine(text: string): { path: string; line: number } | undefined {
  const match = /^(.+?):(\d+)(?:-\d+)?$/.exec(text.trim());
  return match ? { path: match[1], line: Number(match[2]) } : undefined;
}

// ---------------------------------------------------------------------------------------------
// get_toc

export interface TocSection {
  id: string;
  heading: string;
  depth: number;
  summary?: string;
}

export interface TocDocument {
  id: string;
  title: string;
  namespace: string;
  summary?: string;
  sectionCount: number;
  pinned: boolean;
  sections?: TocSection[];
}

export interface TocView {
  mode: 'map' | 'query' | 'document';
  namespaces?: { name: string; label: string; description?: string; documents: TocDocument[] }[];
  documents?: TocDocument[];
  document?: TocDocument;
  sections?: TocSection[];
  notice?: string;
}

export type TocTarget =
  | { kind: 'document'; id: string; title: string }
  | { kind: 'section'; id: string; title: string };

export function tocRows(toc: TocView): Row<TocTarget>[] {
  const rows: Row<TocTarget>[] = [];
  const addDocument = (doc: TocDocument) => {
    const facts = [
      doc.id,
      `${doc.sectionCount} ${doc.sectionCount === 1 ? 'section' : 'sections'}`,
      doc.pinned ? 'pinned' : undefined,
    ].filter(Boolean);
    rows.push({
      kind: 'item',
      label: `$(book) ${doc.title}`,
      description: facts.join(' · '),
      detail: doc.summary,
      value: { kind: 'document', id: doc.id, title: doc.title },
    });
    for (const section of doc.sections ?? []) addSection(section);
  };
  const addSection = (section: TocSection) => {
    const indent = '\u2003'.repeat(Math.max(0, section.depth - 1) + 1);
    rows.push({
      kind: 'item',
      label: `${indent}${section.heading}`,
      description: section.id,
      detail: section.summary,
      value: { kind: 'section', id: section.id, title: section.heading },
    });
  };
  if (toc.mode === 'map') {
    for (const ns of toc.namespaces ?? []) {
      rows.push({ kind: 'separator', label: ns.label });
      ns.documents.forEach(addDocument);
    }
  } else if (toc.mode === 'query') {
    (toc.documents ?? []).forEach(addDocument);
  } else {
    if (toc.document) rows.push({ kind: 'separator', label: toc.document.title });
    (toc.sections ?? toc.document?.sections ?? []).forEach(addSection);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Diagnostics report

export function diagnosticsTitle(report: DiagnosticsReport): string {
  const s = report.bySeverity;
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `Workspace Context: ${count(report.total, 'diagnostic')} (${count(s.error, 'error')}, ${count(s.warning, 'warning')}, ${s.info} info)`;
}

const SEVERITY_ICONS = { error: '$(error)', warning: '$(warning)', info: '$(info)' } as const;

export function diagnosticsRows(report: DiagnosticsReport): Row<DiagnosticsReport['items'][number]>[] {
  const rows: Row<DiagnosticsReport['items'][number]>[] = [];
  let path: string | undefined;
  for (const item of report.items) {
    if (item.path !== path) {
      path = item.path;
      rows.push({ kind: 'separator', label: item.path });
    }
    const related = item.related[0];
    const also = related ? ` · see ${related.path}:${related.range.start.line + 1}` : '';
    rows.push({
      kind: 'item',
      label: `${SEVERITY_ICONS[item.severity]} ${item.message}`,
      description: `${item.path}:${item.range.start.line + 1}`,
      detail: `${item.code} · ${item.source}${also}`,
      value: item,
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Entities (from workspace symbols) and an entity's documents

/** `kind:namespace/name`, as workspace symbols name entities. */
const ENTITY_REF = /^[a-z][\w-]*:[^\s/:]+\/\S+$/i;

export function entityRows(symbols: { name: string; containerName?: string }[]): Row<string>[] {
  const seen = new Set<string>();
  const rows: Row<string>[] = [];
  for (const s of symbols) {
    if (!ENTITY_REF.test(s.name) || seen.has(s.name)) continue;
    seen.add(s.name);
    rows.push({ kind: 'item', label: s.name, description: s.containerName ?? '', value: s.name });
  }
  return rows;
}

export function entityDocsRows(args: ShowEntityDocsArgs): Row<string>[] {
  return args.docs.map((d) => ({
    kind: 'item',
    label: d.title,
    description: d.sourceKind.replace(/_/g, ' '),
    value: d.path,
  }));
}
