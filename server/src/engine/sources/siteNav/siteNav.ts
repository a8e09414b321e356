/**
 * The reading order and menu titles of one documentation site's pages, from the site's own
 * configuration, read without running anything (docs/ARCHITECTURE.md, "What is read"):
 *
 * - explicit navigations, first: Docusaurus sidebars (docusaurusSidebars.ts), an mdBook's or
 *   GitBook's `SUMMARY.md` (summaryNav.ts), Antora's `nav.adoc` files (antoraNav.ts), Sphinx
 *   `toctree`s (sphinxToctree.ts);
 * - then every other page by its folders (folderOrder.ts): awesome-pages `.pages` and
 *   awesome-nav `.nav.yml`, `_category_` files, front matter positions (Hugo `weight`,
 *   `sidebar_position`, `nav_order`), index pages first; plain path order when the site has none.
 *
 * Navigation orders and names pages; it never decides whether a page is read: every page of the
 * site is in the order, once. The files read as navigation (a SUMMARY.md) are named so the site
 * does not also read them as pages. A site's mkdocs.yml `nav` is read before all this
 * (sources/techdocs.ts).
 */
import type { Problem } from '../../model';
import type { FileSource } from '../../workspace/fileSource';
import { findAntora, readAntoraNav } from './antoraNav';
import { findSidebars, readSidebarsNav } from './docusaurusSidebars';
import { FolderOrder } from './folderOrder';
import { addEntry, type IsNavFile, isInside, type NavEntry, type NavReading, type SitePage } from './navTypes';
import { readToctreeNav } from './sphinxToctree';
import { findSummary, readSummaryNav } from './summaryNav';

export type { NavEntry, SitePage } from './navTypes';

export interface SiteNav {
  /** Every page of the site once, in reading order, with the title a navigation gives it. */
  order: NavEntry[];
  /** Files read as navigation: not pages of the site even when they are Markdown. */
  navFiles: ReadonlySet<string>;
  /**
   * The site's start page by its configuration: Antora's start page, else the first page an
   * explicit navigation lists (sidebars, SUMMARY.md, Antora, toctree), if any.
   */
  startPage?: string;
  problems: Problem[];
}

/**
 * The order of a site's pages. `docsDir` is the site's folder; `pages` every page it reads;
 * `isNavFile` says which files are navigation files (default: any file the source holds).
 * Never throws on content.
 */
export async function readSiteNav(
  files: FileSource,
  docsDir: string,
  pages: readonly SitePage[],
  isNavFile: IsNavFile = (path) => files.has(path),
): Promise<SiteNav> {
  const problems: Problem[] = [];
  const navFiles = new Set<string>();
  const exists = new Set(pages.map((p) => p.path));
  const take = (reading: NavReading) => {
    for (const problem of reading.problems) problems.push(problem);
    for (const path of reading.navFiles) navFiles.add(path);
    return reading.entries.filter((entry) => exists.has(entry.path));
  };

  const folders = await FolderOrder.read(files, docsDir, pages);
  for (const problem of folders.problems) problems.push(problem);
  for (const path of folders.navFiles) navFiles.add(path);

  const explicit: NavEntry[][] = [];
  const sidebars = findSidebars(isNavFile, docsDir);
  if (sidebars) {
    const text = (await files.readText(sidebars.path)) ?? '';
    explicit.push(
      take(
        readSidebarsNav(sidebars.path, text, sidebars.docsRoot, pages, (dir) =>
          folders.pagesUnder(dir).map((e) => e.path),
        ),
      ),
    );
  }
  // A SUMMARY.md among the site's own pages counts too (a book kept below the docs folder).
  const summary =
    (await findSummary(files, isNavFile, docsDir)) ??
    [...pages]
      .filter((p) => p.path.endsWith('/SUMMARY.md') || p.path === 'SUMMARY.md')
      .sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0]?.path ??
    null;
  if (summary) {
    const text = (await files.readText(summary)) ?? '';
    explicit.push(take(readSummaryNav(summary, text, (path) => exists.has(path))));
  }
  const antora = findAntora(isNavFile, docsDir);
  let start: string | undefined;
  if (antora) {
    const reading = await readAntoraNav(files, antora, isNavFile, (path) => exists.has(path));
    if (reading.start && exists.has(reading.start)) start = reading.start;
    explicit.push(take(reading));
  }
  explicit.push(take(readToctreeNav(docsDir, pages)));

  const order: NavEntry[] = [];
  const seen = new Set<string>();
  for (const entries of explicit)
    for (const entry of entries) if (!navFiles.has(entry.path)) addEntry(order, seen, entry.path, entry.title);
  const startPage = start ?? order[0]?.path;
  for (const entry of folders.pagesUnder(docsDir))
    if (!navFiles.has(entry.path)) addEntry(order, seen, entry.path, entry.title);
  // Pages outside the site's folder (a site read from a list of files): path order.
  for (const page of [...pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    if (!navFiles.has(page.path) && !isInside(page.path, docsDir)) addEntry(order, seen, page.path);
  for (const page of pages) if (!navFiles.has(page.path)) addEntry(order, seen, page.path);
  return startPage === undefined ? { order, navFiles, problems } : { order, navFiles, problems, startPage };
}
