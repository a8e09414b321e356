/**
 * The key-path terms of one section (text/keyPaths.ts): what the postings index adds to the
 * section's own words so that a configuration key asked by its dotted path meets the section
 * that shows it.
 *
 * - Paths of its configuration blocks (codeKeys.ts), or of the whole text when the document is a
 *   configuration file: each path's whole form and its trailing forms of two or more keys.
 * - Paths written in its prose with array marks or placeholders (`solvers[].http01.ingress`,
 *   `steps.<name>.when`), which the tokenizer splits: their whole form and trailing forms.
 * - The key column of a reference table: a table row (Markdown `| a.b.c | ...`, AsciiDoc
 *   `|a.b.c |...`) whose first cell is one dotted key documents that key, as a configuration
 *   block shows it: its trailing forms (its whole form is a token of the text already). A
 *   property table names every key by its full path (`spring.cloud.gateway.server.webflux.
 *   httpclient.ssl.use-insecure-trust-manager`) while a question names its last few keys.
 *
 * Any other dotted path written plainly in prose (`source.helm.valueFiles`) is one token already,
 * indexed whole; its trailing forms are not added: prose that spells a full path is mostly a
 * release note or a cross-reference. Measured on the eight-corpus dev suite, words only: every
 * prose path's trailing forms lower cert-manager's how-to questions by 0.031 (c038 1.00 -> 0.63);
 * the table's key column alone moves one question, up (Spring Cloud Gateway's n037).
 *
 * Each term is visited once per place it is shown. These terms are not words of the text: they
 * add to the body field's counts, not to its length, so every other term's saturation in the
 * section is what it was.
 */
import { configLanguageOf, forEachCodeKeyPath, forEachConfigKeyPath } from './codeKeys';
import { forEachMarkedPath, keyPathSegments, keyPathTerms } from '../text/keyPaths';

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
  forEachTableKey(text, (segments) => {
    // The whole path is a token of the row's text, counted with the body's words already.
    const whole = segments.join('.').toLowerCase();
    for (const term of keyPathTerms(segments)) if (term !== whole) visit(term);
  });
}

/** A table row whose first cell is one dotted key, in backticks or not: `| controller.image.tag |`, `|spring.a.b`. */
const TABLE_KEY = /^[ \t]*\|[ \t]*`?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+)`?[ \t]*(?:\||$)/gm;

/** The segments of every table row's key whose first cell is a dotted key: a reference table's key column. */
function forEachTableKey(text: string, visit: (segments: string[]) => void): void {
  if (!text.includes('|')) return;
  for (const m of text.matchAll(TABLE_KEY)) {
    const segments = keyPathSegments(m[1]);
    if (segments) visit(segments);
  }
}
