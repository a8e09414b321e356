/**
 * The component graph: catalog entities and every relation between them, both halves of each
 * Backstage pair, exactly as Backstage stores them.
 *
 * Backstage's BuiltinKindsEntityProcessor emits two relations per ref (`A dependsOn B` and
 * `B dependencyOf A`) and its catalog serves both: an entity's `relations` are the ones whose
 * source it is. The graph does the same: `outgoing(key)` holds the relations whose source is the
 * entity (its whole neighbourhood, as seen from it), `incoming(key)` those whose target is.
 *
 * Built once per index state from the catalog loader's relations (or, after an update patched
 * the catalog, from the last graph and the relations that changed); immutable afterwards, so
 * queries never see a half-built graph.
 */
import type { CatalogEntity, EntityKey, Relation } from '../model';

/**
 * One relation of the graph: the catalog's own `Relation` object (model.ts), shared, not copied.
 * `resolved` is false when either end is not in the catalog (one end is always the declaring
 * entity), and `origin` is where the pair was declared: both halves point at the same field
 * (`A dependsOn B` and `B dependencyOf A` both at A's `spec.dependsOn`), since Backstage derives
 * both from that one field.
 */
export type GraphEdge = Relation;

/** The order of an entity's relation lists: type, far end, near end. */
export const compareEdges = (a: GraphEdge, b: GraphEdge): number =>
  cmp(a.type, b.type) || cmp(a.targetRef, b.targetRef) || cmp(a.sourceRef, b.sourceRef);

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class ComponentGraph {
  private readonly entityList: readonly CatalogEntity[];
  private readonly byKey: Layered<CatalogEntity>;
  private readonly outEdges: Layered<GraphEdge[]>;
  private readonly inEdges: Layered<GraphEdge[]>;
  /** Lists already put in order: sorting waits for the first read of a list. */
  private readonly sorted: WeakSet<GraphEdge[]>;
  private readonly allEdges: readonly GraphEdge[];

  /**
   * `relations` must hold each relation once (the catalog loader's do). Building is a pass over
   * them, without copying or sorting: each entity's lists are sorted when first read, so a
   * catalog edit does not pay for ordering the relations of entities nobody asks about. With a
   * `change`, only the entries the change touches are made: the rest are `change.from`'s.
   */
  constructor(entities: readonly CatalogEntity[], relations: readonly Relation[], change?: GraphChange) {
    this.entityList = entities;
    this.allEdges = relations;
    if (change) {
      const from = change.from;
      this.sorted = from.sorted;
      const removed = new Set(change.removed);
      this.outEdges = from.outEdges.patched(patchLists(from.outEdges, removed, change, (r) => r.source));
      this.inEdges = from.inEdges.patched(patchLists(from.inEdges, removed, change, (r) => r.target));
      const entityChanges = new Map<EntityKey, CatalogEntity | undefined>();
      for (const key of change.entities) entityChanges.set(key, undefined);
      for (const entity of entities) if (change.entities.has(entity.key)) entityChanges.set(entity.key, entity);
      this.byKey = from.byKey.patched(entityChanges);
      return;
    }
    const byKey = new Map<EntityKey, CatalogEntity>();
    for (const entity of entities) byKey.set(entity.key, entity);
    this.byKey = new Layered(byKey);
    this.sorted = new WeakSet();
    const outEdges = new Map<EntityKey, GraphEdge[]>();
    const inEdges = new Map<EntityKey, GraphEdge[]>();
    for (const relation of relations) {
      push(outEdges, relation.source, relation);
      push(inEdges, relation.target, relation);
    }
    this.outEdges = new Layered(outEdges);
    this.inEdges = new Layered(inEdges);
  }

  get entityCount(): number {
    return this.entityList.length;
  }

  /** The entities in catalog order. */
  entities(): IterableIterator<CatalogEntity> {
    return this.entityList.values();
  }

  /** Every relation, in the catalog's order (declaring entity, field, value; each pair together). */
  edges(): readonly GraphEdge[] {
    return this.allEdges;
  }

  get(key: EntityKey): CatalogEntity | undefined {
    return this.byKey.get(key.toLowerCase());
  }

  has(key: EntityKey): boolean {
    return this.byKey.has(key.toLowerCase());
  }

  /** Relations whose source is `key`: everything Backstage lists under the entity's `relations`. */
  outgoing(key: EntityKey): readonly GraphEdge[] {
    return this.inOrder(this.outEdges.get(key));
  }

  /** Relations whose target is `key` (the other halves of its own, plus any declared elsewhere). */
  incoming(key: EntityKey): readonly GraphEdge[] {
    return this.inOrder(this.inEdges.get(key));
  }

  /** A list sorted by type, far end and near end, sorted in place the first time it is read. */
  private inOrder(list: GraphEdge[] | undefined): readonly GraphEdge[] {
    if (!list) return [];
    if (!this.sorted.has(list)) {
      list.sort(compareEdges);
      this.sorted.add(list);
    }
    return list;
  }

  /** The entity's owner ref as the graph resolved it (first ownedBy relation), if any. */
  ownerOf(key: EntityKey): string | undefined {
    return this.outgoing(key).find((e) => e.type === 'ownedBy')?.targetRef;
  }
}

