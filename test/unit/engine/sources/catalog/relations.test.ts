import assert from 'node:assert/strict';
import { compileCatalogModel, defaultCatalogEntityModel } from '@backstage/catalog-model/alpha';
import type { Relation } from '../../../../../server/src/engine/model';
import { parseCatalogFile } from '../../../../../server/src/engine/sources/catalog/parseCatalogFile';
import { RELATION_FIELDS } from '../../../../../server/src/engine/sources/catalog/relationFields';
import {
  deriveRelations,
  RelationCache,
  relationsFrom,
} from '../../../../../server/src/engine/sources/catalog/relations';

// One entity of every kind using every relation field; line numbers below point into this text.
const CATALOG = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: web
spec:
  type: website
  lifecycle: production
  owner: team-a
  subcomponentOf: portal
  providesApis: [web-api]
  consumesApis: [payments-api]
  dependsOn:
    - resource:db
    - component:auth
  dependencyOf: [component:gateway]
  system: shop
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: Portal
spec:
  type: website
  lifecycle: production
  owner: user:jane
  system: shop
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: web-api
spec:
  type: openapi
  lifecycle: production
  owner: team-a
  system: shop
  definition: "openapi: 3.0.0"
---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata:
  name: db
spec:
  type: database
  owner: team-a
  dependsOn: [resource:backup]
  dependencyOf: component:reporting
  system: shop
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata:
  name: shop
spec:
  owner: team-a
  domain: commerce
---
apiVersion: backstage.io/v1alpha1
kind: Domain
metadata:
  name: commerce
spec:
  owner: team-a
  subdomainOf: business
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: team-a
spec:
  type: team
  parent: eng
  children: []
  members: [jane]
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: eng
spec:
  type: department
  children: [team-a]
---
apiVersion: backstage.io/v1alpha1
kind: User
metadata:
  name: jane
spec:
  memberOf: [team-a]
---
apiVersion: scaffolder.backstage.io/v1beta3
kind: Template
metadata:
  name: new-service
spec:
  owner: team-a
  type: service
---
apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: more
spec:
  target: ./more.yaml
---
apiVersion: acme.com/v1
kind: Widget
metadata:
  name: gadget
spec:
  owner: team-a
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ops-job
  namespace: ops
spec:
  type: job
  lifecycle: production
  owner: team-a
  dependsOn: [db, resource:default/DB]
