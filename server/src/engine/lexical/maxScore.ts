/**
 * The threshold side of the graded match's max-score pruning (gradedMatch.ts reads the postings):
 * what a caller's score of a section is ({@link Pruning}), a k-th best score certain to be
 * reached, which sections can still reach it, and the final cut to those that do. Every bound
 * here only ever errs low on the k-th best and high on what a section can reach, so the sections
 * kept are always a superset of the caller's best k.
 */
import { sortOrdinals, type OrdinalSortWork } from './ordinalSort';

/** The work arrays of a graded match this module reads and clears (gradedMatch.ts `GradedScratch`). */
export interface PruningScratch {
  acc: Uint32Array;
  words: Float64Array;
  touched: Uint32Array;
  /** Zero outside a parts step: the final cut keeps each candidate's score in it meanwhile. */
  parts: Float64Array;
  kept: Uint32Array;
  live: Uint8Array;
  sortWork: OrdinalSortWork;
}

/** What the k-th best estimate reads of the index: a term's live postings (gradedMatch.ts `PostingsView`). */
export interface PostingsSource {
  dead: Uint32Array | null;
  postingsOf(
    term: string,
  ): { postings: Uint32Array; start: number; end: number; delta: readonly number[] | null } | null;
}

/** The cut's result, as gradedMatch.ts returns it (`GradedMatch`). */
export interface PrunedMatch {
  ordinals: Uint32Array;
  masks: Uint32Array;
  words: Float64Array;
  count: number;
  considered: number;
}

/**
 * What the caller of a pruned match keeps, and how it scores a section from its sum: words =
 * min(1, sum / total); a section whose words reach `gate` also earns its group's bonus (the
 * ranker's groups are documents, and FAQ entries when a question is asked as one, their bonuses
 * title, named entity, recency and run health).
 * Plain arrays rather than a callback: the match scores tens of thousands of sections with them.
 */
export interface Pruning {
  /** How many best sections the caller keeps (1 or more). */
  k: number;
  /** Scores below this are never kept. */
  floor: number;
  /** What a sum is divided by to give words in 0..1 (the question's total weight). */
  total: number;
  /** Words at or above this earn the group's bonus. */
  gate: number;
  /** Section ordinal -> its group, or -1 when the caller would not keep the section at all. */
  groupOf: Int32Array;
  /** Bonus of each group (0 or more). */
  bonus: Float64Array;
  /** What each group's words count for (0..1, most 1): the words are multiplied by it before the gate. */
  scale: Float64Array;
  /** The largest bonus of any group. */
  maxBonus: number;
}

/** The caller's score of section `o` with sum `sum` (see {@link Pruning}). */
export function prunedScore(p: Pruning, o: number, sum: number): number {
  const g = o < p.groupOf.length ? p.groupOf[o] : -1;
  if (g < 0) return -Infinity;
  const words = (p.total > 0 ? Math.min(1, sum / p.total) : 0) * p.scale[g];
  return words >= p.gate ? words + p.bonus[g] : words;
}

/** The most any section can score with sum `sum` (a group's scale is at most 1, so it is left out). */
export function bestScore(p: Pruning, sum: number): number {
  const words = p.total > 0 ? Math.min(1, sum / p.total) : 0;
  return words >= p.gate ? words + p.maxBonus : words;
}

/**
 * The sections whose exact score reaches the k-th best score of all (ties at the k-th included,
 * so the caller's own tie-breaks decide among them), ascending, and every scratch array back to zero.
 */
