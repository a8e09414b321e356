/**
 * What `get_context` precomputes once per library view (one index state on one day) and reuses
 * for every request: the name dictionary, what each page is about, each section's heading-side and body terms, the tag
 * vocabulary, page titles for `[[links]]` and pack entries, and the library's word statistics.
 * Per-section analysis is cached on the section objects themselves (immutable), so a re-index
 * re-analyses only what changed.
 */
import { type Doc, type Section, documentContextText, termSet } from '../../engine';
import type { LibraryView } from '../view/libraryView';
import { sectionBody } from '../view/summaries';
import { folderPhrasings, pagePhrasings, packPhrasings } from '../models/derivedText';
import { buildNameDictionary, type NameDictionary } from '../models/nameDictionary';
import { buildLibrarySubjects, type LibrarySubjects } from './subjects';

export interface SectionTerms {
  /** Terms of the heading path and of the page's title, folder, type and tags. */
  head: ReadonlySet<string>;
  /** Terms of the body (heading line excluded). */
  body: ReadonlySet<string>;
}

export interface ContextIndex {
  view: LibraryView;
  names: NameDictionary;
  /** What each page is about (subjects.ts: its folders, file name, title, tags, description). */
  subjects: LibrarySubjects;
  /** idf of an index term over every indexed section: `ln(1 + (N - df + 0.5) / (df + 0.5))`. */
  idf(term: string): number;
  /**
   * What a word weighs when phrasings of work are compared (phraseMatch.ts): the lower of its
   * section idf and its idf over the library's phrasings (pages' Good-for, questions, folders',
   * packs'), so the verbs every phrasing starts with ("writing", "adding") count little.
   */
  phraseIdf(term: string): number;
  /** Library tag -> its analysed terms. */
  tags: ReadonlyMap<string, ReadonlySet<string>>;
  /** Lower-cased title -> ready pages with it. */
  pagesByTitle: ReadonlyMap<string, readonly Doc[]>;
  /** Page id -> pages whose `[[links]]` name it. */
  linkedFrom: ReadonlyMap<string, readonly Doc[]>;
  /** Share of the library's sections that mention a name (normalised phrase), computed on demand. */
  nameShare(key: string): number;
}

const indexes = new WeakMap<LibraryView, ContextIndex>();
const sectionTermCache = new WeakMap<Section, SectionTerms>();
const docContextCache = new WeakMap<Doc, ReadonlySet<string>>();

export function contextIndex(view: LibraryView): ContextIndex {
  let index = indexes.get(view);
  if (!index) {
    index = buildIndex(view);
    indexes.set(view, index);
  }
  return index;
}

/** A section's heading-side and body terms (cached per section). */
export function sectionTermsOf(section: Section, doc: Doc): SectionTerms {
  let terms = sectionTermCache.get(section);
  if (!terms) {
    let context = docContextCache.get(doc);
    if (!context) docContextCache.set(doc, (context = termSet(documentContextText(doc))));
    const head = new Set(context);
    for (const t of termSet(section.headingPath.join('\n'))) head.add(t);
    terms = { head, body: termSet(sectionBody(section)) };
    sectionTermCache.set(section, terms);
  }
  return terms;
}

function buildIndex(view: LibraryView): ContextIndex {
  const lexical = view.state.lexical;
  const n = Math.max(1, lexical.sectionCount);
  const idfCache = new Map<string, number>();
  const idf = (term: string): number => {
    let value = idfCache.get(term);
    if (value === undefined) {
      const df = Math.min(lexical.df(term), n);
      value = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      idfCache.set(term, value);
    }
    return value;
  };

  const phrasings: string[] = [];
  for (const doc of view.docs) phrasings.push(...pagePhrasings(doc).phrasings, ...doc.library!.questions);
  for (const folder of view.state.libraryFolders) phrasings.push(...folderPhrasings(folder, []));
  for (const pack of view.state.packs) phrasings.push(...packPhrasings(pack));
  const phraseDf = new Map<string, number>();
  for (const text of phrasings) for (const t of termSet(text)) phraseDf.set(t, (phraseDf.get(t) ?? 0) + 1);
  const phraseIdfCache = new Map<string, number>();
  const phraseIdf = (term: string): number => {
    let value = phraseIdfCache.get(term);
    if (value === undefined) {
      const m = Math.max(1, phrasings.length);
      const df = Math.min(phraseDf.get(term) ?? 0, m);
      value = Math.min(idf(term), Math.log(1 + (m - df + 0.5) / (df + 0.5)));
      phraseIdfCache.set(term, value);
    }
    return value;
  };

  const tags = new Map<string, ReadonlySet<string>>();
  const pagesByTitle = new Map<string, Doc[]>();
  for (const doc of view.docs) {
    for (const tag of doc.library!.tags) if (!tags.has(tag)) tags.set(tag, termSet(tag.replace(/[-_]/g, ' ')));
    const key = doc.title.trim().toLowerCase();
    const list = pagesByTitle.get(key);
    if (list) list.push(doc);
    else pagesByTitle.set(key, [doc]);
  }
  const linkedFrom = new Map<string, Doc[]>();
  for (const doc of view.docs) {
    for (const target of doc.library!.links) {
      for (const linked of pagesByTitle.get(target.trim().toLowerCase()) ?? []) {
        if (linked.id === doc.id) continue;
        const list = linkedFrom.get(linked.id);
        if (!list) linkedFrom.set(linked.id, [doc]);
        else if (!list.includes(doc)) list.push(doc);
      }
    }
  }

  const names = buildNameDictionary(view.state.entities, view.docs);
  const shares = new Map<string, number>();
  const nameShare = (key: string): number => {
    let share = shares.get(key);
    if (share === undefined) {
      let count = 0;
      for (const entry of view.sections) if (names.inSection(entry.section).some((m) => m.entry.key === key)) count++;
      share = view.sections.length > 0 ? count / view.sections.length : 0;
      shares.set(key, share);
    }
    return share;
  };
  // Rules come whole anyway and are nobody's rival.
  return {
    view,
    names,
    subjects: buildLibrarySubjects(view.docs.filter((d) => d.library?.type !== 'rule')),
    idf,
    phraseIdf,
    tags,
    pagesByTitle,
    linkedFrom,
    nameShare,
  };
}

/**
 * The ready page a pack entry or `[[link]]` names: a title (case-insensitive) or a
 * workspace-relative path (`.context/rules/x.md`, with or without the `.context/` prefix).
 */
export function resolvePageRef(index: ContextIndex, ref: string): Doc | undefined {
  const byTitle = index.pagesByTitle.get(ref.trim().toLowerCase());
  if (byTitle && byTitle.length > 0) return byTitle[0];
  const path = ref.trim().replace(/^\.\//, '');
  return index.view.docs.find(
    (d) => d.path === path || d.path.endsWith(`/${path}`) || d.path.endsWith(`.context/${path}`),
  );
}
