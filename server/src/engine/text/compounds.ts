/**
 * Words a question writes apart that the workspace writes as one: "roll back" and `rollback`,
 * "set up" and `setup`, "log in" and `login`, "time out" and `timeout`, "fail over" and
 * `failover`. English spells many phrasal verbs and their nouns both ways, and docs tend to use the
 * one word (a command, a setting, a heading), so a question asking "how do I roll back an
 * application?" shared no term with `argocd app rollback`, while pages that merely say "rolling"
 * and "back" matched it.
 *
 * Two adjacent plain words of the question (nothing but spaces or one hyphen between them) whose
 * joined form is a term of the index become one unit: the joined word, matched whole, with the two
 * words as its parts, exactly as an identifier is matched (its whole form, else its parts with the
 * part credit of the contract). Only pairs the index holds joined are changed, so a question whose
 * words the workspace never joins is analysed as before. Deterministic; no dictionary of phrasal
 * verbs: the workspace's own vocabulary decides.
 */
import { analyzeWord, type QueryTerm } from './analyzer';
import { scanTokens } from './tokenize';

/** At most this many characters between the two words: spaces, or one hyphen with spaces. */
const GAP = /^(?:[ \t]+|[ \t]*-[ \t]*)$/;

/** The joined form of every pair of adjacent plain words of `text`: what `joinCompounds` may ask about. */
export function compoundCandidates(text: string): string[] {
  const words = wordSpans(text);
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    for (const joined of [joinedTerm(text, words[i], words[i + 1]), stemJoinedTerm(text, words[i], words[i + 1])]) {
      if (joined !== null && !out.includes(joined)) out.push(joined);
    }
  }
  return out;
}

interface Span {
  start: number;
  end: number;
  identifier: boolean;
}

function wordSpans(text: string): Span[] {
  const words: Span[] = [];
  scanTokens(text, (start, end, identifier) => words.push({ start, end, identifier }));
  return words;
}

/** The index term of two adjacent plain words written as one, or null when they cannot be joined. */
function joinedTerm(text: string, a: Span, b: Span): string | null {
  if (a.identifier || b.identifier || !GAP.test(text.slice(a.end, b.start))) return null;
  const first = text.slice(a.start, a.end);
  const second = text.slice(b.start, b.end);
  // A verb and its particle ("roll back", "log in"), never two words of a name ("key pair",
  // "Argo CD"): those are written joined in identifiers, where the joined form is a name's part.
  const verb = analyzeWord(first);
  if (!PARTICLES.has(second.toLowerCase()) || verb === null) return null;
  return analyzeWord(`${first}${second}`);
}

/**
 * The same, from the verb's stem: "rolling back", "logged in", "times out" are `rollback`,
 * `login`, `timeout` written apart and inflected. Null when it is the written form's own join.
 */
function stemJoinedTerm(text: string, a: Span, b: Span): string | null {
  const written = joinedTerm(text, a, b);
  if (written === null) return null;
  const stem = analyzeWord(text.slice(a.start, a.end))!;
  const joined = analyzeWord(`${stem}${text.slice(b.start, b.end)}`);
  return joined === written ? null : joined;
}

/**
 * The adverb particles of English phrasal verbs, whose verb-and-particle is written as one word
 * as a noun or adjective (`rollback`, `setup`, `login`, `checkout`, `shutdown`, `failover`,
 * `teardown`, `walkthrough`, `handoff`).
 */
const PARTICLES: ReadonlySet<string> = new Set([
  'back',
  'up',
  'out',
  'in',
  'off',
  'over',
  'down',
  'on',
  'away',
  'through',
]);

/**
 * `terms` (analyzeQuery's, of `text`) with each joinable pair of adjacent words replaced by one
 * compound unit where the first word's unit was. `known(term)` says whether the index holds a
 * term; only joined forms are asked about.
 */
export function joinCompounds(
  text: string,
  terms: readonly QueryTerm[],
  known: (term: string) => boolean,
): QueryTerm[] {
  const words = wordSpans(text);
  let out: QueryTerm[] | null = null;
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i];
    const b = words[i + 1];
    const written = joinedTerm(text, a, b);
    const stemmed = stemJoinedTerm(text, a, b);
    const joined = written !== null && known(written) ? written : stemmed !== null && known(stemmed) ? stemmed : null;
    if (joined === null) continue;
    const first = text.slice(a.start, a.end);
    const second = text.slice(b.start, b.end);
    const current: QueryTerm[] = out ?? [...terms];
    if (current.some((t) => t.key === joined)) continue;
    const parts = [analyzeWord(first), analyzeWord(second)].filter((p): p is string => p !== null && p !== joined);
    const unit: QueryTerm = {
      key: joined,
      surface: text.slice(a.start, b.end),
      isIdentifier: true,
      parts: [...new Set(parts)],
      compound: true,
    };
    // The compound takes the place of its first word's unit; the second word's unit goes unless
    // another place in the question asks for it.
    const at = current.findIndex((t) => !t.isIdentifier && t.key === parts[0]);
    if (at >= 0) current.splice(at, 1, unit);
    else current.push(unit);
    const second_ = parts[1] ?? null;
    if (second_ !== null && !usedElsewhere(words, text, i + 1, second_)) {
      const gone = current.findIndex((t) => !t.isIdentifier && t.key === second_);
      if (gone >= 0) current.splice(gone, 1);
    }
    out = current;
    i++;
  }
  return out ?? [...terms];
}

/** True when a word other than the one at `index` analyses to `key`. */
function usedElsewhere(words: readonly Span[], text: string, index: number, key: string): boolean {
  return words.some(
    (w, j) => j !== index && j !== index - 1 && !w.identifier && analyzeWord(text.slice(w.start, w.end)) === key,
  );
}
