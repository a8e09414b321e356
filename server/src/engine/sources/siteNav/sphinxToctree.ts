/**
 * A Sphinx project's page order (https://www.sphinx-doc.org/en/master/usage/restructuredtext/directives.html#directive-toctree):
 * from the root document (`index`, else `contents`, at the top of the site), each `toctree`'s
 * entries in order, depth first, as the built site's navigation reads; documents no toctree
 * reaches follow in path order, their own toctrees read the same way. An entry names a document
 * relative to the document holding the toctree (`/name` from the source folder), without its
 * extension; `:glob:` entries are patterns; `Title <name>` gives the menu title; `self` and
 * addresses name no page.
 */
import type { RstDocument } from '../../chunking/rstSections';
import { addEntry, folderOf, type NavReading, navGlob, noReading, type SitePage } from './navTypes';

/** The site's reStructuredText pages in toctree order, or an empty reading when none has a toctree. */
export function readToctreeNav(docsDir: string, pages: readonly SitePage[]): NavReading {
  const reading = noReading();
  const rst = pages.filter((p) => /\.(rst|rest)$/i.test(p.path));
  const hasToctree = rst.some((p) => ((p.doc as Partial<RstDocument>).toctrees ?? []).length > 0);
  if (!hasToctree) return reading;
  // Sphinx names documents without their extension; any page format may be listed.
  const byName = new Map<string, SitePage>();
  for (const page of pages) byName.set(page.path.replace(/\.[^./]+$/, ''), page);
  const root = rootOf(docsDir, rst);
  const sourceDir = root ? folderOf(root.path) : docsDir;
  const seen = new Set<string>();
  const visit = (page: SitePage, title?: string) => {
    if (seen.has(page.path)) return;
    addEntry(reading.entries, seen, page.path, title);
    for (const toctree of (page.doc as Partial<RstDocument>).toctrees ?? []) {
      for (const entry of toctree.entries) {
        if (entry.doc === 'self' || /^[a-z][a-z0-9+.-]*:/i.test(entry.doc)) continue;
        const name = entry.doc.startsWith('/')
          ? joinName(sourceDir, entry.doc.slice(1))
          : joinName(folderOf(page.path), entry.doc);
        if (toctree.glob && /[*?[]/.test(entry.doc)) {
          const matches = navGlob(name);
          for (const [candidate, target] of [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
            if (matches(candidate)) visit(target);
          continue;
        }
        const target = byName.get(name.replace(/\.(rst|rest|md|txt)$/i, ''));
        if (target) visit(target, entry.title);
      }
    }
  };
  if (root) visit(root);
  for (const page of rst) if (((page.doc as Partial<RstDocument>).toctrees ?? []).length > 0) visit(page);
  return reading;
}

/** The root document: `index` (else `contents`) nearest the top of the site. */
function rootOf(docsDir: string, rst: readonly SitePage[]): SitePage | undefined {
  const depth = (path: string) => path.split('/').length;
  const candidates = rst
    .filter(
      (p) =>
        /(?:^|\/)(index|contents)\.(rst|rest)$/i.test(p.path) &&
        (docsDir === '' || p.path.startsWith(`${docsDir}/`) || folderOf(p.path) === docsDir),
    )
    .sort((a, b) => depth(a.path) - depth(b.path) || (/index\./i.test(a.path) ? -1 : 1));
  return candidates[0];
}

function joinName(dir: string, name: string): string {
  const parts = dir === '' ? [] : dir.split('/');
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return parts.join('/');
}