export function selectBest(
  s: PruningScratch,
  bound: number,
  count: number,
  survivors: Uint32Array | null,
  p: Pruning,
): PrunedMatch {
  const { acc, words, touched, live } = s;
  const { k, floor, total, gate, groupOf, bonus, scale } = p;
  const from = survivors ?? touched;
  const n = survivors ? survivors.length : count;
  const scores = s.parts; // free between steps: zero outside addParts
  const heap = new Float64Array(k);
  let size = 0;
  const groups = groupOf.length;
  for (let i = 0; i < n; i++) {
    const o = from[i];
    const g = o < groups ? groupOf[o] : -1;
    let score = -Infinity;
    if (g >= 0) {
      const w = (total > 0 ? Math.min(1, words[o] / total) : 0) * scale[g];
      score = w >= gate ? w + bonus[g] : w;
    }
    scores[i] = score;
    if (score < floor) continue;
    if (size < k) {
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heap[parent] <= score) break;
        heap[at] = heap[parent];
        at = parent;
      }
      heap[at] = score;
    } else if (score > heap[0]) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) break;
        const child = left + 1 < size && heap[left + 1] < heap[left] ? left + 1 : left;
        if (heap[child] >= score) break;
        heap[at] = heap[child];
        at = child;
      }
      heap[at] = score;
    }
  }
  const threshold = size >= k ? heap[0] : floor;
  let kept = 0;
  for (let i = 0; i < n; i++) if (scores[i] >= threshold) kept++;
  const ordinals = new Uint32Array(kept);
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (scores[i] >= threshold) ordinals[j++] = from[i];
    scores[i] = 0;
  }
  sortOrdinals(ordinals, s.sortWork);
  const masks = new Uint32Array(kept);
  const sums = new Float64Array(kept);
  for (let i = 0; i < kept; i++) {
    masks[i] = acc[ordinals[i]];
    sums[i] = words[ordinals[i]];
  }
  if (count * 4 > bound) {
    // Most sections touched: clearing whole arrays beats scattered writes.
    acc.fill(0, 0, bound);
    words.fill(0, 0, bound);
    if (survivors !== null) live.fill(0, 0, bound);
  } else {
    for (let i = 0; i < count; i++) {
      const o = touched[i];
      acc[o] = 0;
      words[o] = 0;
      live[o] = 0;
    }
  }
  return { ordinals, masks, words: sums, count: kept, considered: count };
}

/** What {@link kthBestScore} measures. */
export interface KthBest {
  score: number;
  heaviest: number;
  pool: Uint32Array;
}

/**
 * A score certain to be reached by at least k sections: the k-th best score so far among
 * `ordinals` (sums only grow, and so do scores), a lower bound of the final k-th best, which is
 * all pruning needs. Read by score, not by sum: bonuses differ by document (recency above all),
 * so the heaviest sums are not the best scores. Also the largest sum read (only ever used to
 * decide whether measuring is worth it), and the k best (`pool`): after one more step, the k best
 * are among them and the sections the step reached, since no other section's score changed.
 */
export function kthBestScore(s: PruningScratch, ordinals: Uint32Array, count: number, pruning: Pruning): KthBest {
  const { k, floor, total, maxBonus } = pruning;
  if (count < k) return { score: floor, heaviest: Infinity, pool: ordinals.slice(0, count) };
  // The k best scores, in a min-heap, with their sections beside.
  const heap = new Uint32Array(k);
  const best = new Float64Array(k);
  const words = s.words;
  let size = 0;
  let heaviest = 0;
  for (let i = 0; i < count; i++) {
    const o = ordinals[i];
    const w = words[o];
    if (w > heaviest) heaviest = w;
    // Most sections cannot beat the k-th best even with the largest bonus: no lookup for them.
    if (size === k && (total > 0 ? Math.min(1, w / total) : 0) + maxBonus <= best[0]) continue;
    const score = prunedScore(pruning, o, w);
    if (size < k) {
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (best[parent] <= score) break;
        heap[at] = heap[parent];
        best[at] = best[parent];
        at = parent;
      }
      heap[at] = o;
      best[at] = score;
    } else if (score > best[0]) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) break;
        const child = left + 1 < size && best[left + 1] < best[left] ? left + 1 : left;
        if (best[child] >= score) break;
        heap[at] = heap[child];
        best[at] = best[child];
        at = child;
      }
      heap[at] = o;
      best[at] = score;
    }
  }
  return { score: Math.max(floor, best[0]), heaviest, pool: heap };
}

