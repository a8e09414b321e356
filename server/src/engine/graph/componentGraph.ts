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
  private readonly byKey: ReadonlyMap<EntityKey, CatalogEntity>;
  private readonly outEdges: Map<EntityKey, GraphEdge[]>;
  private readonly inEdges: Map<EntityKey, GraphEdge[]>;
  /** Lists already put in order: sorting waits for the first read of a list. */
  private readonly sorted: WeakSet<GraphEdge[]>;
  private readonly allEdges: readonly GraphEdge[];

  /**
   * `relations` must hold each relation once (the catalog loader's do). Building is a pass over
   * them, without copying or sorting: each entity's lists are sorted when first read, so a
   * catalog edit does not pay for ordering the relations of entities nobody asks about.
   */
  constructor(entities: readonly CatalogEntity[], relations: readonly Relation[], change?: GraphChange) {
    const byKey = new Map<EntityKey, CatalogEntity>();
    for (const entity of entities) byKey.set(entity.key, entity);
    this.byKey = byKey;
    this.allEdges = relations;
    if (change) {
      this.sorted = change.from.sorted;
      this.outEdges = new Map(change.from.outEdges);
      this.inEdges = new Map(change.from.inEdges);
      const removed = new Set(change.removed);
      patchLists(this.outEdges, removed, change.removed, change.added, (r) => r.source);
      patchLists(this.inEdges, removed, change.removed, change.added, (r) => r.target);
      return;
    }
    this.sorted = new WeakSet();
    this.outEdges = new Map();
    this.inEdges = new Map();
    for (const relation of relations) {
      push(this.outEdges, relation.source, relation);
      push(this.inEdges, relation.target, relation);
    }
  }

  get entityCount(): number {
    return this.byKey.size;
  }

  entities(): IterableIterator<CatalogEntity> {
    return this.byKey.values();
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
 * The graph of a catalog an update patched (catalogUpdate.ts): the graph before, and the relations
 * that went and came. The new graph shares every list the change does not touch with `from`
 * (lists are sorted in place once and never changed otherwise, so sharing them is safe).
 */
export interface GraphChange {
  from: ComponentGraph;
  removed: readonly GraphEdge[];
  added: readonly GraphEdge[];
}

/** New lists (never the shared ones changed) for the entities the removed and added edges name. */
function patchLists(
  lists: Map<EntityKey, GraphEdge[]>,
  removed: ReadonlySet<GraphEdge>,
  gone: readonly GraphEdge[],
  added: readonly GraphEdge[],
  keyOf: (edge: GraphEdge) => EntityKey,
): void {
  const fresh = new Map<EntityKey, GraphEdge[]>();
  const listOf = (key: EntityKey): GraphEdge[] => {
    let list = fresh.get(key);
    if (!list) {
      list = (lists.get(key) ?? []).filter((edge) => !removed.has(edge));
      fresh.set(key, list);
    }
    return list;
  };
  for (const edge of gone) listOf(keyOf(edge));
  for (const edge of added) listOf(keyOf(edge)).push(edge);
  for (const [key, list] of fresh) {
    if (list.length > 0) lists.set(key, list);
    else lists.delete(key);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