`;

function show(r: Relation): string {
  return `${r.sourceRef} ${r.type} ${r.targetRef}${r.resolved ? '' : ' (unresolved)'} <- ${r.origin.field}:${r.origin.line}`;
}

describe('catalog/relations', () => {
  const parsed = parseCatalogFile('catalog-info.yaml', CATALOG);
  const derived = deriveRelations(parsed.entities);

  it('parses the fixture without problems', () => {
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.entities.length, 13);
  });

  it('derives both directions of every field of every kind, deduplicated, unresolved targets kept', () => {
    assert.deepEqual(derived.relations.map(show), [
      'component:default/web ownedBy group:default/team-a <- spec.owner:8',
      'group:default/team-a ownerOf component:default/web <- spec.owner:8',
      'component:default/web partOf component:default/Portal <- spec.subcomponentOf:9',
      'component:default/Portal hasPart component:default/web <- spec.subcomponentOf:9',
      'component:default/web providesApi api:default/web-api <- spec.providesApis:10',
      'api:default/web-api apiProvidedBy component:default/web <- spec.providesApis:10',
      'component:default/web consumesApi api:default/payments-api (unresolved) <- spec.consumesApis:11',
      'api:default/payments-api apiConsumedBy component:default/web (unresolved) <- spec.consumesApis:11',
      'component:default/web dependsOn resource:default/db <- spec.dependsOn:13',
      'resource:default/db dependencyOf component:default/web <- spec.dependsOn:13',
      'component:default/web dependsOn component:default/auth (unresolved) <- spec.dependsOn:14',
      'component:default/auth dependencyOf component:default/web (unresolved) <- spec.dependsOn:14',
      'component:default/web dependencyOf component:default/gateway (unresolved) <- spec.dependencyOf:15',
      'component:default/gateway dependsOn component:default/web (unresolved) <- spec.dependencyOf:15',
      'component:default/web partOf system:default/shop <- spec.system:16',
      'system:default/shop hasPart component:default/web <- spec.system:16',
      'component:default/Portal ownedBy user:default/jane <- spec.owner:25',
      'user:default/jane ownerOf component:default/Portal <- spec.owner:25',
      'component:default/Portal partOf system:default/shop <- spec.system:26',
      'system:default/shop hasPart component:default/Portal <- spec.system:26',
      'api:default/web-api ownedBy group:default/team-a <- spec.owner:35',
      'group:default/team-a ownerOf api:default/web-api <- spec.owner:35',
      'api:default/web-api partOf system:default/shop <- spec.system:36',
      'system:default/shop hasPart api:default/web-api <- spec.system:36',
      'resource:default/db ownedBy group:default/team-a <- spec.owner:45',
      'group:default/team-a ownerOf resource:default/db <- spec.owner:45',
      'resource:default/db dependsOn resource:default/backup (unresolved) <- spec.dependsOn:46',
      'resource:default/backup dependencyOf resource:default/db (unresolved) <- spec.dependsOn:46',
      'resource:default/db dependencyOf component:default/reporting (unresolved) <- spec.dependencyOf:47',
      'component:default/reporting dependsOn resource:default/db (unresolved) <- spec.dependencyOf:47',
      'resource:default/db partOf system:default/shop <- spec.system:48',
      'system:default/shop hasPart resource:default/db <- spec.system:48',
      'system:default/shop ownedBy group:default/team-a <- spec.owner:55',
      'group:default/team-a ownerOf system:default/shop <- spec.owner:55',
      'system:default/shop partOf domain:default/commerce <- spec.domain:56',
      'domain:default/commerce hasPart system:default/shop <- spec.domain:56',
      'domain:default/commerce ownedBy group:default/team-a <- spec.owner:63',
      'group:default/team-a ownerOf domain:default/commerce <- spec.owner:63',
      'domain:default/commerce partOf domain:default/business (unresolved) <- spec.subdomainOf:64',
      'domain:default/business hasPart domain:default/commerce (unresolved) <- spec.subdomainOf:64',
      'group:default/team-a childOf group:default/eng <- spec.parent:72',
      'group:default/eng parentOf group:default/team-a <- spec.parent:72',
      'group:default/team-a hasMember user:default/jane <- spec.members:74',
      'user:default/jane memberOf group:default/team-a <- spec.members:74',
      // eng's `children: [team-a]` and jane's `memberOf: [team-a]` repeat the four edges above: kept once.
      // The Location and the custom Widget produce nothing.
      'template:default/new-service ownedBy group:default/team-a <- spec.owner:96',
      'group:default/team-a ownerOf template:default/new-service <- spec.owner:96',
      'component:ops/ops-job ownedBy group:ops/team-a (unresolved) <- spec.owner:121',
      'group:ops/team-a ownerOf component:ops/ops-job (unresolved) <- spec.owner:121',
      'component:ops/ops-job dependsOn resource:default/db <- spec.dependsOn:122',
      'resource:default/db dependencyOf component:ops/ops-job <- spec.dependsOn:122',
    ]);
  });

  it('fills keys, display refs and origins; an unresolved edge is unresolved in both directions', () => {
    const forward = derived.relations.find((r) => r.source === 'component:default/web' && r.type === 'consumesApi');
    const reverse = derived.relations.find((r) => r.source === 'api:default/payments-api');
    assert.deepEqual(forward, {
      source: 'component:default/web',
      type: 'consumesApi',
      target: 'api:default/payments-api',
      sourceRef: 'component:default/web',
      targetRef: 'api:default/payments-api',
      resolved: false,
      origin: { path: 'catalog-info.yaml', line: 11, field: 'spec.consumesApis' },
    });
    assert.deepEqual(reverse, {
      source: 'api:default/payments-api',
      type: 'apiConsumedBy',
      target: 'component:default/web',
      sourceRef: 'api:default/payments-api',
      targetRef: 'component:default/web',
      resolved: false,
      origin: { path: 'catalog-info.yaml', line: 11, field: 'spec.consumesApis' },
    });
    // Refs resolve case-insensitively; the key is lower-case and the display keeps the entity's name.
    const toPortal = derived.relations.find(
      (r) => r.type === 'partOf' && r.sourceRef === 'component:default/web' && r.target === 'component:default/portal',
    );
    assert.equal(toPortal?.targetRef, 'component:default/Portal');
    assert.equal(toPortal?.resolved, true);
  });

  it('reports a kindless dependsOn ref at its line and drops only that edge', () => {
    assert.deepEqual(derived.problems, [
      {
        path: 'catalog-info.yaml',
        line: 122,
        severity: 'error',
        code: 'catalog.invalid-ref',
        message:
          'spec.dependsOn[0] of component:ops/ops-job: Entity reference "db" had missing or empty kind (e.g. did not start with "component:" or similar); spec.dependsOn has no default kind, write e.g. "component:db" or "resource:db"',
      },
    ]);
  });

  it('lists the relations that start at an entity', () => {
    assert.deepEqual(relationsFrom(derived.relations, 'user:default/jane').map(show), [
      'user:default/jane ownerOf component:default/Portal <- spec.owner:25',
      'user:default/jane memberOf group:default/team-a <- spec.members:74',
    ]);
    assert.deepEqual(relationsFrom(derived.relations, 'group:default/team-a', ['childOf', 'hasMember']).map(show), [
      'group:default/team-a childOf group:default/eng <- spec.parent:72',
      'group:default/team-a hasMember user:default/jane <- spec.members:74',
    ]);
  });

  it("uses the relation fields, default kinds and relation pairs of @backstage/catalog-model's kind model", () => {
    const model = compileCatalogModel([defaultCatalogEntityModel]);
    const reverseOf = new Map<string, string>();
    for (const kind of model.listKinds()) {
      for (const pair of model.getRelations({ kind: kind.names.kind }) ?? []) {
        reverseOf.set(pair.forward.type, pair.reverse.type);
        reverseOf.set(pair.reverse.type, pair.forward.type);
      }
    }
    const kinds = model
      .listKinds()
      .map((k) => k.names.kind)
      .sort();
    assert.deepEqual(kinds, ['API', 'Component', 'Domain', 'Group', 'Location', 'Resource', 'System', 'User']);
    for (const kind of kinds) {
      const theirs = model.getKind({ kind, apiVersion: 'backstage.io/v1alpha1' })!.relationFields.map((f) => ({
        key: f.path.replace(/^spec\./, ''),
        ...(f.defaultKind ? { defaultKind: f.defaultKind } : {}),
        forward: f.relation,
        reverse: reverseOf.get(f.relation),
      }));
      const ours = (RELATION_FIELDS[kind] ?? []).map((f) => ({ ...f }));
      assert.deepEqual(ours, theirs, kind);
    }
    assert.deepEqual(
      Object.keys(RELATION_FIELDS).sort(),
      [...kinds.filter((k) => k !== 'Location'), 'Template'].sort(),
    );
  });

  describe('with a RelationCache kept between derivations', () => {
    const file = (extra: string) =>
      parseCatalogFile(
        'c.yaml',
        `apiVersion: backstage.io/v1alpha1
