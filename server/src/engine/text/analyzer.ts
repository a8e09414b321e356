/**
 * The one text analysis used for documents AND queries (docs/ARCHITECTURE.md, "Text analysis and candidates"), so a query term can
 * only ever be compared with index terms made the same way.
 *
 * - A plain word is lower-cased; a stop word is dropped; a word of ASCII letters only is reduced
 *   to its Porter stem (`retries` -> `retri`, `workers` -> `worker`). A word with a digit is never
 *   stemmed (`sha256`, `v2`, `http2`), nor is a word with other letters (`straße`, `naïve`,
 *   `don't`): Porter's rules are for English words.
 * - An identifier (see `tokenize`) gives its whole lower-cased form, never stemmed
 *   (`billing-worker`), AND each of its parts analysed as a plain word: stemmed unless it has a
 *   digit, stop-word parts and one-character parts dropped. So "workers" reaches a section that
 *   says `billing-worker` (part `worker`) and `billing-worker` reaches it through its whole form.
 * - Two runs of letters joined by one hyphen or by a camelCase capital also give the word they
 *   join to, analysed as a word (`re-reading` -> `reread`, `built-in` -> `builtin`, `camelCase`
 *   -> `camelcas`, `WebSockets` -> `websocket`), not counted in the field's length;
 *   workspace_context keys a question's such word by it (ranking/questionUnits.ts), so every
 *   spelling meets the others.
 * - Terms longer than {@link MAX_TERM_LENGTH} characters (encoded blobs, minified text) are not
 *   indexed.
 *
 * Hot path: the analysis of each distinct surface token is memoised in a table looked up by the
 * token's characters in place (`tokenMemo.ts`), so a token costs one scan and one probe with no
 * allocation (scripts/bench-lexical.ts: 100k sections of ~150 words in ~7 s on a busy 2-core
 * machine, ~0.2 us per token).
 */
import { detach } from './detach';
import { identifierParts } from './identifiers';
import { askedPath, forEachMarkedPath, keyPathSegments, PLACEHOLDER, type AskedPath } from './keyPaths';
import { porterStem } from './porter';
import { STOP_WORDS } from './stopWords';
import { TokenMemo } from './tokenMemo';
import { scanTokens } from './tokenize';

/** Longest term indexed, in UTF-16 code units. 128 keeps URLs and digests, drops blobs. */
export const MAX_TERM_LENGTH = 128;

/** One distinct unit of a query. */
export interface QueryTerm {
  /** The index term to look up: a plain word's stem, an identifier's whole lower-cased form. */
  key: string;
  /** The token as the query wrote it (its first occurrence). */
  surface: string;
  isIdentifier: boolean;
  /**
   * An identifier's analysed parts (stemmed, stop words and one-character parts dropped,
   * distinct, in order; never the key itself): what a ranker may fall back to when the whole form
   * is absent. Empty for plain words.
   */
  parts: string[];
  /**
   * When the identifier is a dotted key path (`spec.privateKey.rotationPolicy`, `solvers[].http01`,
   * `steps.<name>.when`): its segments and the trailing forms it may match by (text/keyPaths.ts).
   */
  path?: AskedPath;
  /**
   * Two words of the question the workspace writes as one (text/compounds.ts): the key is the
   * joined word and the parts are the two words, which count as much as it does.
   */
  compound?: boolean;
  /**
   * A hyphenated or camelCase word keyed by the word it joins to (ranking/questionUnits.ts
   * `keyedByJoinedWords`): where the workspace writes it neither way, it is its two words written
   * apart, weighed and matched as a compound.
   */
  hyphenated?: boolean;
}

const EMPTY: readonly string[] = Object.freeze([]);
/**
 * Analysed terms per surface token. The tokenizer's word/identifier decision depends only on the
 * token's own characters, so the surface alone is a sound key.
 */
const memo = new TokenMemo<readonly string[]>();
// Read once: under a CommonJS transform (tsx) an imported name is a getter on every use.
const hashChars = TokenMemo.hash;

