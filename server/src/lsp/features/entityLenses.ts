/**
 * What the code lens on an entity counts, per kind: the relations people look for first on that
 * kind of entity, as Backstage stores them (both halves of every pair, so every count is read
 * from the entity's own relations). Only counts above zero are shown: a row of "0 dependents ·
 * 0 providers" on every entity is noise, and the hover says what an entity lacks.
 *
 * - System: the components, APIs and resources it has (`hasPart`, by the part's kind);
 * - Domain: its systems and subdomains;
 * - Group: what it owns, its members and its child groups;
 * - Component and Resource: what depends on it and what it depends on (`dependencyOf`;
 *   `dependsOn` and `consumesApi`);
 * - API: the components that provide it and those that consume it;
 * - User: the groups it is a member of;
 * - any other kind: dependents and dependencies, as for a component.
 */
import type { IndexState, EntityKey, RelationType } from '../../engine';
import { plural } from './entityFacts';

export interface LensCount {
  /** The lens's text: `3 components`, `owns 12`. */
  title: string;
  /** Relation types the lens counts (as read from the entity), to walk when it is clicked. */
  edgeTypes: RelationType[];
}

interface LensRule {
  types: RelationType[];
  /** Count only far ends of this kind (lower case, as in keys). */
  targetKind?: string;
  title: (count: number) => string;
}

const dependents: LensRule = { types: ['dependencyOf'], title: (n) => plural(n, 'dependent') };
const dependencies: LensRule = {
  types: ['dependsOn', 'consumesApi'],
  title: (n) => plural(n, 'dependency', 'dependencies'),
};

const RULES: Readonly<Record<string, readonly LensRule[]>> = {
  System: [
    { types: ['hasPart'], targetKind: 'component', title: (n) => plural(n, 'component') },
    { types: ['hasPart'], targetKind: 'api', title: (n) => plural(n, 'API') },
    { types: ['hasPart'], targetKind: 'resource', title: (n) => plural(n, 'resource') },
  ],
  Domain: [
    { types: ['hasPart'], targetKind: 'system', title: (n) => plural(n, 'system') },
    { types: ['hasPart'], targetKind: 'domain', title: (n) => plural(n, 'subdomain') },
  ],
  Group: [
    { types: ['ownerOf'], title: (n) => `owns ${n}` },
    { types: ['hasMember'], title: (n) => plural(n, 'member') },
    { types: ['parentOf'], title: (n) => plural(n, 'child group') },
  ],
  Component: [dependents, dependencies],
  Resource: [dependents, dependencies],
  API: [
    { types: ['apiProvidedBy'], title: (n) => plural(n, 'provider') },
    { types: ['apiConsumedBy'], title: (n) => plural(n, 'consumer') },
  ],
  User: [{ types: ['memberOf'], title: (n) => `member of ${plural(n, 'group')}` }],
};

const kindOfKey = (key: EntityKey): string => key.slice(0, key.indexOf(':'));

/** The relation counts above zero the lens shows on an entity of `kind`, in display order. */
export function lensCounts(state: IndexState, key: EntityKey, kind: string): LensCount[] {
  const rules = Object.hasOwn(RULES, kind) ? RULES[kind] : [dependents, dependencies];
  const own = state.graph.outgoing(key);
  const out: LensCount[] = [];
  for (const rule of rules) {
    const far = new Set<EntityKey>();
    for (const edge of own) {
      if (!rule.types.includes(edge.type)) continue;
      if (rule.targetKind && kindOfKey(edge.target) !== rule.targetKind) continue;
      far.add(edge.target);
    }
    if (far.size === 0) continue;
    out.push({ title: rule.title(far.size), edgeTypes: [...rule.types] });
  }
  return out;
}
