/**
 * Deterministic summaries of library documents and sections (no model; docs/ARCHITECTURE.md, "Model steps are optional"'s
 * fallback: headings and first sentences).
 *
 * - A document's one-line summary is its front matter `summary` (Copilot's and Cursor's
 *   `description`), else the first sentence of its first paragraph, else a list of its headings.
 * - A section's summary line is the first sentence of its body.
 * - What `search_instructions` compares a plan with (the "section summary" signal) is the
 *   section's heading path and first two sentences plus its document's summary, `good_for` and
 *   `questions`, analysed once and cached per object (sections and documents are immutable; an
 *   edited file yields new objects, so the cache can never serve stale terms).
 */
import { type Doc, type Section, termSet } from '../../engine';
import { DOC_SUMMARY_CHARS, TOC_SECTION_SUMMARY_CHARS } from './constants';

const docSummaries = new WeakMap<Doc, string>();
const sectionLines = new WeakMap<Section, string>();
const sectionTerms = new WeakMap<Section, ReadonlySet<string>>();
const docCardTerms = new WeakMap<Doc, ReadonlySet<string>>();

/** The section's text without its heading line (two lines for a setext heading). */
export function sectionBody(section: Section): string {
  if (section.level === 0) return section.text;
  const lines = section.text.split('\n');
  let skip = 1;
  if (!/^\s{0,3}#{1,6}(\s|$)/.test(lines[0] ?? '') && /^\s{0,3}(=+|-+)\s*$/.test(lines[1] ?? '')) skip = 2;
  return lines
    .slice(skip)
    .join('\n')
    .replace(/^(?:[ \t]*\n)+/, '');
}

/** The heading a section is shown under: its own heading, or the document title for a preamble. */
export function sectionHeading(section: Section, doc: Doc): string {
  return section.headingPath[section.headingPath.length - 1] ?? doc.title;
}

/** The document's one-line summary (declared, else derived; see the module notes). */
export function documentSummary(doc: Doc): string {
  let summary = docSummaries.get(doc);
  if (summary === undefined) {
    summary = doc.library?.summary?.trim() || deriveDocumentSummary(doc);
    summary = oneLine(summary);
    docSummaries.set(doc, summary);
  }
  return summary;
}

/** The first sentence of a section's body, cut to {@link TOC_SECTION_SUMMARY_CHARS}; '' when it has none. */
export function sectionSummaryLine(section: Section): string {
  let line = sectionLines.get(section);
  if (line === undefined) {
    line = truncateAtWord(firstSentences(sectionBody(section), 1), TOC_SECTION_SUMMARY_CHARS);
    sectionLines.set(section, line);
  }
  return line;
}

/** Index terms of a section's own summary: heading path and first two sentences. */
export function sectionSummaryTerms(section: Section): ReadonlySet<string> {
  let terms = sectionTerms.get(section);
  if (terms === undefined) {
    terms = termSet(`${section.headingPath.join('\n')}\n${firstSentences(sectionBody(section), 2)}`);
    sectionTerms.set(section, terms);
  }
  return terms;
}

/** Index terms of what a document says it is for: summary, `good_for`, `questions`. */
export function documentCardTerms(doc: Doc): ReadonlySet<string> {
  let terms = docCardTerms.get(doc);
  if (terms === undefined) {
    const library = doc.library;
    terms = termSet([documentSummary(doc), ...(library?.goodFor ?? []), ...(library?.questions ?? [])].join('\n'));
    docCardTerms.set(doc, terms);
  }
  return terms;
}

function deriveDocumentSummary(doc: Doc): string {
  for (const section of doc.sections) {
    const first = firstSentences(sectionBody(section), 1);
    if (first !== '') return truncateAtWord(first, DOC_SUMMARY_CHARS);
  }
  const headings = doc.sections.filter((s) => s.level > 1).map((s) => sectionHeading(s, doc));
  if (headings.length > 0) return truncateAtWord(`Sections: ${headings.join(', ')}.`, DOC_SUMMARY_CHARS);
  return doc.title;
}

/**
 * The first `count` sentences of the first paragraph or list item of a Markdown body, as plain
 * text. Code blocks, tables and rules are skipped; '' when the body has no prose.
 */
export function firstSentences(markdown: string, count: number): string {
  const paragraph = firstParagraph(markdown);
  if (paragraph === '') return '';
  const text = plainText(paragraph);
  const sentences: string[] = [];
  let rest = text;
  while (sentences.length < count && rest !== '') {
    const end = sentenceEnd(rest);
    if (end < 0) {
      sentences.push(rest);
      break;
    }
    sentences.push(rest.slice(0, end + 1));
    rest = rest.slice(end + 1).trim();
  }
  return sentences.join(' ').trim();
}

/** Abbreviations whose period does not end a sentence ("e.g. 4999", "vs. Stripe"). */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|no|fig)$/i;

