/**
 * Near-duplicate sections across library documents: the same rule copied into two pages, which
 * then drift apart. Reported by `wsctx diagnostics` so a team can keep one copy and link to it.
 *
 * Similarity is the Jaccard index of the sections' word 3-shingles (Broder, "On the resemblance
 * and containment of documents", 1997): lower-cased word tokens of the body (heading excluded),
 * every run of three consecutive words one shingle. A few changed words in a paragraph keep it
 * well above the threshold; sections that merely share a topic stay far below. Candidate pairs come
 * from an inverted index of shingles, skipping shingles so common they are boilerplate, so the
 * cost follows the pairs that share text rather than the square of the section count.
 */
import { tokenize } from '../../engine';
import { LastAnswer } from './lastAnswer';
import type { LibrarySection, LibraryView } from './libraryView';
import { sectionBody } from './summaries';

/** Pairs at or above this Jaccard similarity are reported. Range 0..1; default 0.5. */
export const NEAR_DUPLICATE_THRESHOLD = 0.5;
/** Sections with fewer shingles (about a dozen words) are too short to judge. Default 10. */
export const NEAR_DUPLICATE_MIN_SHINGLES = 10;
/** A shingle held by more sections than this is boilerplate and finds no candidates. Default 50. */
export const NEAR_DUPLICATE_MAX_SHINGLE_SECTIONS = 50;

export interface NearDuplicatePair {
  a: LibrarySection;
  b: LibrarySection;
  /** Jaccard similarity of their shingle sets, 0..1. */
  similarity: number;
}

/** Near-duplicate pairs of sections in different ready documents, most similar first. */
export function findNearDuplicates(view: LibraryView, threshold = NEAR_DUPLICATE_THRESHOLD): NearDuplicatePair[] {
  const sections = view.sections.map((entry) => entry.section);
  const docs = view.sections.map((entry) => entry.doc);
  const pairs = lastPairs.get([sections, docs, [threshold]], () => pairsAmong(view.sections, threshold));
  return pairs.map(([i, j, similarity]) => ({ a: view.sections[i], b: view.sections[j], similarity }));
}

/**
 * The last pairs, by position in the view's sections: a new index state after an edit outside
 * the library has a new view of the same sections, and counting the shingles every pair shares
 * again was about 0.2 s of each new state's preparation at 100k sections.
 */
const lastPairs = new LastAnswer<readonly PairAt[]>();

/** [position of a, position of b, similarity]. */
type PairAt = readonly [number, number, number];

/** The pairs among `entries`, in the answer's order. */
function pairsAmong(entries: readonly LibrarySection[], threshold: number): PairAt[] {
  const shingles: ReadonlySet<string>[] = [];
  const postings = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    const set = shingleSet(sectionBody(entry.section));
    shingles.push(set);
    if (set.size < NEAR_DUPLICATE_MIN_SHINGLES) return;
    for (const shingle of set) {
      let list = postings.get(shingle);
      if (!list) postings.set(shingle, (list = []));
      list.push(i);
    }
  });
  const shared = new Map<number, number>();
  for (const list of postings.values()) {
    if (list.length < 2 || list.length > NEAR_DUPLICATE_MAX_SHINGLE_SECTIONS) continue;
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const key = list[x] * entries.length + list[y];
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
    }
  }
  const pairs: PairAt[] = [];
  for (const [key, common] of shared) {
    const i = Math.floor(key / entries.length);
    const j = key % entries.length;
    if (entries[i].doc.id === entries[j].doc.id) continue;
    const similarity = common / (shingles[i].size + shingles[j].size - common);
    if (similarity >= threshold) pairs.push([i, j, similarity]);
  }
  const idOf = (k: number) => entries[k].section.id;
  pairs.sort((p, q) => q[2] - p[2] || compareIds(idOf(p[0]), idOf(q[0])) || compareIds(idOf(p[1]), idOf(q[1])));
  return pairs;
}

/** The set of word 3-shingles of `text` (lower-cased tokens joined by a space). */
export function shingleSet(text: string): Set<string> {
  const words = tokenize(text).map((t) => t.text.toLowerCase());
  const set = new Set<string>();
  for (let i = 0; i + 2 < words.length; i++) set.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return set;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
