/**
 * The pages an mkdocs `nav` entry names when it names no single file: the navigation plugins
 * people use put patterns and folders in `nav` (mkdocs-literate-nav since 0.4 and mkdocs-awesome-nav
 * take wildcards such as `tutorials/*` or `*.md` and folders such as `guides/`;
 * mkdocs-awesome-pages puts `...` for "the rest", with the order in a folder's `.pages` file).
 * Such an entry is not a missing page: it stands for the pages it matches, in path order, and
 * the pages it matches are placed there in the reading order (sources/techdocs.ts).
 */
import { compileGlob, isGlobPattern } from '../workspace/globMatch';
import { joinPath } from './paths';

/**
 * The pages of `markdownFiles` (workspace-relative, sorted, all under `docsDir`) that a nav
 * entry `file` (relative to docs_dir) stands for, when it is a pattern, a folder or a rest
 * marker; undefined when it is none of those (a page name, checked as such by the caller).
 *
 * - A pattern (`*`, `?`, `[...]`, `{a,b}`, `**`) matches pages by their path below docs_dir, and a
 *   page inside a folder the pattern matches (`*` at the top takes every folder's pages too, as
 *   literate-nav reads it); with a trailing `/` it matches folders only.
 * - A folder (with or without a trailing `/`) stands for every page under it.
 * - `...` (awesome-pages' rest marker, alone or with a filter) stands for nothing here: the pages
 *   no entry places come after the nav's anyway.
 */
export function navEntryPages(file: string, docsDir: string, markdownFiles: readonly string[]): string[] | undefined {
  const entry = file.trim().replace(/^\.\//, '');
  if (entry.startsWith('...')) return [];
  const foldersOnly = entry.endsWith('/');
  const pattern = entry.replace(/\/+$/, '');
  const prefix = docsDir === '' ? '' : `${docsDir}/`;
  const below = (path: string) => path.slice(prefix.length);
  if (pattern !== '' && isGlobPattern(pattern)) {
    const matches = compileGlob(pattern);
    return markdownFiles.filter((path) => {
      const rel = below(path);
      return (!foldersOnly && matches(rel)) || folderOf(rel).some(matches);
    });
  }
  const dir = joinPath(docsDir, pattern);
  if (dir === null) return undefined;
  const inside = markdownFiles.filter((path) => dir === '' || path.startsWith(`${dir}/`));
  return inside.length > 0 ? inside : undefined;
}

/** The folders holding `rel` (`a`, `a/b` for `a/b/c.md`), outermost first. */
function folderOf(rel: string): string[] {
  const folders: string[] = [];
  for (let at = rel.indexOf('/'); at > 0; at = rel.indexOf('/', at + 1)) folders.push(rel.slice(0, at));
  return folders;
}
