/**
 * The compact postings index: the hot path of candidate narrowing (DESIGN.md section 4).
 *
 * `workspace_context` scores a passage's words as the fraction of the query's units it contains,
 * a set test over the section's terms, so the index answers one question fast: which sections
 * hold which of these units. It stores, per term, the sorted section ordinals (uint32) that
 * contain it; nothing about frequencies or positions.
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
import { encodeSegment, decodeSegment } from './postingsCodec';
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

/** Most units one `match` call accepts: one bit each in a 32-bit mask. */
export const MAX_MATCH_UNITS = 32;

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
  private deltaPostingCount = 0;
  private ordinalBound = 0;
  private acc: Uint32Array = new Uint32Array(0);
  private touched: Uint32Array = new Uint32Array(0);

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
   * Indexes section `ordinal` with `terms` (duplicates allowed), replacing what it held before.
   * Goes to the delta; cost is proportional to the number of terms.
   */
  add(ordinal: number, terms: Iterable<string>): void {
    checkOrdinal(ordinal, 'PostingsIndex');
    // Read the terms before changing anything, so a throwing iterable leaves the index as it was.
    const list = Array.isArray(terms) ? (terms as readonly string[]) : [...terms];
    this.remove(ordinal);
    const ids: number[] = [];
    for (const term of list) {
      let id = this.dict.get(term);
      if (id === undefined) {
        id = this.terms.length;
        const kept = detach(term); // the dictionary outlives the caller's text
        this.dict.set(kept, id);
        this.terms.push(kept);
        this.termChars += term.length;
      }
      let ordinals = this.deltaPostings.get(id);
      if (ordinals === undefined) {
        ordinals = [];
        this.deltaPostings.set(id, ordinals);
      } else if (ordinals[ordinals.length - 1] === ordinal) {
        continue; // this term already came earlier in the same section
      }
      ordinals.push(ordinal);
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
        list.splice(list.lastIndexOf(ordinal), 1);
        if (list.length === 0) this.deltaPostings.delete(ids[k]);
      }
      this.deltaPostingCount -= ids.length;
      this.deltaSections.delete(ordinal);
      removed = true;
    }
    if (this.inLiveBase(ordinal)) {
      this.dead = growBitset(this.dead, ordinal);
      setBit(this.dead, ordinal);
      this.deadCount++;
      removed = true;
    }
    return removed;
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
   * The sections holding at least one unit, with a bit mask of the units each holds. A unit is a
   * list of alternative terms (present when ANY alternative is); unknown terms are ignored.
   * At most {@link MAX_MATCH_UNITS} units: more is a `RangeError` (callers keep the first 32 of a
   * query's units, which `analyzeQuery` returns in order).
   */
  match(units: readonly (readonly string[])[]): MatchResult {
    if (units.length > MAX_MATCH_UNITS) {
      throw new RangeError(`PostingsIndex: match takes at most ${MAX_MATCH_UNITS} units, got ${units.length}`);
    }
    this.ensureScratch();
    const acc = this.acc;
    const touched = this.touched;
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
   * delta's heap (UTF-16 term text and ~48 bytes per term; ~12 bytes per delta posting).
   */
  byteSize(): number {
    const { offsets, postings, present } = this.base;
    let bytes = offsets.byteLength + postings.byteLength + present.byteLength + this.dead.byteLength;
    bytes += this.acc.byteLength + this.touched.byteLength;
    bytes += dictionaryBytes(this.termChars, this.terms.length);
    bytes += this.deltaPostingCount * 12 + this.deltaSections.size * 80 + this.deltaPostings.size * 48;
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
    this.deltaSections = new Map();
    this.deltaPostingCount = 0;
    this.ordinalBound = base.ordinalBound;
  }

  private ensureScratch(): void {
    if (this.acc.length < this.ordinalBound) {
      // Grow with headroom so a stream of adds does not reallocate on every match.
      const size = Math.max(this.ordinalBound, Math.ceil(this.acc.length * 1.5));
      this.acc = new Uint32Array(size);
      this.touched = new Uint32Array(size);
    }
  }

  /** Copies the touched ordinals and masks out, ascending, and clears the accumulator. */
  private collect(count: number): MatchResult {
    const acc = this.acc;
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
      const touched = this.touched.subarray(0, count).sort();
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
    const { offsets, postings, present } = this.base;
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
    let w = 0;
    for (let t = 0; t < kept.length; t++) {
      const id = kept[t];
      newOffsets[t] = w;
      const list = this.deltaPostings.get(id);
      const delta = list === undefined ? EMPTY_U32 : Uint32Array.from(list).sort();
      let d = 0;
      if (id < this.baseTermCount) {
        for (let k = offsets[id]; k < offsets[id + 1]; k++) {
          const o = postings[k];
          if (checkDead && isSet(dead, o)) continue;
          while (d < delta.length && delta[d] < o) newPostings[w++] = delta[d++];
          newPostings[w++] = o;
        }
      }
      while (d < delta.length) newPostings[w++] = delta[d++];
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
    return {
      terms,
      offsets: newOffsets,
      postings: newPostings,
      present: trimmed,
      sectionCount: popCount(trimmed),
      ordinalBound,
    };
  }
}

const EMPTY_U32 = new Uint32Array(0);

/**
 * Bit `i` of a tombstone set as 0 or 1. Local rather than `segment.testBit` for the loops over
 * postings: an imported function is read through a getter under a CommonJS transform (tsx).
 */
function isSet(bits: Uint32Array, i: number): number {
  return ((bits[i >>> 5] ?? 0) >>> (i & 31)) & 1;
}
