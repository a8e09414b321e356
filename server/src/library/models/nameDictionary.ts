/**
 * The names a workspace knows and what each one is: the deterministic fallback of the planner
 * (which names a task mentions) and of the judge's "different competitor, product, market or
 * audience" question (docs/ARCHITECTURE.md, "Model steps are optional").
 *
 * - Catalog: every entity's name and title, of the entity's kind (`component`, `api`, `system`...).
 * - Library: a page is about one name of a kind when its type, a tag or one of its folders is a
 *   kind word (`competitor`, `battlecards`, `personas`, `market`...; see {@link KIND_WORDS}). Its
 *   name is the tag that its title holds (tags `[competitor, taxjar]` on "TaxJar battlecard" name
 *   TaxJar), else the title without the words its same-kind siblings share and without kind words
 *   ("Avalara battlecard" beside "TaxJar battlecard" is Avalara). A page may add `aliases:` in its
 *   front matter ("finance buyer" for the CFO persona).
 *
 * Names are matched as whole word sequences, case-insensitively, `-`, `_` and spaces alike
 * (namedEntities.ts `normalizeName`), longest first.
 */
import { type CatalogEntity, type Doc, type Section, normalizeName, STOP_WORDS } from '../../engine';
import { LastAnswer } from '../view/lastAnswer';

/** Library kinds: the judge's "different ..." question is asked about these. */
export type LibraryNameKind = 'competitor' | 'product' | 'persona' | 'market';

/** Words that mark a page (by type, tag or folder) as about one name of a kind. */
export const KIND_WORDS: Readonly<Record<string, LibraryNameKind>> = {
  competitor: 'competitor',
  competitors: 'competitor',
  competition: 'competitor',
  battlecard: 'competitor',
  battlecards: 'competitor',
  rival: 'competitor',
  rivals: 'competitor',
  product: 'product',
  products: 'product',
  persona: 'persona',
  personas: 'persona',
  audience: 'persona',
  audiences: 'persona',
  buyer: 'persona',
  buyers: 'persona',
  market: 'market',
  markets: 'market',
  segment: 'market',
  segments: 'market',
  industry: 'market',
  industries: 'market',
  vertical: 'market',
  verticals: 'market',
};

/** Names shorter than this (after normalisation) are never matched: too many false hits. Default 3. */
export const MIN_NAME_CHARS = 3;

export interface NameEntry {
  /** As written in the catalog or the page title. */
  text: string;
  /** Normalised phrase (`normalizeName`). */
  key: string;
  /** `competitor`, `product`, `persona`, `market`, or a catalog kind (`component`, `api`...). */
  kind: string;
  source: 'catalog' | 'library';
  /** Catalog: the entity ref. */
  ref?: string;
  /** Library: the pages about this name. */
  docIds: string[];
}

/** A name found in a text. */
export interface NameMention {
  entry: NameEntry;
  /** The normalised words that matched. */
  phrase: string;
}

export class NameDictionary {
  private readonly byPhrase = new Map<string, NameEntry[]>();
  private readonly pageNames = new Map<string, NameEntry[]>();
  private maxWords = 1;
  private readonly sectionCache = new WeakMap<Section, NameMention[]>();

  constructor(entries: readonly NameEntry[]) {
    for (const entry of entries) this.add(entry);
  }

  /** Every entry, in insertion order. */
  entries(): NameEntry[] {
    const seen = new Set<NameEntry>();
    for (const list of this.byPhrase.values()) for (const e of list) seen.add(e);
    return [...seen];
  }

  /** The library names a page is about (empty for most pages). */
  namesOfPage(docId: string): readonly NameEntry[] {
    return this.pageNames.get(docId) ?? [];
  }

  /** Names in `text`, first mention first, each entry once. */
  find(text: string): NameMention[] {
    const words = normalizeName(text).split(' ').filter(Boolean);
    const found: NameMention[] = [];
    const seen = new Set<NameEntry>();
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(this.maxWords, words.length - i); n >= 1; n--) {
        const phrase = n === 1 ? words[i] : words.slice(i, i + n).join(' ');
        const list = this.byPhrase.get(phrase);
        if (!list) continue;
        for (const entry of list) {
          if (seen.has(entry)) continue;
          seen.add(entry);
          found.push({ entry, phrase });
        }
        i += n - 1;
        break;
      }
    }
    return found;
  }

  /** Names in a section's heading path and text (cached per section object). */
  inSection(section: Section): NameMention[] {
    let found = this.sectionCache.get(section);
    if (!found) {
      found = this.find(`${section.headingPath.join('\n')}\n${section.text}`);
      this.sectionCache.set(section, found);
    }
    return found;
  }

  private add(entry: NameEntry): void {
    if (entry.key.length < MIN_NAME_CHARS || STOP_WORDS.has(entry.key)) return;
    let list = this.byPhrase.get(entry.key);
    if (!list) this.byPhrase.set(entry.key, (list = []));
    const same = list.find((e) => e.kind === entry.kind && e.source === entry.source);
    if (same) {
      for (const id of entry.docIds) if (!same.docIds.includes(id)) same.docIds.push(id);
      entry = same;
    } else {
      list.push(entry);
    }
    this.maxWords = Math.max(this.maxWords, entry.key.split(' ').length);
    for (const id of entry.docIds) {
      let names = this.pageNames.get(id);
      if (!names) this.pageNames.set(id, (names = []));
      if (!names.includes(entry)) names.push(entry);
    }
  }
}

