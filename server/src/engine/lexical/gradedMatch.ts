/**
 * Graded words over the postings index: for every section holding a question term, the sum over
 * terms of idf x BM25F saturation (`workspace_context`'s words half, contract.ts), computed
 * term at a time into accumulators indexed by section ordinal.
 *
 * With a {@link Pruning} (the caller keeps only its best k sections and can say what a section
 * with a given sum would score), the match prunes as max-score does (Turtle and Flood 1995,
 * "Query evaluation: strategies and optimizations"): terms are read rarest first; once the terms
 * left could not lift a section that holds none of the terms read so far above the k-th best
 * score already certain, the remaining terms only add to sections already found, and only to
 * those whose best possible score can still reach it; those few are looked up in the remaining
 * (long, common) posting lists by galloping search instead of reading every posting. The
 * sections returned are exactly those that can be among the caller's best k, with their exact
 * sums: the answer is the same as without pruning, only cheaper. A saturation is at most 1, so a
 * term left unread can add at most its weight.
 *
 * The threshold bookkeeping (the k-th best estimate, the contenders, the final cut) is in
 * maxScore.ts, called once per step. The loops over postings live here with the saturation
 * arithmetic and the bit layout as local constants: an imported function or constant is read
 * through a getter under a CommonJS transform (tsx), which costs more than the arithmetic at
 * ~100k postings per question.
 */
import { oneBodyOccurrence, PACKED, SHORT, type FieldCounts, type FieldLengths } from './fields';
import {
  bestScore,
  keepContenders,
  kthBestScore,
  poolAndList,
  prunedScore,
  selectBest,
  type KthBest,
  type Pruning,
} from './maxScore';
import { formUnit, postingsLength, rareParts, rarePostings, readingOrder, type RareParts } from './gradedSteps';
import type { GradedUnit, PostingsView } from './gradedUnits';
import { OrdinalSortWork, sortOrdinals } from './ordinalSort';

export { prunedScore, type Pruning } from './maxScore';
export type { GradedUnit, PostingsView, TermPostings } from './gradedUnits';

/**
 * BM25F's parameters (Robertson, Zaragoza and Taylor 2004, "Simple BM25 extension to multiple
 * weighted fields"): a term's frequency in each field is normalised by that field's length
 * against its average (`b` per field, 0 = no normalisation, 1 = full), weighted, summed into one
 * pseudo-frequency tf~, and saturated once: tf~ / (k1 + tf~), in 0..1.
 */
export interface FieldModel {
  k1: number;
  weight: Readonly<FieldCounts>;
  b: Readonly<FieldCounts>;
  /** Multiplies the heading weight of sections whose own heading is a question (1: no change). */
  questionHeadingBoost: number;
}

/** The sections that hold at least one unit, with each unit's bit and their summed weighted saturation. */
export interface GradedMatch {
  /** Matching section ordinals, ascending (with pruning: only those that can be among the best k). */
  ordinals: Uint32Array;
  /** Bit j set when unit j (or one of its parts) is present. */
  masks: Uint32Array;
  /** Sum over units of weight x saturation (not yet divided by the question's total weight). */
  words: Float64Array;
  count: number;
  /** Sections holding at least one unit, before pruning (equals `count` without it). */
  considered: number;
}

/** Most units one match accepts: one bit each in a 32-bit mask. */
export const MAX_MATCH_UNITS = 32;

/** The model with each field's length normaliser pre-divided by its average: B = keep + per x length. */
export interface Normalizers {
  k1: number;
  boost: number;
  bodyW: number;
  bodyKeep: number;
  bodyPer: number;
  headingW: number;
  headingKeep: number;
  headingPer: number;
  titleW: number;
  titleKeep: number;
  titlePer: number;
  contextW: number;
  contextKeep: number;
  contextPer: number;
}

