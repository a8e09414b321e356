/**
 * A line scanner for the block structure of Markdown that sectioning needs: where headings are
 * and which lines are code. It follows CommonMark (https://spec.commonmark.org/0.31.2/) for the
 * constructs that decide those two things and deliberately nothing more:
 *
 * - ATX headings (`#`..`######` then a space or end of line, up to 3 spaces of indent; a closing
 *   run of `#` preceded by a space is dropped);
 * - setext headings: a paragraph followed by a `===` (level 1) or `---` (level 2) underline.
 *   A `---` after a paragraph line is therefore a heading underline, not a thematic break; after a
 *   blank line, a list item or a block quote it is a thematic break;
 * - fenced code (``` or ~~~, three or more, closed by the same character at least as long; an
 *   unclosed fence runs to the end of the document) and indented code (4+ columns, not inside a
 *   paragraph): `#` lines inside are not headings;
 * - HTML comments (`<!-- ... -->` blocks), whose content is not Markdown.
 *
 * Headings inside block quotes and list items are content, not section boundaries.
 */

export interface Heading {
  /** 1..6 */
  level: number;
  /** Heading text with surrounding whitespace and closing hashes removed. */
  text: string;
  /** 0-based index of the heading's first line (for setext: the first paragraph line). */
  startLine: number;
  /** 0-based index of its last line (for setext: the underline). */
  endLine: number;
}

export interface MarkdownScan {
  headings: Heading[];
  /** Per line: true for fence lines, fenced content and indented code. */
  code: boolean[];
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const BLOCK_QUOTE = /^ {0,3}>/;
const BULLET_ITEM = /^ {0,3}[-+*](?:[ \t]|$)/;
const ORDERED_ITEM = /^ {0,3}(\d{1,9})[.)](?:[ \t]|$)/;
const HTML_COMMENT_OPEN = /^ {0,3}<!--/;

/** Splits text into lines, accepting `\n` and `\r\n`; a final newline does not start a line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function scanMarkdown(lines: readonly string[]): MarkdownScan {
  const headings: Heading[] = [];
  const code = new Array<boolean>(lines.length).fill(false);
  let fence: { char: string; length: number } | null = null;
  let inComment = false;
  // 'para': an open paragraph (may become a setext heading); 'container': a list item or block
  // quote line, whose following `---` is a thematic break.
  let block: 'none' | 'para' | 'container' = 'none';
  let paraStart = -1;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      code[i] = true;
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    if (line.trim() === '') {
      block = 'none';
      continue;
    }
    if (indentWidth(line) >= 4) {
      // Inside a paragraph or list item an indented line is a continuation, not code.
      if (block === 'none') code[i] = true;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], length: open[1].length };
      code[i] = true;
      block = 'none';
      continue;
    }
    const underline = block === 'para' ? SETEXT.exec(line) : null;
    if (underline) {
      const text = lines
        .slice(paraStart, i)
        .map((l) => l.trim())
        .join(' ');
      headings.push({
        level: underline[1][0] === '=' ? 1 : 2,
        text: cleanHeading(text),
        startLine: paraStart,
        endLine: i,
      });
      block = 'none';
      continue;
    }
    if (THEMATIC.test(line)) {
      block = 'none';
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const text = (atx[2] ?? '').replace(/(?:^|[ \t]+)#+[ \t]*$/, '');
      headings.push({ level: atx[1].length, text: cleanHeading(text), startLine: i, endLine: i });
      block = 'none';
      continue;
    }
    if (HTML_COMMENT_OPEN.test(line)) {
      inComment = !line.slice(line.indexOf('<!--') + 4).includes('-->');
      block = 'none';
      continue;
    }
    if (BLOCK_QUOTE.test(line) || BULLET_ITEM.test(line) || startsOrderedItem(line, block)) {
      block = 'container';
      continue;
    }
    if (block === 'none') {
      block = 'para';
      paraStart = i;
    }
  }
  return { headings, code };
}

/** Only a list starting at 1 may interrupt a paragraph (CommonMark 5.2). */
function startsOrderedItem(line: string, block: 'none' | 'para' | 'container'): boolean {
  const match = ORDERED_ITEM.exec(line);
  if (!match) return false;
  return block !== 'para' || Number(match[1]) === 1;
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return match !== null && match[1][0] === fence.char && match[1].length >= fence.length;
}

/** Leading indentation in columns, tabs advancing to the next multiple of 4. */
function indentWidth(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width++;
    else if (ch === '\t') width += 4 - (width % 4);
    else break;
  }
  return width;
}

/** Trims, collapses inner whitespace, and drops an MkDocs attribute list id (`{#anchor}`). */
function cleanHeading(text: string): string {
  return text
    .replace(/[ \t]*\{#[^}]*\}[ \t]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
