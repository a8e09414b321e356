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
 * - HTML comments (`<!-- ... -->` blocks), whose content is not Markdown;
 * - Hugo code shortcodes (`{{< highlight go >}}` ... `{{< /highlight >}}`, and any shortcode whose
 *   name holds `code`, as `{{< codeFromInline lang="bash" >}}`) closed further on, whose content
 *   is code: a `# comment` in it is not a heading;
 * - HTML headings (`<h1>`..`<h6>` starting a line, up to 3 spaces of indent, closed on the same
 *   line or a later one before a blank line), which start an HTML block that may interrupt a
 *   paragraph (CommonMark 4.6, type 6) and are headings once rendered: a generated API reference
 *   written as `<h3 id="v1.Alertmanager">Alertmanager</h3>` has no other headings. Their text is
 *   the element's text (tags dropped, the common entities read), else an image's `alt`; one with
 *   neither stays content. Their `id` is the anchor, as `{#id}` is for a Markdown heading.
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
  /** The heading's own anchor: an HTML heading's `id`, a Markdown heading's `{#id}`. */
  anchor?: string;
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
const CODE_SHORTCODE_OPEN = /^ {0,3}\{\{[<%]\s*(highlight|[\w-]*code[\w-]*)\b[^}]*[>%]\}\}\s*$/i;
const SHORTCODE_CLOSE = /^\s*\{\{[<%]\s*\/([\w-]+)\s*[>%]\}\}/;
const HTML_HEADING_OPEN = /^ {0,3}<h([1-6])(?=[\s>/])([^>]*)>/i;
/** An HTML heading left open this many lines is not read as one (a stray `<h2>` in prose). */
const HTML_HEADING_MAX_LINES = 20;

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
  /** Inside a Hugo code shortcode: the name whose closing tag ends it. */
  let shortcode: string | null = null;
  /** Each shortcode's last closing line (lower-case name), read once: an opening looks it up. */
  const lastClose = new Map<string, number>();
  lines.forEach((line, i) => {
    const close = line.includes('{{') ? SHORTCODE_CLOSE.exec(line) : null;
    if (close) lastClose.set(close[1].toLowerCase(), i);
  });
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
    if (shortcode) {
      code[i] = true;
      if (SHORTCODE_CLOSE.exec(line)?.[1].toLowerCase() === shortcode) shortcode = null;
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
    const codeShortcode = line.includes('{{') ? CODE_SHORTCODE_OPEN.exec(line) : null;
    // Only a shortcode closed further on wraps code (`{{< codeFromFile file="x" >}}` stands alone).
    const name = codeShortcode?.[1].toLowerCase();
    if (name !== undefined && (lastClose.get(name) ?? -1) > i) {
      shortcode = name;
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
      headings.push(markdownHeading(underline[1][0] === '=' ? 1 : 2, text, paraStart, i));
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
      headings.push(markdownHeading(atx[1].length, text, i, i));
      block = 'none';
      continue;
    }
    const html = HTML_HEADING_OPEN.test(line) ? htmlHeading(lines, i) : null;
    if (html) {
      headings.push(html);
      i = html.endLine;
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

/** A Markdown heading: text trimmed, inner whitespace collapsed, an attribute list's `{#id}` its anchor. */
function markdownHeading(level: number, raw: string, startLine: number, endLine: number): Heading {
  const attributes = /[ \t]*\{#([^}\s]*)[^}]*\}[ \t]*$/.exec(raw);
  const text = (attributes ? raw.slice(0, attributes.index) : raw).replace(/\s+/g, ' ').trim();
  const heading: Heading = { level, text, startLine, endLine };
  if (attributes?.[1]) heading.anchor = attributes[1];
  return heading;
}

/**
 * The HTML heading opening at line `start`, or null when it is not closed before a blank line
 * (or within HTML_HEADING_MAX_LINES) or has no text.
 */
function htmlHeading(lines: readonly string[], start: number): Heading | null {
  const open = HTML_HEADING_OPEN.exec(lines[start])!;
  const level = Number(open[1]);
  const close = new RegExp(`</h${level}\\s*>`, 'i');
  let inner = lines[start].slice(open.index + open[0].length);
  let end = start;
  while (!close.test(inner)) {
    end++;
    if (end >= lines.length || end - start >= HTML_HEADING_MAX_LINES || lines[end].trim() === '') return null;
    inner += `\n${lines[end]}`;
  }
  inner = inner.slice(0, close.exec(inner)!.index);
  const text = htmlText(inner) || htmlText(/\balt\s*=\s*"([^"]*)"/i.exec(inner)?.[1] ?? '');
  if (text === '') return null;
  const heading: Heading = { level, text, startLine: start, endLine: end };
  const id = /\bid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(open[2]);
  const anchor = id?.[1] ?? id?.[2] ?? id?.[3];
  if (anchor) heading.anchor = anchor;
  return heading;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of an HTML fragment: tags dropped, named and numeric entities read, spaces collapsed. */
export function htmlText(html: string): string {
  return (
    html
      // A line break or a block element separates words; an inline element (`<code>`) does not.
      .replace(/<(?:br|\/?(?:p|div|li|td|th|tr|h[1-6]))\b[^>]*>/gi, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
        if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : entity;
      })
      .replace(/\s+/g, ' ')
      .trim()
  );
}
