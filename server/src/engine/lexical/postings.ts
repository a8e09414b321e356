/**
 * The compact postings index: the hot path of candidate narrowing (docs/ARCHITECTURE.md, "Text analysis and candidates").
 *
 * Two questions are answered fast: which sections hold which of these units (`match`, a set test
 * with one bit per unit), and how strongly each section holds each of a question's terms
 * (`gradedMatch`, BM25F: `workspace_context`'s words). It stores, per term, the sorted section
 * ordinals (uint32) that contain it, beside each the term's packed frequency in each field of
 * that section, and per ordinal the section's field lengths (fields.ts); no positions.
 *
 * Layout:
 * - a base segment (see `segment.ts`): one dictionary, one concatenated `Uint32Array` of
 *   postings with offsets; built in bulk by `PostingsBuilder` or loaded by {@link deserialize};
 * - a small mutable delta: `add(ordinal, terms)` goes there (per-term arrays of ordinals);
 * - tombstones: `remove(ordinal)` sets a bit that hides the ordinal's base postings (a delta
 *   section is removed outright);
 * - `compact()` merges base, delta and tombstones into a fresh base. Callers run it when
 *   {@link PostingsIndex.needsCompaction} says so (see {@link COMPACT_DELTA_SHARE}).
 *
 * `match` costs time proportional to the postings it reads: it ORs each unit's bit into a reusable
 * accumulator indexed by ordinal and remembers which ordinals it touched, so nothing is scanned
 * or cleared beyond them (except for very broad queries, where one linear pass is cheaper than
 * sorting the touched list).
 */
import { detach } from '../text/detach';
import {
  FIELDS,
  PACKED,
  packShortLengths,
  SHORT,
  unpackLengths,
  type FieldLengths,
  type SectionFields,
} from './fields';
import {
  GradedScratch,
  MAX_MATCH_UNITS,
  bodyNorm,
  gradedMatch,
  normalizers,
  saturate,
  type FieldModel,
  type GradedMatch,
  type GradedUnit,
  type Pruning,
  type PostingsView,
  type TermPostings,
} from './gradedMatch';
import { encodeSegment, decodeSegment } from './postingsCodec';
import { sortOrdinals } from './ordinalSort';
import {
  type BaseSegment,
  bitsetWords,
  checkOrdinal,
  dictionaryBytes,
  emptySegment,
  growBitset,
  popCount,
  setBit,
  testBit,
} from './segment';

export { MAX_MATCH_UNITS };
export type { FieldModel, GradedMatch, GradedUnit, Pruning };

/**
 * Compaction is due when the delta plus the tombstoned postings exceed this share of the base's
 * postings (0.1 = 10%), and at least {@link COMPACT_MIN_POSTINGS}. Below it, the delta costs
 * little: its postings are read like the base's, and a tombstone check is one bit test. At 100k
 * sections of ~100 distinct terms that is ~1M postings, about 10,000 re-indexed sections.
 */
export const COMPACT_DELTA_SHARE = 0.1;
/** Floor of the compaction threshold, in postings (100,000 ~ 1,000 sections of 100 terms). */
export const COMPACT_MIN_POSTINGS = 100_000;

/** The sections that contain at least one of the query's units. */
export interface MatchResult {
  /** Matching section ordinals, ascending. */
  ordinals: Uint32Array;
  /** `masks[i]` has bit j set when unit j is present in section `ordinals[i]`. */
  masks: Uint32Array;
  /** Number of matches (`ordinals.length`). */
  count: number;
}