export function normalizers(model: FieldModel, avg: FieldLengths): Normalizers {
  const keep = (f: keyof FieldCounts) => 1 - model.b[f];
  const per = (f: keyof FieldCounts) => model.b[f] / avg[f];
  return {
    k1: model.k1,
    boost: model.questionHeadingBoost,
    bodyW: model.weight.body,
    bodyKeep: keep('body'),
    bodyPer: per('body'),
    headingW: model.weight.heading,
    headingKeep: keep('heading'),
    headingPer: per('heading'),
    titleW: model.weight.title,
    titleKeep: keep('title'),
    titlePer: per('title'),
    contextW: model.weight.context,
    contextKeep: keep('context'),
    contextPer: per('context'),
  };
}

// The bit layout as module constants (see the header: no getter per posting).
const BODY_MAX = PACKED.BODY_MAX;
const HEADING_SHIFT = PACKED.HEADING_SHIFT;
const HEADING_MAX = PACKED.HEADING_MAX;
const TITLE_SHIFT = PACKED.TITLE_SHIFT;
const TITLE_MAX = PACKED.TITLE_MAX;
const CONTEXT_SHIFT = PACKED.CONTEXT_SHIFT;
const CONTEXT_MAX = PACKED.CONTEXT_MAX;
const SHORT_HEADING_MAX = SHORT.SHORT_HEADING_MAX;
const SHORT_TITLE_SHIFT = SHORT.SHORT_TITLE_SHIFT;
const SHORT_TITLE_MAX = SHORT.SHORT_TITLE_MAX;
const SHORT_CONTEXT_SHIFT = SHORT.SHORT_CONTEXT_SHIFT;
const SHORT_CONTEXT_MAX = SHORT.SHORT_CONTEXT_MAX;
const SHORT_QUESTION_BIT = SHORT.SHORT_QUESTION_BIT;

/** The body field's share of tf~ per occurrence in a section whose body is `bodyLength` terms long. */
export function bodyNorm(n: Normalizers, bodyLength: number): number {
  return n.bodyW / (n.bodyKeep + n.bodyPer * bodyLength);
}

/**
 * BM25F: tf~ = sum over fields of w x tf / (1 - b + b x len / avg); saturation tf~ / (k1 + tf~).
 * `norm` is the section's {@link bodyNorm}.
 */
export function saturate(packed: number, norm: number, shortLength: number, n: Normalizers): number {
  const tf = fieldTf(packed, norm, shortLength, n);
  return tf / (n.k1 + tf);
}

/** tf~ of one posting: the body from its precomputed norm, the short fields from their packed lengths. */
function fieldTf(packed: number, norm: number, shortLength: number, n: Normalizers): number {
  const body = packed & BODY_MAX;
  let tf = body !== 0 ? body * norm : 0;
  if (packed > BODY_MAX) {
    const heading = (packed >>> HEADING_SHIFT) & HEADING_MAX;
    if (heading !== 0) {
      const w = shortLength >>> SHORT_QUESTION_BIT === 1 ? n.headingW * n.boost : n.headingW;
      tf += (w * heading) / (n.headingKeep + n.headingPer * (shortLength & SHORT_HEADING_MAX));
    }
    const title = (packed >>> TITLE_SHIFT) & TITLE_MAX;
    if (title !== 0)
      tf += (n.titleW * title) / (n.titleKeep + n.titlePer * ((shortLength >>> SHORT_TITLE_SHIFT) & SHORT_TITLE_MAX));
    const context = (packed >>> CONTEXT_SHIFT) & CONTEXT_MAX;
    if (context !== 0)
      tf +=
        (n.contextW * context) /
        (n.contextKeep + n.contextPer * ((shortLength >>> SHORT_CONTEXT_SHIFT) & SHORT_CONTEXT_MAX));
  }
  return tf;
}

/**
 * Every section's {@link bodyNorm}, kept while the lengths and the body parameters stay as they
 * were: most postings are body only, and with this their tf~ is one multiplication.
 */
class BodyNorms {
  private table: Float64Array = new Float64Array(0);
  private version = -1;
  private key = '';

