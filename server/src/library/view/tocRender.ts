/**
 * The text of `get_toc` answers, rendered from their structured form (tocMap.ts), so the text a
 * host prints and the tokens the planner counted are the same characters.
 *
 * Detail levels of a document entry (docs/ARCHITECTURE.md, the library tools' contract, "Large namespaces"):
 *   1 full:     `## Title  [doc id]`, its summary, and its sections inline (at most 8) or a count
 *   2 one line: `- [doc id] Title — summary`
 *   3 titles:   `- [doc id] Title`
 * and of a namespace, 4: an overview with its description and document count only.
 */
import { TOC_TOKEN_BUDGET } from './constants';

export type TocLevel = 1 | 2 | 3 | 4;

export interface TocSectionLine {
  /** Printed id. */
  id: string;
  heading: string;
  /** Nesting under the document's top heading, 0-based. */
  depth: number;
  summary?: string;
}

export interface TocDocument {
  /** Printed id. */
  id: string;
  title: string;
  /** Workspace-relative path. */
  path: string;
  namespace: string;
  /** 1..3: how much of the entry is shown. */
  level: 1 | 2 | 3;
  summary?: string;
  sectionCount: number;
  pinned: boolean;
  /** Origin format (`context-page`, `agents-md`, `cursor-mdc`...). */
  format: string;
  applyTo?: string[];
  /** Inline sections (level 1, at most TOC_INLINE_SECTIONS sections). */
  sections?: TocSectionLine[];
}

export interface TocNamespace {
  name: string;
  /** Printed name ('.' for the top). */
  label: string;
  description?: string;
  documentCount: number;
  profile: string;
  level: TocLevel;
  /** Empty at level 4. */
  documents: TocDocument[];
}

export interface TocMap {
  mode: 'map';
  /** The namespace asked for, when one was. */
  namespace?: string;
  /** What heads the map: the namespace's description, or the top folder's for a whole map. */
  description?: string;
  documentCount: number;
  namespaces: TocNamespace[];
  condensed: boolean;
  tokens: number;
  budget: number;
}

export interface TocQuery {
  mode: 'query';
  query: string;
  namespace?: string;
  description?: string;
  /** Documents that matched. */
  matched: number;
  /** The best ones, best first, each at the detail that fitted. */
  documents: TocDocument[];
  /** Matched documents not shown (the budget ran out). */
  omitted: number;
  condensed: boolean;
  tokens: number;
  budget: number;
}

export interface TocDocumentListing {
  mode: 'document';
  document: TocDocument;
  query?: string;
  /** Sections matching the query (listed first), when a query was given. */
  matchedSections?: number;
  sections: TocSectionLine[];
  /** Sections not listed (the budget ran out). */
  omittedSections: number;
  condensed: boolean;
  tokens: number;
  budget: number;
}

export type TocResult = TocMap | TocQuery | TocDocumentListing;

const budgetWords = `about ${TOC_TOKEN_BUDGET.toLocaleString('en-US')} tokens`;

export function renderToc(result: TocResult): string {
  switch (result.mode) {
    case 'map':
      return renderMap(result);
    case 'query':
      return renderQuery(result);
    case 'document':
      return renderListing(result);
  }
}

function renderMap(map: TocMap): string {
  const blocks: string[] = [];
  const scope = map.namespace === undefined ? 'Library map' : `Library map of namespace ${labelOf(map.namespace)}`;
  const nsCount = map.namespace === undefined ? ` in ${plural(map.namespaces.length, 'namespace')}` : '';
  blocks.push(joinLines([`# ${scope}: ${plural(map.documentCount, 'document')}${nsCount}`, map.description]));
  if (map.condensed) blocks.push(condensedNote(map));
  for (const ns of map.namespaces) blocks.push(renderNamespace(ns, map.namespace !== undefined));
  return blocks.join('\n\n');
}

function condensedNote(map: TocMap): string {
  const parts = map.namespaces
    .filter((ns) => ns.level > 1)
    .map((ns) => `${JSON.stringify(ns.label)} ${LEVEL_NAMES[ns.level]}`);
  return `Condensed to stay within ${budgetWords}: ${parts.join('; ')}. get_toc(query="<your task>") lists the documents that match it, best first.`;
}

const LEVEL_NAMES: Record<TocLevel, string> = {
  1: 'in full',
  2: 'one line per document',
  3: 'titles only',
  4: 'as an overview',
};