/**
 * `pool` followed by the sections of `term`'s live postings not in it, written into `s.kept`
 * (free until the match starts keeping contenders); returns how many. `s.live` marks the pool
 * meanwhile (all zero before contenders are kept) and is zero again on return.
 */
export function poolAndList(view: PostingsSource, s: PruningScratch, pool: Uint32Array, term: string): number {
  const { kept, live } = s;
  let n = 0;
  for (let i = 0; i < pool.length; i++) {
    kept[n++] = pool[i];
    live[pool[i]] = 1;
  }
  const list = view.postingsOf(term);
  if (list !== null) {
    const { postings, end } = list;
    const dead = view.dead;
    for (let k = list.start; k < end; k++) {
      const o = postings[k];
      if (live[o] !== 0) continue;
      if (dead !== null && ((dead[o >>> 5] ?? 0) >>> (o & 31)) & 1) continue;
      kept[n++] = o;
    }
    const delta = list.delta;
    if (delta !== null) for (let k = 0; k < delta.length; k++) if (live[delta[k]] === 0) kept[n++] = delta[k];
  }
  for (let i = 0; i < pool.length; i++) live[pool[i]] = 0;
  return n;
}

/**
 * The sections (ascending) whose best possible score, with every unread term at full
 * saturation, still reaches `threshold`; the others leave the running. Most are ruled out by
 * their sum alone (below the least sum whose best score reaches the threshold). `candidates`
 * null: every section touched so far (`count` of them), read in ordinal order from the
 * accumulator when that is cheaper than sorting them.
 */
export function keepContenders(
  s: PruningScratch,
  bound: number,
  candidates: Uint32Array | null,
  count: number,
  left: number,
  threshold: number,
  pruning: Pruning,
  total: number,
): Uint32Array {
  const { words, live, acc, kept } = s;
  const needed = leastSumReaching(threshold, pruning, total) - left;
  let n = 0;
  if (candidates !== null) {
    // Survivors already (a prefix of `kept`), ascending: filtered in place, they stay ascending.
    for (let i = 0; i < count; i++) {
      const o = candidates[i];
      const w = words[o];
      if (w >= needed && prunedScore(pruning, o, w + left) >= threshold) kept[n++] = o;
      else live[o] = 0;
    }
    return kept.subarray(0, n);
  }
  if (count * Math.log2(count + 1) > bound) {
    for (let o = 0; o < bound; o++) {
      if (acc[o] === 0) continue;
      const w = words[o];
      if (w >= needed && prunedScore(pruning, o, w + left) >= threshold) {
        kept[n++] = o;
        live[o] = 1;
      }
    }
    return kept.subarray(0, n);
  }
  const touched = s.touched;
  for (let i = 0; i < count; i++) {
    const o = touched[i];
    const w = words[o];
    if (w >= needed && prunedScore(pruning, o, w + left) >= threshold) {
      kept[n++] = o;
      live[o] = 1;
    }
  }
  return sortOrdinals(kept.subarray(0, n), s.sortWork);
}

/**
 * The least sum in 0..total whose `best` reaches `threshold` (bisection: `best` does not
 * decrease), rounded down a little so that no section that reaches it is ruled out by rounding.
 */
function leastSumReaching(threshold: number, pruning: Pruning, total: number): number {
  if (bestScore(pruning, 0) >= threshold) return -Infinity;
  if (bestScore(pruning, total) < threshold) return total;
  let lo = 0;
  let hi = total;
  for (let step = 0; step < 48 && hi - lo > 1e-12 * total; step++) {
    const mid = (lo + hi) / 2;
    if (bestScore(pruning, mid) >= threshold) hi = mid;
    else lo = mid;
  }
  return lo;
}
