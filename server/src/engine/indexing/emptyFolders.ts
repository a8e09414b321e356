/**
 * A served folder that yields no document is never "fine": the index says so with a warning that
 * names what was found there, what is read, and how to have the rest read. Hosts pass it on
 * (`wsctx index` first of all, `wsctx doctor` as a failed check, the editor as a diagnostic), and
 * an answer from an index holding nothing is flagged `index-empty` (tools/workspaceContext.ts).
 */
import type { WorkspaceFolder } from '../indexState';
import type { Doc, FolderCoverage, Problem, UnreadDocFile } from '../model';
import { REASON_WORDS } from './coverage';
import type { FileTable } from './fileTable';

export const NOTHING_INDEXED = 'workspace.nothing-indexed';

/** Unread documentation files named as examples in the message. */
const EXAMPLES = 3;

/**
 * One warning per served folder that holds no document, at the folder's top. `coverage` names the
 * folder's documentation files that are not read, and why (coverage.ts).
 */
export function emptyFolderProblems(
  folders: readonly WorkspaceFolder[],
  docs: Iterable<Doc>,
  table: FileTable,
  coverage: readonly FolderCoverage[] = [],
): Problem[] {
  // Stops at the first document of the last folder still without one: a pass over a folder
  // that has documents costs a few reads, not one per document.
  const withDocs = new Set<string>();
  for (const doc of docs) {
    withDocs.add(doc.folder);
    if (withDocs.size >= folders.length && folders.every((f) => withDocs.has(f.name))) break;
  }
  const problems: Problem[] = [];
  for (const folder of folders) {
    if (withDocs.has(folder.name)) continue;
    let files = 0;
    for (const path of table.list()) if (table.get(path)!.folder === folder.name) files++;
    const unread = coverage.find((c) => c.folder === folder.name)?.unread ?? [];
    const top = folders.length > 1 ? folder.name : '';
    problems.push({
      path: top,
      line: 1,
      severity: 'warning',
      code: NOTHING_INDEXED,
      message: emptyMessage(folder, files, unread),
    });
  }
  return problems;
}

function emptyMessage(folder: WorkspaceFolder, files: number, unread: readonly UnreadDocFile[]): string {
  const read =
    'what is read: catalog-info.yaml files, every Markdown, MDX, reStructuredText and AsciiDoc file that is not vendored, generated or a template (sources.docs), mkdocs.yml sites, .context/ and agent instruction files (AGENTS.md, CLAUDE.md, Copilot and Cursor rules)';
  if (unread.length > 0) {
    const examples = unread
      .slice(0, EXAMPLES)
      .map((u) => `${u.path}: ${REASON_WORDS[u.reason]}`)
      .join(', ');
    const many = unread.length === 1 ? '' : 's';
    const narrowed = unread.some((u) => u.reason === 'not-in-sources');
    return (
      `Nothing in ${folder.absPath} is indexed: ${unread.length} documentation file${many} (${examples}${unread.length > EXAMPLES ? ', ...' : ''}) ` +
      `${unread.length === 1 ? 'is' : 'are'} not read (${read}). ` +
      (narrowed
        ? `The sources.* keys in .wsctx.yaml leave them out: remove sources.docs, or widen it, e.g. "sources: { docs: ['**/*.md'] }".`
        : 'wsctx index lists each with its reason.')
    );
  }
  if (files > 0)
    return `Nothing in ${folder.absPath} is indexed: ${files} file${files === 1 ? '' : 's'} matched a source glob but none made a document (${read}). wsctx index lists the problems found in them.`;
  return `Nothing in ${folder.absPath} is indexed: no file there matches a source glob (${read}). Is this the workspace's root folder? A folder of code alone has nothing to index until it has a README.md or docs.`;
}
