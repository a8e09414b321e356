/**
 * AsciiDoc documents -> sections, in the shape Markdown's have (markdownSections.ts), so ids,
 * ranking and line-ranged source URIs work the same (https://docs.asciidoctor.org/asciidoc/latest/).
 * A careful line reader, not a full Asciidoctor: sections need the block structure only.
 *
 * - The document title is `= Title` at the top (the header, whose author and revision lines are
 *   dropped); `== Title` to `====== Title` are
 *   sections of levels 2 to 6, and Markdown-style `#` headings are read the same way, as
 *   Asciidoctor reads them. A heading marked `[discrete]` (or `[float]`) is text, not a section.
 *   A title only counts outside delimited blocks and after a blank line (or its anchor and
 *   attribute lines).
 * - Delimited blocks: listing (`----`), literal (`....`), source fences (```` ``` ````), passthrough
 *   (`++++`), comments (`////`), and the containers whose content is read on (example `====`,
 *   sidebar `****`, quote `____`, open `--`, tables `|===`).
 * - Attribute entries (`:name: value`) are dropped from the text and their values substituted for
 *   `{name}` references; `:navtitle:` is the page's menu title (Antora). Comments, block anchors,
 *   attribute lists and preprocessor lines (`include::`, `ifdef::`...) are dropped.
 * - Listing and literal blocks become fenced code tagged with their `[source,lang]` language, so
 *   key paths in their configuration are found; admonitions (`NOTE: ...`, `[TIP]` blocks) read as
 *   their kind; inline macros read as their text (`xref:page.adoc[Text]` -> Text,
 *   `<<id,Text>>` -> Text, `link:url[Text]` -> Text, `kbd:[Ctrl+T]` -> Ctrl+T).
 *
 * Line spans are the file's lines; a section's text is its lines read as a reader sees them, its
 * title written as a Markdown heading of its level. Never throws: an unterminated block runs to
 * the end of the document, with a warning naming its first line.
 */
import type { Problem } from '../model';
import { noFrontMatter } from './frontMatter';
import { splitLines } from './markdownBlocks';
import { humanizeFileName, type MarkdownDocument, type MarkdownSection } from './markdownSections';

export interface AsciidocDocument extends MarkdownDocument {
  /** Attribute entries of the document, by name (lower case), as their last entry set them. */
  attributes: Record<string, string>;
}

type BlockKind = 'listing' | 'literal' | 'fenced' | 'pass' | 'comment' | 'container' | 'table';

interface Delimiter {
  kind: BlockKind;
  /** The line that closes the block. */
  close: string;
  /** 0-based line it opened on. */
  line: number;
}

const HEADING = /^(={1,6}|#{1,6})[ \t]+(\S.*?)(?:[ \t]+\1)?[ \t]*$/;
const ATTRIBUTE_ENTRY = /^:(!?[\w][\w-]*!?):(?:[ \t]+(.*?))?[ \t]*$/;
const ATTRIBUTE_LIST = /^\[[^\]]*\]\s*$/;
const BLOCK_ANCHOR = /^\[\[([^\],]+)(?:,[^\]]*)?\]\]\s*$|^\[#([\w:.-]+)[^\]]*\]\s*$/;
const PREPROCESSOR = /^(?:include|ifdef|ifndef|ifeval|endif)::/;
const BLOCK_TITLE = /^\.([^.\s].*)$/;
const ADMONITION = /^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):\s+(.*)$/;

