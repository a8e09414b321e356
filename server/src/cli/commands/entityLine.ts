/**
 * The line under each passage of `wsctx ask` that places it in the catalog: the entity it belongs
 * to, its owner and its nearest graph neighbours (one hop, from the answer's `neighbourhood`), so
 * "who owns billing-worker?" is answered on screen even when the passage's text never names the
 * team. A passage of several entities lists each with its owner instead.
 */
import { RELATION_PAIRS } from '../../engine';
import type { ContextOutput } from '../../tools/workspaceContext';

type Neighbour = ContextOutput['neighbourhood'][number];

/** Far ends shown per relation type before "+N". */
const NAMES_PER_TYPE = 3;

/**
 * Relation types in the order the line lists them: `partOf` (the system, short and telling), the
 * other forward halves (what the entity declares: dependsOn, consumesApi, providesApi, childOf,
 * memberOf), then their inverses. `ownedBy` is not among them: it leads the line as "owner".
 */
const LISTED_TYPES: readonly string[] = [
  'partOf',
  ...RELATION_PAIRS.map((p) => p.forward).filter((t) => t !== 'ownedBy' && t !== 'partOf'),
  ...RELATION_PAIRS.map((p) => p.inverse),
];

/**
 * A ref as a person reads it: the `default` namespace dropped (`component:billing-worker`), and
 * with `withKind` false the kind too (`billing-worker`), where the relation already says it.
 */
export function shortRef(ref: string, withKind = true): string {
  const colon = ref.indexOf(':');
  const kind = colon > 0 ? ref.slice(0, colon) : '';
  let rest = colon > 0 ? ref.slice(colon + 1) : ref;
  if (rest.startsWith('default/')) rest = rest.slice('default/'.length);
  return withKind && kind ? `${kind}:${rest}` : rest;
}

function ownersOf(n: Neighbour | undefined): string[] {
  return n ? n.edges.filter((e) => e.type === 'ownedBy').map((e) => shortRef(e.target, false)) : [];
}

/**
 * The passage's place in the catalog on one line (not yet fitted to a width), or undefined when
 * it belongs to no entity. One entity: `component:billing-worker · owner payments-team · partOf
 * billing · dependsOn invoices-db, payments-queue`. Several: `system:billing (owner payments-team),
 * system:payments (owner payments-team)`.
 */
export function entityLine(entityRefs: readonly string[], neighbourhood: readonly Neighbour[]): string | undefined {
  const { parts, separator } = entityParts(entityRefs, neighbourhood);
  return parts.length ? parts.join(separator) : undefined;
}

/**
 * The same line in its parts (the ref, `owner ...`, one part per relation type), for a caller that
 * wraps between parts: a name is never cut.
 */
export function entityParts(
  entityRefs: readonly string[],
  neighbourhood: readonly Neighbour[],
): { parts: string[]; separator: string } {
  if (entityRefs.length === 0) return { parts: [], separator: ' · ' };
  const byRef = new Map(neighbourhood.map((n) => [n.entity.toLowerCase(), n]));
  if (entityRefs.length > 1) {
    const parts = entityRefs.map((ref) => {
      const owners = ownersOf(byRef.get(ref.toLowerCase()));
      return `${shortRef(ref)}${owners.length ? ` (owner ${owners.join(', ')})` : ''}`;
    });
    return { parts, separator: ', ' };
  }
  const ref = entityRefs[0];
  const n = byRef.get(ref.toLowerCase());
  const parts = [shortRef(ref)];
  const owners = ownersOf(n);
  if (owners.length) parts.push(`owner ${owners.join(', ')}`);
  for (const type of LISTED_TYPES) {
    const targets = (n?.edges ?? []).filter((e) => e.type === type).map((e) => shortRef(e.target, false));
    if (targets.length === 0) continue;
    const more = targets.length > NAMES_PER_TYPE ? ` +${targets.length - NAMES_PER_TYPE}` : '';
    parts.push(`${type} ${targets.slice(0, NAMES_PER_TYPE).join(', ')}${more}`);
  }
  if (n?.moreEdges) parts.push(`+${n.moreEdges} more edges (wsctx expand ${shortRef(ref)})`);
  return { parts, separator: ' · ' };
}
