/**
 * A short Markdown description of one entity: what the lexical and vector indexes read for a
 * `catalog_entity` passage, and what a hover can show. Deterministic: the same entity and
 * relations always give the same text (relations grouped in a fixed order, refs sorted).
 */
import type { CatalogEntity, Relation, RelationType } from '../../model';

/** Label of each relation type; `partOf` is labelled by its target's kind (PART_OF_LABELS). */
const RELATION_LABELS: Readonly<Record<RelationType, string>> = {
  // Worded as people ask ("who owns X?"): "owned" and "owns" share Porter's stem, "owner" does not.
  ownedBy: 'Owned by',
  partOf: 'Part of',
  childOf: 'Parent group',
  memberOf: 'Member of',
  providesApi: 'Provides APIs',
  consumesApi: 'Consumes APIs',
  dependsOn: 'Depends on',
  dependencyOf: 'Dependency of',
  apiProvidedBy: 'Provided by',
  apiConsumedBy: 'Consumed by',
  hasPart: 'Has parts',
  parentOf: 'Child groups',
  hasMember: 'Members',
  ownerOf: 'Owns',
};

const PART_OF_LABELS: Readonly<Record<string, string>> = {
  system: 'System',
  domain: 'Domain',
  component: 'Subcomponent of',
};

/** The order facts from relations are printed in. */
const LABEL_ORDER = [
  'Owned by',
  'System',
  'Domain',
  'Subcomponent of',
  'Part of',
  'Parent group',
  'Member of',
  'Provides APIs',
  'Consumes APIs',
  'Depends on',
  'Dependency of',
  'Provided by',
  'Consumed by',
  'Has parts',
  'Child groups',
  'Members',
  'Owns',
];

function kindOfRef(ref: string): string {
  return ref.slice(0, ref.indexOf(':'));
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Renders `entity` with the relations that start at it (others in `relations` are ignored).
 * Unresolved targets are marked "(not in catalog)".
 */
export function renderEntityText(entity: CatalogEntity, relations: readonly Relation[]): string {
  const spec = (entity.raw.spec ?? {}) as Record<string, unknown>;
  const profile = (typeof spec.profile === 'object' && spec.profile !== null ? spec.profile : {}) as Record<
    string,
    unknown
  >;
  // A user's display name is their title; printed in the heading, not as a "Display name" fact
  // whose label would match every question about naming things.
  const displayName = entity.title ?? str(profile.displayName);
  const heading = displayName ? `${displayName} (${entity.name})` : entity.name;
  const out: string[] = [`# ${entity.kind}: ${heading}`, ''];
  if (entity.description?.trim()) out.push(entity.description.trim(), '');

  const facts: [string, string | undefined][] = [
    ['Ref', entity.ref],
    ['Type', entity.type],
    ['Lifecycle', entity.lifecycle],
    ['Email', str(profile.email)],
    ['Tags', entity.tags.length > 0 ? entity.tags.join(', ') : undefined],
  ];
  if (entity.kind === 'Location') {
    const targets = [spec.target, ...(Array.isArray(spec.targets) ? spec.targets : [])].filter(
      (t) => typeof t === 'string',
    );
    facts.push(['Targets', targets.length > 0 ? targets.join(', ') : undefined]);
  }

  const grouped = new Map<string, Set<string>>();
  for (const r of relations) {
    if (r.source !== entity.key) continue;
    const label = r.type === 'partOf' ? (PART_OF_LABELS[kindOfRef(r.target)] ?? 'Part of') : RELATION_LABELS[r.type];
    const refs = grouped.get(label) ?? new Set<string>();
    refs.add(r.resolved ? r.targetRef : `${r.targetRef} (not in catalog)`);
    grouped.set(label, refs);
  }
  for (const label of LABEL_ORDER) {
    const refs = grouped.get(label);
    if (refs) facts.push([label, [...refs].sort(byCodeUnit).join(', ')]);
  }

  for (const [label, value] of facts) if (value) out.push(`- ${label}: ${value}`);
  return `${out.join('\n')}\n`;
}
