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

/**
 * `terms` (analyzeQuery's, of `text`) with each joinable pair of adjacent words replaced by one
 * compound unit where the first word's unit was. `known(term)` says whether the index holds a
 * term; only joined forms are asked about.
 */
export function joinCompounds(text: string, terms: readonly QueryTerm[], known: (term: string) => boolean): QueryTerm[] {
  const words: { start: number; end: number; identifier: boolean }[] = [];
  scanTokens(text, (start, end, identifier) => words.push({ start, end, identifier }));
  let out: QueryTerm[] | null = null;
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i];
    const b = words[i + 1];
    if (a.identifier || b.identifier || !GAP.test(text.slice(a.end, b.start))) continue;
    const first = text.slice(a.start, a.end);
    const second = text.slice(b.start, b.end);
    const joined = analyzeWord(`${first}${second}`);
    if (joined === null || !known(joined)) continue;
    const current: QueryTerm[] = out ?? [...terms];
    if (current.some((t) => t.key === joined)) continue;
    const parts = [analyzeWord(first), analyzeWord(second)].filter((p): p is string => p !== null && p !== joined);
    const unit: QueryTerm = { key: joined, surface: text.slice(a.start, b.end), isIdentifier: true, parts: [...new Set(parts)] };
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
function usedElsewhere(words: readonly { start: number; end: number; identifier: boolean }[], text: string, index: number, key: string): boolean {
  return words.some((w, j) => j !== index && j !== index - 1 && !w.identifier && analyzeWord(text.slice(w.start, w.end)) === key);
}
