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
  /**
   * Where each source's halves start in `relations` (one more entry than sources: the end), so
   * an update can replace one entity's halves and copy the rest (catalogUpdate.ts).
   */
  starts: number[];
}

function edgeId(source: EntityKey, type: RelationType, target: EntityKey): string {
  return `${source}\u0000${type}\u0000${target}`;
}

/** One ref an entity declares: the pair it gives and where it is written. */
interface Declared {
  forward: RelationType;
  reverse: RelationType;
  target: EntityKey;
  name: EntityName;
  origin: Relation['origin'];
  /** Edge ids of the forward and reverse halves, for de-duplication. */
  ids: [string, string];
  /**
   * False when no other declaration can give the same relation: its relation type is declared
   * by one field only (ownedBy, partOf, providesApi, consumesApi) and the entity names the
   * target once in it. Such relations skip the de-duplication set.
   */
  mayRepeat: boolean;
}

/** Pairs whose two halves both have fields declaring them (Group parent/children, members/memberOf, dependsOn/dependencyOf). */
const DECLARED_FROM_BOTH_ENDS: ReadonlySet<RelationType> = new Set<RelationType>([
  'childOf',
  'parentOf',
  'hasMember',
  'memberOf',
  'dependsOn',
  'dependencyOf',
]);

/** What one entity object declares, and the relations last made from it. */
export interface EntityRelations {
  declared: Declared[];
  problems: Problem[];
  /** The far ends' printed refs (undefined: not in the catalog) the relations were made with. */
  made?: { farRefs: (string | undefined)[]; relations: Relation[] };
}

/**
 * Relations kept between derivations, per entity object. An entity object stands for one
 * declaration read from an unchanged file (the catalog parse cache hands back the same object), so
 * its refs are parsed once, and its relations are made again only when a far end appears,
 * disappears or changes the case of its name. That makes a catalog edit cost the edited file's
 * entities plus a lookup per relation, instead of parsing every ref of the catalog again.
 */
export class RelationCache {
  private readonly byEntity = new WeakMap<CatalogEntity, EntityRelations>();

  /** The entity's declarations, parsed once per entity object. */
  declarations(entity: CatalogEntity, lines: Readonly<Record<string, number>>): EntityRelations {
    let known = this.byEntity.get(entity);
    if (!known) {
      known = declare(entity, lines);
      this.byEntity.set(entity, known);
    }
    return known;
  }
}

function declare(entity: CatalogEntity, lines: Readonly<Record<string, number>>): EntityRelations {
  const declared: Declared[] = [];
  const problems: Problem[] = [];
  const spec = (entity.raw.spec ?? {}) as Record<string, unknown>;
  for (const field of relationFieldsOf(entity.kind)) {
    const raw = spec[field.key];
    const values = fieldValues(raw);
    const fieldName = `spec.${field.key}`;
    values.forEach((value, i) => {
      const valuePath = Array.isArray(raw) ? formatFieldPath(['spec', field.key, i]) : fieldName;
      const line = lines[valuePath] ?? lines[fieldName] ?? entity.location.startLine;
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
      const target = entityKey(parsed.value);
      declared.push({
        forward: field.forward,
        reverse: field.reverse,
        target,
        name: parsed.value,
        origin: { path: entity.location.path, line, field: fieldName },
        ids: [edgeId(entity.key, field.forward, target), edgeId(target, field.reverse, entity.key)],
        mayRepeat: DECLARED_FROM_BOTH_ENDS.has(field.forward),
      });
    });
  }
  // The same ref twice in one entity (`providesApis: [a, a]`) repeats a pair of any type.
  const count = new Map<string, number>();
  for (const d of declared) count.set(d.ids[0], (count.get(d.ids[0]) ?? 0) + 1);
  for (const d of declared) if (count.get(d.ids[0])! > 1) d.mayRepeat = true;
  return { declared, problems };
}