/** A namespace block: `namespaceOnly` when the map is of this namespace (its description heads the map). */
export function renderNamespace(ns: TocNamespace, namespaceOnly: boolean): string {
  const note = ns.level === 1 ? '' : ` (${LEVEL_NAMES[ns.level]})`;
  const top = ns.name === '' ? ' (top level)' : '';
  const head = `# Namespace ${JSON.stringify(ns.label)}${top}: ${plural(ns.documentCount, 'document')}${note}`;
  // The top namespace's description heads a whole map, and a namespace's heads its own map.
  const description = namespaceOnly || ns.name === '' ? undefined : ns.description;
  if (ns.level === 4) {
    const how = namespaceOnly
      ? 'get_toc(query="<your task>", namespace=' +
        JSON.stringify(ns.label) +
        ') lists the documents that match your task.'
      : `get_toc(namespace=${JSON.stringify(ns.label)}) maps it; get_toc(query="<your task>") finds the documents that match your task.`;
    return joinLines([
      head,
      description ?? (namespaceOnly ? undefined : `No description yet (add one in its folder.yaml).`),
      how,
    ]);
  }
  const intro = joinLines([head, description]);
  if (ns.documents.length === 0) return intro;
  const separator = ns.level === 1 ? '\n\n' : '\n';
  return `${intro}\n\n${ns.documents.map(renderDocument).join(separator)}`;
}

/** One document entry at its level. */
export function renderDocument(doc: TocDocument): string {
  if (doc.level === 3) return `- [doc ${doc.id}] ${doc.title}`;
  if (doc.level === 2) return `- [doc ${doc.id}] ${doc.title}${doc.summary ? ` — ${doc.summary}` : ''}`;
  const pinned = doc.pinned ? ' (pinned)' : '';
  const count =
    doc.sections === undefined
      ? ` — ${plural(doc.sectionCount, 'section')}; get_toc(document_id="${doc.id}") lists them`
      : '';
  const lines = [`## ${doc.title}  [doc ${doc.id}]${pinned}${count}`];
  if (doc.summary) lines.push(doc.summary);
  if (doc.applyTo && doc.applyTo.length > 0) lines.push(`Applies to: ${doc.applyTo.join(', ')}`);
  for (const section of doc.sections ?? []) lines.push(renderSectionLine(section));
  return lines.join('\n');
}

export function renderSectionLine(section: TocSectionLine): string {
  return `${'  '.repeat(section.depth)}- [${section.id}] ${section.heading}${section.summary ? ` — ${section.summary}` : ''}`;
}

function renderQuery(q: TocQuery): string {
  const scope = q.namespace === undefined ? '' : ` in namespace ${labelOf(q.namespace)}`;
  if (q.matched === 0) {
    return joinLines([
      `# Library map for ${JSON.stringify(q.query)}${scope}: no matching documents`,
      q.description,
      'No ready document matches these words. get_toc() shows the whole map; search_instructions(plan) searches by what you are about to do.',
    ]);
  }
  const blocks = [
    joinLines([
      `# Library map for ${JSON.stringify(q.query)}${scope}: ${plural(q.matched, 'matching document')}, best first`,
      q.description,
    ]),
  ];
  if (q.condensed) {
    const fuller = q.documents.filter((d) => d.level === 1).length;
    const parts = [`the first ${plural(fuller, 'document')} in full`];
    const lines = q.documents.filter((d) => d.level === 2).length;
    if (lines > 0) parts.push(`${lines} as one line`);
    const titles = q.documents.filter((d) => d.level === 3).length;
    if (titles > 0) parts.push(`${titles} as titles`);
    const omitted =
      q.omitted > 0 ? `; ${q.omitted} more matched and are not shown (add words to the query to narrow it)` : '';
    blocks.push(`Condensed (at most ${budgetWords}): ${parts.join(', ')}${omitted}.`);
  }
  let previous: number | undefined;
  for (const doc of q.documents) {
    // Full entries stand apart; one-line and title entries run together as a list.
    if (doc.level > 1 && previous !== undefined && previous > 1)
      blocks[blocks.length - 1] += `\n${renderDocument(doc)}`;
    else blocks.push(renderDocument(doc));
    previous = doc.level;
  }
  return blocks.join('\n\n');
}

function renderListing(l: TocDocumentListing): string {
  const d = l.document;
  const facts = [`Namespace: ${labelOf(d.namespace)}`, `format: ${d.format}`];
  if (d.applyTo && d.applyTo.length > 0) facts.push(`applies to: ${d.applyTo.join(', ')}`);
  if (d.pinned) facts.push('pinned');
  const head = joinLines([
    `# ${d.title}  [doc ${d.id}]: ${plural(d.sectionCount, 'section')}`,
    d.summary,
    facts.join(' · '),
  ]);
  const blocks = [head];
  if (l.query !== undefined) {
    blocks.push(
      `Sections matching ${JSON.stringify(l.query)} come first, best first (${l.matchedSections ?? 0} matched); the rest follow in document order.`,
    );
  }
  const lines = l.sections.map(renderSectionLine);
  if (l.omittedSections > 0) {
    lines.push(
      `… ${plural(l.omittedSections, 'more section')} not listed to stay within ${budgetWords}; search_instructions(plan) finds the ones you need.`,
    );
  }
  if (lines.length > 0) blocks.push(lines.join('\n'));
  return blocks.join('\n\n');
}

function joinLines(lines: readonly (string | undefined)[]): string {
  return lines.filter((l): l is string => l !== undefined && l !== '').join('\n');
}

function labelOf(namespace: string): string {
  return JSON.stringify(namespace === '' ? '.' : namespace);
}

export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
