/**
 * Turns the file table into documents: the catalog and its entities, TechDocs, repository
 * overviews, epics and the library, each parser memoised on the files it read (memo.ts).
 *
 * One path is one document. When two sources claim the same file (an epic kept inside an
 * entity's docs folder, two entities sharing one docs folder), the more specific source wins
 * (library, then epic, then entity docs, then overview) and the entity attachments are merged.
 */
import { documentId, sha256Hex } from '../chunking/ids';
import type { CatalogEntity, Doc, EntityKey, Problem, Relation } from '../model';
import { loadCatalog, renderEntityText, type CatalogLoad } from '../sources/catalog/loadCatalog';
import { refKey } from '../sources/catalog/entityRef';
import { readEpic } from '../sources/epics';
import { isFolderDescriptionPath, isPackPath, classifyLibraryPath } from '../sources/instructionFormats';
import { parseFolderDescription, parsePack, readLibraryPage, type FolderDescription, type LibraryPack } from '../sources/library';
import { buildRepoOverview, isOverviewPath } from '../sources/overview';
import { readTechDocs, TECHDOCS_ANNOTATION } from '../sources/techdocs';
import type { DiscoveredRoot } from '../workspace/discovery';
import type { FileTable } from './fileTable';
import { ProducerMemo, type MemoRecord } from './memo';

export interface ProducedDocs {
  catalog: CatalogLoad;
  docs: Doc[];
  folders: FolderDescription[];
  packs: LibraryPack[];
  problems: Problem[];
}

const SOURCE_PRIORITY: Record<Doc['sourceKind'], number> = {
  library: 0,
  epic_doc: 1,
  catalog_doc: 2,
  repo_overview: 3,
  catalog_entity: 4,
};

/** Memo tables that live as long as the engine, one per producer. */
export class DocProducers {
  private readonly catalogMemo = new ProducerMemo<CatalogLoad>();
  private readonly entityDocsMemo = new ProducerMemo<Doc[]>();
  private readonly techdocsMemo = new ProducerMemo<{ docs: Doc[]; problems: Problem[] }>();
  private readonly fileMemo = new ProducerMemo<FileProduct>();

  /** Every producer's memo as plain data, for the snapshot. */
  export(): ProducerMemos {
    return {
      catalog: this.catalogMemo.export(),
      entityDocs: this.entityDocsMemo.export(),
      techdocs: this.techdocsMemo.export(),
      files: this.fileMemo.export(),
    };
  }

  import(memos: ProducerMemos): void {
    this.catalogMemo.import(memos.catalog);
    this.entityDocsMemo.import(memos.entityDocs);
    this.techdocsMemo.import(memos.techdocs);
    this.fileMemo.import(memos.files);
  }

  async produce(table: FileTable, roots: readonly DiscoveredRoot[]): Promise<ProducedDocs> {
    const listing = listingSignature(table);
    const problems: Problem[] = [];
    const folders: FolderDescription[] = [];
    const packs: LibraryPack[] = [];

    const catalogRoots = table.list().filter((path) => table.get(path)!.roles.includes('catalog'));
    const catalog = await this.catalogMemo.get(`catalog:${catalogRoots.join('\n')}`, table, listing, (source) =>
      loadCatalog(source, catalogRoots),
    );
    problems.push(...catalog.problems);
    const catalogVersion = catalogSignature(catalog);
    const entityKeys = new Set(catalog.entities.map((e) => e.key));

    const docs: Doc[] = [];
    docs.push(...(await this.entityDocsMemo.get(`entities:${catalogVersion}`, table, listing, () => entityDocs(catalog))));

    for (const entity of catalog.entities) {
      const annotation = entity.annotations[TECHDOCS_ANNOTATION];
      if (!annotation) continue;
      const line = catalog.fieldLines[entity.key]?.[`metadata.annotations.${TECHDOCS_ANNOTATION}`] ?? entity.location.startLine;
      const key = `techdocs:${entity.key}:${entity.location.path}:${annotation}`;
      const result = await this.techdocsMemo.get(key, table, listing, (source) =>
        readTechDocs({ files: source, entityKey: entity.key, catalogPath: entity.location.path, annotation, annotationLine: line, folder: folderOf(table, entity.location.path) }),
      );
      docs.push(...result.docs);
      problems.push(...result.problems);
    }

    const resolveRef = (ref: string): EntityKey | null => {
      const key = refKey(ref, { defaultKind: 'component' });
      return key && entityKeys.has(key) ? key : null;
    };
    for (const path of table.list()) {
      const entry = table.get(path)!;
      // Only epics depend on the catalog (their refs resolve against it); library files do not.
      const key = isLibraryPath(path) ? `file:${path}` : `file:${path}:${catalogVersion}`;
      const product = await this.fileMemo.get(key, table, listing, async (source) => {
        const text = (await source.readText(path)) ?? '';
        return produceFromFile(path, text, entry.folder, entry.roles, (p) => source.has(p), resolveRef);
      });
      if (product.doc) docs.push(product.doc);
      if (product.folderDescription) folders.push(product.folderDescription);
      if (product.pack) packs.push(product.pack);
      problems.push(...product.problems);
    }

    const overviewPaths = table.list().filter((p) => table.get(p)!.roles.includes('overview'));
    for (const root of roots) {
      const overviewPath = overviewPaths.find((p) => isOverviewPath(p, root.root));
      if (!overviewPath) continue;
      const keys = catalog.entities.filter((e) => belongsToRoot(e, root, roots)).map((e) => e.key);
      const text = (await table.readText(overviewPath)) ?? '';
      const built = buildRepoOverview(overviewPath, text, keys, root.folder);
      docs.push(built.doc);
      problems.push(...built.problems);
    }

    this.catalogMemo.endPass();
    this.entityDocsMemo.endPass();
    this.techdocsMemo.endPass();
    this.fileMemo.endPass();
    return { catalog, docs: mergeByPath(docs), folders, packs, problems };
  }
}