/**
 * The graph of a catalog an update patched (catalogUpdate.ts): the graph before, the relations
 * that went and came, and the keys of the entities declared, removed or redeclared. The new graph
 * shares every list the change does not touch with `from` (lists are sorted in place once and
 * never changed otherwise, so sharing them is safe).
 */
export interface GraphChange {
  from: ComponentGraph;
  removed: readonly GraphEdge[];
  added: readonly GraphEdge[];
  entities: ReadonlySet<EntityKey>;
}

/** The new lists (never a shared one changed) of the entities the removed and added edges name. */
function patchLists(
  lists: Layered<GraphEdge[]>,
  removed: ReadonlySet<GraphEdge>,
  change: GraphChange,
  keyOf: (edge: GraphEdge) => EntityKey,
): Map<EntityKey, GraphEdge[] | undefined> {
  const fresh = new Map<EntityKey, GraphEdge[] | undefined>();
  const listOf = (key: EntityKey): GraphEdge[] => {
    let list = fresh.get(key);
    if (!list) {
      list = (lists.get(key) ?? []).filter((edge) => !removed.has(edge));
      fresh.set(key, list);
    }
    return list;
  };
  for (const edge of change.removed) listOf(keyOf(edge));
  for (const edge of change.added) listOf(keyOf(edge)).push(edge);
  for (const [key, list] of fresh) if (list?.length === 0) fresh.set(key, undefined);
  return fresh;
}

/**
 * A map made of a base shared by consecutive graphs and the entries changed since (undefined:
 * removed), so patching a graph copies the changes, not every entry. Folded into a new base
 * once the changes reach an eighth of it.
 */
class Layered<V> {
  constructor(
    private readonly base: ReadonlyMap<EntityKey, V>,
    private readonly changes: ReadonlyMap<EntityKey, V | undefined> = new Map(),
  ) {}

  get(key: EntityKey): V | undefined {
    return this.changes.has(key) ? this.changes.get(key) : this.base.get(key);
  }

  has(key: EntityKey): boolean {
    return this.get(key) !== undefined;
  }

  /** This map with `more` changes on top; neither this map nor its base is changed. */
  patched(more: ReadonlyMap<EntityKey, V | undefined>): Layered<V> {
    const changes = new Map(this.changes);
    for (const [key, value] of more) changes.set(key, value);
    if (changes.size * 8 < this.base.size) return new Layered(this.base, changes);
    const base = new Map(this.base);
    for (const [key, value] of changes) {
      if (value === undefined) base.delete(key);
      else base.set(key, value);
    }
    return new Layered(base);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
