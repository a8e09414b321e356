/**
 * Splits text into word and identifier tokens with their character offsets (docs/ARCHITECTURE.md, "Text analysis and candidates").
 *
 * - A plain word is a run of word characters: ASCII letters and digits, and any Unicode letter,
 *   number or combining mark. A run of CJK characters is one token (no word segmentation).
 * - An identifier is kept whole: runs of word characters joined by one of `-` `_` `.` `:` `/`
 *   with a word character on both sides (`billing-worker`, `state.run.failed`,
 *   `component:default/api`, `snake_case`, `v1.2.3`), plus `://` so URLs stay one token
 *   (`https://backstage.io/docs`; a query string `?a=b` is not joined). A run with an inner
 *   capital (`invoiceApi`, `HTTPServer`, `http2Server`) is an identifier too, except a plural
 *   acronym (`APIs`, `IDs`), which is a plain word.
 * - A connector with nothing after it is punctuation, so `billing-worker.` ends before the dot
 *   and `--force` starts at `force`.
 * - An apostrophe (`'` or `’`) between word characters stays inside the word (`don't`, `isn't`),
 *   except a possessive `'s`, which ends the token and is dropped (`billing-worker's` ->
 *   `billing-worker`, `team's` -> `team`).
 *
 * Offsets are UTF-16 code-unit indices into the input (`text.slice(start, end)` is the token).
 * The scan is a single left-to-right pass with no regular expression on ASCII input.
 */
import * as charClass from './charClass';

// Local bindings on purpose: under a CommonJS transform (tsx, mocha) every imported name is read
// through a getter, which costs more than the rest of the scan when done once per character.
const { DIGIT, LETTER, LOWER, OTHER, UPPER, asciiClass, isPluralAcronym, wordCharWidth } = charClass;

export type TokenKind = 'word' | 'identifier';

export interface Token {
  /** The token exactly as written. */
  text: string;
  /** Offset of the first code unit. */
  start: number;
  /** Offset just past the last code unit. */
  end: number;
  kind: TokenKind;
}

/** Receives each token's span; `identifier` is true for identifiers (see the module notes). */
export type TokenVisitor = (start: number, end: number, identifier: boolean) => void;

const HYPHEN = 45;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const UNDERSCORE = 95;
const APOSTROPHE = 39;
const RIGHT_QUOTE = 0x2019;

/** All tokens of `text`, in order. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  scanTokens(text, (start, end, identifier) => {
    tokens.push({ text: text.slice(start, end), start, end, kind: identifier ? 'identifier' : 'word' });
  });
  return tokens;
}

/** The allocation-free form of {@link tokenize}: calls `visit` with each token's span. */
export function scanTokens(text: string, visit: TokenVisitor): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const first = wordCharWidth(text, i);
    if (first === 0) {
      i++;
      continue;
    }
    const start = i;
    let end = i;
    let identifier = false;
    let camel = false;
    // Classes of the previous two characters, for camelCase detection: a lower-case letter after
    // an upper-case one, or an upper-case letter followed by a lower-case one after another
    // capital or a digit ("HTTPServer", "http2Server"), marks an inner capital.
    let p1 = OTHER;
    let p2 = OTHER;
    for (;;) {
      while (i < n) {
        const c = text.charCodeAt(i);
        let cls: number;
        if (c < 128) {
          cls = asciiClass(c);
          if (cls === OTHER) break;
          i++;
        } else {
          const w = wordCharWidth(text, i);
          if (w === 0) break;
          cls = LETTER;
          i += w;
        }
        if (!camel) {
          if (cls === UPPER) camel = p1 === LOWER;
          else if (cls === LOWER && p1 === UPPER) camel = p2 === UPPER || p2 === DIGIT;
        }
        p2 = p1;
        p1 = cls;
      }
      end = i;
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === HYPHEN || c === UNDERSCORE || c === DOT || c === COLON || c === SLASH) {
        if (
          c === COLON &&
          text.charCodeAt(i + 1) === SLASH &&
          text.charCodeAt(i + 2) === SLASH &&
          wordCharWidth(text, i + 3) > 0
        ) {
          i += 3;
        } else if (wordCharWidth(text, i + 1) > 0) {
          i += 1;
        } else {
          break;
        }
        identifier = true;
        p1 = p2 = OTHER;
        continue;
      }
      if ((c === APOSTROPHE || c === RIGHT_QUOTE) && wordCharWidth(text, i + 1) > 0) {
        const s = text.charCodeAt(i + 1);
        if ((s === 115 || s === 83) && wordCharWidth(text, i + 2) === 0) {
          i += 2; // possessive: drop the `'s`, the token ends before the apostrophe
          break;
        }
        i += 1;
        p1 = p2 = OTHER;
        continue;
      }
      break;
    }
    if (camel && !identifier && isPluralAcronym(text, start, end)) camel = false;
    visit(start, end, identifier || camel);
  }
}
