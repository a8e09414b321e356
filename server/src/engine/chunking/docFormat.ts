/**
 * The formats documentation is written in, told by a file's extension, and which of them the
 * document producers can split into sections.
 *
 * This is the one place a producer asks "can I read this page?": discovery keeps every
 * documentation file whatever its format (so coverage counts it), and a page whose format has no
 * splitter here is not dropped silently but counted as `unsupported-format`
 * (indexing/coverage.ts). A new splitter is added to {@link SPLIT_FORMATS} and dispatched on in
 * the producers by the same format name.
 */
/** A documentation file's format: Markdown (`.md`, `.markdown`), MDX, reStructuredText, AsciiDoc. */
export type DocFileFormat = 'markdown' | 'mdx' | 'rst' | 'asciidoc';

/** Extensions of documentation files, lower-case, by format. */
const FORMAT_BY_EXTENSION: ReadonlyMap<string, DocFileFormat> = new Map([
  ['md', 'markdown'],
  ['markdown', 'markdown'],
  ['mdx', 'mdx'],
  ['rst', 'rst'],
  ['adoc', 'asciidoc'],
]);

/** The extensions of {@link FORMAT_BY_EXTENSION}, for globs: `md,markdown,mdx,rst,adoc`. */
export const DOC_FILE_EXTENSIONS: readonly string[] = [...FORMAT_BY_EXTENSION.keys()];

/** The format of a documentation file by its extension (any case), or undefined for any other file. */
export function docFileFormat(path: string): DocFileFormat | undefined {
  const dot = path.lastIndexOf('.');
  // A dot file (`.md` alone) or a dot in a folder's name is no extension.
  if (dot <= 0 || path[dot - 1] === '/' || path.indexOf('/', dot) >= 0) return undefined;
  return FORMAT_BY_EXTENSION.get(path.slice(dot + 1).toLowerCase());
}

/** Formats the producers split into sections today: each has a reader in documentFormats.ts. */
const SPLIT_FORMATS: ReadonlySet<DocFileFormat> = new Set<DocFileFormat>(['markdown', 'mdx', 'rst', 'asciidoc']);

/** True when a page of this format can be read into sections. */
export function splitsFormat(format: DocFileFormat): boolean {
  return SPLIT_FORMATS.has(format);
}