  of(view: PostingsView, n: Normalizers): Float64Array {
    const key = `${n.bodyW} ${n.bodyKeep} ${n.bodyPer}`;
    if (this.version === view.lengthsVersion && this.key === key && this.table.length >= view.ordinalBound)
      return this.table;
    const lengths = view.bodyLengths;
    if (this.table.length < view.ordinalBound)
      this.table = new Float64Array(Math.max(view.ordinalBound, Math.ceil(this.table.length * 1.5)));
    const table = this.table;
    for (let o = 0; o < view.ordinalBound; o++) table[o] = bodyNorm(n, lengths[o] ?? 0);
    this.version = view.lengthsVersion;
    this.key = key;
    return table;
  }

  byteSize(): number {
    return this.table.byteLength;
  }
}

/** Reusable per-index work arrays, grown to the index's ordinal bound; zero between calls. */
export class GradedScratch {
  acc = new Uint32Array(0);
  words = new Float64Array(0);
  touched = new Uint32Array(0);
  parts = new Float64Array(0);
  cover = new Float64Array(0);
  unitTouched = new Uint32Array(0);
  /** An identifier's whole-form saturation by ordinal, while its parts step runs. */
  held = new Float64Array(0);
  /** The sections still in the running, ascending (filtered in place from step to step). */
  kept = new Uint32Array(0);
  /** 1 for sections still in the running once pruning has started. */
  live = new Uint8Array(0);
  /** The survivors holding a term and their packed counts, as {@link survivorPostings} finds them. */
  hitOrdinals = new Uint32Array(0);
  hitPacked = new Uint32Array(0);
  readonly bodyNorms = new BodyNorms();
  readonly sortWork = new OrdinalSortWork();
  /** The body norms of the match under way. */
  bodyNorm: Float64Array = new Float64Array(0);
  /** True while a length-free unit's whole form or trailing form is read: its body counts once. */
  nameOnce = false;
  /** Every ordinal's body norm without length normalisation (all `bodyW`), for length-free units. */
  private flat: Float64Array = new Float64Array(0);
  private flatWeight = Number.NaN;

  /** {@link flat} for `size` ordinals and body weight `bodyW`. */
  flatNorms(size: number, bodyW: number): Float64Array {
    if (this.flat.length < size || this.flatWeight !== bodyW) {
      if (this.flat.length < size) this.flat = new Float64Array(Math.max(size, Math.ceil(this.flat.length * 1.5)));
      this.flat.fill(bodyW);
      this.flatWeight = bodyW;
    }
    return this.flat;
  }

  ensure(size: number): void {
    if (this.acc.length >= size) return;
    // Headroom, so a stream of added sections does not reallocate on every question.
    const n = Math.max(size, Math.ceil(this.acc.length * 1.5));
    this.acc = new Uint32Array(n);
    this.words = new Float64Array(n);
    this.touched = new Uint32Array(n);
    this.parts = new Float64Array(n);
    this.cover = new Float64Array(n);
    this.unitTouched = new Uint32Array(n);
    this.held = new Float64Array(n);
    this.kept = new Uint32Array(n);
    this.live = new Uint8Array(n);
    this.hitOrdinals = new Uint32Array(n);
    this.hitPacked = new Uint32Array(n);
  }

  byteSize(): number {
    return (
      this.flat.byteLength +
      this.acc.byteLength +
      this.words.byteLength +
      this.touched.byteLength +
      this.parts.byteLength +
      this.cover.byteLength +
      this.unitTouched.byteLength +
      this.held.byteLength +
      this.kept.byteLength +
      this.live.byteLength +
      this.hitOrdinals.byteLength +
      this.hitPacked.byteLength +
      this.bodyNorms.byteSize() +
      this.sortWork.byteSize()
    );
  }
}

/**
 * The sections holding at least one unit, each with the sum over units of weight x BM25F
 * saturation. An identifier unit takes, per section, the largest of its whole form's saturation,
 * each of its other forms' credit x saturation, and `partCredit` x the weighted mean saturation of
 * its parts x the share of them present: its whole form is read as one step, each other form and
 * its parts as later ones that add only what they give beyond the steps before. Steps are read in order of what they can add, most first, the same
 * order for every section. With `pruning`, only the sections that can be among the caller's
 * best `k` come back (see the header).
 */
