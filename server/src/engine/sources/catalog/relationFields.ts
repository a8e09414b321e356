/**
 * Which `spec` fields of which kinds are entity refs, the kind a ref in that field defaults to,
 * and the relation pair it produces.
 *
 * Taken from Backstage: catalog-backend's `BuiltinKindsEntityProcessor.postProcessEntity` and the
 * `relationFields` each kind declares in `@backstage/catalog-model` 1.10.x (which adds
 * `Component.spec.dependencyOf` and `Domain.spec.subdomainOf` to the processor's older list).
 * Every field defaults the namespace to the referring entity's own namespace ("inherit").
 * `Template.spec.owner` is kept as the scaffolder's processor maps it. Location and unknown kinds
 * produce no relations. Kind names match exactly, as Backstage compares them.
 */
import type { EntityName, RelationType } from '../../model';
import { parseEntityRef, type Parsed } from './entityRef';

export interface RelationField {
  /** Key under `spec`. */
  key: string;
  /** Kind of a ref written without one; undefined means a kindless ref is an error. */
  defaultKind?: string;
  /** Edge from the entity to the ref... */
  forward: RelationType;
  /** ...and the edge back. */
  reverse: RelationType;
}

const owner: RelationField = { key: 'owner', defaultKind: 'Group', forward: 'ownedBy', reverse: 'ownerOf' };
const system: RelationField = { key: 'system', defaultKind: 'System', forward: 'partOf', reverse: 'hasPart' };
const dependsOn: RelationField = { key: 'dependsOn', forward: 'dependsOn', reverse: 'dependencyOf' };
const dependencyOf: RelationField = { key: 'dependencyOf', forward: 'dependencyOf', reverse: 'dependsOn' };

/** Relation-producing fields per kind, in the order Backstage emits them. */
export const RELATION_FIELDS: Readonly<Record<string, readonly RelationField[]>> = {
  Component: [
    owner,
    { key: 'subcomponentOf', defaultKind: 'Component', forward: 'partOf', reverse: 'hasPart' },
    { key: 'providesApis', defaultKind: 'API', forward: 'providesApi', reverse: 'apiProvidedBy' },
    { key: 'consumesApis', defaultKind: 'API', forward: 'consumesApi', reverse: 'apiConsumedBy' },
    dependsOn,
    dependencyOf,
    system,
  ],
  API: [owner, system],
  Resource: [owner, dependsOn, dependencyOf, system],
  System: [owner, { key: 'domain', defaultKind: 'Domain', forward: 'partOf', reverse: 'hasPart' }],
  Domain: [owner, { key: 'subdomainOf', defaultKind: 'Domain', forward: 'partOf', reverse: 'hasPart' }],
  Group: [
    { key: 'parent', defaultKind: 'Group', forward: 'childOf', reverse: 'parentOf' },
    { key: 'children', defaultKind: 'Group', forward: 'parentOf', reverse: 'childOf' },
    { key: 'members', defaultKind: 'User', forward: 'hasMember', reverse: 'memberOf' },
  ],
  User: [{ key: 'memberOf', defaultKind: 'Group', forward: 'memberOf', reverse: 'hasMember' }],
  Template: [owner],
};

/** The relation fields of a kind (empty for Location and unknown kinds). */
export function relationFieldsOf(kind: string): readonly RelationField[] {
  return Object.hasOwn(RELATION_FIELDS, kind) ? RELATION_FIELDS[kind] : [];
}

/**
 * The kind a ref defaults to in `spec.<key>` of an entity of `kind`: `{ found: false }` when the
 * field holds no refs for that kind, `defaultKind: undefined` when it holds refs that must name
 * their kind (`dependsOn`, `dependencyOf`).
 */
export function defaultKindForField(
  kind: string,
  key: string,
): { found: false } | { found: true; defaultKind: string | undefined } {
  const field = relationFieldsOf(kind).find((f) => f.key === key);
  return field ? { found: true, defaultKind: field.defaultKind } : { found: false };
}

/** Parses one value of a relation field the way Backstage does for an entity in `namespace`. */
export function parseFieldRef(value: unknown, field: RelationField, namespace: string): Parsed<EntityName> {
  const parsed = parseEntityRef(value, { defaultKind: field.defaultKind, defaultNamespace: namespace });
  if (parsed.ok || field.defaultKind || typeof value !== 'string' || value.includes(':')) return parsed;
  // Backstage's message does not say why a kind is needed here; add the hint people need.
  return {
    ok: false,
    error: `${parsed.error}; spec.${field.key} has no default kind, write e.g. "component:${value}" or "resource:${value}"`,
  };
}

/** The values of a relation field: a string or a list, as Backstage's `[targets].flat()` reads it. */
export function fieldValues(value: unknown): unknown[] {
  if (!value) return [];
  return Array.isArray(value) ? [...value] : [value];
}
