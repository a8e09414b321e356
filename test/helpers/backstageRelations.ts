/**
 * The relations Backstage's catalog backend would store for a directory of catalog files, worked
 * out with Backstage's own `@backstage/catalog-model` (parsing refs, printing refs, validating
 * entities) and the emission rules of its processors, for differential tests of the engine.
 *
 * `@backstage/plugin-catalog-backend` itself is not a dependency (it pulls in knex, express and
 * the backend system); its processors' rules are restated here from the published packages:
 * - `BuiltinKindsEntityProcessor.postProcessEntity`, @backstage/plugin-catalog-backend 4.0.5,
 *   dist/processors/BuiltinKindsEntityProcessor.cjs.js (source: backstage/backstage
 *   plugins/catalog-backend/src/processors/BuiltinKindsEntityProcessor.ts);
 * - `ScaffolderEntitiesProcessor.postProcessEntity` (backstage/backstage
 *   plugins/scaffolder-backend/src/processing/ScaffolderEntitiesProcessor.ts): a
 *   `scaffolder.backstage.io/v1beta3` Template's `spec.owner`.
 * Each rule is (kind, spec field, default kind, relation, reverse relation); every target is
 * parsed with the entity's namespace as default, and each target gives the relation from the
 * entity and the reverse relation back, as `doEmit` does.
 *
 * Which entities: every YAML document of every `.yaml`/`.yml` file under the directory that
 * passes Backstage's validation (envelope policies and the kind validators), as if each file
 * were registered as a location. Placeholders are taken as resolved (a relation never depends
 * on their content).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as backstage from '@backstage/catalog-model';
import { mcpServerApiEntityValidator } from '@backstage/catalog-model/alpha';
import { parseAllDocuments } from 'yaml';

type Rule = [kind: string, field: string, defaultKind: string | undefined, relation: string, reverse: string];

const R = backstage;
const RULES: readonly Rule[] = [
  ['Component', 'owner', 'Group', R.RELATION_OWNED_BY, R.RELATION_OWNER_OF],
  ['Component', 'subcomponentOf', 'Component', R.RELATION_PART_OF, R.RELATION_HAS_PART],
  ['Component', 'providesApis', 'API', R.RELATION_PROVIDES_API, R.RELATION_API_PROVIDED_BY],
  ['Component', 'consumesApis', 'API', R.RELATION_CONSUMES_API, R.RELATION_API_CONSUMED_BY],
  ['Component', 'dependsOn', undefined, R.RELATION_DEPENDS_ON, R.RELATION_DEPENDENCY_OF],
  ['Component', 'dependencyOf', undefined, R.RELATION_DEPENDENCY_OF, R.RELATION_DEPENDS_ON],
  ['Component', 'system', 'System', R.RELATION_PART_OF, R.RELATION_HAS_PART],
  ['API', 'owner', 'Group', R.RELATION_OWNED_BY, R.RELATION_OWNER_OF],
  ['API', 'system', 'System', R.RELATION_PART_OF, R.RELATION_HAS_PART],
  ['Resource', 'owner', 'Group', R.RELATION_OWNED_BY, R.RELATION_OWNER_OF],
  ['Resource', 'dependsOn', undefined, R.RELATION_DEPENDS_ON, R.RELATION_DEPENDENCY_OF],
  ['Resource', 'dependencyOf', undefined, R.RELATION_DEPENDENCY_OF, R.RELATION_DEPENDS_ON],
  ['Resource', 'system', 'System', R.RELATION_PART_OF, R.RELATION_HAS_PART],
  ['User', 'memberOf', 'Group', R.RELATION_MEMBER_OF, R.RELATION_HAS_MEMBER],
  ['Group', 'parent', 'Group', R.RELATION_CHILD_OF, R.RELATION_PARENT_OF],
  ['Group', 'children', 'Group', R.RELATION_PARENT_OF, R.RELATION_CHILD_OF],
  ['Group', 'members', 'User', R.RELATION_HAS_MEMBER, R.RELATION_MEMBER_OF],
  ['System', 'owner', 'Group', R.RELATION_OWNED_BY, R.RELATION_OWNER_OF],
  ['System', 'domain', 'Domain', R.RELATION_PART_OF, R.RELATION_HAS_PART],
  ['Domain', 'owner', 'Group', R.RELATION_OWNED_BY, R.RELATION_OWNER_OF],
  ['Domain', 'subdomainOf', 'Domain', R.RELATION_PART_OF, R.RELATION_HAS_PART],
  ['Template', 'owner', 'Group', R.RELATION_OWNED_BY, R.RELATION_OWNER_OF],
];

const POLICIES = backstage.EntityPolicies.allOf([
  new backstage.SchemaValidEntityPolicy(),
  new backstage.DefaultNamespaceEntityPolicy(),
  new backstage.NoForeignRootFieldsEntityPolicy(),
  new backstage.FieldFormatEntityPolicy(),
]);

const KIND_VALIDATORS = [
  backstage.apiEntityV1alpha1Validator,
  mcpServerApiEntityValidator,
  backstage.componentEntityV1alpha1Validator,
  backstage.resourceEntityV1alpha1Validator,
  backstage.groupEntityV1alpha1Validator,
  backstage.locationEntityV1alpha1Validator,
  backstage.userEntityV1alpha1Validator,
  backstage.systemEntityV1alpha1Validator,
  backstage.domainEntityV1alpha1Validator,
];

/** What a resolved placeholder leaves for validation: any string (its content is irrelevant here). */
function resolvedPlaceholders(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(resolvedPlaceholders);
  if (typeof data !== 'object' || data === null) return data;
  const keys = Object.keys(data);
  if (keys.length === 1 && ['$text', '$openapi', '$asyncapi'].includes(keys[0])) return 'resolved placeholder';
  return Object.fromEntries(keys.map((k) => [k, resolvedPlaceholders((data as Record<string, unknown>)[k])]));
}

function yamlFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...yamlFiles(dir, child));
    else if (/\.ya?ml$/.test(entry.name)) out.push(child);
  }
  return out.sort();
}

/** Backstage accepts the entity: envelope policies, then a kind processor's validator. */
async function accepted(data: unknown): Promise<backstage.Entity | null> {
  let entity: backstage.Entity;
  try {
    entity = (await POLICIES.enforce(resolvedPlaceholders(data) as backstage.Entity)) as backstage.Entity;
  } catch {
    return null;
  }
  if (entity.kind === 'Template') return entity.apiVersion === 'scaffolder.backstage.io/v1beta3' ? entity : null;
  const results = await Promise.all(KIND_VALIDATORS.map((v) => v.check(entity).catch(() => false)));
  return results.includes(true) ? entity : null;
}

export interface BackstageCatalog {
  /** `stringifyEntityRef` of every accepted entity. */
  entities: Set<string>;
  /** `source type target`, refs printed by `stringifyEntityRef`. */
  relations: Set<string>;
}

/** Every entity Backstage accepts from the YAML under `dir`, and the relations it stores. */
export async function backstageCatalog(dir: string): Promise<BackstageCatalog> {
  const entities = new Set<string>();
  const relations = new Set<string>();
  for (const file of yamlFiles(dir)) {
    const docs = parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'), { merge: false });
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc.errors.length > 0) continue;
      const data = doc.toJS();
      if (!data || typeof data !== 'object') continue;
      const entity = await accepted(data);
      if (!entity) continue;
      const self = backstage.getCompoundEntityRef(entity);
      const selfRef = backstage.stringifyEntityRef(self);
      if (entities.has(selfRef)) continue; // a later duplicate is rejected as a conflict
      entities.add(selfRef);
      for (const [kind, field, defaultKind, relation, reverse] of RULES) {
        if (entity.kind !== kind) continue;
        const targets = entity.spec?.[field] as string | string[] | undefined;
        if (!targets) continue;
        for (const target of [targets].flat()) {
          const ref = backstage.stringifyEntityRef(
            backstage.parseEntityRef(target, { defaultKind, defaultNamespace: self.namespace }),
          );
          relations.add(`${selfRef} ${relation} ${ref}`);
          relations.add(`${ref} ${reverse} ${selfRef}`);
        }
      }
    }
  }
  return { entities, relations };
}

/** Recall and precision of `actual` against `expected` (1 and 1 when both are empty). */
export function recallPrecision(
  expected: ReadonlySet<string>,
  actual: ReadonlySet<string>,
): { recall: number; precision: number; missing: string[]; extra: string[] } {
  const missing = [...expected].filter((r) => !actual.has(r)).sort();
  const extra = [...actual].filter((r) => !expected.has(r)).sort();
  const hit = expected.size - missing.length;
  return {
    recall: expected.size === 0 ? 1 : hit / expected.size,
    precision: actual.size === 0 ? 1 : hit / actual.size,
    missing,
    extra,
  };
}
