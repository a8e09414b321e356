/**
 * What a section is matched on: its heading path, its document's title, folder, type and tags,
 * and then its body (docs/ARCHITECTURE.md, "What is read"), all through the one analysis of text/analyzer.ts.
 *
 * Folder words come from the file's directories, so a runbook under
 * `services/billing-worker/docs/` answers a question that names `billing-worker` even when the
 * section itself never repeats the name. They are the directories below the workspace folder:
 * serving a folder beside others (its paths then start with its name) changes no term of its
 * sections, so it ranks as it does served alone.
 */
import { forEachKeyPathTerm } from '../chunking/sectionKeyPaths';
import { addOccurrence, isQuestionHeading, type Field, type FieldLengths, type SectionFields } from '../lexical/fields';
import type { Doc, LibraryProps, Section } from '../model';
import { countedLength, forEachTokenTerms, termSet } from '../text/analyzer';

/**
 * What of a document its sections' fields are made of: all a term worker is sent (termWorker.ts).
 */
export type FieldSource = Pick<Doc, 'title' | 'path' | 'format' | 'sourceKind'> & {
  library?: Pick<LibraryProps, 'type' | 'tags'>;
};

/** What of a section its own fields are made of. */
export type SectionSource = Pick<Section, 'headingPath' | 'text'>;

/**
 * The document-level fields every section of a document is matched on: title, folder, type,
 * tags. Kept apart from the section's own headings and body so a ranker can tell a term the
 * section itself says from one it inherits (workspaceContextRanker.ts breaks ties with it).
 */
export function documentContextText(doc: Doc, pathInFolder: string = doc.path): string {
  const parts: string[] = [];
  parts.push(doc.title);
  parts.push(folderWords(pathInFolder));
  const type = documentType(doc);
  if (type) parts.push(type);
  const tags = doc.library?.tags ?? [];
  if (tags.length) parts.push(tags.join(' '));
  return parts.join('\n');
}

/** The terms of a document's context fields (documentContextText). */
export function documentContextTerms(doc: Doc, pathInFolder: string = doc.path): Set<string> {
  return termSet(documentContextText(doc, pathInFolder));
}

/** A document's title and context fields as counted terms, shared by all its sections. */
export interface DocumentFields {
  /** Term -> packed counts of the title and context fields only. */
  counts: ReadonlyMap<string, number>;
  titleLength: number;
  contextLength: number;
}

/** Counts the terms of a document's title and of its other context fields (folder, type, tags). */
export function documentFields(doc: FieldSource, pathInFolder: string = doc.path): DocumentFields {
  const counter = new MapCounter(new Map());
  const titleLength = counter.text(doc.title, 'title');
  const rest: string[] = [folderWords(pathInFolder)];
  const type = documentType(doc);
  if (type) rest.push(type);
  const tags = doc.library?.tags ?? [];
  if (tags.length) rest.push(tags.join(' '));
  const contextLength = counter.text(rest.join('\n'), 'context');
  return { counts: counter.counts, titleLength, contextLength };
}

/**
 * Where a section's term occurrences go, in the order they are met: `text` takes every term of a
 * text (as `forEachTerm` gives them) and says how many count in its length, `term` takes one more.
 */
export interface TermCounter {
  text(text: string, field: Field): number;
  term(term: string, field: Field): void;
}

/**
 * Every occurrence of a section's own terms, in order: its heading path, then its body (docs/
 * ARCHITECTURE.md, "What is read"), then the configuration key paths the body shows
 * (`spec.privatekey.rotationpolicy`, counted in the body but not in its length). Returns every
 * field's length, the document's title and context ones included: the document's own terms are
 * `docFields.counts`, which the caller counts first.
 */
export function countSectionTerms(
  section: SectionSource,
  doc: FieldSource,
  docFields: DocumentFields,
  counter: TermCounter,
): FieldLengths {
  const heading = counter.text(section.headingPath.join('\n'), 'heading');
  const body = counter.text(section.text, 'body');
  // Configuration key paths the section shows (chunking/sectionKeyPaths.ts): counted in the body,
  // not in its length. A catalog entity's text is rendered from its file, not the file itself.
  if (doc.format !== 'catalog') forEachKeyPathTerm(section.text, doc.path, (term) => counter.term(term, 'body'));
  const own = section.headingPath[section.headingPath.length - 1] ?? '';
  return {
    body,
    heading,
    title: docFields.titleLength,
    context: docFields.contextLength,
    questionHeading: isQuestionHeading(own),
  };
}

/** A counter into a map of term -> packed field counts. */
class MapCounter implements TermCounter {
  constructor(readonly counts: Map<string, number>) {}

  text(text: string, field: Field): number {
    let n = 0;
    forEachTokenTerms(text, (terms) => {
      for (let k = 0; k < terms.length; k++) this.term(terms[k], field);
      n += countedLength(terms);
    });
    return n;
  }

  term(term: string, field: Field): void {
    this.counts.set(term, addOccurrence(this.counts.get(term) ?? 0, field));
  }
}

/**
 * Every index term of a section with its frequency per field: its document's title and context
 * fields, then its own terms ({@link countSectionTerms}), in order of first occurrence; and each
 * field's length.
 */
export function sectionFields(
  section: SectionSource,
  doc: FieldSource,
  docFields: DocumentFields = documentFields(doc),
): SectionFields {
  const counter = new MapCounter(new Map(docFields.counts));
  const lengths = countSectionTerms(section, doc, docFields, counter);
  return { counts: counter.counts, lengths };
}

/** The terms of a document's title, for the contract's title bonus. */
export function titleTerms(doc: Doc): Set<string> {
  return termSet(doc.title);
}

/**
 * A document's path below its workspace folder: `path` itself, or without the folder's name when
 * the engine serves several folders (`prefixed`: model.ts, paths carry the name then).
 */
export function pathInFolder(doc: Doc, prefixed: boolean): string {
  return prefixed && doc.path.startsWith(`${doc.folder}/`) ? doc.path.slice(doc.folder.length + 1) : doc.path;
}

/** The directory part of a path as words (`a/b-c/d.md` -> `a b-c`). */
export function folderWords(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash > 0 ? path.slice(0, slash).split('/').join(' ') : '';
}

/** The document's type as matchable words: a library page's type, an entity's kind and spec.type. */
export function documentType(doc: FieldSource): string {
  switch (doc.sourceKind) {
    case 'library':
      return doc.library?.type ?? '';
    case 'epic_doc':
      return 'epic';
    case 'repo_overview':
      return 'overview';
    case 'catalog_doc':
      return 'docs';
    case 'catalog_entity':
      return '';
  }
}
