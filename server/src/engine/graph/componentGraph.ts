/**
 * The component graph: catalog entities and one canonical edge per Backstage relation pair.
 *
 * Built once per index state from the catalog loader's entities and relations (which hold both
 * halves of every pair); immutable afterwards, so queries never see a half-built graph.
 */
import type { CatalogEntity, EntityKey, Relation, RelationType } from '../model';
import { forwardType, isForward } from './relationTypes';

export interface GraphEdge {
  /** The declaring end (forward direction): `billing-worker dependsOn invoices-db`. */
  source: EntityKey;
  sourceRef: string;
  /** Always the forward half of the pair (see relationTypes.ts). */
  type: RelationType;
  target: EntityKey;
  targetRef: string;
  /** False when either end is not in the catalog. */
  resolved: boolean;
  /** Where the edge was declared (the first declaration seen). */
  origin: Relation['origin'];
}

export class ComponentGraph {
  private readonly byKey = new Map<EntityKey, CatalogEntity>();
  private readonly outEdges = new Map<EntityKey, GraphEdge[]>();
  private readonly inEdges = new Map<EntityKey, GraphEdge[]>();
  private readonly allEdges: GraphEdge[] = [];

  constructor(entities: readonly CatalogEntity[], relations: readonly Relation[]) {
    for (const entity of entities) this.byKey.set(entity.key, entity);
    const seen = new Set<string>();
    for (const relation of relations) {
      const edge = this.toForwardEdge(relation);
      const id = `${edge.source}\u0000${edge.type}\u0000${edge.target}`;
      if (seen.has(id)) continue;
      seen.add(id);
      this.allEdges.push(edge);
      push(this.outEdges, edge.source, edge);
      push(this.inEdges, edge.target, edge);
    }
    const order = (a: GraphEdge, b: GraphEdge) =>
      a.type.localeCompare(b.type) || a.targetRef.localeCompare(b.targetRef) || a.sourceRef.localeCompare(b.sourceRef);
    for (const list of this.outEdges.values()) list.sort(order);
    for (const list of this.inEdges.values()) list.sort(order);
  }

  get entityCount(): number {
    return this.byKey.size;
  }

  entities(): IterableIterator<CatalogEntity> {
    return this.byKey.values();
  }

  edges(): readonly GraphEdge[] {
    return this.allEdges;
  }

  get(key: EntityKey): CatalogEntity | undefined {
    return this.byKey.get(key.toLowerCase());
  }

  has(key: EntityKey): boolean {
    return this.byKey.has(key.toLowerCase());
  }

  /** Forward edges declared by `key` (what it depends on, belongs to, is owned by...). */
  outgoing(key: EntityKey): readonly GraphEdge[] {
    return this.outEdges.get(key) ?? [];
  }

  /** Forward edges pointing at `key` (what depends on it, what it owns, its members...). */
  incoming(key: EntityKey): readonly GraphEdge[] {
    return this.inEdges.get(key) ?? [];
  }

  /** The entity's owner ref as the graph resolved it (first ownedBy edge), if any. */
  ownerOf(key: EntityKey): string | undefined {
    return this.outgoing(key).find((e) => e.type === 'ownedBy')?.targetRef;
  }

  private toForwardEdge(relation: Relation): GraphEdge {
    const forward = isForward(relation.type);
    const source = forward ? relation.source : relation.target;
    const target = forward ? relation.target : relation.source;
    return {
      source,
      sourceRef: forward ? relation.sourceRef : relation.targetRef,
      type: forward ? relation.type : forwardType(relation.type),
      target,
      targetRef: forward ? relation.targetRef : relation.sourceRef,
      resolved: this.byKey.has(source) && this.byKey.has(target),
      origin: relation.origin,
    };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
