import assert from 'node:assert/strict';
import { Engine } from '../../../server/src/engine/engine';
import { callTool } from '../../../server/src/tools/callTool';
import { createServices } from '../../../server/src/services/services';
import { findTool } from '../../../server/src/tools/registry';
import { ToolInputError } from '../../../server/src/tools/toolError';
import type { ExpandOutput } from '../../../server/src/tools/workspaceExpand';
import { EXPAND_BYTE_BUDGET } from '../../../server/src/tools/workspaceExpand';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

/**
 * A small catalog with every direction of interest:
 *   checkout-web --dependsOn--> orders-api(component) --dependsOn--> orders-db(resource)
 *   orders-api --providesApi--> orders-http ; billing-worker --consumesApi--> orders-http
 *   everything ownedBy team-a ; team-a childOf engineering ; orders-api partOf system:shop
 */
const CATALOG = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata: { name: checkout-web }
spec: { type: website, lifecycle: production, owner: team-a, dependsOn: ['component:orders-api'] }
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata: { name: orders-api, title: Orders API service, description: Takes orders. }
spec:
  type: service
  lifecycle: production
  owner: team-a
  system: shop
  providesApis: [orders-http]
  dependsOn: ['resource:orders-db', 'resource:ghost-db']
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata: { name: billing-worker }
spec: { type: service, lifecycle: production, owner: team-a, consumesApis: [orders-http] }
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata: { name: orders-http }
spec: { type: openapi, lifecycle: production, owner: team-a, definition: 'openapi: 3.0.0' }
---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata: { name: orders-db }
spec: { type: database, owner: team-a }
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata: { name: shop }
spec: { owner: team-a }
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata: { name: team-a }
spec: { type: team, parent: engineering, children: [] }
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata: { name: engineering }
spec: { type: department, children: [team-a] }
`;

describe('workspace_expand', () => {
  let engine: Engine;
  const tool = findTool('workspace_expand')!;
  const expand = async (args: Record<string, unknown>) =>
    (await callTool(
      createServices({ engine }),
      tool,
      { workspace: 'shop', ...args },
      { sessionId: 'test' },
    )) as ExpandOutput;
  const edgeList = (out: ExpandOutput) => out.edges.map((e) => `${e.depth} ${e.source} ${e.type} ${e.target}`);

  before(async () => {
    const dir = tempDir('expand');
    write(dir, 'catalog-info.yaml', CATALOG);
    engine = new Engine({ folders: [{ name: 'shop', absPath: dir }] });
    await engine.waitForIndex();
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('walks out to what the entity depends on or points to, each relation once, with declaration places', async () => {
    const out = await expand({ entityRef: 'component:default/orders-api', direction: 'out' });
    assert.deepEqual(edgeList(out), [
      '1 component:default/orders-api dependsOn resource:default/ghost-db',
      '1 component:default/orders-api dependsOn resource:default/orders-db',
      '1 component:default/orders-api ownedBy group:default/team-a',
      '1 component:default/orders-api partOf system:default/shop',
      '1 component:default/orders-api providesApi api:default/orders-http',
    ]);
    assert.equal(out.depth, 1);
    assert.equal(out.entity?.title, 'Orders API service');
    assert.equal(out.entity?.owner, 'group:default/team-a');
    const ghost = out.edges.find((e) => e.target === 'resource:default/ghost-db')!;
    assert.equal(ghost.resolved, false);
    assert.equal(ghost.field, 'spec.dependsOn');
    assert.match(ghost.declaredAt, /^catalog-info\.yaml:15$/);
    assert.equal(out.nodes.find((n) => n.ref === 'resource:default/ghost-db')?.resolved, false);
    assert.deepEqual(out.degraded, []);
  });

  it('walks in to what depends on the entity or points to it, read from the entity, whatever half declared it', async () => {
    const incoming = await expand({ entityRef: 'orders-api', direction: 'in' });
    assert.deepEqual(edgeList(incoming), [
      '1 component:default/orders-api dependencyOf component:default/checkout-web',
    ]);
    // The reverse half keeps the place its pair was declared: checkout-web's spec.dependsOn.
    assert.deepEqual(
      [incoming.edges[0].declaredAt, incoming.edges[0].field],
      ['catalog-info.yaml:4', 'spec.dependsOn'],
    );
    // A resource: nothing it depends on; what depends on it comes in, never out.
    assert.deepEqual(edgeList(await expand({ entityRef: 'resource:orders-db', direction: 'out' })), [
      '1 resource:default/orders-db ownedBy group:default/team-a',
    ]);
    assert.deepEqual(edgeList(await expand({ entityRef: 'resource:orders-db', direction: 'in' })), [
      '1 resource:default/orders-db dependencyOf component:default/orders-api',
    ]);
    // An API: its consumers and providers point at it.
    assert.deepEqual(edgeList(await expand({ entityRef: 'api:orders-http', direction: 'in' })), [
      '1 api:default/orders-http apiConsumedBy component:default/billing-worker',
      '1 api:default/orders-http apiProvidedBy component:default/orders-api',
    ]);
    // A group: what it owns is in; its parent out.
    assert.deepEqual(edgeList(await expand({ entityRef: 'group:team-a', direction: 'out' })), [
      '1 group:default/team-a childOf group:default/engineering',
    ]);
    // Both ways, each relation once (both of its halves are stored).
    const both = await expand({ entityRef: 'api:orders-http', direction: 'both' });
    assert.deepEqual(edgeList(both), [
      '1 api:default/orders-http apiConsumedBy component:default/billing-worker',
      '1 api:default/orders-http apiProvidedBy component:default/orders-api',
      '1 api:default/orders-http ownedBy group:default/team-a',
    ]);
    const twoHops = await expand({ entityRef: 'resource:orders-db', depth: 2 });
    assert.equal(
      new Set(twoHops.edges.map((e) => [e.source, e.target].sort().join(' '))).size,
      twoHops.edges.length,
      'no relation twice',
    );
  });

  it('walks deeper hop by hop and follows exactly the edge types asked for', async () => {
    const out = await expand({ entityRef: 'checkout-web', direction: 'out', depth: 2, edgeTypes: ['dependsOn'] });
    assert.deepEqual(edgeList(out), [
      '1 component:default/checkout-web dependsOn component:default/orders-api',
      '2 component:default/orders-api dependsOn resource:default/ghost-db',
      '2 component:default/orders-api dependsOn resource:default/orders-db',
    ]);
    assert.deepEqual(out.edgeTypes, ['dependsOn']);
    // What depends on orders-db, two hops up.
    const expected = [
      '1 resource:default/orders-db dependencyOf component:default/orders-api',
      '2 component:default/orders-api dependencyOf component:default/checkout-web',
    ];
    assert.deepEqual(
      edgeList(
        await expand({ entityRef: 'resource:orders-db', direction: 'in', depth: 2, edgeTypes: ['dependencyOf'] }),
      ),
      expected,
    );
    assert.deepEqual(
      edgeList(await expand({ entityRef: 'resource:orders-db', depth: 2, edgeTypes: ['dependencyOf'] })),
      expected,
    );
    assert.deepEqual(edgeList(await expand({ entityRef: 'resource:orders-db', direction: 'in', depth: 2 })), expected);
    const org = await expand({ entityRef: 'group:team-a', direction: 'out', depth: 3, edgeTypes: ['childOf'] });
    assert.deepEqual(edgeList(org), ['1 group:default/team-a childOf group:default/engineering']);
  });

  it('refuses edge types that lie on the other side of an explicit direction, naming the ones that would match', async () => {
    await assert.rejects(
      expand({ entityRef: 'resource:orders-db', direction: 'out', edgeTypes: ['dependencyOf'] }),
      (e: Error) =>
        e instanceof ToolInputError &&
        e.message ===
          'edgeTypes: dependencyOf is in (read from the entity; its out half is dependsOn). With direction "out" it can never match: ask direction "in" or "both", or name dependsOn.',
    );
    await assert.rejects(
      expand({ entityRef: 'orders-api', direction: 'in', edgeTypes: ['dependsOn', 'ownerOf'] }),
      /^ToolInputError: edgeTypes: dependsOn is out/,
    );
  });

  it('refuses depth over 3 and limit over 100 instead of clamping, and names the field', async () => {
    await assert.rejects(
      expand({ entityRef: 'orders-api', depth: 4 }),
      (e: Error) =>
        e instanceof ToolInputError &&
        /^Invalid input for workspace_expand: depth: must be a whole number from 1 to 3 \(the default is 1\); deeper walks are refused/.test(
          e.message,
        ),
    );
    await assert.rejects(
      expand({ entityRef: 'orders-api', limit: 101 }),
      (e: Error) =>
        e instanceof ToolInputError &&
        e.message ===
          'Invalid input for workspace_expand: limit: must be a whole number from 1 to 100 (the default is 50); narrow the walk with edgeTypes or direction instead',
    );
    await assert.rejects(expand({ entityRef: 'orders-api', depth: 0 }), /depth/);
    await assert.rejects(expand({ entityRef: 'orders-api', direction: 'up' }), /direction/);
    await assert.rejects(
      expand({ entityRef: 'orders-api', edgeTypes: ['likes'] }),
      /edgeTypes\[0\]: "likes" is not a relation type; use any of dependsOn, dependencyOf, consumesApi/,
    );
  });

  it('suggests the closest refs for an unknown entity', async () => {
    await assert.rejects(expand({ entityRef: 'component:order-api' }), (e: Error) => {
      assert.match(
        e.message,
        /^entityRef: No entity 'component:order-api' in the catalog\. Did you mean 'component:default\/orders-api'/,
      );
      return true;
    });
  });

  it('refuses a workspace it does not serve, naming the served ones', async () => {
    await assert.rejects(
      callTool(
        createServices({ engine }),
        tool,
        { workspace: 'elsewhere', entityRef: 'orders-api' },
        { sessionId: 't' },
      ),
      (e: Error) =>
        e instanceof ToolInputError &&
        e.message ===
          "workspace: this server does not serve a workspace named 'elsewhere'; it serves 'shop' (give one of these names or its path).",
    );
  });

  it('reports what the limit drops as candidates-capped', async () => {
    const out = await expand({ entityRef: 'group:team-a', direction: 'in', limit: 2 });
    // The six entities it owns (its parent, engineering, is out).
    assert.equal(out.totalEdges, 6);
    assert.equal(out.edges.length, 2);
    assert.deepEqual(out.candidatesCapped, {
      droppedByLimit: 4,
      droppedByBudget: 0,
      limit: 2,
      byteBudget: EXPAND_BYTE_BUDGET,
    });
    assert.deepEqual(out.degraded, ['candidates-capped']);
  });
});

describe('workspace_expand byte budget', () => {
  it('drops edges past the byte budget and counts them apart from the limit', async () => {
    // 120 components with long namespaces and names, declared in a deeply nested file, all owned
    // by one group: 100 edges of ~500 bytes each pass the 48 KiB budget.
    const dir = tempDir('budget');
    const ns = 'n'.repeat(60);
    const deep = Array.from({ length: 8 }, (_, i) => `very-long-directory-name-number-${i}`).join('/');
    const docs = [
      `apiVersion: backstage.io/v1alpha1\nkind: Group\nmetadata: { name: owners, namespace: ${ns} }\nspec: { type: team, children: [] }`,
    ];
    for (let i = 0; i < 120; i++) {
      const name = `component-with-a-deliberately-long-name-${String(i).padStart(3, '0')}-xxxxxxxxxxxx`;
      docs.push(
        `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: ${name}, namespace: ${ns} }\nspec: { type: service, lifecycle: production, owner: owners }`,
      );
    }
    write(dir, `${deep}/catalog-info.yaml`, docs.join('\n---\n'));
    const engine = new Engine({ folders: [{ name: 'big', absPath: dir }] });
    try {
      await engine.waitForIndex();
      const out = (await callTool(
        createServices({ engine }),
        findTool('workspace_expand')!,
        { workspace: 'big', entityRef: `group:${ns}/owners`, direction: 'in', limit: 100 },
        { sessionId: 't' },
      )) as ExpandOutput;
      assert.equal(out.totalEdges, 120);
      const c = out.candidatesCapped!;
      assert.equal(c.droppedByLimit + c.droppedByBudget + out.edges.length, 120);
      assert.ok(c.droppedByBudget > 0, 'some edges dropped by the byte budget');
      assert.ok(JSON.stringify(out.edges).length <= EXPAND_BYTE_BUDGET);
      assert.ok(out.degraded.includes('candidates-capped'));
    } finally {
      engine.dispose();
      removeTempDirs();
    }
  });
});