/** Reads an AsciiDoc file into sections, its title and its attributes. Never throws. */
export function parseAsciidoc(path: string, text: string): AsciidocDocument {
  const lines = splitLines(text);
  const problems: Problem[] = [];
  const attributes: Record<string, string> = {};
  /** Per line: its heading level (1..6) when it is a section title, else 0. */
  const rendered: string[][] = [];
  const headings: { line: number; level: number; text: string; anchor?: string }[] = [];
  let docTitle: string | undefined;

  let open: Delimiter[] = [];
  let pendingAttributes: string[] = [];
  let pendingAnchor: string | undefined;
  let sourceLanguage: string | undefined;
  let previousBlank = true;
  let seenContent = false;
  /** Between the document title and the first blank line: author, revision and attribute lines. */
  let inHeader = false;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const out: string[] = [];
    rendered.push(out);
    const innermost = open[open.length - 1];
    // Inside verbatim blocks only the closing delimiter matters.
    if (innermost && innermost.kind !== 'container' && innermost.kind !== 'table') {
      if (line.trimEnd() === innermost.close) {
        open = open.slice(0, -1);
        if (innermost.kind === 'listing' || innermost.kind === 'literal' || innermost.kind === 'fenced')
          out.push('```');
        previousBlank = false;
        continue;
      }
      if (innermost.kind === 'listing' || innermost.kind === 'literal' || innermost.kind === 'fenced') out.push(line);
      continue;
    }
    if (line.trim() === '') {
      out.push('');
      previousBlank = true;
      inHeader = false;
      pendingAttributes = [];
      continue;
    }
    if (innermost && line.trimEnd() === innermost.close) {
      open = open.slice(0, -1);
      previousBlank = false;
      continue;
    }
    const delimiter = openingDelimiter(line.trimEnd(), i);
    if (delimiter) {
      const style = pendingAttributes.join(',');
      if (
        delimiter.kind === 'container' &&
        /^\[(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]$/.test(pendingAttributes[0] ?? '')
      ) {
        const kind = pendingAttributes[0].slice(1, -1);
        out.push(`**${kind[0]}${kind.slice(1).toLowerCase()}:**`);
      }
      if (delimiter.kind === 'listing' || delimiter.kind === 'literal' || delimiter.kind === 'fenced') {
        const language = delimiter.kind === 'fenced' ? line.trim().slice(3).trim() : languageOf(style, sourceLanguage);
        if (delimiter.kind === 'listing' && /^\[(?:pass|stem|latexmath|asciimath)\b/.test(style))
          delimiter.kind = 'pass';
        else out.push(`\`\`\`${language}`);
      }
      open = [...open, delimiter];
      pendingAttributes = [];
      previousBlank = false;
      continue;
    }
    if (line.startsWith('//')) continue;
    const entry = ATTRIBUTE_ENTRY.exec(line);
    if (entry && !innermost) {
      const name = entry[1].toLowerCase();
      let value = entry[2] ?? '';
      while (value.endsWith(' \\') || value.endsWith(' +') || (value.endsWith('\\') && i + 1 < lines.length)) {
        value = value.replace(/\s*[\\+]$/, '');
        i++;
        rendered.push([]);
        value += ` ${(lines[i] ?? '').trim()}`;
      }
      if (name.startsWith('!') || name.endsWith('!')) delete attributes[name.replace(/!/g, '')];
      else attributes[name] = substitute(value.trim(), attributes);
      if (name === 'source-language') sourceLanguage = attributes[name];
      continue;
    }
    if (PREPROCESSOR.test(line) || inHeader) continue;
    const anchor = BLOCK_ANCHOR.exec(line.trim());
    if (anchor) {
      pendingAnchor = anchor[1] ?? anchor[2];
      continue;
    }
    if (ATTRIBUTE_LIST.test(line.trim()) && !line.trim().startsWith('[[')) {
      pendingAttributes = [...pendingAttributes, line.trim()];
      continue;
    }
    const heading = innermost ? null : HEADING.exec(line);
    const discrete = pendingAttributes.some((a) => /^\[(?:discrete|float)\b/.test(a));
    if (heading && (previousBlank || !seenContent) && !discrete) {
      const marks = heading[1].length;
      const title = inlineText(heading[2], attributes).replace(/`/g, '');
      if (marks === 1 && docTitle === undefined && !seenContent) {
        docTitle = title;
        inHeader = true;
      }
      const level = Math.max(1, marks);
      headings.push(
        pendingAnchor ? { line: i, level, text: title, anchor: pendingAnchor } : { line: i, level, text: title },
      );
      out.push(`${'#'.repeat(level)} ${title}`);
      pendingAnchor = undefined;
      pendingAttributes = [];
      previousBlank = false;
      seenContent = true;
      continue;
    }
    seenContent = true;
    previousBlank = false;
    pendingAnchor = undefined;
    if (line.trim() === '+') continue;
    const title = BLOCK_TITLE.exec(line);
    if (title && !innermost?.kind.startsWith('table')) {
      out.push(`**${inlineText(title[1], attributes)}**`);
      continue;
    }
    const admonition = ADMONITION.exec(line);
    if (admonition) {
      out.push(
        `**${admonition[1][0]}${admonition[1].slice(1).toLowerCase()}:** ${inlineText(admonition[2], attributes)}`,
      );
      continue;
    }
    if (discrete && heading) {
      out.push(`**${inlineText(heading[2], attributes)}**`);
      pendingAttributes = [];
      continue;
    }
    out.push(inlineText(line, attributes));
    pendingAttributes = [];
  }
  for (const block of open) {
    problems.push({
      path,
      line: block.line + 1,
      severity: 'warning',
      code: 'asciidoc.unterminated-block',
      message: `Delimited block opened here is never closed ('${block.close}'); it runs to the end of the document.`,
    });
  }

  const sections = buildSections(lines, rendered, headings);
  const navTitle = attributes.navtitle?.trim();
  const frontMatter = noFrontMatter(text);
  return {
    frontMatter,
    sections,
    title: docTitle ?? headings[0]?.text ?? navTitle ?? humanizeFileName(path),
    problems,
    page: navTitle ? { navTitle } : {},
    attributes,
  };
}

/** The delimited block a line opens, if it is a delimiter. */
function openingDelimiter(line: string, index: number): Delimiter | null {
  if (/^-{4,}$/.test(line)) return { kind: 'listing', close: line, line: index };
  if (/^\.{4,}$/.test(line)) return { kind: 'literal', close: line, line: index };
  if (/^`{3}/.test(line)) return { kind: 'fenced', close: '```', line: index };
  if (/^\+{4,}$/.test(line)) return { kind: 'pass', close: line, line: index };
  if (/^\/{4,}$/.test(line)) return { kind: 'comment', close: line, line: index };
  if (/^(={4,}|\*{4,}|_{4,})$/.test(line) || line === '--') return { kind: 'container', close: line, line: index };
  if (/^[|,:!]={3,}$/.test(line)) return { kind: 'table', close: line, line: index };
  return null;
}

/** The language of a source block from its attribute list (`[source,yaml]`, `[,ruby]`). */
function languageOf(style: string, fallback: string | undefined): string {
  const match = /^\[(source|listing)?\s*,\s*([\w+#.-]+)/.exec(style);
  if (match) return match[2];
  if (/^\[source\b/.test(style)) return fallback ?? '';
  return '';
}

/** Inline markup read as text (see the module notes). */
export function inlineText(text: string, attributes: Readonly<Record<string, string>>): string {
  return substitute(text, attributes)
    .replace(/\bxref:([^[\s]+)\[([^\]]*)\]/g, (_all, target: string, label: string) => label.trim() || xrefName(target))
    .replace(
      /<<([^,>]+)(?:,\s*([^>]+))?>>/g,
      (_all, target: string, label: string | undefined) => label?.trim() || target.trim(),
    )
    .replace(
      /\b(?:link|mailto):([^[\s]+)\[([^\]]*)\]/g,
      (_all, target: string, label: string) => label.replace(/\^$/, '').trim() || target,
    )
    .replace(
      /\b(https?:\/\/[^[\s]+)\[([^\]]*)\]/g,
      (_all, target: string, label: string) => label.replace(/\^$/, '').trim() || target,
    )
    .replace(/\bimage::?[^[\s]*\[([^\],]*)[^\]]*\]/g, '$1')
    .replace(/\b(?:kbd|btn|pass|footnote|indexterm2?|stem|latexmath|asciimath):\[([^\]]*)\]/g, '$1')
    .replace(/\bmenu:([^[\s]+)\[([^\]]*)\]/g, (_all, menu: string, items: string) =>
      [menu, ...items.split('>')]
        .map((s) => s.trim())
        .filter(Boolean)
        .join(' > '),
    )
    .replace(/\[\[[^\]]*\]\]/g, '')
    .replace(/`\+([^`]*)\+`/g, '`$1`')
    .replace(/(^|[^\w+])\+{1,3}([^+\n]+?)\+{1,3}(?=$|[^\w+])/g, '$1$2')
    .replace(/\[\.[\w.-]+\]#([^#]*)#/g, '$1')
    .replace(/ \+$/, '');
}

/** A cross reference's target as a name: `module:page.adoc#anchor` -> page. */
function xrefName(target: string): string {
  const page = target.replace(/#.*$/, '');
  const base = page.slice(Math.max(page.lastIndexOf(':'), page.lastIndexOf('/')) + 1).replace(/\.adoc$/, '');
  return base || target.replace(/^.*#/, '');
}

/** `{name}` references replaced by the values known so far; unknown ones stay as written. */
function substitute(text: string, attributes: Readonly<Record<string, string>>): string {
  if (!text.includes('{')) return text;
  return text.replace(/\{([\w][\w-]*)\}/g, (all, name: string) => attributes[name.toLowerCase()] ?? all);
}

/** Sections from the headings, each with its lines' rendered text (see the module notes). */
function buildSections(
  lines: readonly string[],
  rendered: readonly string[][],
  headings: readonly { line: number; level: number; text: string; anchor?: string }[],
): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const textOf = (start: number, end: number) => collapse(rendered.slice(start, end + 1).flat());
  const span = (start: number, end: number) => {
    let last = end;
    // Blank lines, comments and what belongs to the next heading (its anchor, its attribute list) end no section.
    const trailing = (line: string) =>
      line === '' ||
      BLOCK_ANCHOR.test(line) ||
      ATTRIBUTE_LIST.test(line) ||
      (line.startsWith('//') && !line.startsWith('////'));
    while (last >= start && trailing(lines[last].trim())) last--;
    let first = start;
    while (first <= last && lines[first].trim() === '') first++;
    return first <= last ? { start: first, end: last } : null;
  };
  const firstHeading = headings.length > 0 ? headings[0].line : lines.length;
  const preamble = span(0, firstHeading - 1);
  if (preamble) {
    const text = textOf(preamble.start, preamble.end);
    if (text !== '')
      sections.push({ headingPath: [], level: 0, startLine: preamble.start + 1, endLine: preamble.end + 1, text });
  }
  const stack: { level: number; text: string }[] = [];
  headings.forEach((heading, index) => {
    while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) stack.pop();
    stack.push({ level: heading.level, text: heading.text });
    const next = index + 1 < headings.length ? headings[index + 1].line - 1 : lines.length - 1;
    const lines_ = span(heading.line, next) ?? { start: heading.line, end: heading.line };
    const section: MarkdownSection = {
      headingPath: stack.map((entry) => entry.text),
      level: heading.level,
      startLine: lines_.start + 1,
      endLine: lines_.end + 1,
      text: textOf(lines_.start, lines_.end),
    };
    if (heading.anchor) section.anchor = heading.anchor;
    sections.push(section);
  });
  return sections;
}

/** Lines joined, blank edges trimmed and runs of blank lines collapsed to one. */
function collapse(lines: readonly string[]): string {
  const kept = lines.filter((line, i) => line.trim() !== '' || lines[i - 1]?.trim() !== '');
  return kept.join('\n').trim();
}