export class PostingsIndex {
  private base!: BaseSegment;
  private baseTermCount = 0;
  /** term -> id; ids below `baseTermCount` have base postings, later ids are delta-only. */
  private dict!: Map<string, number>;
  private terms!: string[];
  private termChars = 0;
  /** Tombstones over base ordinals. */
  private dead: Uint32Array = new Uint32Array(0);
  private deadCount = 0;
  /** term id -> ordinals of delta sections holding it (insertion order, no duplicates). */
  private deltaPostings = new Map<number, number[]>();
  /** ordinal -> term ids of a delta section. */
  private deltaSections = new Map<number, Uint32Array>();
  /** term id -> packed field counts of the delta sections, beside `deltaPostings`. */
  private deltaFreqs = new Map<number, number[]>();
  private deltaPostingCount = 0;
  private ordinalBound = 0;
  /** Field lengths by ordinal, base and delta sections alike. */
  private bodyLengths: Uint32Array = new Uint32Array(0);
  private shortLengths: Uint32Array = new Uint32Array(0);
  /** Sums of each field's length over live sections, for the averages BM25F normalises by. */
  private lengthSums = { body: 0, heading: 0, title: 0, context: 0 };
  /** Bumped on every change of a section's lengths: what graded matches cache per section goes stale. */
  private lengthsVersion = 0;
  /** Work arrays of `gradedMatch`. */
  private readonly graded = new GradedScratch();

  /** An index over `base` (empty by default). Use `PostingsBuilder` to build one in bulk. */
  constructor(base: BaseSegment = emptySegment()) {
    this.load(base);
  }

  /** Reads an index written by {@link serialize}; throws `PostingsIndex: ...` when it is not one. */
  static deserialize(bytes: Uint8Array): PostingsIndex {
    return new PostingsIndex(decodeSegment(bytes));
  }

  /** Binary snapshot (see `postingsCodec.ts`) of the index as it answers now; delta included. */
  serialize(): Uint8Array {
    return encodeSegment(this.isCompact() ? this.base : this.merged());
  }

  /** Live sections. */
  get sectionCount(): number {
    return this.base.sectionCount - this.deadCount + this.deltaSections.size;
  }

  /** Dictionary size; may include terms whose sections were all removed since the last compaction. */
  get termCount(): number {
    return this.terms.length;
  }

  /** True when `ordinal` is a live section. */
  hasSection(ordinal: number): boolean {
    return this.deltaSections.has(ordinal) || this.inLiveBase(ordinal);
  }

  /**
   * Indexes section `ordinal` with its fields (or a plain list of terms, each occurrence counted
   * in the body), replacing what it held before. Goes to the delta; cost is proportional to the
   * number of terms.
   */
  add(ordinal: number, input: SectionFields | Iterable<string>): void {
    checkOrdinal(ordinal, 'PostingsIndex');
    // Read the terms before changing anything, so a throwing iterable leaves the index as it was.
    const fields = toSectionFields(input);
    this.remove(ordinal);
    this.setLengths(ordinal, fields.lengths);
    const ids: number[] = [];
    for (const [term, packed] of fields.counts) {
      const known = this.terms.length;
      const id = internTerm(this.dict, this.terms, term);
      if (this.terms.length > known) this.termChars += term.length;
      let ordinals = this.deltaPostings.get(id);
      let freqs = this.deltaFreqs.get(id);
      if (ordinals === undefined || freqs === undefined) {
        ordinals = [];
        freqs = [];
        this.deltaPostings.set(id, ordinals);
        this.deltaFreqs.set(id, freqs);
      }
      ordinals.push(ordinal);
      freqs.push(packed);
      ids.push(id);
    }
    this.deltaSections.set(ordinal, Uint32Array.from(ids));
    this.deltaPostingCount += ids.length;
    if (ordinal >= this.ordinalBound) this.ordinalBound = ordinal + 1;
  }

