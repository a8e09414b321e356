import assert from 'node:assert/strict';
import { parseCatalogFile } from '../../../../../server/src/engine/sources/catalog/parseCatalogFile';
import { deriveRelations } from '../../../../../server/src/engine/sources/catalog/relations';
import { renderEntityText } from '../../../../../server/src/engine/sources/catalog/loadCatalog';

const CATALOG = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: billing-worker
  title: Billing Worker
  description: |
    Turns usage records into invoices.
  tags: [java, billing]
spec:
  type: service
  lifecycle: production
  owner: team-billing
  system: payments
  providesApis: [invoices-api]
  consumesApis: [usage-api]
  dependsOn: [resource:billing-db, component:ledger]
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: team-billing
spec:
  type: team
  profile: {displayName: Billing Team, email: billing@example.com}
  children: []
  members: [jane, al]
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata: {name: payments}
spec: {owner: team-billing}
---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata: {name: billing-db}
spec: {type: database, owner: team-billing, system: payments}
---
apiVersion: backstage.io/v1alpha1
kind: Location
metadata: {name: more}
spec: {targets: [./a.yaml, ./b/*.yaml]}
`;

describe('catalog/renderEntityText', () => {
  const parsed = parseCatalogFile('catalog-info.yaml', CATALOG);
  const { relations } = deriveRelations(parsed.entities);
  const entity = (key: string) => parsed.entities.find((p) => p.entity.key === key)!.entity;

  it('describes a component with its facts and outgoing relations, unresolved ones marked', () => {
    assert.equal(
      renderEntityText(entity('component:default/billing-worker'), relations),
      [
        '# Component: Billing Worker (billing-worker)',
        '',
        'Turns usage records into invoices.',
        '',
        '- Ref: component:default/billing-worker',
        '- Type: service',
        '- Lifecycle: production',
        '- Tags: java, billing',
        '- Owned by: group:default/team-billing',
        '- System: system:default/payments',
        '- Provides APIs: api:default/invoices-api (not in catalog)',
        '- Consumes APIs: api:default/usage-api (not in catalog)',
        '- Depends on: component:default/ledger (not in catalog), resource:default/billing-db',
        '',
      ].join('\n'),
    );
  });

  it('describes a group with its profile, members and what it owns', () => {
    assert.equal(
      renderEntityText(entity('group:default/team-billing'), relations),
      [
        '# Group: Billing Team (team-billing)',
        '',
        '- Ref: group:default/team-billing',
        '- Type: team',
        '- Email: billing@example.com',
        '- Members: user:default/al (not in catalog), user:default/jane (not in catalog)',
        '- Owns: component:default/billing-worker, resource:default/billing-db, system:default/payments',
        '',
      ].join('\n'),
    );
  });

  it("describes a system's parts and a location's targets", () => {
    assert.equal(
      renderEntityText(entity('system:default/payments'), relations),
      [
        '# System: payments',
        '',
        '- Ref: system:default/payments',
        '- Owned by: group:default/team-billing',
        '- Has parts: component:default/billing-worker, resource:default/billing-db',
        '',
      ].join('\n'),
    );
    assert.equal(
      renderEntityText(entity('location:default/more'), relations),
      '# Location: more\n\n- Ref: location:default/more\n- Targets: ./a.yaml, ./b/*.yaml\n',
    );
  });

  it('is deterministic whatever order the relations come in', () => {
    const worker = entity('component:default/billing-worker');
    assert.equal(renderEntityText(worker, [...relations].reverse()), renderEntityText(worker, relations));
  });
});
