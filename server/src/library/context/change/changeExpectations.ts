/**
 * The team's expectations (`.wsctx/expectations.yaml`: questions and tasks with the pages that
 * must, or must not, come back) that a change touches (`get_context`'s `expectation` items): an
 * entry one of whose pages the change edits. A page is named as answers print it, so it is
 * touched when it is
 *
 * - a changed path;
 * - the id (or an id prefix of 4 or more characters) of a document or section of a changed file;
 * - the ref of an entity whose catalog entry the change edits.
 *
 * After such a change, `wsctx check` (or the editor's diagnostics) says whether the entry still
 * holds; the bundle names the entries so the reviewer runs it.
 */
import type { Doc, EntityKey, Expectation } from '../../../engine';
import type { ChangedFile } from './changeInput';

/** One folder's expectations file, read by the host (the library reads no files). */
export interface ExpectationsSource {
  /** Workspace-relative path of the file (`.wsctx/expectations.yaml`, with the folder's name when several are served). */
  path: string;
  /** What pages in it are relative to: '' or `<folder>/` when several folders are served. */
  prefix: string;
  expectations: readonly Expectation[];
}

export interface TouchedExpectation {
  /** The expectations file. */
  file: string;
  line: number;
  /** The question or task as written. */
  question: string;
  task: boolean;
  /** Its pages the change touches, as written, each with `expect` or `exclude`. */
  pages: { page: string; kind: 'expect' | 'exclude' }[];
}

/** `changedDocs`: the indexed documents the changed files are. */
export function touchedExpectations(
  sources: readonly ExpectationsSource[],
  changedDocs: readonly Doc[],
  files: readonly ChangedFile[],
  changedEntities: ReadonlySet<EntityKey>,
): TouchedExpectation[] {
  if (sources.length === 0) return [];
  const changed = new Set(files.map((f) => f.path));
  const touches = (page: string, prefix: string): boolean => {
    const text = page.trim();
    if (changed.has(text) || changed.has(`${prefix}${text}`)) return true;
    if (/^[0-9a-f]{4,64}$/i.test(text)) {
      const id = text.toLowerCase();
      return changedDocs.some((d) => d.id.startsWith(id) || d.sections.some((s) => s.id.startsWith(id)));
    }
    const key = entityKeyOf(text);
    return key !== null && changedEntities.has(key);
  };
  const out: TouchedExpectation[] = [];
  for (const source of sources) {
    for (const e of source.expectations) {
      const pages = [
        ...e.expect
          .filter((i) => touches(i.page, source.prefix))
          .map((i) => ({ page: i.page, kind: 'expect' as const })),
        ...e.exclude
          .filter((i) => touches(i.page, source.prefix))
          .map((i) => ({ page: i.page, kind: 'exclude' as const })),
      ];
      if (pages.length > 0) out.push({ file: source.path, line: e.line, question: e.question, task: e.task, pages });
    }
  }
  return out;
}

/** `component:default/x` or `component:x` as an entity key; null for anything else. */
function entityKeyOf(text: string): EntityKey | null {
  const match = /^([a-z][a-z0-9-]*):(?:([a-z0-9][a-z0-9_.-]*)\/)?([a-z0-9][a-z0-9_.-]*)$/i.exec(text);
  if (!match) return null;
  return `${match[1]}:${match[2] ?? 'default'}/${match[3]}`.toLowerCase();
}
