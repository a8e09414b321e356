/**
 * Turns the file table into documents: the catalog and its entities, documentation sites (those
 * entities name, every other mkdocs.yml, and docs folders without one), overviews (a repository's
 * overview.md or README.md, a package's README), epics and the library, each parser memoised on
 * the files it read (memo.ts). Which files play which part is decided by the source globs'
 * roles (workspace/globs.ts), never by a file name written here.
 *
 * One path is one document. When two sources claim the same file (an epic kept inside an
 * entity's docs folder, two entities sharing one docs folder), the more specific source wins
 * (library, then epic, then entity docs, then overview) and the entity attachments are merged.
 */
import { sha256Hex } from '../chunking/ids';
import type { CatalogEntity, Doc, EntityKey, Problem, SourceKind } from '../model';
import { formatFieldPath } from '../sources/catalog/fieldPath';
import { CatalogParseCache, loadCatalog, type CatalogLoad } from '../sources/catalog/loadCatalog';
import { CatalogUpdater, type CatalogChange, type SavedCatalogUpdates } from '../sources/catalog/catalogUpdate';
import { resolveEpic } from '../sources/epics';
import type { FolderDescription, LibraryPack } from '../sources/library';
import { buildRepoOverview } from '../sources/overview';
import {
  parseTechDocsRef,
  readDocsSite,
  readTechDocs,
  TECHDOCS_ANNOTATION,
  type TechDocsResult,
} from '../sources/techdocs';
import { resolveTechDocsUrl } from '../sources/techdocsUrl';
import type { DiscoveredRoot } from '../workspace/discovery';
import type { RepositoryRemotes } from '../workspace/remotes';
import { RootMap } from '../workspace/rootMap';
import {
  claimedBy,
  elsewhereProblems,
  LastPlan,
  looseDocsSites,
  mkdocsSites,
  rootLookup,
  type ElsewhereRef,
  type StandaloneSite,
} from './docSites';
import { EntityDocs } from './entityDocs';
import { mergeByPath } from './mergeDocs';
import { PlaceOwners } from './placeOwners';
import { EventLoopTurns } from './eventLoopTurns';
import type { FileTable } from './fileTable';
import type { FileSource } from '../workspace/fileSource';
import { ProducerMemo, type MemoRecord } from './memo';
import { produceFromFile, type FileProduct } from './fileProducts';
import { inDocsFolder, sortFilesByRole, type FilesByRole } from './filesByRole';

export type { FileProduct } from './fileProducts';

/** How a pass had its catalog (ProducedDocs `catalogPass`). */
export type CatalogPass = 'kept' | 'patched' | 'loaded';

export interface ProducedDocs {
  catalog: CatalogLoad;
  /** Set when the catalog is the last pass's patched for changed catalog files (catalogUpdate.ts). */
  catalogChange?: CatalogChange;
  /** How the catalog was had: the last one as it was, the last one patched, or loaded whole. */
  catalogPass: CatalogPass;
  docs: Doc[];
  /** Each document's path and source kind: the same map while the documents are the same files. */
  docKinds: ReadonlyMap<string, SourceKind>;
  folders: FolderDescription[];
  packs: LibraryPack[];
  problems: Problem[];
}

/** The annotation's key in `fieldLines` (printed as parseCatalogFile.ts prints field paths). */
const ANNOTATION_FIELD = formatFieldPath(['metadata', 'annotations', TECHDOCS_ANNOTATION]);

