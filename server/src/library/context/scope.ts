/**
 * What one `get_context` request may draw from (get_context's contract's (docs/ARCHITECTURE.md) inputs):
 *
 * - `folder`: "only take material from this folder and its subfolders". Everything the bundle
 *   holds comes from inside it: the team instructions, rules, pinned pages, pack and Good-for
 *   pages, searched sections and the named entities' doc excerpts ({@link Scope.withinFolder}).
 * - `tags`: "only search sections with these tags". They narrow what is searched and reached
 *   (sections, pack and Good-for pages, {@link Scope.includes}); rules, pinned pages and the team
 *   instructions still come. A document with none of the tags (an entity's TechDocs have no
 *   library tags) is not searched, so no entity excerpt joins a tagged bundle.
 *
 * Only ready pages (published, unexpired) are ever in scope; never anyone else's private notes
 * (privateNotes.ts).
 */
import { type Doc, InputError, classifyLibraryPath } from '../../engine';
import type { LibraryView } from '../view/libraryView';

export interface Scope {
  /** The folder as resolved (workspace-relative, no trailing slash), when one was given. */
  folder?: string;
  /** Lower-cased tags, when given. */
  tags?: string[];
  /** True for a page inside the folder (every page when none was given): rules, pinned pages, instructions. */
  withinFolder(doc: Doc): boolean;
  /** True for a page the request may search or reach: inside the folder and carrying one of the tags. */
  includes(doc: Doc): boolean;
}

/** Most folders or tags an error message lists. */
const LISTED = 30;

/**
 * The scope of a request. Throws {@link InputError} naming the field when `folder` holds no ready
 * page or a tag is used by none.
 */
export function resolveScope(view: LibraryView, options: { folder?: string; tags?: readonly string[] }): Scope {
  const scope: Scope = { withinFolder: () => true, includes: () => true };
  let folderTest: ((doc: Doc) => boolean) | undefined;
  if (options.folder !== undefined) {
    const wanted = options.folder.trim().replace(/^\.\//, '').replace(/\/+$/, '');
    if (wanted === '') throw new InputError('folder: give a library folder, for example ".context/guides" or "guides"');
    const test = (doc: Doc) => inFolder(doc.path, wanted);
    if (!view.docs.some(test)) {
      const folders = [
        ...new Set(view.docs.map((d) => d.path.slice(0, Math.max(0, d.path.lastIndexOf('/')))).filter(Boolean)),
      ].sort();
      throw new InputError(
        `folder: no ready library page is in "${options.folder}". Folders: ${folders.slice(0, LISTED).join(', ')}${folders.length > LISTED ? ', ...' : ''}.`,
      );
    }
    scope.folder = wanted;
    folderTest = test;
  }
  let tagTest: ((doc: Doc) => boolean) | undefined;
  if (options.tags !== undefined && options.tags.length > 0) {
    const tags = [...new Set(options.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];
    const known = new Set(view.docs.flatMap((d) => d.library!.tags));
    const unknown = tags.filter((t) => !known.has(t));
    if (unknown.length > 0) {
      const vocabulary = [...known].sort();
      throw new InputError(
        `tags: no ready page is tagged ${unknown.map((t) => `"${t}"`).join(', ')}. Tags in use: ${vocabulary.slice(0, LISTED).join(', ')}${vocabulary.length > LISTED ? ', ...' : ''}.`,
      );
    }
    scope.tags = tags;
    tagTest = (doc) => (doc.library?.tags ?? []).some((t) => tags.includes(t));
  }
  scope.withinFolder = (doc) => !folderTest || folderTest(doc);
  scope.includes = (doc) => (!folderTest || folderTest(doc)) && (!tagTest || tagTest(doc));
  return scope;
}

/** `path` is in `folder` (a workspace-relative folder, or one relative to a `.context` folder). */
export function inFolder(path: string, folder: string): boolean {
  if (path.startsWith(`${folder}/`)) return true;
  const at = path.lastIndexOf('.context/');
  return at >= 0 && path.slice(at + '.context/'.length).startsWith(`${folder}/`);
}

const instructionPages = new WeakMap<Doc, boolean>();

/** True for a team instructions page (`.context/instructions.md`). */
export function isTeamInstructions(doc: Doc): boolean {
  let is = instructionPages.get(doc);
  if (is === undefined) {
    is = doc.format === 'context-page' && classifyLibraryPath(doc.path)?.teamInstructions === true;
    instructionPages.set(doc, is);
  }
  return is;
}

/** A rule page: `type: rule`. */
export function isRule(doc: Doc): boolean {
  return doc.library?.type === 'rule';
}
