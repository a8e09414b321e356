/**
 * YAML front matter: a `---` line as the very first line of a Markdown file, YAML, and a closing
 * `---` (or `...`) line. Only YAML is recognised (no TOML `+++`).
 *
 * Invalid front matter never stops a document from indexing: the data is empty, a problem points
 * at the offending line of the file, and the body (after the closing line) is still sectioned.
 */
import type { Problem } from '../model';
import { parseYamlMap } from './yamlMap';

export interface FrontMatter {
  /** True when the file starts with a closed front matter block (valid or not). */
  present: boolean;
  /** Parsed mapping; empty when absent or invalid. */
  data: Record<string, unknown>;
  /** 1-based line in the file of each top-level key (for problems naming a field). */
  keyLines: Record<string, number>;
  /** The text after the front matter block (the whole text when there is none). */
  body: string;
  /** Number of lines before the body: body line 1 is file line `bodyLineOffset + 1`. */
  bodyLineOffset: number;
  problems: Problem[];
}

const OPEN = /^\uFEFF?---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/** A text with no front matter: all of it is body (formats that have none, or a file without it). */
export function noFrontMatter(text: string): FrontMatter {
  return { present: false, data: {}, keyLines: {}, body: text, bodyLineOffset: 0, problems: [] };
}

export function parseFrontMatter(text: string, path: string): FrontMatter {
  const none = noFrontMatter(text);
  const firstBreak = text.indexOf('\n');
  if (firstBreak < 0 || !OPEN.test(stripCr(text.slice(0, firstBreak)))) return none;

  // Walk line by line keeping character offsets, so the body is an exact slice of the file.
  let offset = firstBreak + 1;
  let line = 1;
  while (offset <= text.length) {
    const end = text.indexOf('\n', offset);
    const lineEnd = end < 0 ? text.length : end;
    line++;
    if (CLOSE.test(stripCr(text.slice(offset, lineEnd)))) {
      const yamlText = text.slice(firstBreak + 1, offset);
      const parsed = parseYamlMap(yamlText, {
        path,
        lineOffset: 1,
        codePrefix: 'frontmatter',
        what: 'front matter',
      });
      return {
        present: true,
        data: parsed.data,
        keyLines: parsed.keyLines,
        body: end < 0 ? '' : text.slice(end + 1),
        bodyLineOffset: line,
        problems: parsed.problems,
      };
    }
    if (end < 0) break;
    offset = end + 1;
  }
  // An opening `---` without a closing line is not front matter (it may be a thematic break).
  return none;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
