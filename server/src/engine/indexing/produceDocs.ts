/**
 * Turns the file table into documents: the catalog and its entities, TechDocs, repository
 * overviews, epics and the library, each parser memoised on the files it read (memo.ts).
 *
 * One path is one document. When two sources claim the same file (an epic kept inside an
 * entity's docs folder, two entities sharing one docs folder), the more specific source wins
 * (library, then epic, then entity docs, then overview) and the entity attachments are merged.
 */
import { sha256Hex } from '../chunking/ids';
import type { CatalogEntity, Doc, EntityKey, Problem } from '../model';
import { formatFieldPath } from '../sources/catalog/fieldPath';
import { CatalogParseCache, loadCatalog, type CatalogLoad } from '../sources/catalog/loadCatalog';
import { parseEpic, resolveEpic } from '../sources/epics';
import { isFolderDescriptionPath, isPackPath, classifyLibraryPath } from '../sources/instructionFormats';
import { parseFolderDescription, parsePack, readLibraryPage, type FolderDescription, type LibraryPack } from '../sources/library';
import { buildRepoOverview, isOverviewPath } from '../sources/overview';
import { dirName } from '../sources/paths';
import { readTechDocs, TECHDOCS_ANNOTATION } from '../sources/techdocs';
import type { DiscoveredRoot } from '../workspace/discovery';
import { RootMap } from '../workspace/rootMap';
import { EntityDocs } from './entityDocs';
import { EventLoopTurns } from './eventLoopTurns';
import type { FileTable } from './fileTable';
import { ProducerMemo, type MemoRecord } from './memo';

export interface ProducedDocs {
  catalog: CatalogLoad;
  docs: Doc[];
  folders: FolderDescription[];
  packs: LibraryPack[];
  problems: Problem[];
}

/** The annotation's key in `fieldLines` (printed as parseCatalogFile.ts prints field paths). */
const ANNOTATION_FIELD = formatFieldPath(['metadata', 'annotations', TECHDOCS_ANNOTATION]);

/** The annotation line TechDocs are read with (no problem has line 0); the real one is filled in. */
const ANNOTATION_LINE = 0;

const SOURCE_PRIORITY: Record<Doc['sourceKind'], number> = {
  library: 0,
  epic_doc: 1,
  catalog_doc: 2,
  repo_overview: 3,
  catalog_entity: 4,
};

/**
 * Memo tables that live as long as the engine, one per producer.
 *
 * Nothing made from one file depends on the catalog: epics are parsed keeping every well-formed
 * ref and resolved against the entities of the day when documents are assembled, so a catalog
 * edit re-parses the changed catalog files only (the parse cache) and re-renders only the
 * entities whose declaration or relations changed.
 */
export class DocProducers {
  private readonly catalogMemo = new ProducerMemo<CatalogLoad>();
  private readonly techdocsMemo = new ProducerMemo<{ docs: Doc[]; problems: Problem[] }>();
  private readonly fileMemo = new ProducerMemo<FileProduct>();
  private readonly overviewMemo = new ProducerMemo<{ doc: Doc; problems: Problem[] }>();
  private readonly parseCache = new CatalogParseCache();
  private readonly entityDocs = new EntityDocs();
  /** Epic product -> its resolution against the last entity set it was resolved with. */
  private readonly resolvedEpics = new WeakMap<FileProduct, { keys: ReadonlySet<EntityKey>; doc: Doc; problems: Problem[] }>();
  private owners: EntityOwners | undefined;
  private keys: { catalog: CatalogLoad; keys: ReadonlySet<EntityKey> } | undefined;

  /**
   * Work done since the producers were made: per memo, values reused (`hits`), produced again
   * (`misses`) and checked against their inputs (`checks`); catalog files parsed and reused.
   */
  stats(): ProducerStats {
    const memo = (m: ProducerMemo<unknown>) => ({ hits: m.hits, misses: m.misses, checks: m.checks });
    return {
      catalog: memo(this.catalogMemo),
      techdocs: memo(this.techdocsMemo),
      files: memo(this.fileMemo),
      overviews: memo(this.overviewMemo),
      catalogParses: { parses: this.parseCache.parses, reuses: this.parseCache.reuses },
    };
  }

  /** Every producer's memo as plain data, for the snapshot. */
  export(): ProducerMemos {
    return {
      catalog: this.catalogMemo.export(),
      entityDocs: this.entityDocs.export(),
      techdocs: this.techdocsMemo.export(),
      files: this.fileMemo.export(),
      overviews: this.overviewMemo.export(),
    };
  }

  import(memos: ProducerMemos): void {
    this.catalogMemo.import(memos.catalog);
    this.entityDocs.import(memos.entityDocs);
    this.techdocsMemo.import(memos.techdocs);
    this.fileMemo.import(memos.files);
    this.overviewMemo.import(memos.overviews);
  }

