/**
 * `get_toc` (docs/ARCHITECTURE.md, the library tools' contract, "The table of contents" and "Large namespaces"): the map of the ready
 * library documents, kept within {@link TOC_TOKEN_BUDGET} tokens.
 *
 * - Whole map (or one namespace): every namespace starts in full (level 1). While the text is over
 *   budget, the namespace whose block is largest drops one level (2 one line per document, 3
 *   titles only, 4 an overview), so a namespace of hundreds of documents condenses while a small
 *   one next to it stays in full. The map says what was condensed.
 * - Query: the documents that best match, best first (the same ranking as
 *   `search_instructions`): the first {@link TOC_QUERY_FULL_DOCUMENTS} in full, then one line
 *   each up to {@link TOC_QUERY_MAX_DOCUMENTS} (titles only if the budget runs short), and the
 *   rest counted.
 * - One document: its sections with ids and summaries (matching sections first when a query is
 *   given); summaries are dropped, then sections counted, when over budget.
 */
import { type Doc, estimateTokens } from '../../engine';
import { TOC_INLINE_SECTIONS, TOC_QUERY_FULL_DOCUMENTS, TOC_QUERY_MAX_DOCUMENTS, TOC_TOKEN_BUDGET } from './constants';
import { isPinned, shownId, type LibraryView } from './libraryView';
import { namespaceLabel, type NamespaceInfo } from './namespaces';
import type { LibraryRanking } from './ranking';
import { documentSummary, sectionHeading, sectionSummaryLine } from './summaries';
import {
  renderDocument,
  renderNamespace,
  renderToc,
  type TocDocument,
  type TocDocumentListing,
  type TocLevel,
  type TocMap,
  type TocNamespace,
  type TocQuery,
  type TocSectionLine,
} from './tocRender';

/** Room kept for the condensed note of a query map, in characters. */
const QUERY_NOTE_RESERVE = 400;

/** The map of the whole library, or of one namespace (`namespace` is its name, '' for the top). */
export function buildTocMap(view: LibraryView, options: { namespace?: string; budget?: number } = {}): TocMap {
  const budget = options.budget ?? TOC_TOKEN_BUDGET;
  // The map depends only on the view, the namespace and the budget: build it once per state.
  let cached = mapCache.get(view);
  if (!cached) mapCache.set(view, (cached = new Map()));
  const key = `${options.namespace ?? '\u0000all'}\u0000${budget}`;
  const hit = cached.get(key);
  if (hit) return structuredClone(hit);
  const map = planMap(view, options.namespace, budget);
  cached.set(key, map);
  return structuredClone(map);
}

const mapCache = new WeakMap<LibraryView, Map<string, TocMap>>();

function planMap(view: LibraryView, namespace: string | undefined, budget: number): TocMap {
  const namespaces = namespace === undefined ? view.namespaces : view.namespaces.filter((n) => n.name === namespace);
  const docsOf = groupByNamespace(view);
  const cache = new Map<string, string>();
  const blockOf = (ns: TocNamespace) => {
    const key = `${ns.name}\u0000${ns.level}`;
    let text = cache.get(key);
    if (text === undefined) {
      text = renderNamespace(ns, namespace !== undefined);
      cache.set(key, text);
    }
    return text;
  };
  const blocks = namespaces.map((info) => namespaceAt(view, info, docsOf.get(info.name) ?? [], 1));
  const headed = namespace === undefined ? view.namespaceByName.get('') : namespaces[0];
  const map: TocMap = {
    mode: 'map',
    ...(namespace !== undefined ? { namespace } : {}),
    ...(headed?.description ? { description: headed.description } : {}),
    documentCount: namespaces.reduce((n, ns) => n + ns.documentCount, 0),
    namespaces: blocks,
    condensed: false,
    tokens: 0,
    budget,
  };
  for (;;) {
    map.condensed = blocks.some((b) => b.level > 1);
    map.tokens = estimateTokens(renderToc(map));
    if (map.tokens <= budget) break;
    // Condense the largest block that can still condense; ties by namespace order.
    let widest = -1;
    for (let i = 0; i < blocks.length; i++) {
      if (blocks[i].level === 4) continue;
      if (widest < 0 || blockOf(blocks[i]).length > blockOf(blocks[widest]).length) widest = i;
    }
    if (widest < 0) break; // every namespace is an overview already: nothing shorter to show
    const info = namespaces[widest];
    blocks[widest] = namespaceAt(view, info, docsOf.get(info.name) ?? [], (blocks[widest].level + 1) as TocLevel);
  }
  return map;
}

