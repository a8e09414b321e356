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
import type { CatalogEntity, EntityKey, Relation, RelationType } from '../model';

export interface GraphEdge {
  /** The entity the relation belongs to (Backstage's `source`). */
  source: EntityKey;
  sourceRef: string;
  /** The relation as Backstage names it, either half of a pair. */
  type: RelationType;
  target: EntityKey;
  targetRef: string;
  /** False when either end is not in the catalog. */
  resolved: boolean;
  /**
   * Where the relation was declared: the field and line that produced it. Both halves of a pair
   * point at the same declaration (`A dependsOn B` and `B dependencyOf A` both at A's
   * `spec.dependsOn`), since Backstage derives both from that one field.
   */
  origin: Relation['origin'];
}

const compareEdges = (a: GraphEdge, b: GraphEdge): number =>
  cmp(a.type, b.type) || cmp(a.targetRef, b.targetRef) || cmp(a.sourceRef, b.sourceRef);

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class ComponentGraph {
  private readonly byKey: ReadonlyMap<EntityKey, CatalogEntity>;
  private readonly outEdges: Map<EntityKey, GraphEdge[]>;
  private readonly inEdges: Map<EntityKey, GraphEdge[]>;
  private allEdges: GraphEdge[] | undefined;

  constructor(entities: readonly CatalogEntity[], relations: readonly Relation[]) {
    const byKey = new Map<EntityKey, CatalogEntity>();
    for (const entity of entities) byKey.set(entity.key, entity);
    this.byKey = byKey;
    this.outEdges = new Map();
    this.inEdges = new Map();
    const seen = new Set<string>();
    for (const relation of relations) {
      const id = `${relation.source}\u0000${relation.type}\u0000${relation.target}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const edge = toEdge(relation, byKey);
      push(this.outEdges, edge.source, edge);
      push(this.inEdges, edge.target, edge);
    }
    for (const list of this.outEdges.values()) list.sort(compareEdges);
    for (const list of this.inEdges.values()) list.sort(compareEdges);
  }

  get entityCount(): number {
    return this.byKey.size;
  }

  entities(): IterableIterator<CatalogEntity> {
    return this.byKey.values();
  }

  /** Every relation, grouped by source entity, each group in type, target, source order. */
  edges(): readonly GraphEdge[] {
    if (!this.allEdges) {
      const all: GraphEdge[] = [];
      for (const list of this.outEdges.values()) for (const edge of list) all.push(edge);
      this.allEdges = all;
    }
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
    return this.outEdges.get(key) ?? [];
  }

  /** Relations whose target is `key` (the other halves of its own, plus any declared elsewhere). */
  incoming(key: EntityKey): readonly GraphEdge[] {
    return this.inEdges.get(key) ?? [];
  }

  /** The entity's owner ref as the graph resolved it (first ownedBy relation), if any. */
  ownerOf(key: EntityKey): string | undefined {
    return this.outgoing(key).find((e) => e.type === 'ownedBy')?.targetRef;
  }
}

function toEdge(relation: Relation, byKey: ReadonlyMap<EntityKey, CatalogEntity>): GraphEdge {
  return {
    source: relation.source,
    sourceRef: relation.sourceRef,
    type: relation.type,
    target: relation.target,
    targetRef: relation.targetRef,
    resolved: byKey.has(relation.source) && byKey.has(relation.target),
    origin: relation.origin,
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
