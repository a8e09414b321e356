/**
 * Indexes Backstage's own example catalog (packages/catalog-model/examples, as served by
 * demo.backstage.io) and checks the result against @backstage/catalog-model.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as backstage from '@backstage/catalog-model';
import {
  compileCatalogModel,
  defaultCatalogEntityModel,
  mcpServerApiEntityValidator,
} from '@backstage/catalog-model/alpha';
import type { Relation } from '../../../../../server/src/engine/model';
import { loadCatalog, type CatalogLoad } from '../../../../../server/src/engine/sources/catalog/loadCatalog';
import { standInForPlaceholders } from '../../../../../server/src/engine/sources/catalog/placeholders';
import { DirectoryFileSource } from './diskFileSource';

const EXAMPLES = path.resolve(
  __dirname,
  '../../../../fixtures/backstage-catalog-examples/packages/catalog-model/examples',
);

function countKinds(load: CatalogLoad): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of load.entities) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return counts;
}

const has = (load: CatalogLoad, source: string, type: Relation['type'], target: string) =>
  load.relations.some((r) => r.source === source && r.type === type && r.target === target && r.resolved);

/** BuiltinKindsEntityProcessor re-enacted with Backstage's own parser and kind model. */
function backstageRelations(load: CatalogLoad): Set<string> {
  const model = compileCatalogModel([defaultCatalogEntityModel]);
  const reverseOf = new Map<string, string>();
  for (const kind of model.listKinds()) {
    for (const pair of model.getRelations({ kind: kind.names.kind }) ?? []) {
      reverseOf.set(pair.forward.type, pair.reverse.type);
      reverseOf.set(pair.reverse.type, pair.forward.type);
    }
  }
  const out = new Set<string>();
  for (const entity of load.entities) {
    const raw = entity.raw as unknown as backstage.Entity;
    const self = backstage.getCompoundEntityRef(raw);
    const kind = model.getKind({ kind: raw.kind, apiVersion: raw.apiVersion });
    for (const field of kind?.relationFields ?? []) {
      const value = raw.spec?.[field.path.replace(/^spec\./, '')] as string | string[] | undefined;
      if (!value) continue;
      for (const target of [value].flat()) {
        const ref = backstage.parseEntityRef(target, {
          defaultKind: field.defaultKind,
          defaultNamespace: self.namespace,
        });
        out.add(`${backstage.stringifyEntityRef(self)} ${field.relation} ${backstage.stringifyEntityRef(ref)}`);
        out.add(
          `${backstage.stringifyEntityRef(ref)} ${reverseOf.get(field.relation)} ${backstage.stringifyEntityRef(self)}`,
        );
      }
    }
  }
  return out;
}

