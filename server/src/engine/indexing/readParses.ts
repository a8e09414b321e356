/**
 * What a full pass's read workers parse besides reading (readWorker.ts): the YAML files whose
 * parse is most of a producer's time on the answering thread, parsed beside the reads instead of
 * after them. Each parser here is a pure function of path and text with plain data out, so a
 * parse made in a worker is the one the producer would make; a producer takes it only for the
 * very text it was made of, and parses on its own whatever is not here.
 *
 * - Catalog files (`parseCatalogFile`): the catalog's roots whatever they hold, and every other
 *   YAML file the catalog load checks for entities, when it passes that same content check
 *   (`looksLikeCatalogFile`), so a workspace's other YAML (manifests, workflows) costs nothing
 *   more. Taken by loadCatalog.ts `CatalogParseCache.offer`.
 * - Documentation sites' `mkdocs.yml` (`parseMkDocs`, the `techdocs` role). Taken by techdocs.ts
 *   through `parsedConfigs`.
 *
 * Which files to parse comes from the roles discovery gave them (workspace/globs.ts), as the
 * producers' own files do (filesByRole.ts): never from a file name of this module's own.
 */
import { looksLikeCatalogFile, parseCatalogFile, type CatalogFileParse } from '../sources/catalog/parseCatalogFile';
import { parseMkDocs, type MkDocsConfig } from '../sources/mkdocsConfig';
import type { DiscoveredFile } from '../workspace/discovery';

/** How one file is to be parsed once read. */
export interface ParseAsk {
  /** Its workspace path: what it is parsed as (locations and problems name it). */
  path: string;
  /** A catalog root (parsed whatever it holds) or a candidate (parsed when it looks like a catalog file). */
  catalog?: 'root' | 'candidate';
  /** A documentation site's mkdocs.yml. */
  mkdocs?: true;
}

/** One file's parses, as a read worker sends them back. */
export interface ReadParse {
  catalog?: CatalogFileParse;
  mkdocs?: MkDocsConfig;
}

/** A pass's parses by workspace path, each with the text it was made of. */
export interface ReadParses {
  catalog: Map<string, { text: string; parse: CatalogFileParse }>;
  mkdocs: Map<string, { text: string; config: MkDocsConfig }>;
}

export function noReadParses(): ReadParses {
  return { catalog: new Map(), mkdocs: new Map() };
}

/** Which of `files` to parse once read, by index in `files`. */
export function parseAsks(files: readonly DiscoveredFile[]): Map<number, ParseAsk> {
  const asks = new Map<number, ParseAsk>();
  files.forEach((file, i) => {
    const catalog = file.roles.includes('catalog')
      ? 'root'
      : file.roles.includes('catalogTargets')
        ? 'candidate'
        : undefined;
    const mkdocs = file.roles.includes('techdocs');
    if (!catalog && !mkdocs) return;
    asks.set(i, { path: file.path, ...(catalog ? { catalog } : {}), ...(mkdocs ? { mkdocs: true as const } : {}) });
  });
  return asks;
}

/**
 * The parses `ask` names of a file holding `text`, or undefined when there is none: not a catalog
 * file, or a failure the parser did not foresee (the producer then parses the file itself and
 * reports that as it always has).
 */
export function parseRead(text: string, ask: ParseAsk): ReadParse | undefined {
  const out: ReadParse = {};
  if (ask.catalog && (ask.catalog === 'root' || looksLikeCatalogFile(text))) {
    try {
      out.catalog = parseCatalogFile(ask.path, text);
    } catch {
      // Left to the catalog load.
    }
  }
  if (ask.mkdocs) {
    try {
      out.mkdocs = parseMkDocs(ask.path, text);
    } catch {
      // Left to the site's reader.
    }
  }
  return out.catalog || out.mkdocs ? out : undefined;
}

/** Adds one file's parses, made of `text`, to `parses`. */
export function addReadParse(parses: ReadParses, path: string, text: string, parse: ReadParse): void {
  if (parse.catalog) parses.catalog.set(path, { text, parse: parse.catalog });
  if (parse.mkdocs) parses.mkdocs.set(path, { text, config: parse.mkdocs });
}
