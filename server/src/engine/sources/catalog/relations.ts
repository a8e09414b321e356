/**
 * Relations between entities, derived from their ref fields the way Backstage's
 * `BuiltinKindsEntityProcessor` derives them: every ref in a relation field gives two edges, the
 * field's relation from the entity to the ref and the reverse relation back (relationFields.ts
 * lists the fields). Unlike Backstage, a ref that does not parse does not fail the whole entity:
 * it becomes a problem at the value's line and only that edge is dropped.
 *
 * Edges to entities that are not in the catalog are kept with `resolved: false`. The same edge
 * declared twice (A's `spec.children` naming B and B's `spec.parent` naming A both give
 * `A parentOf B`) is kept once, from the first declaration in the order the entities are given.
 */
import type { CatalogEntity, EntityKey, EntityName, Problem, Relation, RelationType } from '../../model';
import { entityKey, printEntityRef } from './entityRef';
import { formatFieldPath } from './fieldPath';
import { fieldValues, parseFieldRef, relationFieldsOf } from './relationFields';

/** An entity plus the lines of its fields (parseCatalogFile.ts's `ParsedEntity` fits). */
export interface RelationSource {
  entity: CatalogEntity;
  /** Line per printed field path; missing entries fall back to the entity's first line. */
  lines?: Readonly<Record<string, number>>;
}

export interface DerivedRelations {
  relations: Relation[];
  problems: Problem[];
}

function edgeId(source: EntityKey, type: RelationType, target: EntityKey): string {
  return `${source}\u0000${type}\u0000${target}`;
}

/**
 * Derives both directions of every relation the entities declare. Relations come out in entity
 * order, then field order (relationFields.ts), then value order, each forward edge followed by
 * its reverse.
 */
export function deriveRelations(sources: readonly RelationSource[]): DerivedRelations {
  const byKey = new Map<EntityKey, CatalogEntity>();
  for (const { entity } of sources) if (!byKey.has(entity.key)) byKey.set(entity.key, entity);

  const relations: Relation[] = [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const push = (relation: Relation): void => {
    const id = edgeId(relation.source, relation.type, relation.target);
    if (seen.has(id)) return;
    seen.add(id);
    relations.push(relation);
  };
  // A resolved end is printed as its entity declares its name, an unresolved one as written.
  const display = (key: EntityKey, name: EntityName): string => byKey.get(key)?.ref ?? printEntityRef(name);

  for (const { entity, lines = {} } of sources) {
    const spec = (entity.raw.spec ?? {}) as Record<string, unknown>;
    for (const field of relationFieldsOf(entity.kind)) {
      const raw = spec[field.key];
      const values = fieldValues(raw);
      const fieldName = `spec.${field.key}`;
      values.forEach((value, i) => {
        const valuePath = Array.isArray(raw) ? formatFieldPath(['spec', field.key, i]) : fieldName;
        const line = lines[valuePath] ?? lines[fieldName] ?? entity.location.startLine;
        const origin = { path: entity.location.path, line, field: fieldName };
        const parsed = parseFieldRef(value, field, entity.namespace);
        if (!parsed.ok) {
          problems.push({
            path: entity.location.path,
            line,
            severity: 'error',
            code: 'catalog.invalid-ref',
            message: `${valuePath} of ${entity.ref}: ${parsed.error}`,
          });
          return;
        }
        const targetKey = entityKey(parsed.value);
        const targetRef = display(targetKey, parsed.value);
        const resolved = byKey.has(targetKey);
        push({
          source: entity.key,
          type: field.forward,
          target: targetKey,
          sourceRef: entity.ref,
          targetRef,
          resolved,
          origin,
        });
        push({
          source: targetKey,
          type: field.reverse,
          target: entity.key,
          sourceRef: targetRef,
          targetRef: entity.ref,
          resolved,
          origin,
        });
      });
    }
  }
  return { relations, problems };
}

/** Relations starting at `key`, optionally of some types only, in the order given. */
export function relationsFrom(
  relations: readonly Relation[],
  key: EntityKey,
  types?: readonly RelationType[],
): Relation[] {
  return relations.filter((r) => r.source === key && (!types || types.includes(r.type)));
}
