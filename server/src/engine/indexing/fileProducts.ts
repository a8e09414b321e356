/**
 * Documents made from one file alone: library pages, a library folder's description, packs and
 * epics (those the `epics` globs name, and Markdown whose front matter says `kind: epic`). Which
 * files may make one is decided by their roles, before they are read.
 */
import type { EntityKey, Problem } from '../model';
import type { Doc } from '../model';
import { parseEpic } from '../sources/epics';
import { isFolderDescriptionPath, isPackPath, libraryFileByRoles } from '../sources/instructionFormats';
import {
  parseFolderDescription,
  parsePack,
  readLibraryPage,
  type FolderDescription,
  type LibraryPack,
} from '../sources/library';
import { detachAll } from '../text/detach';
import type { SourceRole } from '../workspace/globs';

export interface FileProduct {
  doc: Doc | null;
  folderDescription?: FolderDescription;
  pack?: LibraryPack;
  problems: Problem[];
  /**
   * Epics only: the document is attached to every well-formed ref, and these problems
   * (`[index in problems, entity key]`) apply only while the entity is not in the catalog
   * (sources/epics.ts `resolveEpic`).
   */
  epicChecks?: [number, EntityKey][];
}

/** False for files `produceFromFile` answers with nothing whatever they hold (catalog YAML...). */
export function mayProduceFromFile(path: string, roles: readonly SourceRole[]): boolean {
  return (
    isLibraryStructure(path, roles) ||
    libraryFileByRoles(path, roles) !== null ||
    roles.includes('epics') ||
    roles.includes('markdown')
  );
}

/** A library folder's description or a pack: `.context` files the `library` globs take in. */
function isLibraryStructure(path: string, roles: readonly SourceRole[]): boolean {
  return roles.includes('library') && (isFolderDescriptionPath(path) || isPackPath(path));
}

/** True when a file with the overview role is read by a more specific source (library, epic). */
export function claimedByOtherRole(path: string, roles: readonly SourceRole[]): boolean {
  return libraryFileByRoles(path, roles) !== null || roles.includes('epics');
}

/** Library pages, folder descriptions, packs and epics: documents made from one file alone. */
export function produceFromFile(
  path: string,
  text: string,
  folder: string,
  roles: readonly SourceRole[],
  exists: (path: string) => boolean,
): FileProduct {
  const product = readProduct(path, text, folder, roles, exists);
  // The product outlives the file's text (the producers' memo keeps it): its problems quote
  // front matter values and its descriptions and packs hold YAML strings, each a slice or a
  // concatenation of slices that would keep the whole page (text/detach.ts). Docs are copies
  // already (docBuilder.ts).
  const copies = new Map<string, string>();
  detachAll(product.problems, copies);
  if (product.folderDescription) detachAll(product.folderDescription, copies);
  if (product.pack) detachAll(product.pack, copies);
  if (product.epicChecks) detachAll(product.epicChecks, copies);
  return product;
}

function readProduct(
  path: string,
  text: string,
  folder: string,
  roles: readonly SourceRole[],
  exists: (path: string) => boolean,
): FileProduct {
  if (isLibraryStructure(path, roles) && isFolderDescriptionPath(path)) {
    const parsed = parseFolderDescription(path, text);
    return { doc: null, folderDescription: parsed.folder, problems: parsed.problems };
  }
  if (isLibraryStructure(path, roles)) {
    const parsed = parsePack(path, text);
    return { doc: null, pack: parsed.pack ?? undefined, problems: parsed.problems };
  }
  const library = libraryFileByRoles(path, roles);
  if (library) {
    const page = readLibraryPage({ path, text, folder, exists, kind: library });
    return { doc: page.doc, problems: page.problems };
  }
  if (roles.includes('epics') || (roles.includes('markdown') && text.startsWith('---'))) {
    const epic = parseEpic({ path, text, folder, matchesEpicGlobs: roles.includes('epics') });
    return epic
      ? { doc: epic.doc, problems: epic.problems, epicChecks: epic.unlessKnown }
      : { doc: null, problems: [] };
  }
  return { doc: null, problems: [] };
}