  async produce(table: FileTable, roots: readonly DiscoveredRoot[]): Promise<ProducedDocs> {
    const listing = table.signature;
    // Between files, the host's requests get a turn (eventLoopTurns.ts).
    const turns = new EventLoopTurns();
    const problems: Problem[] = [];
    const folders: FolderDescription[] = [];
    const packs: LibraryPack[] = [];

    const byRole = this.filesByRole(table);
    const catalogRoots = byRole.catalog;
    const candidates = byRole.catalogCandidates;
    const catalog = await this.catalogMemo.get(byRole.catalogKey, table, listing, (source) =>
      loadCatalog(source, catalogRoots, { parseCache: this.parseCache, candidates, turns }),
    );
    // Loops, not push(...list): a spread of a 100k-item list overflows the call stack.
    for (const problem of catalog.problems) problems.push(problem);
    const entityKeys = this.keySet(catalog);

    const docs: Doc[] = [...this.entityDocs.of(catalog)];

    for (const entity of catalog.entities) {
      const site = this.techdocsSite(catalog, entity);
      if (!site) continue;
      await turns.maybe();
      // Produced with a stand-in annotation line, filled in here: an edit above the entity moves
      // the line without touching the docs, and must not read the whole site again.
      const result =
        this.techdocsMemo.lookup(site.key, table, listing)?.value ??
        (await this.techdocsMemo.get(site.key, table, listing, (source) =>
          readTechDocs({ files: source, entityKey: entity.key, catalogPath: entity.location.path, annotation: site.annotation, annotationLine: ANNOTATION_LINE, folder: folderOf(table, entity.location.path) }),
        ));
      for (const doc of result.docs) docs.push(doc);
      for (const problem of result.problems) problems.push(problem.line === ANNOTATION_LINE ? { ...problem, line: site.line } : problem);
    }

    for (const path of byRole.fileProducts) {
      await turns.maybe();
      // Keyed by the path itself: the table's own strings, hashed once.
      const product =
        this.fileMemo.lookup(path, table, listing)?.value ??
        (await this.fileMemo.get(path, table, listing, async (source) => {
          const entry = table.get(path)!;
          const text = (await source.readText(path)) ?? '';
          return produceFromFile(path, text, entry.folder, entry.roles, (p) => source.has(p));
        }));
      if (product.epicChecks && product.doc) {
        const resolved = this.resolveEpic(product, entityKeys);
        docs.push(resolved.doc);
        for (const problem of resolved.problems) problems.push(problem);
        continue;
      }
      if (product.doc) docs.push(product.doc);
      if (product.folderDescription) folders.push(product.folderDescription);
      if (product.pack) packs.push(product.pack);
      for (const problem of product.problems) problems.push(problem);
    }

    const overviewByDir = byRole.overviewByDir;
    const owners = this.entityOwners(catalog, roots);
    for (const root of roots) {
      const overviewPath = overviewByDir.get(root.root);
      if (!overviewPath) continue;
      const keys = owners.keys.get(root) ?? [];
      let key = owners.overviewKeys.get(overviewPath);
      if (key === undefined) owners.overviewKeys.set(overviewPath, (key = `overview:${root.folder}\u0000${overviewPath}\u0000${sha256Hex(keys.join('\n'))}`));
      const built =
        this.overviewMemo.lookup(key, table, listing)?.value ??
        (await this.overviewMemo.get(key, table, listing, async (source) =>
          buildRepoOverview(overviewPath, (await source.readText(overviewPath)) ?? '', keys, root.folder),
        ));
      docs.push(built.doc);
      problems.push(...built.problems);
    }

    this.catalogMemo.endPass();
    this.techdocsMemo.endPass();
    this.fileMemo.endPass();
    this.overviewMemo.endPass();
    return { catalog, docs: this.merge(docs), folders, packs, problems };
  }

  /**
   * `mergeByPath(docs)`. When the last input had no two documents with one id and `docs` holds
   * the same ids at the same positions (an update pass), nothing can merge: `docs` is the answer,
   * found by comparing positions instead of building a map of every document.
   */
  private merge(docs: Doc[]): Doc[] {
    const last = this.lastMerge;
    if (last && !last.merged && last.input.length === docs.length && docs.every((doc, i) => doc === last.input[i] || doc.id === last.input[i].id)) {
      this.lastMerge = { input: docs, merged: false };
      return docs;
    }
    const output = mergeByPath(docs);
    this.lastMerge = { input: docs, merged: output.length !== docs.length };
    return output;
  }
  private lastMerge: { input: readonly Doc[]; merged: boolean } | undefined;

