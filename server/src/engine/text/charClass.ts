/**
 * Character classes shared by the tokenizer and the identifier splitter.
 *
 * ASCII is classified by table lookup; other characters are word characters when they are
 * Unicode letters, numbers or combining marks (`\p{L}\p{N}\p{M}`), memoised per BMP code unit so
 * the regular expression runs at most once per distinct character.
 */

export const OTHER = 0;
export const LOWER = 1;
export const UPPER = 2;
export const DIGIT = 3;
/** A non-ASCII word character (no case rules are applied to it). */
export const LETTER = 4;

export type CharClass = typeof OTHER | typeof LOWER | typeof UPPER | typeof DIGIT | typeof LETTER;

const ASCII = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII[c] = DIGIT;
for (let c = 65; c <= 90; c++) ASCII[c] = UPPER;
for (let c = 97; c <= 122; c++) ASCII[c] = LOWER;

const WORD_RE = /^[\p{L}\p{N}\p{M}]$/u;
/** BMP memo: 0 unknown, 1 word character, 2 not. */
const BMP = new Uint8Array(65536);

/** ASCII class of a code unit (`OTHER` for anything non-ASCII). */
export function asciiClass(code: number): CharClass {
  return code < 128 ? (ASCII[code] as CharClass) : OTHER;
}

/**
 * Width in code units (1 or 2) of the word character starting at `i`, or 0 when the character
 * there is not a word character (or `i` is past the end).
 */
export function wordCharWidth(text: string, i: number): number {
  if (i >= text.length) return 0;
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII[c] === OTHER ? 0 : 1;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = text.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return 0;
    const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    return WORD_RE.test(String.fromCodePoint(cp)) ? 2 : 0;
  }
  let v = BMP[c];
  if (v === 0) {
    v = WORD_RE.test(String.fromCharCode(c)) ? 1 : 2;
    BMP[c] = v;
  }
  return v === 1 ? 1 : 0;
}

/**
 * True for an all-capitals acronym with a plural `s` (`APIs`, `IDs`, `URLs`): read as a plain
 * word, not as camelCase, so it analyses like `apis` rather than splitting into `AP` + `Is`.
 */
export function isPluralAcronym(text: string, start: number, end: number): boolean {
  if (end - start < 3 || text.charCodeAt(end - 1) !== 115) return false;
  for (let i = start; i < end - 1; i++) if (asciiClass(text.charCodeAt(i)) !== UPPER) return false;
  return true;
}

/**
 * True when a camelCase boundary falls before index `i` of a run of word characters
 * `[start, end)`: `invoice|Api`, `HTTP|Server`, `http2|Server`. Letter-to-digit is never a
 * boundary (`sha256`, `v2`), nor is a plural acronym's `s` (`listAPIs` -> `list|APIs`), nor
 * anything about non-ASCII letters (no case rules for them here).
 */
export function isCamelBoundary(text: string, i: number, start: number, end: number): boolean {
  if (i <= start || i >= end) return false;
  const cur = asciiClass(text.charCodeAt(i));
  if (cur !== UPPER) return false;
  const prev = asciiClass(text.charCodeAt(i - 1));
  if (prev === LOWER) return true;
  if (prev !== UPPER && prev !== DIGIT) return false;
  if (!(i + 1 < end && asciiClass(text.charCodeAt(i + 1)) === LOWER)) return false;
  // `listAPIs`: a final plural `s` after capitals is not the start of a new word.
  return !(prev === UPPER && i + 2 === end && text.charCodeAt(i + 1) === 115);
}
