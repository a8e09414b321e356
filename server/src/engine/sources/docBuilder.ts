/**
 * One way to turn a documentation file into a `Doc`, shared by every source so ids, digests,
 * titles and sections are computed identically whatever the source kind and the format
 * (chunking/documentFormats.ts reads Markdown, MDX, reStructuredText and AsciiDoc alike).
 */
import { parseDocumentText } from '../chunking/documentFormats';
import { documentId, sha256Hex } from '../chunking/ids';
import { type MarkdownDocument, toSections } from '../chunking/markdownSections';
import { detachAll } from '../text/detach';
import type { Doc, DocFormat, EntityKey, LibraryProps, Problem, SourceKind } from '../model';

export interface DocInput {
  /** Workspace-relative path. */
  path: string;
  text: string;
  sourceKind: SourceKind;
  format: DocFormat;
  /** Workspace folder name. Default ''. */
  folder?: string;
  /** Attached entities; duplicates are dropped, order kept. Default []. */
  entityRefs?: readonly EntityKey[];
  docsRole?: Doc['docsRole'];
  library?: LibraryProps;
  /** A title that wins over the file's own (an MkDocs nav title). */
  title?: string;
  /** The file already parsed (`parseDocumentText`), to avoid reading it twice. Default: parsed by its extension. */
  markdown?: MarkdownDocument;
}

export interface BuiltDoc {
  doc: Doc;
  /** The Markdown's own problems (front matter). Callers that passed `markdown` already have them. */
  problems: Problem[];
}

export function buildDoc(input: DocInput): BuiltDoc {
  const markdown = input.markdown ?? parseDocumentText(input.path, input.text);
  const id = documentId(input.path);
  const sections = toSections(input.path, id, markdown.sections);
  // The index keeps the document long after the file's text is dropped (fileTable.ts
  // `releaseTexts`): its headings, title and front matter must be copies, not slices that pin the
  // whole page (text/detach.ts).
  const copies = new Map<string, string>();
  for (const section of sections) detachAll(section.headingPath, copies);
  const doc: Doc = {
    id,
    path: input.path,
    folder: input.folder ?? '',
    sourceKind: input.sourceKind,
    format: input.format,
    title: detachAll(input.title?.trim() || markdown.title, copies),
    digest: sha256Hex(input.text),
    frontMatter: detachAll(markdown.frontMatter.data, copies),
    entityRefs: detachAll([...new Set(input.entityRefs ?? [])], copies),
    sections,
  };
  if (input.library) doc.library = detachAll(input.library, copies);
  if (input.docsRole) doc.docsRole = input.docsRole;
  return { doc, problems: markdown.problems };
}