describe("catalog/loadCatalog on Backstage's example catalog", function () {
  before(function () {
    if (!fs.existsSync(EXAMPLES)) throw new Error(`Backstage example catalog missing at ${EXAMPLES}`);
  });

  it('indexes all.yaml and acme/org.yaml: 62 entities, the missing AI resources file reported', async () => {
    const load = await loadCatalog(new DirectoryFileSource(EXAMPLES), ['all.yaml', 'acme/org.yaml']);
    // all-apis.yaml names 9 of the 10 API files: apis/petstore-webhook-api.yaml is not a target of
    // any Location, so Backstage does not load it from these roots either (see the next test).
    assert.deepEqual(countKinds(load), {
      Component: 13,
      API: 9,
      System: 3,
      Domain: 3,
      Resource: 1,
      Group: 9,
      User: 17,
      Location: 7,
    });
    assert.equal(load.entities.length, 62);
    // Three APIs name their definition by URL: never fetched, the entities stay.
    assert.deepEqual(
      load.problems.filter((p) => p.severity === 'warning').map((p) => `${p.path}:${p.line} ${p.code}`),
      [
        'apis/spotify-api.yaml:16 catalog.placeholder-unresolved',
        'apis/wayback-archive-api.yaml:10 catalog.placeholder-unresolved',
        'apis/wayback-search-api.yaml:10 catalog.placeholder-unresolved',
      ],
    );
    assert.deepEqual(
      load.problems.filter((p) => p.severity === 'error'),
      [
        {
          path: 'all.yaml',
          line: 8,
          severity: 'error',
          code: 'catalog.location-missing-target',
          message:
            'Location target "./all-ai-resources.yaml" (all-ai-resources.yaml) does not exist in the workspace (spec.targets[0] of location:default/example-all)',
        },
      ],
    );
    assert.equal(load.files.length, 44);
    assert.deepEqual(load.files.slice(0, 3), [
      { path: 'all.yaml', reachedBy: { kind: 'root' } },
      { path: 'acme/org.yaml', reachedBy: { kind: 'root' } },
      {
        path: 'all-apis.yaml',
        reachedBy: {
          kind: 'location',
          location: 'location:default/example-all',
          path: 'all.yaml',
          line: 9,
          target: './all-apis.yaml',
        },
      },
    ]);
  });

  it('with apis/petstore-webhook-api.yaml as a third root: 63 entities, 10 APIs', async () => {
    const load = await loadCatalog(new DirectoryFileSource(EXAMPLES), [
      'all.yaml',
      'acme/org.yaml',
      'apis/petstore-webhook-api.yaml',
    ]);
    assert.deepEqual(countKinds(load), {
      Component: 13,
      API: 10,
      System: 3,
      Domain: 3,
      Resource: 1,
      Group: 9,
      User: 17,
      Location: 7,
    });
    assert.equal(load.entities.length, 63);
    assert.equal(load.problems.filter((p) => p.severity === 'error').length, 1);
    // Its definition is `$text: ./petstore-webhook.oas.yaml`, read from beside it.
    const webhook = load.entities.find((e) => e.key === 'api:default/petstore-webhook')!;
    const definition = (webhook.raw.spec as Record<string, unknown>).definition as string;
    assert.equal(typeof definition, 'string');
    assert.match(definition, /^openapi: /);
  });

  it('with no roots at all, finds every catalog file by its content: 63 entities, and says which no Location names', async () => {
    const source = new DirectoryFileSource(EXAMPLES);
    const yaml = source.list().filter((p) => /\.ya?ml$/.test(p));
    const load = await loadCatalog(source, [], { candidates: yaml });
    assert.equal(load.entities.length, 63);
    assert.equal(load.files.length, 45);
    // petstore-webhook.oas.yaml is an OpenAPI document, not a catalog file.
    assert.ok(!load.files.some((f) => f.path === 'apis/petstore-webhook.oas.yaml'));
    // A file found by content that a Location names later counts as reached by that Location.
    assert.deepEqual(
      load.files.filter((f) => f.reachedBy.kind === 'discovered').map((f) => f.path),
      ['acme/org.yaml', 'all.yaml', 'apis/petstore-webhook-api.yaml'],
    );
    assert.deepEqual(load.files.find((f) => f.path === 'acme/backstage-group.yaml')?.reachedBy, {
      kind: 'location',
      location: 'location:default/example-groups',
      path: 'acme/org.yaml',
      line: 28,
      target: './backstage-group.yaml',
    });
    const unregistered = load.problems.filter((p) => p.code === 'catalog.unregistered-file');
    assert.deepEqual(
      unregistered.map((p) => [p.path, p.line, p.severity]),
      [
        ['acme/org.yaml', 1, 'info'],
        ['all.yaml', 1, 'info'],
        ['apis/petstore-webhook-api.yaml', 1, 'info'],
      ],
    );
    assert.match(
      unregistered[1].message,
      /^all\.yaml holds Backstage entities but is not named catalog-info\.yaml and no Location names it; it is indexed anyway\. .*add it to a Location's spec\.targets/,
    );
  });

  describe('entities and relations', () => {
    let load: CatalogLoad;
    before(async () => {
      load = await loadCatalog(new DirectoryFileSource(EXAMPLES), ['all.yaml', 'acme/org.yaml']);
    });

    it('keeps both guests apart by namespace and places entities at their lines', () => {
      const guests = load.entities.filter((e) => e.name === 'guest').map((e) => [e.ref, e.location]);
      assert.deepEqual(guests, [
        ['user:default/guest', { path: 'acme/team-a-group.yaml', startLine: 48, endLine: 59 }],
        ['user:development/guest', { path: 'acme/team-a-group.yaml', startLine: 61, endLine: 73 }],
      ]);
      const artist = load.entities.find((e) => e.key === 'component:default/artist-lookup')!;
      assert.deepEqual(
        [artist.location, artist.type, artist.lifecycle, artist.tags, artist.description],
        [
          { path: 'components/artist-lookup-component.yaml', startLine: 1, endLine: 35 },
          'service',
          'experimental',
          ['java', 'data'],
          'Artist Lookup',
        ],
      );
    });

    it('has the expected relations in both directions', () => {
      const expected: [string, Relation['type'], string][] = [
        ['component:default/artist-lookup', 'ownedBy', 'group:default/team-a'],
        ['group:default/team-a', 'ownerOf', 'component:default/artist-lookup'],
        ['component:default/artist-lookup', 'partOf', 'system:default/artist-engagement-portal'],
        ['system:default/artist-engagement-portal', 'hasPart', 'component:default/artist-lookup'],
        ['system:default/artist-engagement-portal', 'partOf', 'domain:default/artists'],
        ['domain:default/artists', 'partOf', 'domain:default/audio'],
        ['domain:default/audio', 'hasPart', 'domain:default/artists'],
        ['domain:default/playback', 'ownedBy', 'user:default/frank.tiernan'],
        ['component:default/wayback-search', 'consumesApi', 'api:default/wayback-archive'],
        ['api:default/wayback-archive', 'apiConsumedBy', 'component:default/wayback-search'],
        ['user:development/guest', 'memberOf', 'group:default/team-a'],
        ['group:default/team-a', 'hasMember', 'user:development/guest'],
        ['group:default/team-a', 'childOf', 'group:default/backstage'],
        ['group:default/acme-corp', 'parentOf', 'group:default/infrastructure'],
      ];
      for (const [source, type, target] of expected)
        assert.ok(has(load, source, type, target), `${source} ${type} ${target}`);
      const origin = load.relations.find(
        (r) => r.source === 'component:default/artist-lookup' && r.type === 'ownedBy',
      )!.origin;
      assert.deepEqual(origin, { path: 'components/artist-lookup-component.yaml', line: 34, field: 'spec.owner' });
    });

    it('keeps an owner that is not in the catalog as an unresolved edge', () => {
      const unresolved = load.relations
        .filter((r) => !r.resolved)
        .map((r) => `${r.sourceRef} ${r.type} ${r.targetRef}`);
      assert.deepEqual(unresolved, [
        'component:default/playback-order ownedBy group:default/guest',
        'group:default/guest ownerOf component:default/playback-order',
      ]);
    });

    it("derives exactly the relations Backstage's processor would, and every kept entity passes Backstage's validation", async () => {
      const ours = new Set(load.relations.map((r) => `${r.source} ${r.type} ${r.target}`));
      assert.deepEqual([...ours].sort(), [...backstageRelations(load)].sort());

      const policies = backstage.EntityPolicies.allOf([
        new backstage.SchemaValidEntityPolicy(),
        new backstage.DefaultNamespaceEntityPolicy(),
        new backstage.NoForeignRootFieldsEntityPolicy(),
        new backstage.FieldFormatEntityPolicy(),
      ]);
      const validators = [
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
      for (const entity of load.entities) {
        const resolved = (await policies.enforce(
          standInForPlaceholders(entity.raw) as backstage.Entity,
        )) as backstage.Entity;
        const results = await Promise.all(validators.map((v) => v.check(resolved).catch(() => false)));
        assert.ok(results.includes(true), entity.ref);
      }
    });
  });
});
