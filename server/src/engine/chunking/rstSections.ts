/**
 * reStructuredText documents -> sections, in the shape Markdown's have (markdownSections.ts), so
 * ids, ranking and line-ranged source URIs work the same
 * (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html#sections).
 *
 * - A title is a line of text under a line of one repeated punctuation character (the
 *   underline), or between two equal such lines (overline and underline), after a blank line.
 *   Titles are never indented, so nothing inside a directive or a literal block is one.
 * - Levels are not fixed by the character: each new adornment style (its character, and whether
 *   it has an overline) gets the next level, in the order the document first uses them, as
 *   docutils assigns them.
 * - The document's title is its first title. A section runs from its title to the next title;
 *   text before the first title that reads as anything (not only comments and targets) is a
 *   preamble.
 * - Line spans are the file's lines (1-based, inclusive); a section's text is its lines read as
 *   a reader sees them (rstText.ts), its title written as a Markdown heading of its level.
 * - `toctree` directives are read too: their entries, in order, give a Sphinx project its page
 *   order (sources/siteNav/sphinxToctree.ts).
 *
 * Never throws: what does not read as a title is text. An underline shorter than its title is
 * still a title, as docutils reads it, with an info problem.
 */
import type { Problem } from '../model';
import { noFrontMatter } from './frontMatter';
import { splitLines } from './markdownBlocks';
import { humanizeFileName, type MarkdownDocument, type MarkdownSection } from './markdownSections';
import { renderRstBlocks, rstInline } from './rstText';

export interface RstDocument extends MarkdownDocument {
  /** The document's `toctree` directives, in order. */
  toctrees: Toctree[];
}

export interface Toctree {
  /** `:glob:`: entries are patterns of document names. */
  glob: boolean;
  /** `:caption:`, when given. */
  caption?: string;
  entries: ToctreeEntry[];
}

export interface ToctreeEntry {
  /** The document named, as written (relative to the including document, or absolute from the source root with a leading `/`); `self` for the document itself. */
  doc: string;
  /** An explicit title (`Title <doc>`). */
  title?: string;
  /** 1-based line in the file. */
  line: number;
}

