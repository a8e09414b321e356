/**
 * Backstage's relation pairs.
 *
 * Backstage records every relation twice, once from each end (`A dependsOn B` and
 * `B dependencyOf A`), and so does the graph (componentGraph.ts). "Forward" names the half the
 * dependent entity usually declares (dependsOn, consumesApi, providesApi, ownedBy, partOf,
 * childOf, memberOf); the pair order here is the order features list relation groups in.
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
