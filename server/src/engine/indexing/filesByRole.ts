/**
 * Which producer reads which file, from the roles discovery gave each (workspace/globs.ts), so the
 * producers never decide by a file name of their own (produceDocs.ts).
 *
 * One documentation file is read by one source, the most specific: the library and epics first
 * (a file they claim is theirs), then a folder's overview (`overview.md`, else its `README.md`),
 * then documentation (the `docs` role: every other Markdown-family page, wherever it sits). A
 * folder named `docs` keeps every page in it, as it always has: its README is the docs' index
 * page, and an epic or library page kept there is read by both sources, the more specific winning
 * and the attachments merged (produceDocs.ts `mergeByPath`). A page in a format no splitter reads
 * yet is left out here and counted by coverage (coverage.ts).
 */
import { docFileFormat, splitsFormat } from '../chunking/docFormat';
import { sha256Hex } from '../chunking/ids';
import { overviewPreference } from '../sources/overview';
import { dirName } from '../sources/paths';
import type { FileTable } from './fileTable';
import { claimedByOtherRole, mayProduceFromFile } from './fileProducts';

/** The files each producer reads. */
export interface FilesByRole {
  /** Catalog files, the catalog's roots. */
  catalog: string[];
  /** Other YAML files, checked for entities no Location names (loadCatalog.ts `candidates`). */
  catalogCandidates: string[];
  /** The catalog memo's key: the roots and the candidates, in order. */
  catalogKey: string;
  /** Files that may make a document, folder description or pack on their own (fileProducts.ts). */
  fileProducts: string[];
  /** Files of the `techdocs` globs: each a documentation site unless an entity's site read it. */
  techdocsConfigs: string[];
  /** Documentation pages no overview, library page or epic glob claims, in a format read today: read as docs folders unless a site read them. */
  docsFiles: string[];
  /** Whether a path is a site navigation file (the `siteNav` role): how sites find their configuration. */
  isNavFile: (path: string) => boolean;
  /** A digest of the site navigation files' paths ('' when there are none), part of every site's memo key. */
  siteNavKey: string;
  /** The overview of each directory that has one (overview.md before README.md). */
  overviewByDir: Map<string, string>;
}

/** The producers' files of a table, in path order. */
export function sortFilesByRole(table: FileTable): FilesByRole {
  const catalog: string[] = [];
  const catalogCandidates: string[] = [];
  const fileProducts: string[] = [];
  const techdocsConfigs: string[] = [];
  const docsCandidates: string[] = [];
  const siteNav: string[] = [];
  const overviewByDir = new Map<string, string>();
  for (const path of table.list()) {
    const roles = table.get(path)!.roles;
    if (roles.includes('catalog')) catalog.push(path);
    else if (roles.includes('catalogTargets')) catalogCandidates.push(path);
    if (roles.includes('techdocs')) techdocsConfigs.push(path);
    if (roles.includes('siteNav')) siteNav.push(path);
    if (mayProduceFromFile(path, roles)) fileProducts.push(path);
    const claimed = claimedByOtherRole(path, roles);
    if (roles.includes('docs') && (!claimed || inDocsFolder(path, table.get(path)!.root))) docsCandidates.push(path);
    // A file another source reads (a library page, an epic) is that, not an overview.
    if (claimed || !roles.includes('overview')) continue;
    // One overview per folder: overview.md before README.md, then the first in path order.
    const dir = dirName(path);
    const held = overviewByDir.get(dir);
    if (held === undefined || overviewPreference(path) < overviewPreference(held)) overviewByDir.set(dir, path);
  }
  const overviews = new Set(overviewByDir.values());
  const docsFiles = docsCandidates.filter((path) => {
    const format = docFileFormat(path);
    if (format === undefined || !splitsFormat(format)) return false;
    return !overviews.has(path) || inDocsFolder(path, table.get(path)!.root);
  });
  return {
    catalog,
    catalogCandidates,
    catalogKey: `catalog:${catalog.join('\n')}\u0000${catalogCandidates.join('\n')}`,
    fileProducts,
    techdocsConfigs,
    docsFiles,
    isNavFile: setLookup(siteNav),
    siteNavKey: siteNav.length > 0 ? sha256Hex(siteNav.join('\n')) : '',
    overviewByDir,
  };
}

/** True when a folder named `docs` holds `path` below its repository root `root`. */
export function inDocsFolder(path: string, root: string): boolean {
  const inRepo = root === '' ? path : path.slice(root.length + 1);
  return inRepo.split('/').slice(0, -1).includes('docs');
}

function setLookup(paths: readonly string[]): (path: string) => boolean {
  const set = new Set(paths);
  return (path) => set.has(path);
}
