/**
 * The immutable base segment of a postings index, and the bit sets used beside it.
 *
 * A segment is one term dictionary (`terms[id]`) plus one concatenated `Uint32Array` of postings:
 * term `id`'s section ordinals are `postings[offsets[id] .. offsets[id + 1])`, sorted ascending,
 * without duplicates. `present` marks every ordinal the segment holds, including sections that
 * produced no terms, so section counts and removals stay exact. Beside each posting, `freqs`
 * holds the term's packed frequency in each field of that section (fields.ts), and beside each
 * ordinal, `bodyLengths` and `shortLengths` hold the section's field lengths: what BM25F needs.
 */

export interface BaseSegment {
  /** Term of each term id. */
  terms: string[];
  /** `terms.length + 1` offsets into `postings`. */
  offsets: Uint32Array;
  /** Every term's sorted ordinals, concatenated. */
  postings: Uint32Array;
  /** `freqs[k]`: packed field counts (fields.ts `packCounts`) of posting `k`. */
  freqs: Uint32Array;
  /** Body length in terms, by ordinal (`ordinalBound` entries). */
  bodyLengths: Uint32Array;
  /** Heading, title and context lengths packed (fields.ts `packShortLengths`), by ordinal. */
  shortLengths: Uint32Array;
  /** Bit set of the ordinals held (bit `o` of word `o >>> 5`). */
  present: Uint32Array;
  /** Ordinals held (population count of `present`). */
  sectionCount: number;
  /** One more than the largest ordinal held (0 when empty). */
  ordinalBound: number;
}

export function emptySegment(): BaseSegment {
  return {
    terms: [],
    offsets: new Uint32Array(1),
    postings: new Uint32Array(0),
    freqs: new Uint32Array(0),
    bodyLengths: new Uint32Array(0),
    shortLengths: new Uint32Array(0),
    present: new Uint32Array(0),
    sectionCount: 0,
    ordinalBound: 0,
  };
}

/** Largest ordinal accepted: 2^32 - 2, so `ordinal + 1` still fits a uint32 bound. */
export const MAX_ORDINAL = 0xfffffffe;

export function checkOrdinal(ordinal: number, who: string): void {
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal > MAX_ORDINAL) {
    throw new RangeError(`${who}: ordinal must be an integer in 0..${MAX_ORDINAL}, got ${ordinal}`);
  }
}

export function bitsetWords(bound: number): number {
  return (bound + 31) >>> 5;
}

export function testBit(bits: Uint32Array, i: number): boolean {
  const w = i >>> 5;
  return w < bits.length && ((bits[w] >>> (i & 31)) & 1) === 1;
}

export function setBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5] |= 1 << (i & 31);
}

export function clearBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5] &= ~(1 << (i & 31));
}

/** `bits` grown (copied) so that bit `i` fits; the same array when it already does. */
export function growBitset(bits: Uint32Array, i: number): Uint32Array {
  const need = (i >>> 5) + 1;
  if (need <= bits.length) return bits;
  const grown = new Uint32Array(Math.max(need, bits.length * 2));
  grown.set(bits);
  return grown;
}

export function popCount(bits: Uint32Array): number {
  let n = 0;
  for (let k = 0; k < bits.length; k++) {
    let v = bits[k];
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return n;
}

/** Estimated heap bytes of a term dictionary: UTF-16 text plus `Map` entry and string headers. */
export function dictionaryBytes(termChars: number, termCount: number): number {
  return termChars * 2 + termCount * DICTIONARY_ENTRY_OVERHEAD;
}

/** Approximate V8 cost per dictionary term beyond its characters (string header, Map slot, array slot). */
const DICTIONARY_ENTRY_OVERHEAD = 48;
