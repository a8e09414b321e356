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

/**
 * The catalog an entity's document was last checked for. One object is shared by every entity a
 * pass checked, so a patched catalog moves them all to the new catalog at once (`patched`).
 */
interface Checked {
  catalog: CatalogLoad;
}

/** The entity documents of the last catalog, and the document made for each entity object. */
export class EntityDocs {
  /** Each entity object's document, the relations it was rendered with, and when it was last checked. */
  private readonly byEntity = new WeakMap<
    CatalogEntity,
    { relations: readonly Relation[]; doc: Doc; checked: Checked }
  >();
  private last: { catalog: CatalogLoad; docs: Doc[]; checked: Checked } | null = null;

  /**
   * The catalog's entity documents, one per entity in catalog order; `folderOf` names the
   * workspace folder holding a catalog file (an entity's document belongs to it, as every other
   * document belongs to its file's folder).
   */
  of(catalog: CatalogLoad, folderOf: (path: string) => string = () => '', change?: CatalogChange): Doc[] {
    const last = this.last;
    if (last?.catalog === catalog) return last.docs;
    if (change && last?.catalog === change.from && change.to === catalog) {
      const docs = this.patched(last, change, folderOf);
      if (docs) return docs;
    }
    // Most edits leave every relation as it was (a description, a tag...): then an entity object
    // checked for the last catalog keeps its document, and only new entity objects (those of the
    // edited files) need their relations, gathered in one pass instead of grouping them all.
    const relationsKept = last !== null && sameRelations(last.catalog.relations, catalog.relations);
    const fresh = relationsKept
      ? catalog.entities.filter((entity) => this.byEntity.get(entity)?.checked.catalog !== last.catalog)
      : catalog.entities;
    const byKey = relationsBySource(catalog, relationsKept ? new Set(fresh.map((entity) => entity.key)) : undefined);
    const checked: Checked = { catalog };
    const docs = catalog.entities.map((entity) => {
      const known = this.byEntity.get(entity);
      if (known && relationsKept && known.checked.catalog === last.catalog) {
        known.checked = checked;
        return known.doc;
      }
      const relations = byKey.get(entity.key) ?? [];
      if (known && sameRendering(known.relations, relations)) {
        known.checked = checked;
        return known.doc;
      }
      const doc = entityDoc(entity, relations, folderOf(entity.location.path));
      this.byEntity.set(entity, { relations, doc, checked });
      return doc;
    });
    this.last = { catalog, docs, checked };
    return docs;
  }

  /**
   * After an update patched the catalog (catalogUpdate.ts): only the entities of the changed files
   * and those at either end of a relation that came or went are looked at again; every other
   * entity keeps its document from the last catalog's list, found by walking both catalogs in
   * step (an update keeps every other entity object, in the same order), without a lookup per
   * entity or a walk over every relation.
   */
  private patched(
    last: { catalog: CatalogLoad; docs: Doc[]; checked: Checked },
    change: CatalogChange,
    folderOf: (path: string) => string,
  ): Doc[] | undefined {
    const { from, to: catalog } = change;
    const touched = new Set(change.entities);
    for (const relation of change.removed) touched.add(relation.source);
    for (const relation of change.added) touched.add(relation.source);
    const docs: Doc[] = new Array(catalog.entities.length);
    const pending: number[] = [];
    /** The entities of `from` the changed files held. */
    const left: CatalogEntity[] = [];
    let j = 0;
    const skipChanged = () => {
      while (j < from.entities.length && change.entities.has(from.entities[j].key)) left.push(from.entities[j++]);
    };
    for (let i = 0; i < catalog.entities.length; i++) {
      const entity = catalog.entities[i];
      // The changed files' entities, old and new, are the ones keyed in `change.entities`.
      if (change.entities.has(entity.key)) {
        pending.push(i);
        continue;
      }
      skipChanged();
      // Not the same object in the same order: the change is not what this walk expects.
      if (from.entities[j] !== entity) return undefined;
      if (touched.has(entity.key)) pending.push(i);
      else docs[i] = last.docs[j];
      j++;
    }
    skipChanged();
    if (j !== from.entities.length) return undefined;
    const byKey = change.relationsFrom(pending.map((i) => catalog.entities[i].key));
    const checked = last.checked;
    for (const i of pending) {
      const entity = catalog.entities[i];
      const known = this.byEntity.get(entity);
      const relations = byKey.get(entity.key) ?? [];
      if (known && sameRendering(known.relations, relations)) {
        docs[i] = known.doc;
        known.checked = checked;
      } else {
        docs[i] = entityDoc(entity, relations, folderOf(entity.location.path));
        this.byEntity.set(entity, { relations, doc: docs[i], checked });
      }
    }
    // The entities the changed files held are gone from the catalog: forgotten, so a later pass
    // cannot take their documents for current.
    const now = new Set(pending.map((i) => catalog.entities[i]));
    for (const entity of left) if (!now.has(entity)) this.byEntity.delete(entity);
    // Every entity of `catalog` now has its document checked for it: the untouched ones were
    // checked for `from` (the shared object), the others just now.
    checked.catalog = catalog;
    this.last = { catalog, docs, checked };
    return docs;
  }

  export(): { catalog: CatalogLoad; docs: Doc[] } | null {
    return this.last && { catalog: this.last.catalog, docs: this.last.docs };
  }

  import(saved: { catalog: CatalogLoad; docs: Doc[] } | null): void {
    if (!saved) {
      this.last = null;
      return;
    }
    const checked: Checked = { catalog: saved.catalog };
    this.last = { ...saved, checked };
    const byKey = relationsBySource(saved.catalog);
    saved.catalog.entities.forEach((entity, i) => {
      const doc = saved.docs[i];
      if (doc) this.byEntity.set(entity, { relations: byKey.get(entity.key) ?? [], doc, checked });
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
