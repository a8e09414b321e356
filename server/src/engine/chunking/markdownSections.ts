/**
 * Markdown documents -> sections (docs/ARCHITECTURE.md, "What is read"): one section per heading, running to the
 * next heading of any level, plus a preamble for text before the first heading. Sections are
 * never split or merged, so a section is exactly what its author wrote under that heading.
 *
 * Line numbers are 1-based, inclusive, and count lines of the original file (front matter
 * included). Section text keeps the lines as written (`\r\n` read as `\n`), heading line(s)
 * included, without trailing blank lines.
 */
import type { Problem, Section } from '../model';
import { type FrontMatter, parseFrontMatter } from './frontMatter';
import { sectionId } from './ids';
import { scanMarkdown, splitLines } from './markdownBlocks';

/** A section before ids are assigned. */
export interface MarkdownSection {
  /** Ancestors' headings then this section's own; empty for the preamble. */
  headingPath: string[];
  /** 1..6, 0 for the preamble. */
  level: number;
  startLine: number;
  endLine: number;
  text: string;
  /**
   * The heading's own anchor where the source names one (an HTML heading's `id`, `{#id}`, an
   * AsciiDoc `[[id]]`, a reStructuredText `.. _label:` before the title): what links to the
   * section use. Not part of the section's id, which stays its path and heading path.
   */
  anchor?: string;
}

/**
 * The parsed shape of every documentation format (chunking/documentFormats.ts): Markdown, MDX,
 * reStructuredText and AsciiDoc give the same sections, title and page labels.
 */
export interface MarkdownDocument {
  frontMatter: FrontMatter;
  sections: MarkdownSection[];
  /**
   * Front matter `title`, else the first level-1 heading, else the first heading, else the
   * page's menu label (`page.navTitle`), else the file name.
   */
  title: string;
  /** Front matter problems (syntax, a `title` that is not text). */
  problems: Problem[];
  /** What the page says of its place in a site (sources/siteNav reads them). */
  page: PageLabels;
}

/** What a page says of its place in a documentation site besides its title; all optional. */
export interface PageLabels {
  /**
   * Its short title in menus: front matter `linkTitle` (Hugo), `sidebar_label` (Docusaurus),
   * `nav_title`; AsciiDoc's `:navtitle:` (Antora).
   */
  navTitle?: string;
  /**
   * Its place among its siblings, lowest first: front matter `weight` or a `menu` entry's
   * `weight` (Hugo), `sidebar_position` (Docusaurus), `nav_order` (Jekyll's Just the Docs).
   */
  position?: number;
  /** Docusaurus `id`: the last part of the page's document id in sidebars, instead of its file name. */
  id?: string;
}

/** Reads front matter, splits the body into sections and picks the title. Never throws. */
export function parseMarkdown(path: string, text: string): MarkdownDocument {
  const frontMatter = parseFrontMatter(text, path);
  const problems = [...frontMatter.problems];
  const sections = splitSections(frontMatter.body, frontMatter.bodyLineOffset);
  const page = pageLabels(frontMatter.data);
  let title = titleFromHeadings(sections) ?? page.navTitle ?? humanizeFileName(path);
  const declared = frontMatter.data.title;
  if (typeof declared === 'string' || typeof declared === 'number') {
    if (String(declared).trim() !== '') title = String(declared).trim();
  } else if (declared !== undefined && declared !== null) {
    problems.push({
      path,
      line: frontMatter.keyLines.title ?? 1,
      severity: 'warning',
      code: 'frontmatter.invalid-field',
      message: `Front matter field 'title' must be text; using "${title}" instead.`,
    });
  }
  return { frontMatter, sections, title, problems, page };
}

/** Front matter keys naming a page in menus, in the order they are tried. */
const NAV_TITLE_KEYS = ['linkTitle', 'sidebar_label', 'nav_title', 'navTitle'];
/** Front matter keys placing a page among its siblings, in the order they are tried. */
const POSITION_KEYS = ['weight', 'sidebar_position', 'nav_order'];