  /** Removes section `ordinal`; false when it was not live. */
  remove(ordinal: number): boolean {
    let removed = false;
    const ids = this.deltaSections.get(ordinal);
    if (ids !== undefined) {
      for (let k = 0; k < ids.length; k++) {
        const list = this.deltaPostings.get(ids[k])!;
        const freqs = this.deltaFreqs.get(ids[k])!;
        const at = list.lastIndexOf(ordinal);
        list.splice(at, 1);
        freqs.splice(at, 1);
        if (list.length === 0) {
          this.deltaPostings.delete(ids[k]);
          this.deltaFreqs.delete(ids[k]);
        }
      }
      this.deltaPostingCount -= ids.length;
      this.deltaSections.delete(ordinal);
      removed = true;
    }
    if (removed) this.countLengths(ordinal, -1);
    if (this.inLiveBase(ordinal)) {
      this.countLengths(ordinal, -1);
      this.dead = growBitset(this.dead, ordinal);
      setBit(this.dead, ordinal);
      this.deadCount++;
      removed = true;
    }
    return removed;
  }

  /** The packed field counts of `term` in live section `ordinal` (fields.ts); 0 when absent. */
  fieldCounts(ordinal: number, term: string): number {
    const id = this.dict.get(term);
    if (id === undefined) return 0;
    const ids = this.deltaSections.get(ordinal);
    if (ids !== undefined) {
      const list = this.deltaPostings.get(id);
      if (!list) return 0;
      const at = list.lastIndexOf(ordinal);
      return at < 0 ? 0 : this.deltaFreqs.get(id)![at];
    }
    if (id >= this.baseTermCount || !this.inLiveBase(ordinal)) return 0;
    const { offsets, postings, freqs } = this.base;
    let lo = offsets[id];
    let hi = offsets[id + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = postings[mid];
      if (v === ordinal) return freqs[mid];
      if (v < ordinal) lo = mid + 1;
      else hi = mid;
    }
    return 0;
  }

  /** The field lengths of section `ordinal` (zeros for an unknown ordinal). */
  fieldLengths(ordinal: number): FieldLengths {
    return unpackLengths(this.bodyLengths[ordinal] ?? 0, this.shortLengths[ordinal] ?? 0);
  }

  /** True when section `ordinal`'s own heading is a question (an FAQ entry: fields.ts isQuestionHeading). */
  questionHeading(ordinal: number): boolean {
    return (this.shortLengths[ordinal] ?? 0) >>> SHORT.SHORT_QUESTION_BIT === 1;
  }

  /** Average length of each field over live sections (1 where no section has the field, so nothing divides by 0). */
  averageLengths(): FieldLengths {
    const n = Math.max(1, this.sectionCount);
    const avg = (sum: number) => (sum > 0 ? sum / n : 1);
    return {
      body: avg(this.lengthSums.body),
      heading: avg(this.lengthSums.heading),
      title: avg(this.lengthSums.title),
      context: avg(this.lengthSums.context),
    };
  }

  /**
   * BM25F saturation (0..1) of a term with packed field counts `packed` in section `ordinal`
   * under `model`: the hot loop's arithmetic, exposed for why[] and tests.
   */
  saturation(ordinal: number, packed: number, model: FieldModel): number {
    return this.saturations(model)(ordinal, packed);
  }

  /**
   * {@link saturation} for many postings under one model (a why[] reads one per question term
   * per passage): the field averages and normalisers are taken once, so the returned function
   * is only right until the index changes.
   */
  saturations(model: FieldModel): (ordinal: number, packed: number) => number {
    const n = normalizers(model, this.averageLengths());
    return (ordinal, packed) =>
      saturate(packed, bodyNorm(n, this.bodyLengths[ordinal] ?? 0), this.shortLengths[ordinal] ?? 0, n);
  }

  /**
   * The sections holding at least one unit, each with the sum over units of weight x BM25F
   * saturation (gradedMatch.ts); with `pruning`, only those that can be among the caller's best
   * k. At most {@link MAX_MATCH_UNITS} units. Cost: one pass over the postings of every term
   * named, less with pruning.
   */
  gradedMatch(units: readonly GradedUnit[], model: FieldModel, pruning?: Pruning): GradedMatch {
    return gradedMatch(this.view(), this.graded, units, model, pruning);
  }

