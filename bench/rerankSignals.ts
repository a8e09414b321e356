/**
 * The signals bench/rerankTrials.ts adds to an answer's scores (its module comment says what each
 * measures), each 0..1 per passage (coverage: a difference, -1..1). Every table a signal needs of
 * the corpus (idf over sections or pages, pages' term counts) is made once per corpus.
 */
import { analyzeQuery, forEachTerm, type QueryTerm } from '../server/src/engine/text/analyzer';
import type { ContextOutput } from '../server/src/tools/workspaceContext';
import { tokenize } from './baselines/docsReference';
import { referenceSplit, type DocsCorpus } from './evalDocs';

export type Passage = NonNullable<ContextOutput['passages']>[number];
export const SIGNALS = ['proximity', 'coverage', 'page', 'feedback', 'heading', 'surface'] as const;
export type Signal = (typeof SIGNALS)[number];

/** What shapes a signal (rerankTrials' flags). */
export interface SignalOptions {
  signal: Signal;
  allPairs: boolean;
  window: number;
  pageB: number;
  /** feedback: how many of the first passages give their words, and how many words they give. */
  feedbackPassages: number;
  feedbackTerms: number;
}

const K1 = 1.2;

/** Each index term of `text` -> its positions, counting every term occurrence in order. */
function termPositions(text: string): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  let at = 0;
  forEachTerm(text, (term) => {
    const list = positions.get(term);
    if (list) list.push(at);
    else positions.set(term, [at]);
    at++;
  });
  return positions;
}

/** Whether two sorted position lists hold a pair of distinct positions at most `window` apart. */
function within(a: readonly number[] | undefined, b: readonly number[] | undefined, window: number): boolean {
  if (!a || !b) return false;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] !== b[j] && Math.abs(a[i] - b[j]) <= window) return true;
    if (a[i] < b[j]) i++;
    else j++;
  }
  return false;
}