/**
 * Index of the punctuation that ends the first sentence: `.`, `!` or `?` followed by a space and
 * something that can start a sentence, not after a common abbreviation. -1 when there is none.
 */
function sentenceEnd(text: string): number {
  for (const match of text.matchAll(/[.!?](?=\s+["'([]?[A-Z0-9])/g)) {
    if (match[0] === '.' && ABBREVIATION.test(text.slice(Math.max(0, match.index - 8), match.index))) continue;
    return match.index;
  }
  return -1;
}

/** Lines of the first paragraph (or first list item) outside code blocks and tables. */
function firstParagraph(markdown: string): string {
  const lines = markdown.split('\n');
  const taken: string[] = [];
  let fence: string | null = null;
  let inList = false;
  for (const raw of lines) {
    const line = raw.trimEnd();
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = null;
      continue;
    }
    if (fenceMatch) {
      if (taken.length > 0) break;
      fence = fenceMatch[1];
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '') {
      if (taken.length > 0) break;
      continue;
    }
    if (/^\|/.test(trimmed) || /^(\*\s*){3,}$|^(-\s*){3,}$|^(_\s*){3,}$/.test(trimmed) || /^<!--/.test(trimmed)) {
      if (taken.length > 0) break;
      continue;
    }
    // A README's logo, badges and centring tags come before its first sentence: not prose.
    if (!hasProse(trimmed)) continue;
    const listItem = /^([-*+]|\d+[.)])\s+/.exec(trimmed);
    if (listItem) {
      if (taken.length > 0) break; // the first item only
      inList = true;
      taken.push(trimmed.slice(listItem[0].length));
      continue;
    }
    if (inList && !/^\s/.test(raw)) break;
    taken.push(trimmed.replace(/^>\s?/, '').replace(/^:\s+/, ''));
  }
  return taken.join(' ');
}

/**
 * Markup that says nothing in words: HTML tags, images (a badge is a linked image) and link
 * reference definitions. A line of only these has no prose.
 */
const NO_PROSE = [
  /<\/?[a-zA-Z][^>]*>/g,
  /\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)/g,
  /!\[[^\]]*\]\([^)]*\)/g,
  /^\[[^\]]+\]:\s*\S+.*$/,
];

function hasProse(line: string): boolean {
  let rest = line;
  for (const pattern of NO_PROSE) rest = rest.replace(pattern, ' ');
  return /\p{L}/u.test(rest);
}

/** Markdown inline syntax removed: code spans keep their text, links their label, emphasis goes. */
export function plainText(markdown: string): string {
  const spans: string[] = [];
  let text = markdown.replace(/(`+)([^`]*?)\1/g, (_m, _ticks, code: string) => {
    spans.push(code.trim());
    return `\u0000${spans.length - 1}\u0000`;
  });
  text = text
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\[([^[\]|]+)\|([^[\]]+)\]\]/g, '$2')
    .replace(/\[\[([^[\]]+)\]\]/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/(^|[\s(])[*_](?=\S)/g, '$1')
    .replace(/(\S)[*_](?=$|[\s).,;:!?])/g, '$1')
    .replace(/^#{1,6}\s+/, '');
  text = text.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => spans[Number(i)]);
  return oneLine(text);
}

/** `text` cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  const base = space > max / 2 ? cut.slice(0, space) : cut;
  return `${base.replace(/[\s,;:.-]+$/, '')}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
