/**
 * A passage's own Markdown (workspace text) made fit to render in the results view: its shape
 * kept, so a runbook's commands show as a code block and `fernctl` as code, never as escaped
 * fences or literal backticks; and nothing in it able to become a link, an image, HTML or a
 * command. Every piece of workspace text goes through shared/markdown.ts (`markdownText` for
 * text, `markdownCode` for code spans); what is kept is only structure this module writes itself:
 *
 * - fenced code blocks, re-fenced with more backticks than they hold (their content is inert), the
 *   info string cut to a language name;
 * - headings, shown as bold lines (the results view's own headings say where a passage is);
 * - list items and their numbers, block quotes;
 * - tables (each cell's text escaped, so no cell can end early);
 * - inline code spans, bold and italic; links and images keep their words, with the target
 *   shown as text.
 *
 * Imports no `vscode`.
 */
import { markdownCode, markdownText } from '../../../shared/markdown';

/** An opening or closing code fence: up to 3 spaces, then 3+ backticks or tildes, then the info string. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
/** A list item's marker (bullet or number) with its indentation. */
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** The passage's Markdown, safe to render; `dropHeading` leaves out a first line that is a heading. */
export function passageMarkdown(text: string, options: { dropHeading?: boolean } = {}): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  if (options.dropHeading && HEADING.test(lines[0] ?? '')) {
    lines.shift();
    while (lines.length && lines[0].trim() === '') lines.shift();
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      i = codeBlock(lines, i, fence, out);
      continue;
    }
    if (isTableStart(lines, i)) {
      i = table(lines, i, out);
      continue;
    }
    out.push(blockLine(line));
  }
  return out.join('\n');
}

/** Writes the code block opened at `start`; returns the index of its last line. */
function codeBlock(lines: string[], start: number, open: RegExpExecArray, out: string[]): number {
  const char = open[1][0];
  const closing = new RegExp(`^ {0,3}${char === '`' ? '`' : '~'}{${open[1].length},}\\s*$`);
  const body: string[] = [];
  let i = start + 1;
  for (; i < lines.length && !closing.test(lines[i]); i++) body.push(lines[i]);
  // Unclosed: the block runs to the end of the passage, as CommonMark reads it.
  let longest = 2;
  for (const line of body) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const language = /^[\w+#.-]{1,30}/.exec(open[2].trim())?.[0] ?? '';
  out.push(`${fence}${language}`, ...body, fence);
  return Math.min(i, lines.length - 1);
}

function isTableStart(lines: string[], i: number): boolean {
  return lines[i].includes('|') && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]);
}

/** Writes the table whose header is at `start`; returns the index of its last row. */
function table(lines: string[], start: number, out: string[]): number {
  const cells = (row: string) =>
    row
      .trim()
      .replace(/^\|/, '')
      .replace(/(?<!\\)\|$/, '')
      .split(/(?<!\\)\|/)
      .map((cell) => inline(cell.trim().replace(/\\\|/g, '|')));
  const header = cells(lines[start]);
  out.push(`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`);
  let i = start + 2;
  for (; i < lines.length && lines[i].includes('|') && lines[i].trim() !== ''; i++)
    out.push(`| ${cells(lines[i]).join(' | ')} |`);
  return i - 1;
}

/** One line outside code blocks and tables. */
function blockLine(line: string): string {
  if (line.trim() === '') return '';
  const heading = HEADING.exec(line);
  if (heading) return heading[1] ? `**${inline(heading[1])}**` : '';
  const quote = QUOTE.exec(line);
  if (quote) return `> ${blockLine(quote[1])}`;
  const item = LIST_ITEM.exec(line);
  if (item) return `${item[1]}${item[2]} ${inline(item[3])}`;
  // Indentation that would make an indented code block is kept as it is: its content is inert.
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  return `${indent}${inline(line.slice(indent.length))}`;
}

/**
 * Inline text: code spans as code, `**bold**` and `*italic*` as such, links and images as their
 * words with the target as text, everything else escaped.
 */
export function inline(text: string): string {
  let out = '';
  let rest = text;
  const pattern =
    /(`+)([\s\S]*?[^`])\1(?!`)|!?\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)|(\*\*|__)(?=\S)(.+?)(?<=\S)\5|(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])/;
  for (let match = pattern.exec(rest); match; match = pattern.exec(rest)) {
    out += markdownText(rest.slice(0, match.index));
    if (match[1] !== undefined) out += markdownCode(match[2].replace(/^ (.*) $/, '$1'));
    else if (match[4] !== undefined)
      out += match[3] ? `${inline(match[3])}${match[4] ? ` (${markdownText(match[4])})` : ''}` : markdownText(match[4]);
    else if (match[6] !== undefined) out += `**${inline(match[6])}**`;
    else out += `*${inline(match[7])}*`;
    rest = rest.slice(match.index + match[0].length);
  }
  return out + markdownText(rest);
}