  /**
   * Catalog files and overviews by directory, from the files' roles. Tables of the same files
   * share one path list (fileTable.ts `withEntries`), and roles come with the paths from the same
   * discovery, so this is computed once per list of files.
   */
  private filesByRole(table: FileTable): FilesByRole {
    const paths = table.list();
    if (this.roles?.paths === paths) return this.roles.value;
    const catalog: string[] = [];
    const catalogCandidates: string[] = [];
    const fileProducts: string[] = [];
    const overviewByDir = new Map<string, string>();
    for (const path of paths) {
      const roles = table.get(path)!.roles;
      if (roles.includes('catalog')) catalog.push(path);
      else if (roles.includes('catalogTargets')) catalogCandidates.push(path);
      if (mayProduceFromFile(path, roles)) fileProducts.push(path);
      if (!roles.includes('overview')) continue;
      // The first overview in path order of a directory is its repository's (sources/overview.ts).
      const dir = dirName(path);
      if (isOverviewPath(path, dir) && !overviewByDir.has(dir)) overviewByDir.set(dir, path);
    }
    const value = { catalog, catalogCandidates, catalogKey: `catalog:${catalog.join('\n')}\u0000${catalogCandidates.join('\n')}`, fileProducts, overviewByDir };
    this.roles = { paths, value };
    return value;
  }
  private roles: { paths: readonly string[]; value: FilesByRole } | undefined;
  private readonly techdocsSites = new WeakMap<CatalogEntity, { annotation: string; line: number; key: string } | null>();

  /**
   * An entity's TechDocs annotation, its line and its memo key, or null without one. Computed once
   * per entity object (the same object while its catalog file is unchanged): a Map hashes a key
   * string once, and these keys are looked up on every pass.
   */
  private techdocsSite(catalog: CatalogLoad, entity: CatalogEntity): { annotation: string; line: number; key: string } | null {
    let site = this.techdocsSites.get(entity);
    if (site !== undefined) return site;
    const annotation = entity.annotations[TECHDOCS_ANNOTATION];
    if (!annotation) {
      site = null;
    } else {
      const line = catalog.fieldLines[entity.key]?.[ANNOTATION_FIELD] ?? entity.location.startLine;
      site = { annotation, line, key: `techdocs:${entity.key}:${entity.location.path}:${annotation}` };
    }
    this.techdocsSites.set(entity, site);
    return site;
  }

  /**
   * An epic's product against the entities known now (sources/epics.ts `resolveEpic`), computed
   * once per product and catalog; the document is the same object as before while its
   * attachments are equal, so the section store sees no change when the catalog's change does
   * not touch the epic.
   */
  private resolveEpic(product: FileProduct, entityKeys: ReadonlySet<EntityKey>): { doc: Doc; problems: Problem[] } {
    const last = this.resolvedEpics.get(product);
    if (last?.keys === entityKeys) return last;
    const parsed = product.doc!;
    const resolved = resolveEpic({ doc: parsed, refs: [], problems: product.problems, unlessKnown: product.epicChecks! }, (key) => entityKeys.has(key));
    const doc = resolved.doc !== parsed && last && last.doc !== parsed && sameList(last.doc.entityRefs, resolved.doc.entityRefs) ? last.doc : resolved.doc;
    const result = { keys: entityKeys, doc, problems: resolved.problems };
    this.resolvedEpics.set(product, result);
    return result;
  }

  /**
   * The catalog's entity keys, the same Set object as for the last catalog while the keys are the
   * same: epics are resolved again only when that object changes (resolveEpic).
   */
  private keySet(catalog: CatalogLoad): ReadonlySet<EntityKey> {
    const last = this.keys;
    if (last?.catalog === catalog) return last.keys;
    const same = last && last.keys.size === catalog.entities.length && catalog.entities.every((e) => last.keys.has(e.key));
    const keys = same ? last.keys : new Set(catalog.entities.map((e) => e.key));
    this.keys = { catalog, keys };
    return keys;
  }

  /**
   * Keys of the entities declared in each repository, in catalog order. An entity belongs, in
   * each workspace folder, to the innermost root of that folder holding its catalog file; found
   * by walking up the file's directories (rootMap.ts), once per entity.
   */
  private entityOwners(catalog: CatalogLoad, roots: readonly DiscoveredRoot[]): EntityOwners {
    if (this.owners?.catalog === catalog && this.owners.roots === roots) return this.owners;
    // An edit that keeps every entity where it was (a description, a relation) keeps the owners.
    if (this.owners?.roots === roots && sameEntityPlaces(this.owners.catalog, catalog)) {
      this.owners = { ...this.owners, catalog };
      return this.owners;
    }
    const map = new RootMap(roots);
    const keys = new Map<DiscoveredRoot, EntityKey[]>();
    for (const entity of catalog.entities) {
      const folders: string[] = [];
      map.visitHolding(entity.location.path, (root) => {
        if (folders.includes(root.folder)) return;
        folders.push(root.folder);
        const list = keys.get(root);
        if (list) list.push(entity.key);
        else keys.set(root, [entity.key]);
      });
    }
    this.owners = { catalog, roots, keys, overviewKeys: new Map() };
    return this.owners;
  }
}