  /** What a graded match reads: the live postings of a term, field lengths and tombstones. */
  private view(): PostingsView {
    const { offsets, postings, freqs } = this.base;
    return {
      ordinalBound: this.ordinalBound,
      bodyLengths: this.bodyLengths,
      shortLengths: this.shortLengths,
      dead: this.deadCount > 0 ? this.dead : null,
      averages: this.averageLengths(),
      lengthsVersion: this.lengthsVersion,
      postingsOf: (term: string): TermPostings | null => {
        const id = this.dict.get(term);
        if (id === undefined) return null;
        const inBase = id < this.baseTermCount;
        const delta = this.deltaPostings.get(id) ?? null;
        if (!inBase && delta === null) return null;
        return {
          postings,
          freqs,
          start: inBase ? offsets[id] : 0,
          end: inBase ? offsets[id + 1] : 0,
          delta,
          deltaFreqs: delta === null ? null : this.deltaFreqs.get(id)!,
        };
      },
    };
  }

  private setLengths(ordinal: number, lengths: FieldLengths): void {
    if (ordinal >= this.bodyLengths.length) {
      const size = Math.max(ordinal + 1, Math.ceil(this.bodyLengths.length * 1.5));
      this.bodyLengths = growU32(this.bodyLengths, size);
      this.shortLengths = growU32(this.shortLengths, size);
    }
    this.bodyLengths[ordinal] = lengths.body;
    this.shortLengths[ordinal] = packShortLengths(lengths);
    this.countLengths(ordinal, 1);
  }

  /** Adds (`sign` 1) or takes away (-1) section `ordinal`'s lengths from the sums. */
  private countLengths(ordinal: number, sign: 1 | -1): void {
    const l = this.fieldLengths(ordinal);
    for (const f of FIELDS) this.lengthSums[f] += sign * l[f];
    this.lengthsVersion++;
  }

