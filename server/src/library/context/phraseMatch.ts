/**
 * Comparing a task with short phrasings of work (Good-for phrasings of pages, folders and packs;
 * the questions sections answer). A different comparison from searching content: "writing a cold
 * email to a finance buyer" is close to "cold email to a CFO switching from Avalara" although the
 * page it describes may never say "CFO".
 *
 * Without embeddings the comparison is on words: the cosine of the two texts' term sets, each
 * term weighted by its idf (contextIndex.ts `phraseIdf`: words common in the sections or in the
 * library's phrasings, like the "writing" most phrasings start with, count little). With a
 * {@link TextMeaning} hook the meaning similarity is taken when it is higher.
 *
 * The task is compared as written, and each of the plan's facet searches of two or more words
 * at {@link FACET_WEIGHT} of its similarity, so "cold email" in a long task still finds
 * "writing a cold email"; one-word facets never count (one shared word is no match).
 */
import { termSet, type TextMeaning } from '../../engine';
import type { SignalBars } from './constants';
import type { ContextIndex } from './contextIndex';

/** What a facet search's similarity to a phrasing counts. Range 0..1; default 0.85. */
export const FACET_WEIGHT = 0.85;

const termCache = new Map<string, ReadonlySet<string>>();
const TERM_CACHE_MAX = 50_000;

/** Terms of a short text (cached by text). */
export function phraseTerms(text: string): ReadonlySet<string> {
  let terms = termCache.get(text);
  if (!terms) {
    if (termCache.size >= TERM_CACHE_MAX) termCache.clear();
    terms = termSet(text);
    termCache.set(text, terms);
  }
  return terms;
}

/** idf-weighted cosine of two term sets, 0..1 (`idf` defaults to the phrasing weights). */
export function termCosine(
  index: ContextIndex,
  a: ReadonlySet<string>,
  b: ReadonlySet<string>,
  idf: (term: string) => number = index.phraseIdf,
): number {
  if (a.size === 0 || b.size === 0) return 0;
  // Hot path (every section's questions, every query): the shared terms first, norms only when there are some.
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const t of small) if (large.has(t)) dot += idf(t) ** 2;
  if (dot === 0) return 0;
  return dot / Math.sqrt(squaredNorm(a, idf) * squaredNorm(b, idf));
}

const norms = new WeakMap<ReadonlySet<string>, WeakMap<(term: string) => number, number>>();

/** Sum of squared idf weights of a term set, cached per set and weighting. */
function squaredNorm(terms: ReadonlySet<string>, idf: (term: string) => number): number {
  let byIdf = norms.get(terms);
  if (!byIdf) norms.set(terms, (byIdf = new WeakMap()));
  let norm = byIdf.get(idf);
  if (norm === undefined) {
    norm = 0;
    for (const t of terms) norm += idf(t) ** 2;
    byIdf.set(idf, norm);
  }
  return norm;
}

export interface PhraseQuery {
  task: string;
  /** The plan's facet searches. */
  facets: readonly string[];
}

export interface PhraseMatch {
  /** Best similarity over the phrasings, 0..1: the higher of `words` and `meaning`. */
  score: number;
  /** The phrasing that scored it ('' when none). */
  phrasing: string;
  /** Best words similarity (idf-weighted term cosine) over the phrasings. */
  words: number;
  /** Best meaning similarity over the phrasings; 0 without embeddings. */
  meaning: number;
}

export type { SignalBars } from './constants';

/** True when `match` clears `bars` on words or on meaning (the two signals differ in scale). */
export function clears(match: PhraseMatch, bars: SignalBars): boolean {
  return match.words >= bars.words || match.meaning >= bars.meaning;
}

/**
 * The best similarity of the query to each list of phrasings (one result per list, in order).
 * One embedding call for all phrasings when meaning is on.
 */
export async function matchPhrasings(
  index: ContextIndex,
  query: PhraseQuery,
  lists: readonly (readonly string[])[],
  meaning?: TextMeaning,
): Promise<PhraseMatch[]> {
  const taskTerms = phraseTerms(query.task);
  const facetTerms = query.facets.map(phraseTerms).filter((t) => t.size >= 2);
  const all = lists.flat();
  let meaningScores: (number | null)[] | null = null;
  if (meaning && all.length > 0) {
    try {
      meaningScores = await meaning.similarities(query.task, all);
    } catch {
      meaningScores = null; // words alone
    }
  }
  const out: PhraseMatch[] = [];
  let offset = 0;
  for (const list of lists) {
    let best: PhraseMatch = { score: 0, phrasing: '', words: 0, meaning: 0 };
    list.forEach((phrasing, i) => {
      const terms = phraseTerms(phrasing);
      let words = termCosine(index, taskTerms, terms);
      for (const facet of facetTerms) words = Math.max(words, FACET_WEIGHT * termCosine(index, facet, terms));
      const m = meaningScores?.[offset + i];
      const meaningScore = typeof m === 'number' ? Math.min(1, Math.max(0, m)) : 0;
      const score = Math.max(words, meaningScore);
      if (score > best.score) best = { ...best, score, phrasing };
      best.words = Math.max(best.words, words);
      best.meaning = Math.max(best.meaning, meaningScore);
    });
    offset += list.length;
    out.push(best);
  }
  return out;
}
