/**
 * Backstage's relation pairs, and which half of each pair the graph stores.
 *
 * Backstage records every relation twice, once from each end (`A dependsOn B` and
 * `B dependencyOf A`). The graph keeps one canonical edge per pair, in the direction the
 * dependent entity declares it ("forward": dependsOn, consumesApi, providesApi, ownedBy, partOf,
 * childOf, memberOf). Walking `out` from an entity follows forward edges it is the source of
 * (what it depends on, belongs to, is owned by); walking `in` follows forward edges that point at
 * it (what depends on it, what it owns, its members).
 */
import type { RelationType } from '../model';

export interface RelationPair {
  forward: RelationType;
  inverse: RelationType;
}

export const RELATION_PAIRS: readonly RelationPair[] = [
  { forward: 'dependsOn', inverse: 'dependencyOf' },
  { forward: 'consumesApi', inverse: 'apiConsumedBy' },
  { forward: 'providesApi', inverse: 'apiProvidedBy' },
  { forward: 'ownedBy', inverse: 'ownerOf' },
  { forward: 'partOf', inverse: 'hasPart' },
  { forward: 'childOf', inverse: 'parentOf' },
  { forward: 'memberOf', inverse: 'hasMember' },
];

export const RELATION_TYPES: readonly RelationType[] = RELATION_PAIRS.flatMap((p) => [p.forward, p.inverse]);

const forwardOf = new Map<string, RelationType>();
const inverseOf = new Map<string, RelationType>();
for (const pair of RELATION_PAIRS) {
  forwardOf.set(pair.forward, pair.forward);
  forwardOf.set(pair.inverse, pair.forward);
  inverseOf.set(pair.forward, pair.inverse);
  inverseOf.set(pair.inverse, pair.forward);
}

export function isRelationType(value: string): value is RelationType {
  return forwardOf.has(value);
}

/** The forward half of the pair `type` belongs to. */
export function forwardType(type: RelationType): RelationType {
  return forwardOf.get(type)!;
}

export function isForward(type: RelationType): boolean {
  return forwardOf.get(type) === type;
}

/** The other half of the pair. */
export function inverseType(type: RelationType): RelationType {
  return inverseOf.get(type)!;
}
