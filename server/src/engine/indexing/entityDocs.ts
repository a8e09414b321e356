/**
 * The `catalog_entity` documents: one per entity, its own title and one section rendering its
 * facts and relations (renderEntityText.ts). A document is a function of its entity (the same
 * object while its catalog file is unchanged, thanks to the catalog parse cache) and of the
 * relations starting at it, so after a catalog edit only entities whose declaration or
 * relations changed are rendered again.
 */
import { documentId, sha256Hex } from '../chunking/ids';
import type { CatalogEntity, Doc, EntityKey, Relation } from '../model';
import type { CatalogChange } from '../sources/catalog/catalogUpdate';
import { renderEntityText, type CatalogLoad } from '../sources/catalog/loadCatalog';

/** The entity documents of the last catalog, and the document made for each entity object. */
export class EntityDocs {
  /** Each entity object's document, the relations it was rendered with, and the last catalog it was checked for. */
  private readonly byEntity = new WeakMap<
    CatalogEntity,
    { relations: readonly Relation[]; doc: Doc; catalog: CatalogLoad }
  >();
  private last: { catalog: CatalogLoad; docs: Doc[] } | null = null;

  /**
   * The catalog's entity documents, one per entity in catalog order; `folderOf` names the
   * workspace folder holding a catalog file (an entity's document belongs to it, as every other
   * document belongs to its file's folder).
   */
  of(catalog: CatalogLoad, folderOf: (path: string) => string = () => '', change?: CatalogChange): Doc[] {
    const last = this.last;
    if (last?.catalog === catalog) return last.docs;
    if (change && last?.catalog === change.from && change.to === catalog) {
      const docs = this.patched(change, folderOf);
      if (docs) return docs;
    }
    // Most edits leave every relation as it was (a description, a tag...): then an entity object
    // checked for the last catalog keeps its document, and only new entity objects (those of the
    // edited files) need their relations, gathered in one pass instead of grouping them all.
    const relationsKept = last !== null && sameRelations(last.catalog.relations, catalog.relations);
    const fresh = relationsKept
      ? catalog.entities.filter((entity) => this.byEntity.get(entity)?.catalog !== last.catalog)
      : catalog.entities;
    const byKey = relationsBySource(catalog, relationsKept ? new Set(fresh.map((entity) => entity.key)) : undefined);
    const docs = catalog.entities.map((entity) => {
      const known = this.byEntity.get(entity);
      if (known && relationsKept && known.catalog === last.catalog) {
        known.catalog = catalog;
        return known.doc;
      }
      const relations = byKey.get(entity.key) ?? [];
      if (known && sameRendering(known.relations, relations)) {
        known.catalog = catalog;
        return known.doc;
      }
      const doc = entityDoc(entity, relations, folderOf(entity.location.path));
      this.byEntity.set(entity, { relations, doc, catalog });
      return doc;
    });
    this.last = { catalog, docs };
    return docs;
  }

  /**
   * After an update patched the catalog (catalogUpdate.ts): only the entities of the changed files
   * and those at either end of a relation that came or went are looked at again; every other
   * entity keeps its document, without comparing the catalog's relations one by one.
   */
  private patched(change: CatalogChange, folderOf: (path: string) => string): Doc[] | undefined {
    const { from, to: catalog } = change;
    const touched = new Set(change.entities);
    for (const relation of change.removed) touched.add(relation.source);
    for (const relation of change.added) touched.add(relation.source);
    // Every entity of `from` was given its document for `from` by the last pass; an entity the
    // change does not touch is one of them (the same object), so it keeps it.
    const docs: Doc[] = new Array(catalog.entities.length);
    const pending: number[] = [];
    for (let i = 0; i < catalog.entities.length; i++) {
      const entity = catalog.entities[i];
      if (touched.has(entity.key)) {
        pending.push(i);
        continue;
      }
      const known = this.byEntity.get(entity);
      if (!known || known.catalog !== from) return undefined;
      docs[i] = known.doc;
    }
    const byKey = relationsBySource(catalog, touched);
    for (const i of pending) {
      const entity = catalog.entities[i];
      const known = this.byEntity.get(entity);
      const relations = byKey.get(entity.key) ?? [];
      if (known && sameRendering(known.relations, relations)) {
        docs[i] = known.doc;
      } else {
        docs[i] = entityDoc(entity, relations, folderOf(entity.location.path));
        this.byEntity.set(entity, { relations, doc: docs[i], catalog });
      }
    }
    // Stamped once every document is known: a pass that gave up above leaves no stamp behind.
    for (const entity of catalog.entities) this.byEntity.get(entity)!.catalog = catalog;
    this.last = { catalog, docs };
    return docs;
  }

  export(): { catalog: CatalogLoad; docs: Doc[] } | null {
    return this.last;
  }

  import(saved: { catalog: CatalogLoad; docs: Doc[] } | null): void {
    this.last = saved;
    if (!saved) return;
    const byKey = relationsBySource(saved.catalog);
    saved.catalog.entities.forEach((entity, i) => {
      const doc = saved.docs[i];
      if (doc) this.byEntity.set(entity, { relations: byKey.get(entity.key) ?? [], doc, catalog: saved.catalog });
    });
  }
}

/** The catalog's relations by source entity (only those of `only` when given), in catalog order. */
function relationsBySource(catalog: CatalogLoad, only?: ReadonlySet<EntityKey>): Map<EntityKey, Relation[]> {
  const byKey = new Map<EntityKey, Relation[]>();
  if (only?.size === 0) return byKey;
  for (const relation of catalog.relations) {
    if (only && !only.has(relation.source)) continue;
    const list = byKey.get(relation.source);
    if (list) list.push(relation);
    else byKey.set(relation.source, [relation]);
  }
  return byKey;
}

/** True when two catalogs' relation lists match one for one in everything an entity's text shows. */
function sameRelations(a: readonly Relation[], b: readonly Relation[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i].source !== b[i].source) return false;
  return sameRendering(a, b);
}

/** True when two lists of an entity's relations render the same (renderEntityText reads these fields). */
function sameRendering(a: readonly Relation[], b: readonly Relation[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    // Relations of unchanged entities are the very objects of the last catalog (relations.ts).
    if (x === y) continue;
    if (x.type !== y.type || x.target !== y.target || x.targetRef !== y.targetRef || x.resolved !== y.resolved)
      return false;
  }
  return true;
}

function entityDoc(entity: CatalogEntity, relations: readonly Relation[], folder: string): Doc {
  const text = renderEntityText(entity, relations);
  // An entity is its own document inside a catalog file that may hold many: its id hashes the
  // file and the entity key, so it is stable across edits of the file's other entities.
  const id = documentId(`${entity.location.path}#${entity.key}`);
  return {
    id,
    path: entity.location.path,
    folder,
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