export function gradedMatch(
  view: PostingsView,
  scratch: GradedScratch,
  units: readonly GradedUnit[],
  model: FieldModel,
  pruning?: Pruning,
): GradedMatch {
  if (units.length > MAX_MATCH_UNITS) {
    throw new RangeError(`PostingsIndex: gradedMatch takes at most ${MAX_MATCH_UNITS} units, got ${units.length}`);
  }
  scratch.ensure(view.ordinalBound);
  const norm = normalizers(model, view.averages);
  const bodyNorms = scratch.bodyNorms.of(view, norm);
  scratch.bodyNorm = bodyNorms;
  const steps = readingOrder(units);
  // remaining[i]: the most the steps from position i on can still add.
  const remaining = new Float64Array(steps.length + 1);
  for (let i = steps.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + steps[i].most;
  // beyondRare[i]: the same for a section holding none of the rare parts of those steps' identifiers.
  const rare = pruning
    ? steps.map((step) => (step.parts && step.form < 0 ? rareParts(view, units[step.unit]) : null))
    : [];
  const beyondRare = new Float64Array(steps.length + 1);
  for (let i = steps.length - 1; i >= 0; i--) beyondRare[i] = beyondRare[i + 1] + (rare[i]?.most ?? steps[i].most);
  // What each identifier's steps read so far gave, as (ordinal, value) pairs: what its later steps add beyond.
  const heldOf = new Map<number, number[]>();

  let count = 0;
  let survivors: Uint32Array | null = null;
  let threshold = -Infinity;
  // About the largest sum of any section (what the steps read could give, or less once measured):
  // it only decides whether measuring is worth it, never what is pruned.
  let heaviest = 0;
  // The best sections at the last measure, and the step it followed (see `kthBestScore`).
  let pool: Uint32Array | null = null;
  let pooledAt = -1;
  for (let i = 0; i < steps.length; i++) {
    const { unit: j, parts, form } = steps[i];
    const unit = units[j];
    const bit = 1 << j;
    const fallbacks = unit.parts.length > 0 ? 1 + (unit.forms?.length ?? 0) : (unit.forms?.length ?? 0);
    const record: number[] | null = fallbacks > 0 && !parts ? [] : null;
    if (record) heldOf.set(j, record);
    // A length-free unit's whole form and forms are read with flat body norms.
    const lengthFree = unit.lengthFree === true && (!parts || (form >= 0 && unit.forms![form].lengthBound !== true));
    if (lengthFree) scratch.bodyNorm = scratch.flatNorms(view.ordinalBound, norm.bodyW);
    scratch.nameOnce = lengthFree;
    // A trailing form is read as a parts step of one part at its credit: it adds only what it gives beyond.
    if (parts)
      count = addParts(
        view,
        scratch,
        form < 0 ? unit : formUnit(unit, form),
        norm,
        bit,
        count,
        survivors,
        heldOf.get(j)!,
        fallbacks > 1,
      );
    else if (survivors !== null)
      count = addToSurvivors(view, scratch, unit.term, norm, unit.weight, bit, count, survivors, record);
    else count = scanWords(view, scratch, unit.term, norm, unit.weight, bit, count, record);
    if (lengthFree) scratch.bodyNorm = bodyNorms;
    scratch.nameOnce = false;

    heaviest += steps[i].most;
    if (!pruning || i === steps.length - 1) continue;
    const left = remaining[i + 1];
    if (survivors === null) {
      // Sections holding none of the terms read so far can still come in: stop that once they
      // cannot. Not worth measuring while no section can outscore what an unseen one could get.
      if (count >= pruning.k && bestScore(pruning, beyondRare[i + 1]) >= bestScore(pruning, heaviest)) continue;
      // Right after a measure, the best sections are among the last ones and those this word
      // step reached (the others' scores did not change): reading those is enough.
      const measured: KthBest =
        pool !== null && pooledAt === i - 1 && !parts
          ? kthBestScore(scratch, scratch.kept, poolAndList(view, scratch, pool, unit.term), pruning)
          : kthBestScore(scratch, scratch.touched, count, pruning);
      pool = measured.pool;
      pooledAt = i;
      threshold = Math.max(threshold, measured.score);
      heaviest = Math.min(heaviest, measured.heaviest);
      if (bestScore(pruning, left) < threshold)
        survivors = keepContenders(scratch, view.ordinalBound, null, count, left, threshold, pruning, remaining[0]);
      else if (bestScore(pruning, beyondRare[i + 1]) < threshold && rarePostings(rare, i + 1) * 2 <= count) {
        // Only a section holding a rare part of an identifier still to come can still come in:
        // those join the sections in the running now, with nothing added yet. Not when they
        // are many: the running would then hold more sections than reading on touches.
        const contenders = keepContenders(
          scratch,
          view.ordinalBound,
          null,
          count,
          left,
          threshold,
          pruning,
          remaining[0],
        );
        survivors = addRareHolders(view, scratch, contenders, rare.slice(i + 1), left, threshold, pruning);
      }
    } else {
      // Fewer survivors pay off when the next step looks each of them up (galloping); when it
      // reads its whole list anyway, narrowing first costs more than it spares.
      if (survivors.length * 16 >= postingsLength(view, units, steps[i + 1])) continue;
      threshold = Math.max(threshold, kthBestScore(scratch, survivors, survivors.length, pruning).score);
      survivors = keepContenders(
        scratch,
        view.ordinalBound,
        survivors,
        survivors.length,
        left,
        threshold,
        pruning,
        remaining[0],
      );
    }
  }
  if (pruning) return selectBest(scratch, view.ordinalBound, count, survivors, pruning);
  return collect(view, scratch, count);
}

/**
 * `contenders` (ascending, marked live) and every section holding a rare part of the steps
 * still to come that no step has reached yet and whose best possible score (its sum is 0, with
 * `left` still to come) reaches `threshold`, ascending; the new ones are marked live. Their sums
 * start at 0 as in the full computation, so the steps after add to them exactly as they would.
 */
function addRareHolders(
  view: PostingsView,
  s: GradedScratch,
  contenders: Uint32Array,
  rare: readonly (RareParts | null)[],
  left: number,
  threshold: number,
  pruning: Pruning,
): Uint32Array {
  const { acc, live, kept } = s;
  const dead = view.dead;
  let n = contenders.length;
  for (const parts of rare) {
    if (parts === null) continue;
    for (const term of parts.terms) {
      const list = view.postingsOf(term);
      if (list === null) continue;
      const { postings, end } = list;
      const delta = list.delta;
      const listEnd = end + (delta?.length ?? 0);
      // The base range, then the delta (never tombstoned), in one loop with no callback.
      for (let k = list.start; k < listEnd; k++) {
        const o = k < end ? postings[k] : delta![k - end];
        if (acc[o] !== 0 || live[o] !== 0) continue;
        if (k < end && dead !== null && ((dead[o >>> 5] ?? 0) >>> (o & 31)) & 1) continue;
        if (prunedScore(pruning, o, left) < threshold) continue;
        live[o] = 1;
        kept[n++] = o;
      }
    }
  }
  if (n === contenders.length) return contenders;
  return sortOrdinals(kept.subarray(0, n), s.sortWork);
}

/**
 * Adds weight x saturation of `term` to every live section holding it, noting each section's
 * saturation in `record` when given (an identifier's whole form); returns the new touched count.
 */
function scanWords(
  view: PostingsView,
  s: GradedScratch,
  term: string,
  norm: Normalizers,
  weight: number,
  bit: number,
  count: number,
  record: number[] | null,
): number {
  // A key path's whole and trailing forms: a name held is held, each manifest showing it is not one more (oneBodyOccurrence).
  const once = s.nameOnce;
  const list = view.postingsOf(term);
  if (list === null) return count;
  const { postings, freqs, end } = list;
  const { shortLengths, dead } = view;
  const bodyNorms = s.bodyNorm;
  const acc = s.acc;
  const words = s.words;
  const touched = s.touched;
  let c = count;
  if (dead === null && record === null && !once) {
    // The hot case, with nothing but arithmetic in the loop: a word, as nearly every question's
    // terms are (a key path's forms take the loop below, so no posting here asks which it is).
    const k1 = norm.k1;
    for (let k = list.start; k < end; k++) {
      const o = postings[k];
      const packed = freqs[k];
      // Most postings are body only: tf~ is then one multiplication (the same as `saturate`'s).
      const tf = packed <= BODY_MAX ? packed * bodyNorms[o] : fieldTf(packed, bodyNorms[o], shortLengths[o], norm);
      const sat = tf / (k1 + tf);
      if (acc[o] === 0) touched[c++] = o;
      acc[o] |= bit;
      words[o] += weight * sat;
    }
  } else {
    for (let k = list.start; k < end; k++) {
      const o = postings[k];
      if (dead !== null && ((dead[o >>> 5] ?? 0) >>> (o & 31)) & 1) continue;
      const sat = saturate(once ? oneBodyOccurrence(freqs[k]) : freqs[k], bodyNorms[o], shortLengths[o], norm);
      if (acc[o] === 0) touched[c++] = o;
      acc[o] |= bit;
      words[o] += weight * sat;
      if (record !== null) record.push(o, sat);
    }
  }
  const delta = list.delta;
  if (delta !== null) {
    const deltaFreqs = list.deltaFreqs!;
    for (let k = 0; k < delta.length; k++) {
      const o = delta[k];
      const sat = saturate(
        once ? oneBodyOccurrence(deltaFreqs[k]) : deltaFreqs[k],
        bodyNorms[o],
        shortLengths[o],
        norm,
      );
      if (acc[o] === 0) touched[c++] = o;
      acc[o] |= bit;
      words[o] += weight * sat;
      if (record !== null) record.push(o, sat);
    }
  }
  return c;
}

/**
 * An identifier's parts: per section, `partCredit` x their weighted mean saturation x the share
 * of them present; what that gives beyond what the unit's steps before gave (`held`, its whole
 * form's saturation and its forms' values) is added, and with `keep` the value is noted in `held`
 * for the steps after. Before pruning every section holding a part is reached; after it, only
 * the survivors.
 */
function addParts(
  view: PostingsView,
  s: GradedScratch,
  unit: GradedUnit,
  norm: Normalizers,
  bit: number,
  count: number,
  survivors: Uint32Array | null,
  held: number[],
  keep: boolean,
): number {
  // A key path's whole and trailing forms: a name held is held, each manifest showing it is not one more (oneBodyOccurrence).
  const once = s.nameOnce;
  const { shortLengths } = view;
  const bodyNorms = s.bodyNorm;
  const { parts, cover, unitTouched } = s;
  let partWeight = 0;
  for (const part of unit.parts) partWeight += part.weight;
  let reached = 0;
  for (const part of unit.parts) {
    const share = partWeight > 0 ? part.weight / partWeight : 0;
    if (survivors === null) {
      // Every section holding the part: one pass over its list, no callback per posting.
      const list = view.postingsOf(part.term);
      if (list === null) continue;
      const { postings, freqs, end } = list;
      const dead = view.dead;
      if (dead === null && !once) {
        // The hot case (an identifier's parts, whose lists are the long ones: "api", "service"),
        // written out as scanWords' is: a body-only posting's tf~ is one multiplication.
        const k1 = norm.k1;
        for (let k = list.start; k < end; k++) {
          const o = postings[k];
          const packed = freqs[k];
          const tf = packed <= BODY_MAX ? packed * bodyNorms[o] : fieldTf(packed, bodyNorms[o], shortLengths[o], norm);
          if (cover[o] === 0 && parts[o] === 0) unitTouched[reached++] = o;
          parts[o] += share * (tf / (k1 + tf)) + Number.MIN_VALUE;
          cover[o] += share + Number.MIN_VALUE;
        }
      } else {
        for (let k = list.start; k < end; k++) {
          const o = postings[k];
          if (dead !== null && ((dead[o >>> 5] ?? 0) >>> (o & 31)) & 1) continue;
          if (cover[o] === 0 && parts[o] === 0) unitTouched[reached++] = o;
          parts[o] +=
            share * saturate(once ? oneBodyOccurrence(freqs[k]) : freqs[k], bodyNorms[o], shortLengths[o], norm) +
            Number.MIN_VALUE;
          cover[o] += share + Number.MIN_VALUE;
        }
      }
      const delta = list.delta;
      if (delta !== null) {
        for (let k = 0; k < delta.length; k++) {
          const o = delta[k];
          if (cover[o] === 0 && parts[o] === 0) unitTouched[reached++] = o;
          parts[o] +=
            share *
              saturate(
                once ? oneBodyOccurrence(list.deltaFreqs![k]) : list.deltaFreqs![k],
                bodyNorms[o],
                shortLengths[o],
                norm,
              ) +
            Number.MIN_VALUE;
          cover[o] += share + Number.MIN_VALUE;
        }
      }
    } else {
      const hits = survivorPostings(view, part.term, survivors, s);
      const { hitOrdinals, hitPacked } = s;
      for (let h = 0; h < hits; h++) {
        const o = hitOrdinals[h];
        if (cover[o] === 0 && parts[o] === 0) unitTouched[reached++] = o;
        parts[o] +=
          share * saturate(once ? oneBodyOccurrence(hitPacked[h]) : hitPacked[h], bodyNorms[o], shortLengths[o], norm) +
          Number.MIN_VALUE;
        cover[o] += share + Number.MIN_VALUE;
      }
    }
  }
  // What the unit's steps before gave, by ordinal, for the sections the parts reached (zero again below).
  const best = s.held;
  const before = held.length;
  for (let k = 0; k < before; k += 2) if (held[k + 1] > best[held[k]]) best[held[k]] = held[k + 1];
  const { acc, touched, words } = s;
  const weight = unit.weight;
  const credit = unit.partCredit;
  let c = count;
  for (let k = 0; k < reached; k++) {
    const o = unitTouched[k];
    const target = credit * parts[o] * Math.min(1, cover[o]);
    parts[o] = 0;
    cover[o] = 0;
    if (acc[o] === 0) touched[c++] = o;
    acc[o] |= bit;
    const h = best[o];
    if (target > h) {
      words[o] += weight * (target - h);
      if (keep) held.push(o, target);
    }
  }
  for (let k = 0; k < before; k += 2) best[held[k]] = 0;
  return c;
}

/**
 * The postings of `term` of the sections still in the running (`survivors`, ascending; `s.live`
 * marks them), written into `s.hitOrdinals` and `s.hitPacked`; returns how many. Few sections
 * against a long list: each is found by galloping search from the last one's place; otherwise
 * one pass over the list skipping the others. Collected rather than visited through a callback:
 * the callers' loops then stay monomorphic, measured faster on the slowest questions.
 */
function survivorPostings(view: PostingsView, term: string, survivors: Uint32Array, s: GradedScratch): number {
  const list = view.postingsOf(term);
  if (list === null) return 0;
  const { postings, freqs, end } = list;
  const { live, hitOrdinals, hitPacked } = s;
  const dead = view.dead;
  let n = 0;
  if (survivors.length * 16 < end - list.start) {
    let k = list.start;
    for (let i = 0; i < survivors.length && k < end; i++) {
      const o = survivors[i];
      if (postings[k] < o) k = gallop(postings, k, end, o);
      if (k < end && postings[k] === o && !(dead !== null && ((dead[o >>> 5] ?? 0) >>> (o & 31)) & 1)) {
        hitOrdinals[n] = o;
        hitPacked[n++] = freqs[k];
      }
    }
  } else {
    for (let k = list.start; k < end; k++) {
      const o = postings[k];
      if (live[o] === 0) continue;
      if (dead !== null && ((dead[o >>> 5] ?? 0) >>> (o & 31)) & 1) continue;
      hitOrdinals[n] = o;
      hitPacked[n++] = freqs[k];
    }
  }
  const delta = list.delta;
  if (delta !== null) {
    for (let k = 0; k < delta.length; k++) {
      if (live[delta[k]] !== 1) continue;
      hitOrdinals[n] = delta[k];
      hitPacked[n++] = list.deltaFreqs![k];
    }
  }
  return n;
}

/** The first position in `postings[from..end)` holding `o` or more (`postings[from] < o`): doubling steps, then bisection. */
function gallop(postings: Uint32Array, from: number, end: number, o: number): number {
  let step = 1;
  let lo = from;
  while (from + step < end && postings[from + step] < o) {
    lo = from + step;
    step *= 2;
  }
  let hi = Math.min(end, from + step + 1);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (postings[mid] < o) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Adds weight x saturation of `term` to the sections still in the running, noting saturations in
 * `record` when given; returns the new touched count (a section that joined the running with a
 * rare identifier part may be reached here first). The same two ways through the list as
 * {@link survivorPostings}, written out for the common case (no tombstones, no record, no
 * delta) so that the hot loop adds as it finds, without collecting first.
 */
function addToSurvivors(
  view: PostingsView,
  s: GradedScratch,
  term: string,
  norm: Normalizers,
  weight: number,
  bit: number,
  count: number,
  survivors: Uint32Array,
  record: number[] | null,
): number {
  // A key path's whole and trailing forms: a name held is held, each manifest showing it is not one more (oneBodyOccurrence).
  const once = s.nameOnce;
  const { shortLengths } = view;
  const bodyNorms = s.bodyNorm;
  const { acc, words, live, touched } = s;
  const list = view.postingsOf(term);
  if (list === null) return count;
  let c = count;
  // A key path's forms (`once`) take this way too: the loops below are for words alone.
  if (once || view.dead !== null || record !== null || list.delta !== null) {
    const hits = survivorPostings(view, term, survivors, s);
    const { hitOrdinals, hitPacked } = s;
    for (let h = 0; h < hits; h++) {
      const o = hitOrdinals[h];
      const sat = saturate(once ? oneBodyOccurrence(hitPacked[h]) : hitPacked[h], bodyNorms[o], shortLengths[o], norm);
      if (acc[o] === 0) touched[c++] = o;
      acc[o] |= bit;
      words[o] += weight * sat;
      if (record !== null) record.push(o, sat);
    }
    return c;
  }
  const { postings, freqs, end } = list;
  const k1 = norm.k1;
  if (survivors.length * 16 < end - list.start) {
    let k = list.start;
    for (let i = 0; i < survivors.length && k < end; i++) {
      const o = survivors[i];
      if (postings[k] < o) k = gallop(postings, k, end, o);
      if (k >= end || postings[k] !== o) continue;
      const packed = freqs[k];
      const tf = packed <= BODY_MAX ? packed * bodyNorms[o] : fieldTf(packed, bodyNorms[o], shortLengths[o], norm);
      if (acc[o] === 0) touched[c++] = o;
      acc[o] |= bit;
      words[o] += weight * (tf / (k1 + tf));
    }
    return c;
  }
  for (let k = list.start; k < end; k++) {
    const o = postings[k];
    if (live[o] === 0) continue;
    const packed = freqs[k];
    const tf = packed <= BODY_MAX ? packed * bodyNorms[o] : fieldTf(packed, bodyNorms[o], shortLengths[o], norm);
    if (acc[o] === 0) touched[c++] = o;
    acc[o] |= bit;
    words[o] += weight * (tf / (k1 + tf));
  }
  return c;
}

/** The result without pruning, ascending, and every scratch array back to zero. */
function collect(view: PostingsView, s: GradedScratch, count: number): GradedMatch {
  const { acc, words, touched } = s;
  let ordinals: Uint32Array;
  if (count * Math.log2(count + 1) > view.ordinalBound) {
    // Broad questions: one pass over the accumulator beats sorting the touched list.
    ordinals = new Uint32Array(count);
    let i = 0;
    for (let o = 0; o < view.ordinalBound; o++) if (acc[o] !== 0) ordinals[i++] = o;
  } else ordinals = sortOrdinals(touched.slice(0, count), s.sortWork);
  const masks = new Uint32Array(count);
  const sums = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const o = ordinals[i];
    masks[i] = acc[o];
    sums[i] = words[o];
    acc[o] = 0;
    words[o] = 0;
  }
  return { ordinals, masks, words: sums, count, considered: count };
}
