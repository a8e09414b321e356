import assert from 'node:assert/strict';
import type { Relation } from '../../../../../server/src/engine/model';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CatalogParseCache, loadCatalog } from '../../../../../server/src/engine/sources/catalog/loadCatalog';
import { DirectoryFileSource, removeWorkspace, writeWorkspace } from './diskFileSource';

const component = (name: string, extra = '') => `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ${name}
spec:
  type: service
  lifecycle: production
  owner: team-a
${extra}`;

function edge(r: Relation): string {
  return `${r.sourceRef} ${r.type} ${r.targetRef}${r.resolved ? '' : ' (unresolved)'}`;
}

describe('catalog/loadCatalog', () => {
  describe('following Location entities', () => {
    let root: string;
    before(() => {
      root = writeWorkspace({
        'catalog-info.yaml': `apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: everything
spec:
  targets:
    - ./teams/org.yaml
    - ./services/*/catalog-info.yaml
    - ./missing.yaml
    - https://github.com/acme/infra/blob/main/catalog-info.yaml
    - /etc/catalog.yaml
    - ../outside.yaml
`,
        'teams/org.yaml': `apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: team-a
spec:
  type: team
  children: []
---
apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: back-to-the-top
spec:
  target: ../catalog-info.yaml
---
apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: maybe-later
spec:
  presence: optional
  target: ./later.yaml
`,
        'services/billing/catalog-info.yaml': component('billing-worker', '  dependsOn: [resource:billing-db]\n'),
        'services/ledger/catalog-info.yaml': `${component('ledger')}---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata:
  name: billing-db
spec:
  type: database
  owner: team-a
`,
        'services/ledger/README.md': '# Ledger\n',
      });
    });
    after(() => removeWorkspace(root));

    it('reads each file once, following relative targets and globs, and stops at the loop', async () => {
      const load = await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml']);
      assert.deepEqual(load.files, [
        { path: 'catalog-info.yaml', reachedBy: { kind: 'root' } },
        {
          path: 'teams/org.yaml',
          reachedBy: {
            kind: 'location',
            location: 'location:default/everything',
            path: 'catalog-info.yaml',
            line: 7,
            target: './teams/org.yaml',
          },
        },
        {
          path: 'services/billing/catalog-info.yaml',
          reachedBy: {
            kind: 'location',
            location: 'location:default/everything',
            path: 'catalog-info.yaml',
            line: 8,
            target: './services/*/catalog-info.yaml',
          },
        },
        {
          path: 'services/ledger/catalog-info.yaml',
          reachedBy: {
            kind: 'location',
            location: 'location:default/everything',
            path: 'catalog-info.yaml',
            line: 8,
            target: './services/*/catalog-info.yaml',
          },
        },
      ]);
      assert.deepEqual(
        load.entities.map((e) => `${e.ref} ${e.location.path}:${e.location.startLine}-${e.location.endLine}`),
        [
          'location:default/everything catalog-info.yaml:1-12',
          'component:default/billing-worker services/billing/catalog-info.yaml:1-9',
          'component:default/ledger services/ledger/catalog-info.yaml:1-8',
          'resource:default/billing-db services/ledger/catalog-info.yaml:10-16',
          'group:default/team-a teams/org.yaml:1-7',
          'location:default/back-to-the-top teams/org.yaml:9-14',
          'location:default/maybe-later teams/org.yaml:16-22',
        ],
      );
    });

    it('reports a missing target at its line, and remote, absolute and outside targets as warnings', async () => {
      const load = await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml']);
      assert.deepEqual(load.problems, [
        {
          path: 'catalog-info.yaml',
          line: 9,
          severity: 'error',
          code: 'catalog.location-missing-target',
          message:
            'Location target "./missing.yaml" (missing.yaml) does not exist in the workspace (spec.targets[2] of location:default/everything)',
        },
        {
          path: 'catalog-info.yaml',
          line: 10,
          severity: 'warning',
          code: 'catalog.location-remote-target',
          message:
            'Location target "https://github.com/acme/infra/blob/main/catalog-info.yaml" is remote; it is not fetched, only files in the workspace are read (spec.targets[3] of location:default/everything)',
        },
        {
          path: 'catalog-info.yaml',
          line: 11,
          severity: 'warning',
          code: 'catalog.location-absolute-target',
          message:
            'Location target "/etc/catalog.yaml" is an absolute path; it is not read, write it relative to catalog-info.yaml (spec.targets[4] of location:default/everything)',
        },
        {
          path: 'catalog-info.yaml',
          line: 12,
          severity: 'warning',
          code: 'catalog.location-outside-workspace',
          message:
            'Location target "../outside.yaml" points outside the workspace (../outside.yaml); it is not read (spec.targets[5] of location:default/everything)',
        },
      ]);
    });

    it('derives relations across files and records field lines per entity', async () => {
      const load = await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml']);
      assert.deepEqual(load.relations.map(edge), [
        'component:default/billing-worker ownedBy group:default/team-a',
        'group:default/team-a ownerOf component:default/billing-worker',
        'component:default/billing-worker dependsOn resource:default/billing-db',
        'resource:default/billing-db dependencyOf component:default/billing-worker',
        'component:default/ledger ownedBy group:default/team-a',
        'group:default/team-a ownerOf component:default/ledger',
        'resource:default/billing-db ownedBy group:default/team-a',
        'group:default/team-a ownerOf resource:default/billing-db',
      ]);
      assert.deepEqual(load.relations[2].origin, {
        path: 'services/billing/catalog-info.yaml',
        line: 9,
        field: 'spec.dependsOn',
      });
      assert.equal(load.fieldLines['resource:default/billing-db']['spec.owner'], 16);
    });

    it('starting from the other end of the loop reads the same files in another order', async () => {
      const load = await loadCatalog(new DirectoryFileSource(root), ['teams/org.yaml']);
      assert.deepEqual(
        load.files.map((f) => [f.path, f.reachedBy.kind === 'location' ? f.reachedBy.location : f.reachedBy.kind]),
        [
          ['teams/org.yaml', 'root'],
          ['catalog-info.yaml', 'location:default/back-to-the-top'],
          ['services/billing/catalog-info.yaml', 'location:default/everything'],
          ['services/ledger/catalog-info.yaml', 'location:default/everything'],
        ],
      );
      assert.equal(load.entities.length, 7);
    });
  });

  describe('broken content', () => {
    let root: string;
    before(() => {
      root = writeWorkspace({
        'a/catalog-info.yaml': `${component('shared')}---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: half-written
 description: one space short
spec:
  type: service
---
${component('alpha')}`,
        'b/catalog-info.yaml': `${component('Bad Name')}---
${component('Shared')}---
${component('beta', '  dependsOn: [component:alpha, component:shared]\n')}`,
      });
    });
    after(() => removeWorkspace(root));

    it('skips the malformed document and the invalid entity, keeps everything else, and reports each', async () => {
      const load = await loadCatalog(new DirectoryFileSource(root), [
        'b/catalog-info.yaml',
        'a/catalog-info.yaml',
        'c/catalog-info.yaml',
      ]);
      assert.deepEqual(
        load.entities.map((e) => `${e.ref} ${e.location.path}:${e.location.startLine}`),
        [
          'component:default/shared a/catalog-info.yaml:1',
          'component:default/alpha a/catalog-info.yaml:18',
          'component:default/beta b/catalog-info.yaml:19',
        ],
      );
      assert.deepEqual(load.problems, [
        {
          path: 'a/catalog-info.yaml',
          line: 14,
          column: 1,
          severity: 'error',
          code: 'yaml.syntax',
          message: 'YAML error: All mapping items must start at the same column; this document is skipped',
        },
        {
          path: 'b/catalog-info.yaml',
          line: 4,
          severity: 'error',
          code: 'catalog.invalid-entity',
          message:
            'metadata.name "Bad Name" is not a valid name: expected sequences of [a-zA-Z0-9] separated by any of [-_.], at most 63 characters in total (Component "Bad Name" is not indexed)',
        },
        {
          path: 'b/catalog-info.yaml',
          line: 10,
          severity: 'error',
          code: 'catalog.duplicate-entity',
          message:
            'Entity component:default/Shared is already declared at a/catalog-info.yaml:1; this declaration is ignored',
          related: [
            {
              path: 'a/catalog-info.yaml',
              line: 1,
              message: 'First declaration of component:default/shared, which is kept',
            },
          ],
        },
        {
          path: 'c/catalog-info.yaml',
          line: 1,
          severity: 'error',
          code: 'catalog.missing-file',
          message: 'Catalog file c/catalog-info.yaml does not exist in the workspace',
        },
      ]);
      assert.deepEqual(
        load.files.map((f) => f.path),
        ['b/catalog-info.yaml', 'a/catalog-info.yaml'],
      );
    });

    it('resolves refs to the kept duplicate and keeps refs to the skipped entity unresolved', async () => {
      const load = await loadCatalog(new DirectoryFileSource(root), ['a/catalog-info.yaml', 'b/catalog-info.yaml']);
      assert.deepEqual(load.relations.filter((r) => r.source === 'component:default/beta').map(edge), [
        'component:default/beta ownedBy group:default/team-a (unresolved)',
        'component:default/beta dependsOn component:default/alpha',
        'component:default/beta dependsOn component:default/shared',
      ]);
    });
  });

  describe('with a parse cache kept between loads', () => {
    let root: string;
    before(() => {
      root = writeWorkspace({
        'catalog-info.yaml':
          'apiVersion: backstage.io/v1alpha1\nkind: Location\nmetadata:\n  name: all\nspec:\n  targets: [./services/*.yaml]\n',
        'services/a.yaml': component('alpha', '  dependsOn: [component:beta]'),
        'services/b.yaml': component('beta'),
        'services/c.yaml': component('gamma', '  dependsOn: [component:alpha, component:delta]'),
      });
    });
    after(() => removeWorkspace(root));

    it('parses only the files whose text changed, and loads exactly what a load without cache loads', async () => {
      const cache = new CatalogParseCache();
      const first = await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml'], { parseCache: cache });
      assert.deepEqual([cache.parses, cache.reuses], [4, 0]);
      assert.deepEqual(first, await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml']));

      fs.writeFileSync(
        path.join(root, 'services/b.yaml'),
        component('beta')
          .replace('kind: Component', 'kind: Component\n# renamed below')
          .replace('name: beta', 'name: delta'),
      );
      const second = await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml'], { parseCache: cache });
      assert.deepEqual([cache.parses, cache.reuses], [5, 3], 'one file parsed again, three reused');
      assert.deepEqual(second, await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml']));
      // Relations and resolution still run over everything: alpha's ref to beta is now unresolved,
      // gamma's ref to delta resolved, though neither alpha's nor gamma's file was parsed again.
      assert.deepEqual(second.relations.filter((r) => r.type === 'dependsOn').map(edge), [
        'component:default/alpha dependsOn component:default/beta (unresolved)',
        'component:default/gamma dependsOn component:default/alpha',
        'component:default/gamma dependsOn component:default/delta',
      ]);
      // Unchanged files hand back the very entities parsed the first time.
      assert.equal(
        second.entities.find((e) => e.name === 'alpha'),
        first.entities.find((e) => e.name === 'alpha'),
      );

      // A file no longer read is forgotten: it is parsed again when it comes back.
      await loadCatalog(new DirectoryFileSource(root), ['services/a.yaml'], { parseCache: cache });
      await loadCatalog(new DirectoryFileSource(root), ['catalog-info.yaml'], { parseCache: cache });
      assert.deepEqual([cache.parses, cache.reuses], [8, 5], 'a.yaml reused twice, the three others parsed again');
    });
  });
});