/** The kind a library page is about, from its type, tags or folders; undefined for most pages. */
export function pageKind(doc: Doc): LibraryNameKind | undefined {
  const library = doc.library;
  if (!library) return undefined;
  const words = [library.type ?? '', ...library.tags, ...doc.path.split('/').slice(0, -1)].map((w) => w.toLowerCase());
  for (const word of words) if (KIND_WORDS[word]) return KIND_WORDS[word];
  return undefined;
}

/**
 * The dictionary of a catalog and a set of (ready) library pages. The same entities and pages
 * (the same objects, in the same order, as a new index state after a docs edit holds them) give
 * the last dictionary again, with the names it has already found in each section: finding them
 * again in every library section was about 0.15 s of the first get_context on each new state at
 * 100k sections.
 */
export function buildNameDictionary(entities: readonly CatalogEntity[], docs: readonly Doc[]): NameDictionary {
  return lastDictionary.get([entities, docs], () => dictionaryOf(entities, docs));
}

const lastDictionary = new LastAnswer<NameDictionary>();

function dictionaryOf(entities: readonly CatalogEntity[], docs: readonly Doc[]): NameDictionary {
  const entries: NameEntry[] = [];
  for (const entity of entities) {
    for (const text of new Set([entity.name, entity.title ?? ''])) {
      const key = normalizeName(text);
      if (key)
        entries.push({ text, key, kind: entity.kind.toLowerCase(), source: 'catalog', ref: entity.ref, docIds: [] });
    }
  }
  const kindPages = new Map<string, { doc: Doc; kind: LibraryNameKind }[]>();
  for (const doc of docs) {
    const kind = pageKind(doc);
    if (!kind) continue;
    const group = `${kind}\u0000${doc.path.slice(0, doc.path.lastIndexOf('/') + 1)}`;
    let list = kindPages.get(group);
    if (!list) kindPages.set(group, (list = []));
    list.push({ doc, kind });
  }
  for (const pages of kindPages.values()) {
    // Words two or more sibling titles share ("battlecard", "persona") are not names.
    const titleWordCount = new Map<string, number>();
    for (const { doc } of pages)
      for (const word of new Set(normalizeName(doc.title).split(' ')))
        titleWordCount.set(word, (titleWordCount.get(word) ?? 0) + 1);
    for (const { doc, kind } of pages) {
      for (const text of pageNameTexts(doc, pages.length > 1 ? titleWordCount : new Map())) {
        const key = normalizeName(text);
        if (key) entries.push({ text, key, kind, source: 'library', docIds: [doc.id] });
      }
    }
  }
  return new NameDictionary(entries);
}

/** The names a kind page is about: a tag its title holds, else its distinctive title words; plus aliases. */
function pageNameTexts(doc: Doc, shared: ReadonlyMap<string, number>): string[] {
  const title = normalizeName(doc.title);
  const titleWords = title.split(' ');
  const names: string[] = [];
  for (const tag of doc.library!.tags) {
    const key = normalizeName(tag);
    if (!key || KIND_WORDS[key] || !containsPhrase(titleWords, key.split(' '))) continue;
    names.push(surfaceIn(doc.title, key) ?? tag);
  }
  if (names.length === 0) {
    const kept = titleWords.filter((w) => w !== '' && !KIND_WORDS[w] && !STOP_WORDS.has(w) && (shared.get(w) ?? 0) < 2);
    if (kept.length > 0 && kept.length <= 4) names.push(surfaceIn(doc.title, kept.join(' ')) ?? kept.join(' '));
  }
  const aliases = doc.frontMatter.aliases;
  const list = Array.isArray(aliases) ? aliases : typeof aliases === 'string' ? aliases.split(',') : [];
  for (const alias of list) if (typeof alias === 'string' && alias.trim() !== '') names.push(alias.trim());
  return names;
}

function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= words.length; i++) {
    if (phrase.every((p, j) => words[i + j] === p)) return true;
  }
  return false;
}

/** The words of `title` that normalise to `key`, with their case ("TaxJar"), when they are contiguous. */
function surfaceIn(title: string, key: string): string | undefined {
  const tokens = title.split(/\s+/).filter(Boolean);
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j <= tokens.length; j++) {
      const text = tokens.slice(i, j).join(' ');
      if (normalizeName(text) === key) return text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    }
  }
  return undefined;
}
