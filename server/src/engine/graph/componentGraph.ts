/**
 * The component graph: catalog entities and every relation between them, both halves of each
 * Backstage pair, exactly as Backstage stores them.
 *
 * Backstage's BuiltinKindsEntityProcessor emits two relations per ref (`A dependsOn B` and
 * `B dependencyOf A`) and its catalog serves both: an entity's `relations` are the ones whose
 * source it is. The graph does the same: `outgoing(key)` holds the relations whose source is the
 * entity (its whole neighbourhood, as seen from it), `incoming(key)` those whose target is.
 *
 * Built once per index state from the catalog loader's relations; immutable afterwards, so
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
  private readonly outEdges = new Map<EntityKey, GraphEdge[]>();
  private readonly inEdges = new Map<EntityKey, GraphEdge[]>();
  /** Lists already put in order: sorting waits for the first read of a list. */
  private readonly sorted = new WeakSet<GraphEdge[]>();
  private readonly allEdges: readonly GraphEdge[];

  /**
   * `relations` must hold each relation once (the catalog loader's do). Building is a pass over
   * them, without copying or sorting: each entity's lists are sorted when first read, so a
   * catalog edit does not pay for ordering the relations of entities nobody asks about.
   */
  constructor(entities: readonly CatalogEntity[], relations: readonly Relation[]) {
    const byKey = new Map<EntityKey, CatalogEntity>();
    for (const entity of entities) byKey.set(entity.key, entity);
    this.byKey = byKey;
    for (const relation of relations) {
      push(this.outEdges, relation.source, relation);
      push(this.inEdges, relation.target, relation);
    }
    this.allEdges = relations;
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

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