/** The page labels front matter gives (PageLabels); keys of the wrong type are ignored. */
export function pageLabels(data: Record<string, unknown>): PageLabels {
  const page: PageLabels = {};
  for (const key of NAV_TITLE_KEYS) {
    const value = data[key];
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') {
      page.navTitle = String(value).trim();
      break;
    }
  }
  for (const key of POSITION_KEYS) {
    const value = toNumber(data[key]);
    // Hugo reads a weight of 0 as no weight (such pages sort after the weighted ones).
    if (value !== undefined && !(key === 'weight' && value === 0)) {
      page.position = value;
      break;
    }
  }
  // Hugo also places a page by its menu entry: `menu: { main: { weight: 3 } }`.
  const menu = data.menu;
  if (page.position === undefined && menu !== null && typeof menu === 'object' && !Array.isArray(menu)) {
    for (const entry of Object.values(menu as Record<string, unknown>)) {
      const weight =
        entry !== null && typeof entry === 'object' ? toNumber((entry as Record<string, unknown>).weight) : undefined;
      if (weight !== undefined && weight !== 0) {
        page.position = weight;
        break;
      }
    }
  }
  if (typeof data.id === 'string' && data.id.trim() !== '') page.id = data.id.trim();
  return page;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+(?:\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * Splits a Markdown body into sections. `lineOffset` is the number of file lines before the body
 * (front matter), added to every line number. Default 0.
 */
export function splitSections(body: string, lineOffset = 0): MarkdownSection[] {
  const lines = splitLines(body);
  const { headings } = scanMarkdown(lines);
  const sections: MarkdownSection[] = [];

  const firstHeading = headings.length > 0 ? headings[0].startLine : lines.length;
  const preamble = trimBlank(lines, 0, firstHeading - 1);
  if (preamble) {
    sections.push(makeSection(lines, [], 0, preamble.start, preamble.end, lineOffset));
  }

  const stack: { level: number; text: string }[] = [];
  headings.forEach((heading, index) => {
    while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) stack.pop();
    stack.push({ level: heading.level, text: heading.text });
    const next = index + 1 < headings.length ? headings[index + 1].startLine : lines.length;
    // The heading line itself is never blank, so trimming cannot empty the range.
    const end = trimBlank(lines, heading.startLine, next - 1)?.end ?? heading.endLine;
    const path = stack.map((entry) => entry.text);
    const section = makeSection(lines, path, heading.level, heading.startLine, end, lineOffset);
    if (heading.anchor) section.anchor = heading.anchor;
    sections.push(section);
  });
  return sections;
}

/**
 * Assigns ids (ids.ts `sectionId`): repeated heading paths in one document get ordinals 2, 3...
 * in document order, so every id in a document is distinct.
 */
export function toSections(path: string, docId: string, sections: readonly MarkdownSection[]): Section[] {
  const seen = new Map<string, number>();
  return sections.map((section) => {
    const key = section.headingPath.join('\u0000');
    const ordinal = (seen.get(key) ?? 0) + 1;
    seen.set(key, ordinal);
    return {
      id: sectionId(path, section.headingPath, ordinal),
      docId,
      headingPath: section.headingPath,
      level: section.level,
      startLine: section.startLine,
      endLine: section.endLine,
      text: section.text,
    };
  });
}

/** Sections of a Markdown file with their ids; front matter is skipped but counted in line numbers. */
export function markdownSections(path: string, text: string, docId: string): Section[] {
  return toSections(path, docId, parseMarkdown(path, text).sections);
}

function titleFromHeadings(sections: readonly MarkdownSection[]): string | undefined {
  const headed = sections.filter((section) => section.level > 0 && lastHeading(section) !== '');
  const h1 = headed.find((section) => section.level === 1);
  const chosen = h1 ?? headed[0];
  return chosen ? lastHeading(chosen) : undefined;
}

function lastHeading(section: MarkdownSection): string {
  return section.headingPath[section.headingPath.length - 1] ?? '';
}

/**
 * A file name made readable: the extension of a documentation file dropped, `-`, `_` and `.` read as
 * spaces, first letter upper-cased (`getting-started.md` -> `Getting started`).
 */
export function humanizeFileName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = base.replace(/\.(md|mdc|mdx|markdown|mdown|mkd|mkdn|rst|rest|adoc|asciidoc)$/i, '');
  const words = stem
    .replace(/[-_.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (words === '') return base;
  return words[0].toUpperCase() + words.slice(1);
}

function trimBlank(lines: readonly string[], start: number, end: number): { start: number; end: number } | null {
  while (start <= end && lines[start].trim() === '') start++;
  while (end >= start && lines[end].trim() === '') end--;
  return start <= end ? { start, end } : null;
}

function makeSection(
  lines: readonly string[],
  headingPath: string[],
  level: number,
  start: number,
  end: number,
  lineOffset: number,
): MarkdownSection {
  return {
    headingPath,
    level,
    startLine: start + 1 + lineOffset,
    endLine: end + 1 + lineOffset,
    text: lines.slice(start, end + 1).join('\n'),
  };
}