/**
 * Derives both directions of every relation the entities declare. Relations come out in entity
 * order, then field order (relationFields.ts), then value order, each forward edge followed by
 * its reverse. With a `cache` kept between calls, unchanged entity objects cost a lookup per
 * relation (see {@link RelationCache}).
 */
export function deriveRelations(
  sources: readonly RelationSource[],
  cache: RelationCache = new RelationCache(),
): DerivedRelations {
  const byKey = new Map<EntityKey, CatalogEntity>();
  for (const { entity } of sources) if (!byKey.has(entity.key)) byKey.set(entity.key, entity);

  const relations: Relation[] = [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const starts: number[] = [];

  for (const { entity, lines = {} } of sources) {
    starts.push(relations.length);
    const known = cache.declarations(entity, lines);
    for (const problem of known.problems) problems.push(problem);
    appendRelations(entity, known, byKey, seen, relations);
  }
  starts.push(relations.length);
  return { relations, problems, starts };
}

/**
 * Appends the halves `entity` declares to `out`, skipping those whose edge id is in `seen` (and
 * adding the rest of the pairs both ends can declare to it). Its relation objects are made again
 * only when a far end appears, disappears or prints differently.
 */
export function appendRelations(
  entity: CatalogEntity,
  known: EntityRelations,
  byKey: ReadonlyMap<EntityKey, CatalogEntity>,
  seen: Set<string>,
  out: Relation[],
): void {
  const { declared } = known;
  if (declared.length === 0) return;
  let made = known.made;
  if (!made || !farRefsAsMade(made.farRefs, declared, byKey)) {
    const farRefs = declared.map((d) => byKey.get(d.target)?.ref);
    const list: Relation[] = [];
    declared.forEach((d, i) => {
      // A resolved end is printed as its entity declares its name, an unresolved one as written.
      const targetRef = farRefs[i] ?? printEntityRef(d.name);
      const resolved = farRefs[i] !== undefined;
      list.push(
        {
          source: entity.key,
          type: d.forward,
          target: d.target,
          sourceRef: entity.ref,
          targetRef,
          resolved,
          origin: d.origin,
        },
        {
          source: d.target,
          type: d.reverse,
          target: entity.key,
          sourceRef: targetRef,
          targetRef: entity.ref,
          resolved,
          origin: d.origin,
        },
      );
    });
    made = { farRefs, relations: list };
    known.made = made;
  }
  const halves = made.relations;
  for (let i = 0; i < declared.length; i++) {
    const d = declared[i];
    for (let half = 0; half < 2; half++) {
      // Only pairs both ends can declare (and repeats within one field) can be declared twice.
      if (d.mayRepeat) {
        const id = d.ids[half];
        if (seen.has(id)) continue;
        seen.add(id);
      }
      out.push(halves[i * 2 + half]);
    }
  }
}

/** Edge ids of the halves the entity declares that another declaration could repeat (see `seen`). */
export function repeatableIds(known: EntityRelations): string[] {
  const ids = new Set<string>();
  for (const d of known.declared) if (d.mayRepeat) for (const id of d.ids) ids.add(id);
  return [...ids];
}

/** Keys of the entities `known` names in its relation fields (resolved or not). */
export function declaredTargets(known: EntityRelations): EntityKey[] {
  return [...new Set(known.declared.map((d) => d.target))];
}

/** True when every far end still prints as it did when the relations were made. */
function farRefsAsMade(
  farRefs: readonly (string | undefined)[],
  declared: readonly Declared[],
  byKey: ReadonlyMap<EntityKey, CatalogEntity>,
): boolean {
  for (let i = 0; i < declared.length; i++) if (byKey.get(declared[i].target)?.ref !== farRefs[i]) return false;
  return true;
}

/** Relations starting at `key`, optionally of some types only, in the order given. */
export function relationsFrom(
  relations: readonly Relation[],
  key: EntityKey,
  types?: readonly RelationType[],
): Relation[] {
  return relations.filter((r) => r.source === key && (!types || types.includes(r.type)));
}