/** idf (BM25's, never negative) over a list of texts' term sets. */
function idfOver(texts: Iterable<string>): (term: string) => number {
  const df = new Map<string, number>();
  let n = 0;
  for (const text of texts) {
    n++;
    const seen = new Set<string>();
    forEachTerm(text, (t) => seen.add(t));
    for (const t of seen) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return (term) => {
    const f = df.get(term) ?? 0;
    return Math.log(1 + (n - f + 0.5) / (f + 0.5));
  };
}

/** The page signal's table: each page's term counts and length, and idf over pages. */
function pageWords(corpus: DocsCorpus, b: number): (file: string, terms: readonly QueryTerm[]) => number {
  const { sections } = referenceSplit(corpus);
  const pages = new Map<string, string>();
  for (const s of sections) pages.set(s.file, `${pages.get(s.file) ?? s.title}\n${s.heading}\n${s.body}`);
  const counts = new Map<string, { terms: Map<string, number>; length: number }>();
  let total = 0;
  for (const [file, text] of pages) {
    const terms = new Map<string, number>();
    let length = 0;
    forEachTerm(text, (t) => {
      terms.set(t, (terms.get(t) ?? 0) + 1);
      length++;
    });
    counts.set(file, { terms, length });
    total += length;
  }
  const average = total / Math.max(1, pages.size);
  const idf = idfOver(pages.values());
  return (file, terms) => {
    const page = counts.get(file);
    if (!page) return 0;
    const norm = 1 - b + (b * page.length) / average;
    let sum = 0;
    let weight = 0;
    for (const t of terms) {
      const tf = page.terms.get(t.key) ?? 0;
      sum += (idf(t.key) * tf) / (tf + K1 * norm);
      weight += idf(t.key);
    }
    return weight > 0 ? sum / weight : 0;
  };
}

/** Each term of a passage's heading line and text, counted, and the passage's length in terms. */
function passageCounts(passage: Passage): { terms: Map<string, number>; length: number } {
  const terms = new Map<string, number>();
  let length = 0;
  forEachTerm(`${(passage.headingPath ?? []).join(' ')}\n${passage.text ?? ''}`, (t) => {
    terms.set(t, (terms.get(t) ?? 0) + 1);
    length++;
  });
  return { terms, length };
}

/**
 * The feedback signal of every passage of one answer: the words the first `feedbackPassages`
 * passages hold most (relevance model RM1: each passage's share of a term, weighted by the
 * passage's score, times the term's idf so that words every section holds do not lead), the
 * question's own terms left out, the first `feedbackTerms` of them kept; each passage's signal is
 * their BM25 saturation there (k1 1.2, b 0.75 against the answer's mean length), weighted and
 * divided by the weights' sum.
 */
function feedbackSignals(
  options: SignalOptions,
  passages: readonly Passage[],
  terms: readonly QueryTerm[],
  idf: (term: string) => number,
): number[] {
  const counts = passages.map(passageCounts);
  const asked = new Set(terms.flatMap((t) => [t.key, ...t.parts]));
  const model = new Map<string, number>();
  counts.slice(0, options.feedbackPassages).forEach((c, i) => {
    if (c.length === 0) return;
    for (const [t, tf] of c.terms)
      if (!asked.has(t)) model.set(t, (model.get(t) ?? 0) + (passages[i].score * tf * idf(t)) / c.length);
  });
  const expansion = [...model].sort((a, b) => b[1] - a[1]).slice(0, options.feedbackTerms);
  const total = expansion.reduce((s, [, w]) => s + w, 0);
  const average = counts.reduce((s, c) => s + c.length, 0) / Math.max(1, counts.length);
  return counts.map((c) => {
    if (total <= 0) return 0;
    const norm = 1 - 0.75 + (0.75 * c.length) / Math.max(1, average);
    let sum = 0;
    for (const [t, w] of expansion) {
      const tf = c.terms.get(t) ?? 0;
      sum += (w * tf) / (tf + K1 * norm);
    }
    return sum / total;
  });
}

/** idf over texts as the reference BM25 reads them: the words as written, no stems. */
function surfaceIdfOver(texts: Iterable<string>): { idf: (word: string) => number; average: number } {
  const df = new Map<string, number>();
  let n = 0;
  let total = 0;
  for (const text of texts) {
    n++;
    const words = tokenize(text);
    total += words.length;
    for (const w of new Set(words)) df.set(w, (df.get(w) ?? 0) + 1);
  }
  return {
    idf: (word) => Math.log(1 + (n - (df.get(word) ?? 0) + 0.5) / ((df.get(word) ?? 0) + 0.5)),
    average: total / Math.max(1, n),
  };
}

/**
 * The surface signal: the passage's BM25 for the question's words as written (the reference's
 * analyzer: no stems), divided by their idf sum as ours is: credit for holding the asker's own
 * word rather than another of its stem's family.
 */
function surfaceOf(passage: Passage, question: string, surface: ReturnType<typeof surfaceIdfOver>): number {
  const words = tokenize(`${(passage.headingPath ?? []).join(' ')}\n${passage.text ?? ''}`);
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const norm = 1 - 0.75 + (0.75 * words.length) / Math.max(1, surface.average);
  let sum = 0;
  let weight = 0;
  for (const w of new Set(tokenize(question))) {
    const tf = counts.get(w) ?? 0;
    sum += (surface.idf(w) * tf) / (tf + K1 * norm);
    weight += surface.idf(w);
  }
  return weight > 0 ? sum / weight : 0;
}

/**
 * The heading signal: the idf-weighted share of the passage's own heading (the last of its
 * heading path) that the question holds, by term or by an identifier's parts: a section whose
 * heading the question nearly repeats.
 */
function headingOf(passage: Passage, terms: readonly QueryTerm[], idf: (term: string) => number): number {
  const heading = passage.headingPath?.at(-1) ?? '';
  const held = new Set(terms.flatMap((t) => [t.key, ...t.parts]));
  const own = new Set<string>();
  forEachTerm(heading, (t) => own.add(t));
  let total = 0;
  let found = 0;
  for (const t of own) {
    total += idf(t);
    if (held.has(t)) found += idf(t);
  }
  return total > 0 ? found / total : 0;
}

/** The chosen signal of one passage for one question, 0..1 (coverage: a difference, -1..1). */
function signalOf(
  options: SignalOptions,
  passage: Passage,
  terms: readonly QueryTerm[],
  idf: (term: string) => number,
  page: ((file: string, terms: readonly QueryTerm[]) => number) | undefined,
): number {
  const headingLine = (passage.headingPath ?? []).join(' ');
  if (options.signal === 'heading') return headingOf(passage, terms, idf);
  if (options.signal === 'page') return page?.(passage.sourceRef?.path ?? '', terms) ?? 0;
  if (options.signal === 'coverage') {
    const held = new Set<string>();
    forEachTerm(`${passage.title ?? ''}\n${headingLine}\n${passage.text ?? ''}`, (t) => held.add(t));
    const holds = (t: QueryTerm) => held.has(t.key) || (t.parts.length > 0 && t.parts.every((p) => held.has(p)));
    const total = terms.reduce((s, t) => s + idf(t.key), 0);
    const share = total > 0 ? terms.reduce((s, t) => s + (holds(t) ? idf(t.key) : 0), 0) / total : 0;
    const words = passage.why?.find((w) => w.signal === 'words')?.contribution ?? 0;
    return share - words;
  }
  const keys = terms.map((t) => t.key);
  const pairs: [string, string][] = [];
  for (let i = 0; i < keys.length; i++)
    for (let j = i + 1; j < (options.allPairs ? keys.length : Math.min(keys.length, i + 2)); j++)
      pairs.push([keys[i], keys[j]]);
  const positions = termPositions(`${headingLine}\n${passage.text ?? ''}`);
  let found = 0;
  let total = 0;
  for (const [a, b] of pairs) {
    const w = Math.min(idf(a), idf(b));
    total += w;
    if (within(positions.get(a), positions.get(b), options.window)) found += w;
  }
  return total > 0 ? found / total : 0;
}

/** The chosen signal of every passage of one answer to `question`, for one corpus's answers. */
export function answerSignals(
  options: SignalOptions,
  corpus: DocsCorpus,
): (answer: readonly Passage[], question: string) => number[] {
  const { texts } = referenceSplit(corpus);
  const idf = idfOver(texts);
  const page = options.signal === 'page' ? pageWords(corpus, options.pageB) : undefined;
  const surface = options.signal === 'surface' ? surfaceIdfOver(texts) : undefined;
  return (answer, question) => {
    const terms = analyzeQuery(question);
    if (options.signal === 'feedback') return feedbackSignals(options, answer, terms, idf);
    if (surface) return answer.map((p) => surfaceOf(p, question, surface));
    return answer.map((p) => signalOf(options, p, terms, idf, page));
  };
}
