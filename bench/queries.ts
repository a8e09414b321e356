/**
 * Query lists for the bench, drawn from the corpus being measured: every engine answers the same
 * list. Each query is 3-8 words drawn, with replacement, from the corpus's own content words with
 * probability proportional to how often they occur (so common words come up as often as in the
 * text, and the odd identifier such as `ledger-0412-worker` too). Stop words are left out: they
 * would be dropped by every engine and only make the queries shorter than they look.
 */
import { scanTokens } from '../server/src/engine/text/tokenize';
import { STOP_WORDS } from '../server/src/engine/text/stopWords';
import { Random } from './random';

/** Shortest and longest query, in words. */
export const QUERY_WORDS = { min: 3, max: 8 } as const;

/** Content words of `texts` with their counts, in order of first occurrence. */
export function corpusVocabulary(texts: Iterable<string>): { words: string[]; counts: Uint32Array } {
  const index = new Map<string, number>();
  const counts: number[] = [];
  for (const text of texts) {
    scanTokens(text, (start, end, identifier) => {
      if (end - start < 2 || end - start > 40) return;
      const surface = text.slice(start, end);
      const word = identifier ? surface : surface.toLowerCase();
      if (!identifier && (STOP_WORDS.has(word) || /\d/.test(word))) return;
      const i = index.get(word);
      if (i === undefined) {
        index.set(word, counts.length);
        counts.push(1);
      } else counts[i]++;
    });
  }
  return { words: [...index.keys()], counts: Uint32Array.from(counts) };
}

/**
 * `n` queries of 3-8 words over `texts`, the same for the same texts and seed. `skipCommonest`
 * (default 0) leaves out that many of the most frequent words: drawn by frequency, queries are
 * mostly words that nearly every section holds, where a real question (stop words already gone)
 * usually holds a word that few do (a second mix, as scripts/bench-lexical.ts has).
 */
export function makeQueries(texts: Iterable<string>, n: number, seed: number, skipCommonest = 0): string[] {
  const vocabulary = corpusVocabulary(texts);
  const { words, counts } = skipCommonest > 0 ? withoutCommonest(vocabulary, skipCommonest) : vocabulary;
  if (words.length === 0) throw new Error('bench: the corpus has no content words to draw queries from');
  const cdf = new Float64Array(words.length);
  let sum = 0;
  for (let i = 0; i < words.length; i++) cdf[i] = sum += counts[i];
  const random = new Random(seed);
  const draw = (): string => {
    const u = random.next() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] <= u) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  return Array.from({ length: n }, () =>
    Array.from({ length: random.int(QUERY_WORDS.min, QUERY_WORDS.max) }, draw).join(' '),
  );
}

/** The vocabulary without its `k` most frequent words (ties by first occurrence), order kept. */
function withoutCommonest(
  vocabulary: { words: string[]; counts: Uint32Array },
  k: number,
): { words: string[]; counts: Uint32Array } {
  const { words, counts } = vocabulary;
  const commonest = new Set([...words.keys()].sort((a, b) => counts[b] - counts[a] || a - b).slice(0, k));
  const kept = [...words.keys()].filter((i) => !commonest.has(i));
  return { words: kept.map((i) => words[i]), counts: Uint32Array.from(kept, (i) => counts[i]) };
}
