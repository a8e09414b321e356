/**
 * When a document's title counts extra in a search (docs/ARCHITECTURE.md, the library tools' contract): only when the plan names it
 * specifically, with a phrase from the title or two of its words that few other titles in the
 * namespace share.
 *
 * - A title's words are its analysed units (stop words dropped, stemmed; an identifier is one
 *   unit, named by its whole form or by all of its parts).
 * - The plan names a title when it holds at least two of its words, or all of them for a
 *   one-word title; one common word alone ("card", "account") never does.
 * - The naming is specific when at most `max(3, 5% of the namespace's titles)` OTHER titles of
 *   the namespace hold every word the plan matched (see constants.ts).
 * - The bonus's strength is the share of the title's information the plan covers: matched words
 *   over all words, each weighted by its inverse title frequency in the namespace,
 *   `ln((N + 1) / df)`. "Gold Rewards Card" covers all of the Gold Rewards Card's distinctive
 *   words but not "Business" of the Business Gold Rewards Card, so the first gets the larger
 *   bonus; a word in every title weighs almost nothing.
 */
import { type Doc, analyzeQuery, termSet } from '../../engine';
import { TITLE_FEW_SHARED_MIN, TITLE_FEW_SHARED_SHARE } from './constants';

interface TitleUnit {
  key: string;
  parts: string[];
}

interface NamespaceTitles {
  size: number;
  /** title term -> ids of the namespace's documents whose title holds it */
  docsByTerm: Map<string, string[]>;
}

export interface TitleIndex {
  units: ReadonlyMap<string, readonly TitleUnit[]>;
  namespaceOf: ReadonlyMap<string, string>;
  namespaces: ReadonlyMap<string, NamespaceTitles>;
}

export interface TitleMatch {
  /** 0..1: the share of the title's (weighted) words the plan names. */
  strength: number;
  /** The title words the plan matched (index terms). */
  matched: string[];
  /** Other titles of the namespace holding every matched word. */
  shared: number;
}

/** Title statistics of the ready library documents, per namespace. */
export function buildTitleIndex(docs: readonly Doc[]): TitleIndex {
  const units = new Map<string, TitleUnit[]>();
  const namespaceOf = new Map<string, string>();
  const namespaces = new Map<string, NamespaceTitles>();
  for (const doc of docs) {
    const namespace = doc.library?.namespace ?? '';
    namespaceOf.set(doc.id, namespace);
    units.set(
      doc.id,
      analyzeQuery(doc.title).map((u) => ({ key: u.key, parts: u.parts })),
    );
    let titles = namespaces.get(namespace);
    if (!titles) {
      titles = { size: 0, docsByTerm: new Map() };
      namespaces.set(namespace, titles);
    }
    titles.size++;
    for (const term of termSet(doc.title)) {
      let list = titles.docsByTerm.get(term);
      if (!list) titles.docsByTerm.set(term, (list = []));
      list.push(doc.id);
    }
  }
  return { units, namespaceOf, namespaces };
}

/** Most other titles that may share a naming for it to stay specific, in a namespace of `size` titles. */
export function fewSharedLimit(size: number): number {
  return Math.max(TITLE_FEW_SHARED_MIN, Math.ceil(TITLE_FEW_SHARED_SHARE * size));
}

/**
 * The documents whose titles the plan names specifically, with the strength of each naming.
 * `planTerms` is the plan's term set (`termSet(plan)`).
 */
export function titleMatches(index: TitleIndex, planTerms: ReadonlySet<string>): Map<string, TitleMatch> {
  const found = new Map<string, TitleMatch>();
  // Many titles match the same words ("rewards card"); count each combination once per namespace.
  const sharing = new Map<string, number>();
  for (const [docId, units] of index.units) {
    if (units.length === 0) continue;
    const matchedUnits = units.filter(
      (u) => planTerms.has(u.key) || (u.parts.length > 1 && u.parts.every((p) => planTerms.has(p))),
    );
    if (matchedUnits.length === 0) continue;
    if (matchedUnits.length < 2 && matchedUnits.length < units.length) continue;
    const namespace = index.namespaceOf.get(docId)!;
    const titles = index.namespaces.get(namespace)!;
    const matched = matchedUnits.map((u) => u.key);
    const key = `${namespace}\u0000${matched.join('\u0000')}`;
    let holding = sharing.get(key);
    if (holding === undefined) sharing.set(key, (holding = countSharing(titles, matchedUnits)));
    const shared = holding - 1;
    if (shared > fewSharedLimit(titles.size)) continue;
    const weight = (u: TitleUnit) =>
      Math.log((titles.size + 1) / Math.max(1, titles.docsByTerm.get(u.key)?.length ?? 1));
    const total = units.reduce((sum, u) => sum + weight(u), 0);
    const covered = matchedUnits.reduce((sum, u) => sum + weight(u), 0);
    found.set(docId, { strength: total > 0 ? covered / total : 0, matched, shared });
  }
  return found;
}

/** Titles of the namespace (this one included) holding every matched unit. */
function countSharing(titles: NamespaceTitles, units: readonly TitleUnit[]): number {
  const lists = units.map((u) => titles.docsByTerm.get(u.key) ?? unitByParts(titles, u));
  lists.sort((a, b) => a.length - b.length);
  let current = new Set(lists[0]);
  for (let i = 1; i < lists.length && current.size > 0; i++) {
    const next = new Set(lists[i]);
    current = new Set([...current].filter((id) => next.has(id)));
  }
  return current.size;
}

/** Documents whose title holds every part of an identifier unit (it was matched by its parts). */
function unitByParts(titles: NamespaceTitles, unit: TitleUnit): string[] {
  if (unit.parts.length === 0) return [];
  let current = new Set(titles.docsByTerm.get(unit.parts[0]) ?? []);
  for (const part of unit.parts.slice(1)) {
    const next = new Set(titles.docsByTerm.get(part) ?? []);
    current = new Set([...current].filter((id) => next.has(id)));
  }
  return [...current];
}