/** The documents that best match `query`, best first, within the budget. */
export function buildTocQuery(
  view: LibraryView,
  ranking: LibraryRanking,
  options: { namespace?: string; budget?: number } = {},
): TocQuery {
  const budget = options.budget ?? TOC_TOKEN_BUDGET;
  const info = view.namespaceByName.get(options.namespace ?? '');
  const result: TocQuery = {
    mode: 'query',
    query: ranking.plan,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    ...(info?.description ? { description: info.description } : {}),
    matched: ranking.documents.length,
    documents: [],
    omitted: 0,
    condensed: false,
    tokens: 0,
    budget,
  };
  let room = budget * 4 - renderToc(result).length - QUERY_NOTE_RESERVE;
  let level: 1 | 2 | 3 = 1;
  for (const ranked of ranking.documents) {
    const shown = result.documents.length;
    if (shown >= TOC_QUERY_MAX_DOCUMENTS) break;
    if (shown >= TOC_QUERY_FULL_DOCUMENTS && level === 1) level = 2;
    let entry: TocDocument | undefined;
    while (level <= 3) {
      const candidate = documentEntry(view, ranked.doc, level);
      const size = renderDocument(candidate).length + 2;
      if (size <= room) {
        entry = candidate;
        room -= size;
        break;
      }
      if (level === 3) break;
      level = (level + 1) as 2 | 3;
    }
    if (!entry) break;
    result.documents.push(entry);
  }
  result.omitted = result.matched - result.documents.length;
  result.condensed = result.omitted > 0 || result.documents.some((d) => d.level > 1);
  result.tokens = estimateTokens(renderToc(result));
  return result;
}

/** One document's sections; with a ranking, its matched sections first, best first. */
export function buildTocDocument(
  view: LibraryView,
  doc: Doc,
  options: { ranking?: LibraryRanking; budget?: number } = {},
): TocDocumentListing {
  const budget = options.budget ?? TOC_TOKEN_BUDGET;
  const entry = documentEntry(view, doc, 1);
  delete entry.sections;
  const lines = sectionLines(view, doc);
  let ordered = lines;
  let matchedSections: number | undefined;
  if (options.ranking) {
    const rank = new Map(options.ranking.sections.map((s, i) => [s.entry.section.id, i]));
    // Matched sections by rank, then the others in document order (lines[i] is doc.sections[i]).
    const order = lines.map((line, position) => ({
      line,
      position,
      rank: rank.get(doc.sections[position].id) ?? Infinity,
    }));
    order.sort((a, b) => a.rank - b.rank || a.position - b.position);
    ordered = order.map((x) => x.line);
    matchedSections = doc.sections.filter((s) => rank.has(s.id)).length;
  }
  const listing: TocDocumentListing = {
    mode: 'document',
    document: entry,
    ...(options.ranking ? { query: options.ranking.plan, matchedSections } : {}),
    sections: ordered,
    omittedSections: 0,
    condensed: false,
    tokens: 0,
    budget,
  };
  listing.tokens = estimateTokens(renderToc(listing));
  if (listing.tokens <= budget) return listing;
  listing.condensed = true;
  listing.sections = ordered.map(({ summary: _summary, ...rest }) => rest);
  listing.tokens = estimateTokens(renderToc(listing));
  while (listing.tokens > budget && listing.sections.length > 0) {
    // Drop from the end in steps of a tenth, then recount (a few passes even for 1,000 sections).
    const drop = Math.max(1, Math.ceil(listing.sections.length / 10));
    listing.sections = listing.sections.slice(0, listing.sections.length - drop);
    listing.omittedSections = ordered.length - listing.sections.length;
    listing.tokens = estimateTokens(renderToc(listing));
  }
  return listing;
}

function namespaceAt(view: LibraryView, info: NamespaceInfo, docs: readonly Doc[], level: TocLevel): TocNamespace {
  return {
    name: info.name,
    label: namespaceLabel(info.name),
    ...(info.description ? { description: info.description } : {}),
    documentCount: info.documentCount,
    profile: info.profile,
    level,
    documents: level === 4 ? [] : docs.map((d) => documentEntry(view, d, level)),
  };
}

/** A document's map entry at `level` (1..3). */
export function documentEntry(view: LibraryView, doc: Doc, level: 1 | 2 | 3): TocDocument {
  const library = doc.library!;
  const entry: TocDocument = {
    id: shownId(view, doc.id),
    title: doc.title,
    path: doc.path,
    namespace: library.namespace,
    level,
    sectionCount: doc.sections.length,
    pinned: isPinned(doc),
    format: doc.format,
  };
  if (level <= 2) entry.summary = documentSummary(doc);
  if (level === 1) {
    if (library.applyTo && library.applyTo.length > 0) entry.applyTo = [...library.applyTo];
    if (doc.sections.length <= TOC_INLINE_SECTIONS) entry.sections = sectionLines(view, doc);
  }
  return entry;
}

function sectionLines(view: LibraryView, doc: Doc): TocSectionLine[] {
  const top = Math.min(...doc.sections.map((s) => s.level || 1));
  const docSummary = documentSummary(doc);
  return doc.sections.map((section) => {
    const line: TocSectionLine = {
      id: shownId(view, section.id),
      heading: sectionHeading(section, doc),
      depth: Math.max(0, (section.level || top) - top),
    };
    const summary = sectionSummaryLine(section);
    // A derived document summary is often this very sentence; saying it twice costs tokens.
    if (summary && summary !== docSummary) line.summary = summary;
    return line;
  });
}

function groupByNamespace(view: LibraryView): Map<string, Doc[]> {
  const groups = new Map<string, Doc[]>();
  for (const doc of view.docs) {
    const name = doc.library!.namespace;
    let list = groups.get(name);
    if (!list) groups.set(name, (list = []));
    list.push(doc);
  }
  return groups;
}
