/**
 * The one place a documentation file's format picks its reader: Markdown (markdownSections.ts),
 * MDX (mdxText.ts, then Markdown), reStructuredText (rstSections.ts) and AsciiDoc
 * (asciidocSections.ts). Every reader gives the same shape (`MarkdownDocument`: sections with
 * heading paths, exact line spans and text in which code stays fenced code, a title, page
 * labels and problems), so ids, ranking, key paths and line-ranged source URIs work the same
 * whatever the format. Readers never throw on content.
 */
import { parseAsciidoc } from './asciidocSections';
import { type MarkdownDocument, parseMarkdown } from './markdownSections';
import { mdxToMarkdown } from './mdxText';
import { parseRst } from './rstSections';

/** A documentation format with a reader. */
export type TextFormat = 'markdown' | 'mdx' | 'rst' | 'asciidoc';

/** Every format with a reader, for callers that list them. */
export const TEXT_FORMATS: readonly TextFormat[] = ['markdown', 'mdx', 'rst', 'asciidoc'];

const BY_EXTENSION: Readonly<Record<string, TextFormat>> = {
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  mkdn: 'markdown',
  mdx: 'mdx',
  rst: 'rst',
  rest: 'rst',
  adoc: 'asciidoc',
  asciidoc: 'asciidoc',
};

/** The format of a file by its extension (any case), or null when no reader takes it. */
export function textFormatOf(path: string): TextFormat | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null;
}

/**
 * Reads a documentation file in its format (default: by its extension, Markdown when the
 * extension names none). Never throws.
 */
export function parseDocumentText(
  path: string,
  text: string,
  format: TextFormat = textFormatOf(path) ?? 'markdown',
): MarkdownDocument {
  switch (format) {
    case 'mdx':
      return parseMarkdown(path, mdxToMarkdown(text));
    case 'rst':
      return parseRst(path, text);
    case 'asciidoc':
      return parseAsciidoc(path, text);
    case 'markdown':
      return parseMarkdown(path, text);
  }
}