/**
 * The index term of a plain word, or null when it is a stop word or too long.
 * `analyzeWord('Workers')` is `'worker'`; `analyzeWord('SHA256')` is `'sha256'`.
 */
export function analyzeWord(word: string): string | null {
  let lower = word.toLowerCase();
  if (lower.length > MAX_TERM_LENGTH) return null;
  if (lower.includes('’')) lower = lower.replace(/’/g, "'");
  if (STOP_WORDS.has(lower)) return null;
  return isAsciiLetters(lower) ? porterStem(lower) : lower;
}

/** The distinct index terms of one token: whole form first for identifiers, then its parts. */
export function analyzeToken(surface: string, identifier: boolean): readonly string[] {
  return termsAt(surface, 0, surface.length, identifier);
}

/** Calls `visit` with every index term occurrence of `text`, in order, duplicates included. */
export function forEachTerm(text: string, visit: (term: string) => void): void {
  scanTokens(text, (start, end, identifier) => {
    const terms = termsAt(text, start, end, identifier);
    for (let k = 0; k < terms.length; k++) visit(terms[k]);
  });
}

/**
 * Calls `visit` with every token of `text`, in order, as the value `map` gives its index terms
 * (what `forEachTerm` would visit of that token, in that order), mapped once per distinct token and
 * kept in the caller's own `memo`: a caller that wants numbers for terms (a term worker's ids,
 * indexing/termWorker.ts) pays one lookup by the token's characters per token, nothing per term.
 * A value must stay valid for as long as `memo` keeps it.
 */
export function forEachTokenValue<V>(
  text: string,
  values: TokenMemo<V>,
  map: (terms: readonly string[]) => V,
  visit: (value: V) => void,
): void {
  scanTokens(text, (start, end, identifier) => {
    const hash = hashChars(text, start, end);
    let value = values.get(text, start, end, hash);
    if (value === undefined) {
      value = map(termsAt(text, start, end, identifier, hash));
      values.set(detach(text.slice(start, end)), hash, value);
    }
    visit(value);
  });
}

/** The memoised terms of the token `text[start, end)` (whose hash `hash` is, when known); a hit allocates nothing. */
function termsAt(
  text: string,
  start: number,
  end: number,
  identifier: boolean,
  hash = hashChars(text, start, end),
): readonly string[] {
  const cached = memo.get(text, start, end, hash);
  if (cached !== undefined) return cached;
  const surface = detach(text.slice(start, end));
  let terms: readonly string[];
  if (identifier) {
    const whole = wholeForm(surface);
    // `e.g` and `i.e` scan as identifiers; they are stop words all the same.
    const list = whole.length <= MAX_TERM_LENGTH && !STOP_WORDS.has(whole) ? [whole] : [];
    for (const part of partTerms(surface)) if (!list.includes(part)) list.push(part);
    const joined = joinedWord(surface);
    if (joined !== null && !list.includes(joined)) {
      list.push(joined);
      endsWithJoinedWord.add(list);
    }
    terms = list;
  } else {
    const term = analyzeWord(surface);
    terms = term === null ? EMPTY : [term];
  }
  memo.set(surface, hash, terms);
  return terms;
}

/**
 * Token term lists whose last term is the token's joined word (`re-reading` -> `reread`): another
 * spelling of the token, not one more word of the text, so it is not counted in a field's length
 * (a section's length normalisation is what it was before the spelling was indexed).
 */
const endsWithJoinedWord = new WeakSet<readonly string[]>();

/** How many of a token's terms (as {@link forEachTokenTerms} gives them) count in its field's length. */
export function countedLength(terms: readonly string[]): number {
  return endsWithJoinedWord.has(terms) ? terms.length - 1 : terms.length;
}

/**
 * How many distinct terms a title (or any set of distinct terms) counts for its length: its terms
 * less the joined words of its hyphenated and camelCase words (`built-in` gives `builtin`,
 * `camelCase` gives `camelcas`: one word spelled two ways), so a title is as long as it was before
 * the joined spelling was indexed.
 */
