/**
 * A text's identity terms: its analysed terms, with the spellings the analyser would cut written
 * as the words pages use for them ("C#" -> csharp, "C++" -> cpp, ".NET" -> dotnet). The store's
 * reader compares the names a question says this way, so it lives with the text tools.
 */
import { termSet } from './analyzer';

/** Spellings the analyser would cut ("C#" -> "c"), written as the words pages use for them. */
const SPELLINGS: readonly [RegExp, string][] = [
  [/c#/gi, ' csharp '],
  [/f#/gi, ' fsharp '],
  [/c\+\+/gi, ' cpp '],
  [/(^|[^\w])\.net\b/gi, '$1 dotnet '],
];

/** The terms of a text with {@link SPELLINGS} applied. */
export function identityTerms(text: string): Set<string> {
  let t = text;
  for (const [re, to] of SPELLINGS) t = t.replace(re, to);
  return termSet(t);
}
