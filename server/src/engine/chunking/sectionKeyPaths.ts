/**
 * The key-path terms of one section (text/keyPaths.ts): what the postings index adds to the
 * section's own words so that a configuration key asked by its dotted path meets the section
 * that shows it.
 *
 * - Paths of its configuration blocks (codeKeys.ts), or of the whole text when the document is a
 *   configuration file: each path's whole form and its trailing forms of two or more keys.
 * - Paths written in its prose with array marks or placeholders (`solvers[].http01.ingress`,
 *   `steps.<name>.when`), which the tokenizer splits: their whole form and trailing forms.
 *
 * A dotted path written plainly in prose (`source.helm.valueFiles`) is one token already, indexed
 * whole; its trailing forms are not added: prose that spells a full path is mostly a release note
 * or a cross-reference, and on cert-manager's docs indexing them cost 0.006 nDCG@10 (how-to
 * questions 0.876 -> 0.845), the other corpora unchanged.
 *
 * Each term is visited once per place it is shown. These terms are not words of the text: they
 * add to the body field's counts, not to its length, so every other term's saturation in the
 * section is what it was.
 */
import { configLanguageOf, forEachCodeKeyPath, forEachConfigKeyPath } from './codeKeys';
import { forEachMarkedPath, keyPathTerms } from '../text/keyPaths';

/**
 * Calls `visit` with each key-path term of a section's text. `filePath` is the document's path:
 * a `.yaml`/`.yml`/`.json`/`.toml` document is read as that language whole.
 */
export function forEachKeyPathTerm(text: string, filePath: string, visit: (term: string) => void): void {
  const shown = (segments: readonly string[]) => {
    for (const term of keyPathTerms(segments)) visit(term);
  };
  const language = configLanguageOf(filePath);
  if (language) {
    forEachConfigKeyPath(language, text, shown);
    return;
  }
  forEachCodeKeyPath(text, shown);
  forEachMarkedPath(text, (_start, _end, segments) => shown(segments));
}