  /** True when live section `ordinal` contains `term`. */
  has(ordinal: number, term: string): boolean {
    const id = this.dict.get(term);
    if (id === undefined) return false;
    const ids = this.deltaSections.get(ordinal);
    if (ids !== undefined) return ids.includes(id);
    if (id >= this.baseTermCount || !this.inLiveBase(ordinal)) return false;
    const { offsets, postings } = this.base;
    let lo = offsets[id];
    let hi = offsets[id + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = postings[mid];
      if (v === ordinal) return true;
      if (v < ordinal) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }

  /** Live sections containing `term`: O(1) without tombstones, O(base postings of term) with. */
  df(term: string): number {
    const id = this.dict.get(term);
    if (id === undefined) return 0;
    let n = this.deltaPostings.get(id)?.length ?? 0;
    if (id < this.baseTermCount) {
      const { offsets, postings } = this.base;
      if (this.deadCount === 0) {
        n += offsets[id + 1] - offsets[id];
      } else {
        for (let k = offsets[id]; k < offsets[id + 1]; k++) n += 1 - isSet(this.dead, postings[k]);
      }
    }
    return n;
  }

  /**
   * This index as an index of only the live sections `inScope` marks (1 at their ordinals): its
   * `sectionCount`, `df` and `averageLengths` count those sections alone, so BM25F weights and
   * normalisation, and every score made from them, are those of an index that holds only them
   * (a workspace folder's sections, ranking/folderScope.ts). Postings and lengths are read from
   * this index, shared: the view is for reading, and valid until this index changes.
   */
  scopedTo(inScope: Uint8Array): PostingsIndex {
    let count = 0;
    const sums = { body: 0, heading: 0, title: 0, context: 0 };
    for (let o = 0; o < inScope.length; o++) {
      if (inScope[o] !== 1 || !this.hasSection(o)) continue;
      count++;
      const l = this.fieldLengths(o);
      for (const f of FIELDS) sums[f] += l[f];
    }
    const counted = new Map<string, number>();
    const df = (term: string): number => {
      let n = counted.get(term);
      if (n !== undefined) return n;
      n = 0;
      const id = this.dict.get(term);
      if (id !== undefined) {
        for (const o of this.deltaPostings.get(id) ?? []) n += inScope[o] === 1 ? 1 : 0;
        if (id < this.baseTermCount) {
          const { offsets, postings } = this.base;
          for (let k = offsets[id]; k < offsets[id + 1]; k++) {
            const o = postings[k];
            if (inScope[o] === 1 && (this.deadCount === 0 || isSet(this.dead, o) === 0)) n++;
          }
        }
      }
      counted.set(term, n);
      return n;
    };
    // Reads go to this index through the prototype; only the corpus's numbers are the scope's.
    const view = Object.create(this) as PostingsIndex;
    Object.defineProperty(view, 'sectionCount', { get: () => count });
    Object.defineProperty(view, 'df', { value: df });
    Object.defineProperty(view, 'averageLengths', {
      value: (): FieldLengths => {
        const n = Math.max(1, count);
        const avg = (sum: number) => (sum > 0 ? sum / n : 1);
        return { body: avg(sums.body), heading: avg(sums.heading), title: avg(sums.title), context: avg(sums.context) };
      },
    });
    return view;
  }

  /**
   * The sections holding at least one unit, with a bit mask of the units each holds. A unit is a
   * list of alternative terms (present when ANY alternative is); unknown terms are ignored.
   * At most {@link MAX_MATCH_UNITS} units: more is a `RangeError` (callers keep the first 32 of a
   * query's units, which `analyzeQuery` returns in order).
   */
  match(units: readonly (readonly string[])[]): MatchResult {
    if (units.length > MAX_MATCH_UNITS) {
      throw new RangeError(`PostingsIndex: match takes at most ${MAX_MATCH_UNITS} units, got ${units.length}`);
    }
    this.graded.ensure(this.ordinalBound);
    const acc = this.graded.acc;
    const touched = this.graded.touched;
    const dead = this.dead;
    const checkDead = this.deadCount > 0;
    const { offsets, postings } = this.base;
    let count = 0;
    for (let j = 0; j < units.length; j++) {
      const bit = 1 << j;
      for (const term of units[j]) {
        const id = this.dict.get(term);
        if (id === undefined) continue;
        if (id < this.baseTermCount) {
          const end = offsets[id + 1];
          for (let k = offsets[id]; k < end; k++) {
            const o = postings[k];
            if (checkDead && isSet(dead, o)) continue;
            const v = acc[o];
            if (v === 0) touched[count++] = o;
            acc[o] = v | bit;
          }
        }
        const list = this.deltaPostings.get(id);
        if (list !== undefined) {
          for (let k = 0; k < list.length; k++) {
            const o = list[k];
            const v = acc[o];
            if (v === 0) touched[count++] = o;
            acc[o] = v | bit;
          }
        }
      }
    }
    return this.collect(count);
  }

  /** True when the delta and tombstones have grown past the threshold (see {@link COMPACT_DELTA_SHARE}). */
  needsCompaction(): boolean {
    const basePostings = this.base.postings.length;
    const perSection = this.base.sectionCount > 0 ? basePostings / this.base.sectionCount : 0;
    const pending = this.deltaPostingCount + this.deadCount * perSection;
    return pending > Math.max(COMPACT_MIN_POSTINGS, COMPACT_DELTA_SHARE * basePostings);
  }

  /** Merges delta and tombstones into a fresh base segment; drops terms no section holds. */
  compact(): void {
    if (!this.isCompact() || this.terms.length > this.baseTermCount) this.load(this.merged());
  }

  /**
   * Estimated bytes held: typed arrays exactly, plus an estimate of the dictionary's and the
   * delta's heap (UTF-16 term text and ~48 bytes per term; ~24 bytes per delta posting with its counts).
   */
  byteSize(): number {
    const { offsets, postings, freqs, present } = this.base;
    let bytes = offsets.byteLength + postings.byteLength + freqs.byteLength + present.byteLength + this.dead.byteLength;
    bytes += this.bodyLengths.byteLength + this.shortLengths.byteLength;
    bytes += this.graded.byteSize();
    bytes += dictionaryBytes(this.termChars, this.terms.length);
    bytes += this.deltaPostingCount * 24 + this.deltaSections.size * 80 + this.deltaPostings.size * 48;
    return bytes;
  }

  private isCompact(): boolean {
    return this.deltaSections.size === 0 && this.deadCount === 0;
  }

  private inLiveBase(ordinal: number): boolean {
    return testBit(this.base.present, ordinal) && !testBit(this.dead, ordinal);
  }

  private load(base: BaseSegment): void {
    this.base = base;
    this.baseTermCount = base.offsets.length - 1;
    this.terms = base.terms.slice(0, this.baseTermCount);
    this.dict = new Map();
    this.termChars = 0;
    for (let id = 0; id < this.terms.length; id++) {
      this.dict.set(this.terms[id], id);
      this.termChars += this.terms[id].length;
    }
    this.dead = new Uint32Array(0);
    this.deadCount = 0;
    this.deltaPostings = new Map();
    this.deltaFreqs = new Map();
    this.deltaSections = new Map();
    this.deltaPostingCount = 0;
    this.ordinalBound = base.ordinalBound;
    this.bodyLengths = base.bodyLengths;
    this.shortLengths = base.shortLengths;
    this.lengthSums = { body: 0, heading: 0, title: 0, context: 0 };
    for (let o = 0; o < base.ordinalBound; o++) if (testBit(base.present, o)) this.countLengths(o, 1);
  }

  /** Copies the touched ordinals and masks out, ascending, and clears the accumulator. */
  private collect(count: number): MatchResult {
    const acc = this.graded.acc;
    const ordinals = new Uint32Array(count);
    const masks = new Uint32Array(count);
    // Sorting `count` ordinals costs ~count*log2(count); one pass over the accumulator costs its
    // length. Broad queries (common terms) take the pass.
    if (count * Math.log2(count + 1) > this.ordinalBound) {
      let i = 0;
      for (let o = 0; o < this.ordinalBound; o++) {
        const v = acc[o];
        if (v !== 0) {
          ordinals[i] = o;
          masks[i++] = v;
          acc[o] = 0;
        }
      }
    } else {
      const touched = sortOrdinals(this.graded.touched.subarray(0, count), this.graded.sortWork);
      for (let i = 0; i < count; i++) {
        const o = touched[i];
        ordinals[i] = o;
        masks[i] = acc[o];
        acc[o] = 0;
      }
    }
    return { ordinals, masks, count };
  }

  /** A fresh base segment holding exactly the live sections. */
  private merged(): BaseSegment {
    const { offsets, postings, freqs, present } = this.base;
    const dead = this.dead;
    const checkDead = this.deadCount > 0;
    const termCount = this.terms.length;
    const lengths = new Uint32Array(termCount);
    for (let id = 0; id < termCount; id++) {
      let n = this.deltaPostings.get(id)?.length ?? 0;
      if (id < this.baseTermCount) {
        if (!checkDead) n += offsets[id + 1] - offsets[id];
        else for (let k = offsets[id]; k < offsets[id + 1]; k++) n += 1 - isSet(dead, postings[k]);
      }
      lengths[id] = n;
    }
    const terms: string[] = [];
    const kept: number[] = [];
    let total = 0;
    for (let id = 0; id < termCount; id++) {
      if (lengths[id] === 0) continue;
      terms.push(this.terms[id]);
      kept.push(id);
      total += lengths[id];
    }
    const newOffsets = new Uint32Array(terms.length + 1);
    const newPostings = new Uint32Array(total);
    const newFreqs = new Uint32Array(total);
    let w = 0;
    for (let t = 0; t < kept.length; t++) {
      const id = kept[t];
      newOffsets[t] = w;
      const list = this.deltaPostings.get(id) ?? [];
      const listFreqs = this.deltaFreqs.get(id) ?? [];
      // Delta postings in ordinal order, their counts alongside.
      const order = list.map((_, i) => i).sort((a, b) => list[a] - list[b]);
      let d = 0;
      if (id < this.baseTermCount) {
        for (let k = offsets[id]; k < offsets[id + 1]; k++) {
          const o = postings[k];
          if (checkDead && isSet(dead, o)) continue;
          while (d < order.length && list[order[d]] < o) {
            newFreqs[w] = listFreqs[order[d]];
            newPostings[w++] = list[order[d++]];
          }
          newFreqs[w] = freqs[k];
          newPostings[w++] = o;
        }
      }
      while (d < order.length) {
        newFreqs[w] = listFreqs[order[d]];
        newPostings[w++] = list[order[d++]];
      }
    }
    newOffsets[terms.length] = w;

    const words = bitsetWords(this.ordinalBound);
    const newPresent = new Uint32Array(words);
    for (let k = 0; k < Math.min(words, present.length); k++) newPresent[k] = present[k] & ~(dead[k] ?? 0);
    for (const o of this.deltaSections.keys()) setBit(newPresent, o);
    let top = words;
    while (top > 0 && newPresent[top - 1] === 0) top--;
    const trimmed = newPresent.slice(0, top);
    const ordinalBound = top === 0 ? 0 : (top - 1) * 32 + (32 - Math.clz32(trimmed[top - 1]));
    const bodyLengths = new Uint32Array(ordinalBound);
    const shortLengths = new Uint32Array(ordinalBound);
    for (let o = 0; o < ordinalBound; o++) {
      if (!testBit(trimmed, o)) continue;
      bodyLengths[o] = this.bodyLengths[o];
      shortLengths[o] = this.shortLengths[o];
    }
    return {
      terms,
      offsets: newOffsets,
      postings: newPostings,
      freqs: newFreqs,
      bodyLengths,
      shortLengths,
      present: trimmed,
      sectionCount: popCount(trimmed),
      ordinalBound,
    };
  }
}

function growU32(array: Uint32Array, size: number): Uint32Array {
  const grown = new Uint32Array(size);
  grown.set(array);
  return grown;
}

/**
 * The id of `term` in a term dictionary (`dict` maps a term to its index in `terms`), added at
 * the end when new. The dictionary keeps a copy of the term: it outlives the caller's text, which
 * a sliced term would keep whole.
 */
export function internTerm(dict: Map<string, number>, terms: string[], term: string): number {
  let id = dict.get(term);
  if (id === undefined) {
    id = terms.length;
    const kept = detach(term);
    dict.set(kept, id);
    terms.push(kept);
  }
  return id;
}

/** A plain list of terms as fields: each occurrence counts once in the body. */
export function toSectionFields(input: SectionFields | Iterable<string>): SectionFields {
  if (isSectionFields(input)) return input;
  const counts = new Map<string, number>();
  let body = 0;
  for (const term of input) {
    counts.set(term, Math.min(PACKED.BODY_MAX, (counts.get(term) ?? 0) + 1));
    body++;
  }
  return { counts, lengths: { body, heading: 0, title: 0, context: 0 } };
}

function isSectionFields(input: SectionFields | Iterable<string>): input is SectionFields {
  return (
    typeof (input as SectionFields).counts === 'object' &&
    (input as SectionFields).counts instanceof Map &&
    typeof (input as SectionFields).lengths === 'object'
  );
}

/**
 * Bit `i` of a tombstone set as 0 or 1. Local rather than `segment.testBit` for the loops over
 * postings: an imported function is read through a getter under a CommonJS transform (tsx).
 */
function isSet(bits: Uint32Array, i: number): number {
  return ((bits[i >>> 5] ?? 0) >>> (i & 31)) & 1;
}