export interface MemoStats {
  hits: number;
  misses: number;
  checks: number;
}

export interface ProducerStats {
  catalog: MemoStats;
  techdocs: MemoStats;
  files: MemoStats;
  overviews: MemoStats;
  catalogParses: { parses: number; reuses: number };
}

/** The files each producer reads, from their roles (DocProducers.filesByRole). */
interface FilesByRole {
  /** Catalog files, the catalog's roots. */
  catalog: string[];
  /** Other YAML files, checked for entities no Location names (loadCatalog.ts `candidates`). */
  catalogCandidates: string[];
  /** The catalog memo's key: the roots and the candidates, in order. */
  catalogKey: string;
  /** Files that may make a document, folder description or pack on their own (produceFromFile). */
  fileProducts: string[];
  /** First overview file in path order of each directory. */
  overviewByDir: Map<string, string>;
}

/** Which entities each repository declares, for one catalog and one set of roots. */
interface EntityOwners {
  catalog: CatalogLoad;
  roots: readonly DiscoveredRoot[];
  keys: Map<DiscoveredRoot, EntityKey[]>;
  /** Overview path -> its memo key (folder, path and the entity keys it is attached to). */
  overviewKeys: Map<string, string>;
}

export interface ProducerMemos {
  catalog: MemoRecord<CatalogLoad>[];
  /** The last catalog's entity documents, one per entity in catalog order. */
  entityDocs: { catalog: CatalogLoad; docs: Doc[] } | null;
  techdocs: MemoRecord<{ docs: Doc[]; problems: Problem[] }>[];
  files: MemoRecord<FileProduct>[];
  overviews: MemoRecord<{ doc: Doc; problems: Problem[] }>[];
}

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
function mayProduceFromFile(path: string, roles: readonly string[]): boolean {
  return isFolderDescriptionPath(path) || isPackPath(path) || classifyLibraryPath(path) !== null || roles.includes('epics') || roles.includes('markdown');
}

/** Library pages, folder descriptions, packs and epics: documents made from one file alone. */
function produceFromFile(path: string, text: string, folder: string, roles: readonly string[], exists: (path: string) => boolean): FileProduct {
  if (isFolderDescriptionPath(path)) {
    const parsed = parseFolderDescription(path, text);
    return { doc: null, folderDescription: parsed.folder, problems: parsed.problems };
  }
  if (isPackPath(path)) {
    const parsed = parsePack(path, text);
    return { doc: null, pack: parsed.pack ?? undefined, problems: parsed.problems };
  }
  if (classifyLibraryPath(path)) {
    const page = readLibraryPage({ path, text, folder, exists });
    return { doc: page.doc, problems: page.problems };
  }
  if (roles.includes('epics') || (roles.includes('markdown') && text.startsWith('---'))) {
    const epic = parseEpic({ path, text, folder });
    return epic ? { doc: epic.doc, problems: epic.problems, epicChecks: epic.unlessKnown } : { doc: null, problems: [] };
  }
  return { doc: null, problems: [] };
}

function mergeByPath(docs: Doc[]): Doc[] {
  const byId = new Map<string, Doc>();
  for (const doc of docs) {
    const existing = byId.get(doc.id);
    if (!existing) {
      byId.set(doc.id, doc);
      continue;
    }
    const [keep, other] = SOURCE_PRIORITY[doc.sourceKind] < SOURCE_PRIORITY[existing.sourceKind] ? [doc, existing] : [existing, doc];
    const refs = [...new Set([...keep.entityRefs, ...other.entityRefs])];
    byId.set(doc.id, refs.length === keep.entityRefs.length ? keep : { ...keep, entityRefs: refs });
  }
  return [...byId.values()];
}

function folderOf(table: FileTable, path: string): string {
  return table.get(path)?.folder ?? '';
}

/** True when two catalogs hold the same entity keys in the same files, in the same order. */
function sameEntityPlaces(a: CatalogLoad, b: CatalogLoad): boolean {
  if (a.entities.length !== b.entities.length) return false;
  for (let i = 0; i < a.entities.length; i++) {
    const x = a.entities[i];
    const y = b.entities[i];
    if (x !== y && (x.key !== y.key || x.location.path !== y.location.path)) return false;
  }
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