export interface ProducerMemos {
  catalog: MemoRecord<CatalogLoad>[];
  entityDocs: MemoRecord<Doc[]>[];
  techdocs: MemoRecord<{ docs: Doc[]; problems: Problem[] }>[];
  files: MemoRecord<FileProduct>[];
}

export interface FileProduct {
  doc: Doc | null;
  folderDescription?: FolderDescription;
  pack?: LibraryPack;
  problems: Problem[];
}

function isLibraryPath(path: string): boolean {
  return isFolderDescriptionPath(path) || isPackPath(path) || classifyLibraryPath(path) !== null;
}

/** Library pages, folder descriptions, packs and epics: documents made from one file alone. */
function produceFromFile(
  path: string,
  text: string,
  folder: string,
  roles: readonly string[],
  exists: (path: string) => boolean,
  resolveRef: (ref: string) => EntityKey | null,
): FileProduct {
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
    const epic = readEpic({ path, text, folder, resolve: resolveRef });
    return { doc: epic.doc, problems: epic.doc ? epic.problems : [] };
  }
  return { doc: null, problems: [] };
}

/** One `catalog_entity` document per entity: its own title, one section rendering its facts. */
function entityDocs(catalog: CatalogLoad): Doc[] {
  const byKey = new Map<EntityKey, Relation[]>();
  for (const relation of catalog.relations) {
    const list = byKey.get(relation.source);
    if (list) list.push(relation);
    else byKey.set(relation.source, [relation]);
  }
  return catalog.entities.map((entity) => entityDoc(entity, byKey.get(entity.key) ?? []));
}

function entityDoc(entity: CatalogEntity, relations: readonly Relation[]): Doc {
  const text = renderEntityText(entity, relations);
  // An entity is its own document inside a catalog file that may hold many: its id hashes the
  // file and the entity key, so it is stable across edits of the file's other entities.
  const id = documentId(`${entity.location.path}#${entity.key}`);
  return {
    id,
    path: entity.location.path,
    folder: '',
    sourceKind: 'catalog_entity',
    format: 'catalog',
    title: entity.title ?? entity.name,
    digest: sha256Hex(text),
    frontMatter: {},
    entityRefs: [entity.key],
    sections: [
      {
        id: sha256Hex(`${entity.location.path}#${entity.key}#entity`),
        docId: id,
        headingPath: [entity.ref],
        level: 1,
        startLine: entity.location.startLine,
        endLine: entity.location.endLine,
        text,
        entityRefs: [entity.key],
      },
    ],
  };
}

function belongsToRoot(entity: CatalogEntity, root: DiscoveredRoot, roots: readonly DiscoveredRoot[]): boolean {
  // The innermost root holding the entity's catalog file is its repository.
  let best: DiscoveredRoot | undefined;
  for (const candidate of roots) {
    if (candidate.folder !== root.folder) continue;
    const prefix = candidate.root === '' ? '' : `${candidate.root}/`;
    if (entity.location.path.startsWith(prefix) && (!best || candidate.root.length > best.root.length)) best = candidate;
  }
  return best === root;
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

const listingCache = new WeakMap<FileTable, string>();
function listingSignature(table: FileTable): string {
  let signature = listingCache.get(table);
  if (!signature) {
    signature = sha256Hex(table.list().join('\n'));
    listingCache.set(table, signature);
  }
  return signature;
}

/**
 * Changes whenever an entity, its annotations or its relations change. The catalog memo hands
 * back the same object while its files are unchanged, so this is computed once per new catalog.
 */
const catalogSignatures = new WeakMap<CatalogLoad, string>();
function catalogSignature(catalog: CatalogLoad): string {
  const known = catalogSignatures.get(catalog);
  if (known) return known;
  const parts: string[] = [];
  for (const entity of catalog.entities) parts.push(`${entity.key}@${entity.location.path}:${entity.location.startLine}-${entity.location.endLine}:${JSON.stringify(entity.raw)}`);
  for (const relation of catalog.relations) parts.push(`${relation.source}|${relation.type}|${relation.target}|${relation.resolved}`);
  const signature = sha256Hex(parts.join('\n'));
  catalogSignatures.set(catalog, signature);
  return signature;
}