/** The punctuation an adornment may use (docutils: any non-alphanumeric printable 7-bit ASCII). */
const ADORNMENT = /^([!-/:-@[-`{-~])\1+[ \t]*$/;
const TARGET = /^\.\.\s+_[^:]*:\s*$/;

interface Title {
  text: string;
  /** Adornment style: the character, with `o` prefixed for an overline. */
  style: string;
  /** 0-based first line (the overline when there is one) and last line (the underline). */
  start: number;
  end: number;
  anchor?: string;
}

/** Reads a reStructuredText file into sections, its title and its toctrees. Never throws. */
export function parseRst(path: string, text: string): RstDocument {
  const lines = splitLines(text);
  const problems: Problem[] = [];
  const titles = findTitles(lines, path, problems);
  const levels = new Map<string, number>();
  for (const title of titles) if (!levels.has(title.style)) levels.set(title.style, levels.size + 1);

  const sections: MarkdownSection[] = [];
  const state = { highlight: '' };
  const firstTitle = titles.length > 0 ? titles[0].start : lines.length;
  const preamble = renderRstBlocks(lines.slice(0, firstTitle), state);
  const preambleSpan = contentSpan(lines, 0, firstTitle);
  if (preambleSpan && preamble.some((line) => line.trim() !== '')) {
    sections.push({
      headingPath: [],
      level: 0,
      startLine: preambleSpan.start + 1,
      endLine: preambleSpan.end + 1,
      text: trimBlank(preamble).join('\n'),
    });
  }
  const stack: { level: number; text: string }[] = [];
  titles.forEach((title, index) => {
    const level = levels.get(title.style)!;
    while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, text: title.text });
    const next = index + 1 < titles.length ? titles[index + 1].start : lines.length;
    const span = contentSpan(lines, title.start, next) ?? { start: title.start, end: title.end };
    const body = renderRstBlocks(lines.slice(title.end + 1, span.end + 1), state);
    const heading = `${'#'.repeat(Math.min(level, 6))} ${title.text}`;
    const section: MarkdownSection = {
      headingPath: stack.map((entry) => entry.text),
      level: Math.min(level, 6),
      startLine: span.start + 1,
      endLine: Math.max(span.end, title.end) + 1,
      text: trimBlank([heading, ...body]).join('\n'),
    };
    if (title.anchor) section.anchor = title.anchor;
    sections.push(section);
  });

  const frontMatter = noFrontMatter(text);
  return {
    frontMatter,
    sections,
    title: titles[0]?.text || humanizeFileName(path),
    problems,
    page: {},
    toctrees: readToctrees(lines),
  };
}

/** The titles of a document, in order (see the module notes). */
function findTitles(lines: readonly string[], path: string, problems: Problem[]): Title[] {
  const titles: Title[] = [];
  const blankBefore = (i: number) => i === 0 || lines[i - 1].trim() === '' || TARGET.test(lines[i - 1]);
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || !blankBefore(i)) continue;
    const over = ADORNMENT.exec(line);
    if (over && i + 2 < lines.length) {
      const under = ADORNMENT.exec(lines[i + 2]);
      const text = lines[i + 1].trim();
      if (under && under[1] === over[1] && text !== '' && !ADORNMENT.test(lines[i + 1])) {
        titles.push(withAnchor({ text: rstInlineTitle(text), style: `o${over[1]}`, start: i, end: i + 2 }, lines, i));
        i += 2;
        continue;
      }
    }
    if (over || /^\s/.test(line)) continue;
    const under = ADORNMENT.exec(lines[i + 1]);
    if (!under || line.startsWith('..')) continue;
    const adornment = lines[i + 1].trimEnd();
    const text = line.trim();
    if (adornment.length < text.length) {
      // docutils: "Title underline too short" is a warning, the title stands; under 4 characters
      // the line is text, not a title.
      if (adornment.length < 4) continue;
      problems.push({
        path,
        line: i + 2,
        severity: 'info',
        code: 'rst.title-underline-short',
        message: `Title underline too short for '${text}'; read as a title, as docutils does.`,
      });
    }
    titles.push(withAnchor({ text: rstInlineTitle(text), style: under[1], start: i, end: i + 1 }, lines, i));
    i++;
  }
  return titles;
}

/** A title's text with its inline markup read (`` ``name`` `` -> name: a heading is plain text). */
function rstInlineTitle(text: string): string {
  return rstInline(text)
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The title with the hyperlink target written just above it (`.. _label:`), which names it. */
function withAnchor(title: Title, lines: readonly string[], start: number): Title {
  let i = start - 1;
  while (i >= 0 && lines[i].trim() === '') i--;
  const target = i >= 0 ? /^\.\.\s+_([^:]+):\s*$/.exec(lines[i]) : null;
  return target ? { ...title, anchor: target[1].trim() } : title;
}

/**
 * Lines `start` to `end` (exclusive) without blank lines, comments and targets at their end:
 * a target written above the next title names that title, not this section. Null when nothing is left.
 */
function contentSpan(lines: readonly string[], start: number, end: number): { start: number; end: number } | null {
  let last = end - 1;
  while (last >= start && (lines[last].trim() === '' || TARGET.test(lines[last]))) last--;
  let first = start;
  while (first <= last && lines[first].trim() === '') first++;
  return first <= last ? { start: first, end: last } : null;
}

function trimBlank(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  // Runs of blank lines collapse to one, as they read.
  return lines.slice(start, end).filter((line, i, all) => line.trim() !== '' || all[i - 1]?.trim() !== '');
}

/** The document's toctree directives and their entries (options skipped, `:glob:` kept). */
function readToctrees(lines: readonly string[]): Toctree[] {
  const toctrees: Toctree[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)\.\.\s+toctree::\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const toctree: Toctree = { glob: false, entries: [] };
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j];
      if (line.trim() === '') continue;
      if (line.length - line.trimStart().length <= indent) break;
      const entry = line.trim();
      const option = /^:([\w-]+):(?:\s+(.*))?$/.exec(entry);
      if (option) {
        if (option[1] === 'glob') toctree.glob = true;
        if (option[1] === 'caption' && option[2]) toctree.caption = option[2].trim();
        continue;
      }
      if (entry.startsWith('..')) continue;
      const explicit = /^(.*\S)\s*<([^<>]+)>$/.exec(entry);
      toctree.entries.push(
        explicit ? { doc: explicit[2].trim(), title: explicit[1].trim(), line: j + 1 } : { doc: entry, line: j + 1 },
      );
    }
    toctrees.push(toctree);
    i = j - 1;
  }
  return toctrees;
}