kind: Component
metadata: { name: web }
spec: { type: website, lifecycle: production, owner: team-a, providesApis: [web-api, web-api], dependsOn: ['component:api'] }
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata: { name: api }
spec: { type: service, lifecycle: production, owner: team-a, dependencyOf: ['component:web'] }
${extra}`,
      );

    it('gives what an uncached derivation gives, each pair once, and the same objects while nothing changed', () => {
      const cache = new RelationCache();
      const parsed = file('');
      const first = deriveRelations(parsed.entities, cache);
      assert.deepEqual(first.relations, deriveRelations(parsed.entities).relations);
      assert.deepEqual(
        first.relations.map((r) => `${r.source} ${r.type} ${r.target}`),
        [
          'component:default/web ownedBy group:default/team-a',
          'group:default/team-a ownerOf component:default/web',
          'component:default/web providesApi api:default/web-api',
          'api:default/web-api apiProvidedBy component:default/web',
          'component:default/web dependsOn component:default/api',
          'component:default/api dependencyOf component:default/web',
          'component:default/api ownedBy group:default/team-a',
          'group:default/team-a ownerOf component:default/api',
        ],
      );
      const again = deriveRelations(parsed.entities, cache);
      assert.ok(again.relations.every((r, i) => r === first.relations[i]));
    });

    it("makes an entity's relations again when a far end appears", () => {
      const cache = new RelationCache();
      const before = file('');
      const owned = deriveRelations(before.entities, cache).relations.find((r) => r.type === 'ownedBy')!;
      assert.equal(owned.resolved, false);
      const team = parseCatalogFile(
        't.yaml',
        'apiVersion: backstage.io/v1alpha1\nkind: Group\nmetadata: { name: Team-A }\nspec: { type: team, children: [] }\n',
      );
      // The same entity objects as before, plus the group they are owned by.
      const after = deriveRelations([...before.entities, ...team.entities], cache).relations.find(
        (r) => r.type === 'ownedBy',
      )!;
      assert.deepEqual([after.resolved, after.targetRef], [true, 'group:default/Team-A']);
    });
  });
});