/** The annotation line TechDocs are read with (no problem has line 0); the real one is filled in. */
const ANNOTATION_LINE = 0;

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
  private readonly techdocsMemo = new ProducerMemo<TechDocsResult>();
  private readonly fileMemo = new ProducerMemo<FileProduct>();
  private readonly overviewMemo = new ProducerMemo<{ doc: Doc; problems: Problem[] }>();
  private readonly parseCache = new CatalogParseCache();
  private readonly catalogUpdater = new CatalogUpdater(this.parseCache.relations);
  private readonly entityDocs = new EntityDocs();
  /** Epic product -> its resolution against the last entity set it was resolved with. */
  private readonly resolvedEpics = new WeakMap<
    FileProduct,
    { keys: ReadonlySet<EntityKey>; doc: Doc; problems: Problem[] }
  >();
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
      catalogUpdates: this.catalogUpdater.save(),
      entityDocs: this.entityDocs.export(),
      techdocs: this.techdocsMemo.export(),
      files: this.fileMemo.export(),
      overviews: this.overviewMemo.export(),
    };
  }

  import(memos: ProducerMemos): void {
    this.catalogMemo.import(memos.catalog);
    this.catalogUpdater.restore(memos.catalogUpdates);
    this.entityDocs.import(memos.entityDocs);
    this.techdocsMemo.import(memos.techdocs);
    this.fileMemo.import(memos.files);
    this.overviewMemo.import(memos.overviews);
  }

  /**
   * Every document of the table's files. `remotes` gives the served repositories' hosted
   * identities (workspace/remotes.ts), asked only when an entity's TechDocs ref is a `url:`: one
   * naming a served repository is read from disk.
   */
  async produce(
    table: FileTable,
    roots: readonly DiscoveredRoot[],
    remotes: () => Promise<readonly RepositoryRemotes[]> = async () => [],
  ): Promise<ProducedDocs> {
    const listing = table.signature;
    // Between files, the host's requests get a turn (eventLoopTurns.ts).
    const turns = new EventLoopTurns();
    const problems: Problem[] = [];
    const folders: FolderDescription[] = [];
    const packs: LibraryPack[] = [];

    const byRole = this.filesByRole(table);
    const catalogRoots = byRole.catalog;
    const candidates = byRole.catalogCandidates;
    const {
      catalog,
      change: catalogChange,
      pass: catalogPass,
    } = await this.catalogOf(byRole, table, listing, () =>
      this.catalogMemo.get(byRole.catalogKey, table, listing, (source) =>
        loadCatalog(source, catalogRoots, {
          parseCache: this.parseCache,
          candidates,
          turns,
          onDetails: (details) => this.catalogUpdater.noteLoad(details),
        }),
      ),
    );
    // Loops, not push(...list): a spread of a 100k-item list overflows the call stack.
    for (const problem of catalog.problems) problems.push(problem);
    const entityKeys = this.keySet(catalog, catalogChange);

    const docs: Doc[] = [...this.entityDocs.of(catalog, (path) => folderOf(table, path), catalogChange)];

    const rootOf = rootLookup(roots);
    const folderRoots = new Map(roots.filter((r) => r.reasons.includes('folder')).map((r) => [r.folder, r.root]));
    const siteResults: TechDocsResult[] = [];
    const elsewhere: ElsewhereRef[] = [];
    for (const entity of catalog.entities) {
      const site = this.techdocsSite(catalog, entity);
      if (!site) continue;
      if (turns.due()) await turns.turn();
      const target =
        site.url === undefined
          ? undefined
          : resolveTechDocsUrl(
              site.url,
              await remotes(),
              (dir) => table.listUnder(dir).length > 0,
              rootOf(entity.location.path),
            );
      const key = withNav(target ? `${site.key}\u0000${JSON.stringify(target)}` : site.key, byRole);
      // Produced with a stand-in annotation line, filled in here: an edit above the entity moves
      // the line without touching the docs, and must not read the whole site again.
      const result =
        this.techdocsMemo.lookup(key, table, listing)?.value ??
        (await this.techdocsMemo.get(key, table, listing, (source) =>
          readTechDocs({
            files: source,
            entityKey: entity.key,
            catalogPath: entity.location.path,
            annotation: site.annotation,
            annotationLine: ANNOTATION_LINE,
            folder: folderOf(table, entity.location.path),
            folderRoot: folderRoots.get(folderOf(table, entity.location.path)) ?? '',
            resolveUrl: () => target ?? { kind: 'elsewhere', repository: site.url ?? '' },
            isNavFile: byRole.isNavFile,
            reportElsewhere: false,
          }),
        ));
      for (const doc of result.docs) docs.push(doc);
      for (const problem of result.problems)
        problems.push(problem.line === ANNOTATION_LINE ? { ...problem, line: site.line } : problem);
      if (result.elsewhere)
        elsewhere.push({
          entityRef: entity.ref,
          catalogPath: entity.location.path,
          line: site.line,
          url: result.url ?? '',
          target: result.elsewhere,
        });
      siteResults.push(result);
    }
    for (const problem of elsewhereProblems(elsewhere)) problems.push(problem);

    // Documentation no entity names: every other mkdocs.yml, then docs folders no site read.
    const owners = this.placeOwners(catalog, catalogChange);
    // The list as it is now (the standalone sites' results are pushed onto it below).
    const entityClaims = siteResults.slice();
    const mkdocs = this.mkdocsPlan.get([byRole, owners], entityClaims, [], () =>
      mkdocsSites(byRole.techdocsConfigs, claimedBy(siteResults), owners, rootOf),
    );
    for (const site of mkdocs) {
      if (turns.due()) await turns.turn();
      const result = await this.readStandaloneSite(site, table, listing, byRole);
      for (const doc of result.docs) docs.push(doc);
      for (const problem of result.problems) problems.push(problem);
      siteResults.push(result);
    }
    // Files that make a document on their own (the library, epics) are read before the loose
    // docs, so an epic known only by its front matter is not read as a page as well; their
    // documents still follow the sites', in the order they always had.
    const products: FileProduct[] = [];
    const ownDocuments: string[] = [];
    for (const path of byRole.fileProducts) {
      if (turns.due()) await turns.turn();
      // Keyed by the path itself: the table's own strings, hashed once.
      const product =
        this.fileMemo.lookup(path, table, listing)?.value ??
        (await this.fileMemo.get(path, table, listing, async (source) => {
          const entry = table.get(path)!;
          const text = (await source.readText(path)) ?? '';
          return produceFromFile(path, text, entry.folder, entry.roles, (p) => source.has(p));
        }));
      products.push(product);
      // Only an epic known by its front matter is among the docs files (fileProducts.ts).
      const entry = table.get(path)!;
      if (product.epicChecks && product.doc && !entry.roles.includes('epics') && !inDocsFolder(path, entry.root))
        ownDocuments.push(path);
    }
    const docsFiles = ownDocuments.length === 0 ? byRole.docsFiles : withoutPaths(byRole.docsFiles, ownDocuments);
    const loose = this.docsPlan.get([byRole, owners], siteResults, ownDocuments, () =>
      looseDocsSites(docsFiles, claimedBy(siteResults), owners, rootOf),
    );
    for (const site of loose) {
      if (turns.due()) await turns.turn();
      const result = await this.readStandaloneSite(site, table, listing, byRole);
      for (const doc of result.docs) docs.push(doc);
      for (const problem of result.problems) problems.push(problem);
    }

    for (const product of products) {
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

    // Overviews: a repository root's describes the repository (the entities its root catalog
    // files declare for it, placeOwners.ts), any other folder's the package of the nearest
    // catalog file at or above it.
    const rootAt = this.rootMap(roots);
    for (const [dir, overviewPath] of byRole.overviewByDir) {
      const atRoot = rootAt.at(dir).some((root) => root.folder === folderOf(table, overviewPath));
      const keys = atRoot ? owners.ofRepository(dir) : owners.ofFolder(dir, rootOf(overviewPath));
      // The owners' list is the same array while they are the same (PlaceOwners): its digest is
      // taken once, not on every pass.
      let known = this.overviewKeys.get(overviewPath);
      if (known?.keys !== keys) {
        known = {
          keys,
          key: `overview:${folderOf(table, overviewPath)}\u0000${overviewPath}\u0000${sha256Hex(keys.join('\n'))}`,
        };
        this.overviewKeys.set(overviewPath, known);
      }
      const key = known.key;
      const folder = folderOf(table, overviewPath);
      const built =
        this.overviewMemo.lookup(key, table, listing)?.value ??
        (await this.overviewMemo.get(key, table, listing, async (source) =>
          buildRepoOverview(overviewPath, (await source.readText(overviewPath)) ?? '', keys, folder),
        ));
      docs.push(built.doc);
      for (const problem of built.problems) problems.push(problem);
    }

    this.catalogMemo.endPass();
    this.techdocsMemo.endPass();
    this.fileMemo.endPass();
    this.overviewMemo.endPass();
    const merged = this.merge(docs);
    return {
      catalog,
      ...(catalogChange ? { catalogChange } : {}),
      catalogPass,
      docs: merged,
      docKinds: this.lastMerge!.kinds,
      folders,
      packs,
      problems,
    };
  }

  /**
   * The catalog of the table: the last one while its files are unchanged; when only catalog files
   * changed, the last one patched for them (catalogUpdate.ts), with what changed; else `load()`.
   */
  private async catalogOf(
    byRole: FilesByRole,
    table: FileTable,
    listing: string,
    load: () => Promise<CatalogLoad>,
  ): Promise<{ catalog: CatalogLoad; change?: CatalogChange; pass: CatalogPass }> {
    const key = byRole.catalogKey;
    const hit = this.catalogMemo.lookup(key, table, listing);
    if (hit) return { catalog: hit.value, pass: 'kept' };
    const stale = this.catalogMemo.staleInputs(key, table, listing);
    if (stale && stale.paths.length > 0) {
      const change = await this.catalogUpdater.update(stale.value, stale.paths, table, this.parseCache);
      if (change) {
        this.catalogMemo.refresh(key, change.to, table, stale.paths);
        return { catalog: change.to, change, pass: 'patched' };
      }
    }
    return { catalog: await load(), pass: 'loaded' };
  }

  /** A site no entity names, memoised on the files it read like an entity's. */
  private async readStandaloneSite(
    site: StandaloneSite,
    table: FileTable,
    listing: string,
    byRole: FilesByRole,
  ): Promise<TechDocsResult> {
    const read = (files: FileSource) =>
      site.kind === 'mkdocs'
        ? readDocsSite({
            files,
            configPath: site.configPath,
            entityKeys: site.owners,
            folder: folderOf(table, site.configPath),
            isNavFile: byRole.isNavFile,
          })
        : readDocsSite({
            files,
            docsDir: site.docsDir,
            markdownFiles: site.files,
            entityKeys: site.owners,
            folder: folderOf(table, site.files[0]),
            isNavFile: byRole.isNavFile,
          });
    const key = withNav(site.key, byRole);
    return (
      this.techdocsMemo.lookup(key, table, listing)?.value ?? (await this.techdocsMemo.get(key, table, listing, read))
    );
  }

  /**
   * Where each catalog folder's entities are, for documents owned by place: made again only when
   * an entity was added, removed or moved (an edit of a description keeps the same object, so
   * nothing planned from it is planned again).
   */
  private placeOwners(catalog: CatalogLoad, change?: CatalogChange): PlaceOwners {
    if (this.owned?.catalog === catalog) return this.owned.owners;
    // After a patch, only the changed files' entities can differ (see CatalogChange).
    const same =
      change && change.from === this.owned?.catalog && change.to === catalog
        ? sameEntityPlacesIn(change.before, change.after)
        : this.owned && sameEntityPlaces(this.owned.catalog, catalog);
    const owners = this.owned && same ? this.owned.owners : new PlaceOwners(catalog.entities);
    this.owned = { catalog, owners };
    return owners;
  }
  private owned: { catalog: CatalogLoad; owners: PlaceOwners } | undefined;
  /**
   * The standalone sites of the last pass, planned again only when the files, the catalog's
   * owners or what the sites before them read changed: an edit of one page re-plans nothing.
   */
  private readonly mkdocsPlan = new LastPlan<StandaloneSite[]>();
  private readonly docsPlan = new LastPlan<StandaloneSite[]>();

  /**
   * `mergeByPath(docs)`. When the last input had no two documents with one id and `docs` holds
   * the same ids at the same positions (an update pass), nothing can merge: `docs` is the answer,
   * found by comparing positions instead of building a map of every document.
   */
  private merge(docs: Doc[]): Doc[] {
    const last = this.lastMerge;
    if (last && !last.merged && last.input.length === docs.length && sameIds(docs, last.input)) {
      this.lastMerge = { input: docs, merged: false, kinds: last.kinds };
      return docs;
    }
    const output = mergeByPath(docs);
    const kinds = new Map<string, SourceKind>();
    for (const doc of output) if (doc.sourceKind !== 'catalog_entity') kinds.set(doc.path, doc.sourceKind);
    this.lastMerge = { input: docs, merged: output.length !== docs.length, kinds };
    return output;
  }
  private lastMerge: { input: readonly Doc[]; merged: boolean; kinds: ReadonlyMap<string, SourceKind> } | undefined;

  /**
   * Catalog files and overviews by directory, from the files' roles. Tables of the same files
   * share one path list (fileTable.ts `withEntries`), and roles come with the paths from the same
   * discovery, so this is computed once per list of files.
   */
  private filesByRole(table: FileTable): FilesByRole {
    const paths = table.list();
    if (this.roles?.paths === paths) return this.roles.value;
    const value = sortFilesByRole(table);
    this.roles = { paths, value };
    return value;
  }
  private roles: { paths: readonly string[]; value: FilesByRole } | undefined;
  private readonly techdocsSites = new WeakMap<CatalogEntity, EntitySite | null>();

  /**
   * An entity's TechDocs annotation, its line and its memo key, or null without one. Computed once
   * per entity object (the same object while its catalog file is unchanged): a Map hashes a key
   * string once, and these keys are looked up on every pass.
   */
  private techdocsSite(catalog: CatalogLoad, entity: CatalogEntity): EntitySite | null {
    let site = this.techdocsSites.get(entity);
    if (site !== undefined) return site;
    const annotation = entity.annotations[TECHDOCS_ANNOTATION];
    if (!annotation) {
      site = null;
    } else {
      const line = catalog.fieldLines[entity.key]?.[ANNOTATION_FIELD] ?? entity.location.startLine;
      const ref = parseTechDocsRef(annotation);
      site = {
        annotation,
        line,
        key: `techdocs:${entity.key}:${entity.location.path}:${annotation}`,
        ...(ref.type === 'url' ? { url: ref.target } : {}),
      };
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
    const resolved = resolveEpic(
      { doc: parsed, refs: [], problems: product.problems, unlessKnown: product.epicChecks! },
      (key) => entityKeys.has(key),
    );
    const doc =
      resolved.doc !== parsed && last && last.doc !== parsed && sameList(last.doc.entityRefs, resolved.doc.entityRefs)
        ? last.doc
        : resolved.doc;
    const result = { keys: entityKeys, doc, problems: resolved.problems };
    this.resolvedEpics.set(product, result);
    return result;
  }

  /**
   * The catalog's entity keys, the same Set object as for the last catalog while the keys are the
   * same: epics are resolved again only when that object changes (resolveEpic).
   */
  private keySet(catalog: CatalogLoad, change?: CatalogChange): ReadonlySet<EntityKey> {
    const last = this.keys;
    if (last?.catalog === catalog) return last.keys;
    // After a patch, the keys are the same when the changed files declare the same keys as before
    // (each key is declared once: catalogUpdate.ts patches nothing else).
    const same =
      last && change && change.from === last.catalog && change.to === catalog
        ? sameKeys(change.before, change.after)
        : last && last.keys.size === catalog.entities.length && catalog.entities.every((e) => last.keys.has(e.key));
    const keys = last && same ? last.keys : new Set(catalog.entities.map((e) => e.key));
    this.keys = { catalog, keys };
    return keys;
  }

  /** Overview path -> its memo key (folder, path and the entity keys it is attached to). */
  private readonly overviewKeys = new Map<string, { keys: readonly EntityKey[]; key: string }>();

  /** The roots by path, made again only when discovery found other roots. */
  private rootMap(roots: readonly DiscoveredRoot[]): RootMap<DiscoveredRoot> {
    if (this.roots?.roots !== roots) this.roots = { roots, map: new RootMap(roots) };
    return this.roots.map;
  }
  private roots: { roots: readonly DiscoveredRoot[]; map: RootMap<DiscoveredRoot> } | undefined;
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

/** An entity's TechDocs annotation, its line, its memo key and, for `url:` refs, the address. */
interface EntitySite {
  annotation: string;
  line: number;
  key: string;
  url?: string;
}

/**
 * A site's memo key with the workspace's site navigation files in it: adding or removing a
 * sidebars file or a SUMMARY.md plans every site's order again (what a site read of them is in its
 * memo's dependencies). Unchanged without navigation files, so such workspaces key as before.
 */
function withNav(key: string, byRole: FilesByRole): string {
  return byRole.siteNavKey === '' ? key : `${key}\u0000nav:${byRole.siteNavKey}`;
}

export interface ProducerMemos {
  catalog: MemoRecord<CatalogLoad>[];
  /**
   * How the last catalog was loaded, so the first catalog edit after a restart patches it
   * (catalogUpdate.ts); absent in snapshots written before it was kept.
   */
  catalogUpdates?: SavedCatalogUpdates | null;
  /** The last catalog's entity documents, one per entity in catalog order. */
  entityDocs: { catalog: CatalogLoad; docs: Doc[] } | null;
  techdocs: MemoRecord<TechDocsResult>[];
  files: MemoRecord<FileProduct>[];
  overviews: MemoRecord<{ doc: Doc; problems: Problem[] }>[];
}

/** `paths` less `drop` (both in path order). */
function withoutPaths(paths: readonly string[], drop: readonly string[]): string[] {
  const dropped = new Set(drop);
  return paths.filter((path) => !dropped.has(path));
}

function folderOf(table: FileTable, path: string): string {
  return table.get(path)?.folder ?? '';
}

/**
 * True when two catalogs hold the same entity keys in the same files, in the same order, naming
 * the same TechDocs folders: what PlaceOwners is made of.
 */
function sameEntityPlaces(a: CatalogLoad, b: CatalogLoad): boolean {
  return sameEntityPlacesIn(a.entities, b.entities);
}

/** `sameEntityPlaces` of two lists of entities. */
function sameEntityPlacesIn(a: readonly CatalogEntity[], b: readonly CatalogEntity[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (
      x !== y &&
      (x.key !== y.key ||
        x.location.path !== y.location.path ||
        x.annotations[TECHDOCS_ANNOTATION] !== y.annotations[TECHDOCS_ANNOTATION])
    )
      return false;
  }
  return true;
}

/** True when two lists of documents hold the same ids at the same positions. */
function sameIds(a: readonly Doc[], b: readonly Doc[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i].id !== b[i].id) return false;
  return true;
}

/** True when two lists of entities declare the same set of keys. */
function sameKeys(a: readonly CatalogEntity[], b: readonly CatalogEntity[]): boolean {
  if (a.length !== b.length) return false;
  const keys = new Set(a.map((e) => e.key));
  return b.every((e) => keys.has(e.key));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
