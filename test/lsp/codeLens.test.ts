/**
 * Code lenses through the built language server: on each entity's name in a catalog file, the
 * relations that matter for its kind and its attached documents, each running a client command,
 * and only the counts above zero.
 */
import assert from 'node:assert/strict';
import { CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP code lens (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const lenses = async (rel: string) =>
    (await lsp.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: lsp.uri(rel) } })) ?? [];

  it('puts dependents, dependencies and docs above zero on every valid component and resource, with the commands the client runs', async () => {
    const found = await lenses('storefront/catalog/legacy-entities.yaml');
    // Entities declared in the repository's catalog/ folder, not by its root catalog file: the
    // repository's overview is not theirs, and no other page is.
    const orderExport = { start: { line: 5, character: 8 }, end: { line: 5, character: 20 } };
    const ordersDb = { start: { line: 35, character: 8 }, end: { line: 35, character: 24 } };
    // Each lens walks its relations the way they lie: dependents in, dependencies out.
    const walk = (entityRef: string, edgeTypes: string[]) => [
      { entityRef, direction: edgeTypes[0] === 'dependencyOf' ? 'in' : 'out', depth: 1, edgeTypes },
    ];
    assert.deepEqual(found, [
      {
        range: orderExport,
        command: {
          title: '2 dependencies',
          command: 'workspaceContext.expandEntity',
          arguments: walk('component:default/order-export', ['dependsOn', 'consumesApi']),
        },
      },
      {
        range: ordersDb,
        command: {
          title: '1 dependent',
          command: 'workspaceContext.expandEntity',
          arguments: walk('resource:default/legacy-orders-db', ['dependencyOf']),
        },
      },
    ]);
  });

  it("counts per kind: a system's parts, a domain's systems, a group's ownership and members, an API's providers and consumers", async () => {
    const titles = async (rel: string) => {
      const byLine = new Map<number, string[]>();
      for (const lens of await lenses(rel))
        byLine.set(lens.range.start.line, [...(byLine.get(lens.range.start.line) ?? []), lens.command!.title]);
      return [...byLine.values()].map((t) => t.join(' | '));
    };
    // The domain, its three systems, then the components (dependents | dependencies | docs, those above zero).
    assert.deepEqual((await titles('payments-platform/catalog-info.yaml')).slice(0, 5), [
      '3 systems | 2 docs',
      '4 components | 1 API | 2 resources | 2 docs',
      '2 components | 2 APIs | 2 resources | 2 docs',
      '2 components | 1 API | 1 resource | 2 docs',
      '5 dependencies | 10 docs',
    ]);
    // Teams and APIs declared in a repository's catalog/ folder are not the repository's own
    // entities: its overview is not theirs (an API keeps the docs that name it).
    assert.deepEqual((await titles('platform-infra/catalog/groups.yaml')).slice(0, 3), [
      '1 child group',
      'owns 2 | 1 member | 4 child groups',
      'owns 15 | 3 members',
    ]);
    assert.deepEqual((await titles('payments-platform/catalog/apis.yaml')).slice(0, 2), [
      '1 provider | 2 consumers | 1 doc',
      '1 provider | 1 consumer',
    ]);
    // A system's lens walks its hasPart relations: its parts point at it, so in.
    const system = (await lenses('payments-platform/catalog-info.yaml')).find(
      (l) => l.command!.title === '4 components',
    )!;
    assert.deepEqual(system.command!.arguments, [
      { entityRef: system.command!.arguments![0].entityRef, direction: 'in', depth: 1, edgeTypes: ['hasPart'] },
    ]);
    assert.match(system.command!.arguments![0].entityRef, /^system:default\//);
  });

  it('counts docs, overviews and epics attached to a service', async () => {
    const found = await lenses('payments-platform/catalog-info.yaml');
    const billingWorker = found.filter((l) => l.range.start.line === 56).map((l) => l.command!.title);
    assert.deepEqual(billingWorker, ['5 dependencies', '10 docs']);
    const docs = found.find(
      (l) => l.range.start.line === 56 && l.command!.command === 'workspaceContext.showEntityDocs',
    )!.command!.arguments![0].docs;
    assert.equal(docs.length, 10);
    // The repository's README, a page of the repository's own entities since it is read.
    assert.ok(docs.some((d: { path: string }) => d.path === 'payments-platform/README.md'));
    assert.ok(docs.some((d: { path: string }) => d.path === 'payments-platform/epics/smart-dunning.md'));
  });

  it('gives no lenses outside catalog files', async () => {
    assert.deepEqual(await lenses('.context/instructions.md'), []);
  });
});
