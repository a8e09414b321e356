/**
 * Binary snapshot of a postings base segment: loads in milliseconds where a JSON index takes
 * seconds (notes/performance.md), because the arrays are read back as views, not parsed.
 *
 * Layout, all little-endian uint32 words (format version 2):
 *
 *   0  magic 0x49505357 ("WSPI")     4  ordinalBound
 *   1  version (2)                   5  present bit-set words
 *   2  term count T                  6  total UTF-16 length of all terms
 *   3  postings length P             7  UTF-8 byte length B of the term text
 *   offsets[T + 1] | postings[P] | freqs[P] | bodyLengths[ordinalBound] |
 *   shortLengths[ordinalBound] | present[...] | term lengths in UTF-16 units [T] |
 *   term text, UTF-8, concatenated [B bytes] | zero padding to a multiple of 4
 *
 * Version 2 added the per-posting field counts and the per-section field lengths (BM25F);
 * a version 1 snapshot is refused, and the caller rebuilds.
 *
 * Decoding checks the header, every length against the buffer, that offsets never decrease,
 * that each term's postings ascend and stay below `ordinalBound`, and that the text decodes to
 * exactly the recorded lengths; anything else is an `Error` starting `PostingsIndex:` (callers
 * rebuild from sources). The decoded index keeps views on `bytes` when it is 4-byte aligned: do
 * not reuse the buffer afterwards.
 */
import { type BaseSegment, popCount } from './segment';

const MAGIC = 0x49505357;
export const POSTINGS_FORMAT_VERSION = 2;
const HEADER_WORDS = 8;

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function encodeSegment(segment: BaseSegment): Uint8Array {
  assertLittleEndian();
  const termCount = segment.offsets.length - 1;
  const terms = segment.terms.slice(0, termCount);
  const text = terms.join('');
  const textBytes = new TextEncoder().encode(text);
  const wordsBefore =
    HEADER_WORDS +
    (termCount + 1) +
    2 * segment.postings.length +
    2 * segment.ordinalBound +
    segment.present.length +
    termCount;
  const totalBytes = wordsBefore * 4 + Math.ceil(textBytes.length / 4) * 4;
  const out = new Uint8Array(totalBytes);
  const words = new Uint32Array(out.buffer, 0, wordsBefore);
  words.set([
    MAGIC,
    POSTINGS_FORMAT_VERSION,
    termCount,
    segment.postings.length,
    segment.ordinalBound,
    segment.present.length,
    text.length,
    textBytes.length,
  ]);
  let w = HEADER_WORDS;
  words.set(segment.offsets, w);
  w += termCount + 1;
  words.set(segment.postings, w);
  w += segment.postings.length;
  words.set(segment.freqs, w);
  w += segment.postings.length;
  words.set(segment.bodyLengths.subarray(0, segment.ordinalBound), w);
  w += segment.ordinalBound;
  words.set(segment.shortLengths.subarray(0, segment.ordinalBound), w);
  w += segment.ordinalBound;
  words.set(segment.present, w);
  w += segment.present.length;
  for (let t = 0; t < termCount; t++) words[w++] = terms[t].length;
  out.set(textBytes, w * 4);
  return out;
}

export function decodeSegment(bytes: Uint8Array): BaseSegment {
  assertLittleEndian();
  if (bytes.byteLength < HEADER_WORDS * 4) fail('snapshot is shorter than its header');
  // Typed-array views need 4-byte alignment; copy only when the caller's buffer lacks it.
  const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const totalWords = data.byteLength >>> 2;
  const all = new Uint32Array(data.buffer, data.byteOffset, totalWords);
  if (all[0] !== MAGIC) fail('not a postings snapshot (bad magic number)');
  if (all[1] !== POSTINGS_FORMAT_VERSION) {
    fail(`snapshot format version ${all[1]} is not supported (expected ${POSTINGS_FORMAT_VERSION})`);
  }
  const [termCount, postingsLength, ordinalBound, presentWords, textChars, textBytes] = all.subarray(2, 8);
  const wordsBefore = HEADER_WORDS + termCount + 1 + 2 * postingsLength + 2 * ordinalBound + presentWords + termCount;
  if (wordsBefore * 4 + textBytes > data.byteLength) fail('snapshot is truncated');

  let w = HEADER_WORDS;
  const offsets = all.subarray(w, (w += termCount + 1));
  const postings = all.subarray(w, (w += postingsLength));
  const freqs = all.subarray(w, (w += postingsLength));
  const bodyLengths = all.subarray(w, (w += ordinalBound));
  const shortLengths = all.subarray(w, (w += ordinalBound));
  const present = all.subarray(w, (w += presentWords));
  const lengths = all.subarray(w, (w += termCount));

  if (offsets[0] !== 0 || offsets[termCount] !== postingsLength) fail('postings offsets do not add up');
  for (let t = 0; t < termCount; t++) {
    const from = offsets[t];
    const to = offsets[t + 1];
    if (to < from || to > postingsLength) fail(`postings offsets decrease at term ${t}`);
    let prev = -1;
    for (let k = from; k < to; k++) {
      const o = postings[k];
      if (o <= prev || o >= ordinalBound)
        fail(`postings of term ${t} are not ascending ordinals below ${ordinalBound}`);
      prev = o;
    }
  }

  const text = new TextDecoder('utf-8', { fatal: false }).decode(data.subarray(w * 4, w * 4 + textBytes));
  if (text.length !== textChars) fail('term text does not match its recorded length');
  const terms: string[] = new Array(termCount);
  let at = 0;
  for (let t = 0; t < termCount; t++) {
    terms[t] = text.slice(at, (at += lengths[t]));
  }
  if (at !== textChars) fail('term lengths do not add up');

  return {
    terms,
    offsets,
    postings,
    freqs,
    bodyLengths,
    shortLengths,
    present,
    sectionCount: popCount(present),
    ordinalBound,
  };
}

function assertLittleEndian(): void {
  if (!littleEndian) throw new Error('PostingsIndex: snapshots need a little-endian host');
}

function fail(message: string): never {
  throw new Error(`PostingsIndex: ${message}`);
}
