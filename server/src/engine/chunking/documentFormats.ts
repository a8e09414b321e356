/**
 * The one place a documentation file's format picks its reader: Markdown (markdownSections.ts),
 * MDX (mdxText.ts, then Markdown), reStructuredText (rstSections.ts) and AsciiDoc
 * (asciidocSections.ts). Every reader gives the same shape (`MarkdownDocument`: sections with
 * heading paths, exact line spans and text in which code stays fenced code, a title, page
 * labels and problems), so ids, ranking, key paths and line-ranged source URIs work the same
 * whatever the format. Readers never throw on content.
 */
import { parseAsciidoc } from './asciidocSections';
import { type DocFileFormat, docFileFormat } from './docFormat';
import { type MarkdownDocument, parseMarkdown } from './markdownSections';
import { mdxToMarkdown } from './mdxText';
import { parseRst } from './rstSections';

/** A documentation format with a reader: the formats discovery tells by extension (docFormat.ts). */
export type TextFormat = DocFileFormat;

/** The format of a file by its extension (any case), or null when no reader takes it. */
export function textFormatOf(path: string): TextFormat | null {
  return docFileFormat(path) ?? null;
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