export function countedTermCount(terms: Iterable<string>): number {
  const set = terms instanceof Set ? (terms as ReadonlySet<string>) : new Set(terms);
  let joinedWords: Set<string> | null = null;
  for (const term of set) {
    const joined = term.includes('-') ? joinedWord(term) : camelWholeJoinedWord(term, set);
    if (joined === null || joined === term || !set.has(joined)) continue;
    (joinedWords ??= new Set()).add(joined);
  }
  return set.size - (joinedWords?.size ?? 0);
}

/** Calls `visit` with each token's index terms (what `forEachTerm` visits of it), in order. */
export function forEachTokenTerms(text: string, visit: (terms: readonly string[]) => void): void {
  scanTokens(text, (start, end, identifier) => {
    const terms = termsAt(text, start, end, identifier);
    if (terms.length > 0) visit(terms);
  });
}

/** The distinct index terms of `text`, in order of first occurrence. */
export function analyzeText(text: string): string[] {
  return [...termSet(text)];
}

/** The distinct index terms of `text` (insertion order is first occurrence). */
export function termSet(text: string): Set<string> {
  const set = new Set<string>();
  forEachTerm(text, (term) => set.add(term));
  return set;
}

/** How many times each index term occurs in `text` (an identifier counts for each of its terms). */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  forEachTerm(text, (term) => counts.set(term, (counts.get(term) ?? 0) + 1));
  return counts;
}

/**
 * The query's distinct units, in order: one per plain word (keyed by its stem) and one per
 * identifier (keyed by its whole lower-cased form). Stop words are dropped; a unit whose key
 * repeats an earlier one is dropped. A dotted key path is one identifier even when written with
 * array marks or placeholders (`spec.acme.solvers[].http01.ingress`, key
 * `spec.acme.solvers.http01.ingress`), and carries its segments (`path`). "Who owns billing-worker?" gives
 * `[{ key: 'own', surface: 'owns' }, { key: 'billing-worker', parts: ['bill', 'worker'] }]`.
 */
export function analyzeQuery(text: string): QueryTerm[] {
  const found: { start: number; term: QueryTerm }[] = [];
  const seen = new Set<string>();
  const add = (start: number, term: QueryTerm) => {
    // A word's stop-word test is on its surface (analyzeWord); an identifier's on its whole form (`e.g`).
    if (seen.has(term.key) || (term.isIdentifier && STOP_WORDS.has(term.key))) return;
    seen.add(term.key);
    found.push({ start, term });
  };
  // Paths with array marks or placeholders first (`solvers[].http01`, `steps.<name>.when`): the
  // tokenizer would split them. Their spans are blanked for the scan below.
  let rest = text;
  forEachMarkedPath(text, (start, end, segments) => {
    rest = rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end);
    const path = askedPath(segments);
    const written = segments.filter((s) => s !== PLACEHOLDER).join('.');
    const parts = partTerms(written).filter((p) => p !== path.whole);
    add(start, { key: path.whole, surface: text.slice(start, end), isIdentifier: true, parts: distinct(parts), path });
  });
  scanTokens(rest, (start, end, identifier) => {
    const surface = rest.slice(start, end);
    if (identifier) {
      const key = wholeForm(surface);
      const parts = distinct(partTerms(surface).filter((part) => part !== key));
      const segments = surface.includes('.') ? keyPathSegments(surface) : null;
      add(start, { key, surface, isIdentifier: true, parts, ...(segments ? { path: askedPath(segments) } : {}) });
    } else {
      const key = analyzeWord(surface);
      if (key !== null) add(start, { key, surface, isIdentifier: false, parts: [] });
    }
  });
  return found.sort((a, b) => a.start - b.start).map((f) => f.term);
}

/**
 * The index term of one key-path segment as written (`privateKey` -> `privatekey`, `format_overrides`
 * -> `format_overrides`, `servers` -> `server`): the term a section holding it alone has. Null for
 * a stop word or a placeholder.
 */
