/**
 * The library as the tools see it on one day: the ready documents of one index state in map
 * order, their sections, namespaces, title statistics and printed ids.
 *
 * Built once per (state, day) and cached on the state object, so every call on an unchanged
 * index reuses it; a new state (a re-index) or a new day (expiry) builds a new one.
 */
import { resolveIdPrefix, type IdLookup, type IndexState, type Doc, type Section } from '../../engine';
import { displayIds } from './displayIds';
import { buildNamespaces, compare, naturalCompare, type NamespaceInfo } from './namespaces';
import { hiddenReason, type HiddenReason } from './readiness';
import { buildTitleIndex, type TitleIndex } from './titleSpecificity';

export interface LibrarySection {
  section: Section;
  doc: Doc;
  /** Postings ordinal of the section. */
  ordinal: number;
  /** 0-based position in its document. */
  position: number;
  /** 0-based position in `LibraryView.sections` (map order): the last tie-breaker of every ranking. */
  order: number;
}

export interface LibraryView {
  state: IndexState;
  /** `YYYY-MM-DD` the view was built for (expiry). */
  today: string;
  /** Ready documents: by namespace (top first), then title (namespaces.ts `naturalCompare`), then path. */
  docs: readonly Doc[];
  docById: ReadonlyMap<string, Doc>;
  /** Every section of the ready documents, documents in `docs` order, sections in document order. */
  sections: readonly LibrarySection[];
  sectionById: ReadonlyMap<string, LibrarySection>;
  sectionByOrdinal: ReadonlyMap<number, LibrarySection>;
  namespaces: readonly NamespaceInfo[];
  namespaceByName: ReadonlyMap<string, NamespaceInfo>;
  titles: TitleIndex;
  /** Ready pinned documents ({@link isPinned}), in `docs` order. */
  pinned: readonly Doc[];
  /** Full id -> printed id, for documents and sections. */
  shownIds: ReadonlyMap<string, string>;
}

const views = new WeakMap<IndexState, LibraryView>();

/** The library view of `state` on `today` (`YYYY-MM-DD`). */
export function libraryView(state: IndexState, today: string): LibraryView {
  const cached = views.get(state);
  if (cached && cached.today === today) return cached;
  const view = buildView(state, today);
  views.set(state, view);
  return view;
}

function buildView(state: IndexState, today: string): LibraryView {
  const ready: Doc[] = [];
  for (const doc of state.docs.values()) {
    if (doc.sourceKind === 'library' && hiddenReason(doc, today) === null) ready.push(doc);
  }
  const namespaces = buildNamespaces(state.libraryFolders, ready);
  const nsOrder = new Map(namespaces.map((n, i) => [n.name, i]));
  ready.sort(
    (a, b) =>
      (nsOrder.get(a.library!.namespace) ?? 0) - (nsOrder.get(b.library!.namespace) ?? 0) ||
      naturalCompare(a.title, b.title) ||
      compare(a.path, b.path),
  );
  const sections: LibrarySection[] = [];
  const sectionById = new Map<string, LibrarySection>();
  const sectionByOrdinal = new Map<number, LibrarySection>();
  for (const doc of ready) {
    doc.sections.forEach((section, position) => {
      const ordinal = state.sectionOrdinalById.get(section.id);
      if (ordinal === undefined) return;
      const entry: LibrarySection = { section, doc, ordinal, position, order: sections.length };
      sections.push(entry);
      sectionById.set(section.id, entry);
      sectionByOrdinal.set(ordinal, entry);
    });
  }
  return {
    state,
    today,
    docs: ready,
    docById: new Map(ready.map((d) => [d.id, d])),
    sections,
    sectionById,
    sectionByOrdinal,
    namespaces,
    namespaceByName: new Map(namespaces.map((n) => [n.name, n])),
    titles: buildTitleIndex(ready),
    pinned: ready.filter(isPinned),
    shownIds: displayIds([...ready.map((d) => d.id), ...sections.map((s) => s.section.id)]),
  };
}

/**
 * A pinned document: `always_include: true`, or a Cursor rule with `alwaysApply: true` (the same
 * promise in Cursor's format: the rule is in every request).
 */
export function isPinned(doc: Doc): boolean {
  return doc.library?.alwaysInclude === true || doc.library?.alwaysApply === true;
}

/** The id a tool prints for a document or section of the view. */
export function shownId(view: LibraryView, id: string): string {
  return view.shownIds.get(id) ?? id.slice(0, 8);
}

/** Resolves a printed id, a unique prefix of 4+ characters or a full id among ready documents. */
export function lookupDocument(view: LibraryView, input: string): IdLookup {
  return resolveIdPrefix(input, view.docById.keys());
}

/** Resolves a printed id, a unique prefix of 4+ characters or a full id among ready sections. */
export function lookupSection(view: LibraryView, input: string): IdLookup {
  return resolveIdPrefix(input, view.sectionById.keys());
}

/**
 * Why an id that is not served names something anyway: a draft or expired library document
 * (or one of its sections). Lets a tool say "that page is a draft" instead of "unknown id".
 */
export function hiddenMatch(
  view: LibraryView,
  input: string,
): { doc: Doc; reason: HiddenReason; section?: Section } | null {
  const prefix = input.trim().toLowerCase();
  if (prefix.length < 4 || !/^[0-9a-f]+$/.test(prefix)) return null;
  for (const doc of view.state.docs.values()) {
    if (doc.sourceKind !== 'library') continue;
    const reason = hiddenReason(doc, view.today);
    if (reason === null) continue;
    if (doc.id.startsWith(prefix)) return { doc, reason };
    const section = doc.sections.find((s) => s.id.startsWith(prefix));
    if (section) return { doc, reason, section };
  }
  return null;
}