export function segmentTerm(segment: string): string | null {
  if (segment === PLACEHOLDER) return null;
  return analyzeQuery(segment)[0]?.key ?? null;
}

function distinct(terms: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of terms) if (!out.includes(t)) out.push(t);
  return out;
}

/**
 * Two runs of letters joined by one hyphen: `re-reading`, `built-in`, `load-balanced`. A longer
 * chain (`link-workspace-packages`, `out-of-the-box`) is a name or a phrase, not a word.
 */
const HYPHENATED_WORD = /^[A-Za-z]+-[A-Za-z]+$/;

/**
 * The word a hyphenated word or a two-part camelCase word joins to, analysed as a word
 * (`re-reading` -> `reread`, `built-in` -> `builtin`, `camelCase` -> `camelcas`, `macOS` ->
 * `maco`), or null for any other token. English writes many words more than one way ("re-read"
 * and "reread", "sub-command" and "subcommand", "camelCase" and "camelcase", "WebSockets" and
 * "websockets"), and a question and a page need not agree: a section holding the written word
 * also holds this term, and a question's such word is looked up by it, so every spelling meets
 * the others (`node-linker` and `nodeLinker` both give `nodelink`). A camelCase name of three
 * parts or more (`ignoreRestSiblings`) is a name, as a longer hyphen chain is; where the joined
 * word is the whole form itself (`GitHub` -> `github`) there is nothing to add.
 */
export function joinedWord(surface: string): string | null {
  if (HYPHENATED_WORD.test(surface)) return analyzeWord(surface.replace(/-/g, ''));
  if (LETTERS_ONLY.test(surface) && identifierParts(surface).length === 2) return analyzeWord(surface);
  return null;
}

const LETTERS_ONLY = /^[A-Za-z]+$/;

/**
 * The joined word of `term` when it is the whole form of a two-part camelCase word of `set` (a
 * title's terms: `camelcase` beside its parts `camel` and `case` gives `camelcas`), else null. A
 * set holds no surfaces, so the whole form is told from a stem by its two parts being there too.
 */
function camelWholeJoinedWord(term: string, set: ReadonlySet<string>): string | null {
  if (!LETTERS_ONLY.test(term)) return null;
  const joined = analyzeWord(term);
  if (joined === null || joined === term || !set.has(joined)) return null;
  for (let i = 2; i <= term.length - 2; i++) {
    const first = analyzeWord(term.slice(0, i));
    const second = analyzeWord(term.slice(i));
    if (first !== null && second !== null && set.has(first) && set.has(second)) return joined;
  }
  return null;
}

function wholeForm(surface: string): string {
  const lower = surface.toLowerCase();
  return lower.includes('’') ? lower.replace(/’/g, "'") : lower;
}

/**
 * An identifier's analysed parts, then the whole forms of its camelCase segments: the segments
 * of `source.helm.ignoreMissingValueFiles` are `source`, `helm` and `ignoreMissingValueFiles`,
 * and the last is kept whole too (`ignoremissingvaluefiles`), so a page that spells that key
 * alone meets a question naming its full path more closely than one that only shares its words.
 */
function partTerms(identifier: string): string[] {
  const terms: string[] = [];
  for (const part of identifierParts(identifier)) {
    if (part.length < 2) continue;
    const term = analyzeWord(part);
    if (term !== null) terms.push(term);
  }
  for (const segment of identifier.split(SEGMENT_SEPARATORS)) {
    if (segment.length < 4 || segment.length === identifier.length || segment.length > MAX_TERM_LENGTH) continue;
    if (identifierParts(segment).length < 2) continue;
    const whole = wholeForm(segment);
    if (!terms.includes(whole)) terms.push(whole);
  }
  return terms;
}

/** Connectors between an identifier's segments (camelCase boundaries are not among them). */
const SEGMENT_SEPARATORS = /[.:/\-_]+/;

function isAsciiLetters(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return word.length > 0;
}
