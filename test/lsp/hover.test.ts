/**
 * Hover on entity refs through the built language server: short forms in catalog relation fields
 * (read with the field's default kind), full refs in Markdown, `kind:name` refs in code comments,
 * unresolved refs with and without a nearer ref to suggest.
 */
import assert from 'node:assert/strict';
import { HoverRequest, type Hover, type Position } from 'vscode-languageserver-protocol/node';
import { LspClient, startOnExample } from '../helpers/lspClient';
import { copyExampleWorkspace, removeTempDirs } from '../helpers/tempWorkspace';

const expandLinks = (ref: string) =>
  `Expand 2 hops: ${(['out', 'in', 'both'] as const)
    .map((direction) => {
      const label = direction === 'out' ? 'dependencies' : direction === 'in' ? 'dependents' : 'both';
      const args = encodeURIComponent(JSON.stringify([{ entityRef: ref, direction, depth: 2 }]));
      return `[${label}](command:workspaceContext.expandEntity?${args})`;
    })
    .join(' · ')}`;

describe('LSP hover (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const hoverAt = (uri: string, position: Position): Promise<Hover | null> =>
    lsp.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  const markdown = (hover: Hover | null): string => {
    assert.ok(hover, 'a hover came back');
    const contents = hover.contents as { kind: string; value: string };
    assert.equal(contents.kind, 'markdown');
    return contents.value;
  };

  it('resolves a short owner ref in a catalog file with the field default kind and shows the group, its neighbours grouped and capped, and expand links', async () => {
    // payments-platform/catalog-info.yaml line 29: `  owner: payments-team` (System billing).
    const hover = await hoverAt(lsp.uri('payments-platform/catalog-info.yaml'), { line: 28, character: 12 });
    assert.deepEqual(hover?.range, { start: { line: 28, character: 9 }, end: { line: 28, character: 22 } });
    assert.deepEqual(markdown(hover).split('\n'), [
      '### Payments team',
      '',
      'Group `group:default/payments-team` · type `team`',
      '',
      // A team declared in the repository's catalog/ folder: the repository's overview is not its page.
      `Declared in [platform-infra/catalog/groups.yaml:33](${lsp.uri('platform-infra/catalog/groups.yaml')}#L33)`,
      '',
      expandLinks('group:default/payments-team'),
      '',
      'Owns card payments, subscription billing and dunning. Slack #team-payments, on-call rotation payments-primary (weekly, hand-over Monday 10:00 CET).',
      '',
      '**Neighbours** (19 edges)',
      '',
      '- childOf → `group:default/engineering`',
      '- ownerOf ← `api:default/invoice-rest-api`, `api:default/payment-events`, `api:default/payments-gateway-api`, `component:default/billing-worker`, `component:default/card-tokenizer` +10 more',
      '- hasMember ← `user:default/jonas.weber`, `user:default/maria.chen`, `user:default/rafael.costa`',
    ]);
  });

  it('resolves a full ref written in Markdown and shows kind, title, owner, lifecycle, description and every edge by type and direction', async () => {
    // .context/instructions.md line 10: "name it with its full ref, e.g. `component:default/billing-worker`, ..."
    const uri = lsp.uri('.context/instructions.md');
    const hover = await hoverAt(uri, { line: 9, character: 40 });
    assert.deepEqual(hover?.range, { start: { line: 9, character: 35 }, end: { line: 9, character: 67 } });
    const lines = markdown(hover).split('\n');
    const declared = `Declared in [payments-platform/catalog-info.yaml:57](${lsp.uri('payments-platform/catalog-info.yaml')}#L57) · [Open its 10 docs](command:workspaceContext.showEntityDocs?`;
    assert.ok(lines[4].startsWith(declared), lines[4]);
    const docsArgs = JSON.parse(decodeURIComponent(lines[4].slice(declared.length, -1)));
    assert.equal(docsArgs[0].entityRef, 'component:default/billing-worker');
    assert.equal(docsArgs[0].docs.length, 10);
    assert.ok(docsArgs[0].docs.some((d: { path: string }) => d.path === 'payments-platform/epics/smart-dunning.md'));
    assert.deepEqual(
      [...lines.slice(0, 4), ...lines.slice(5)],
      [
        '### Billing worker',
        '',
        'Component `component:default/billing-worker` · owner `group:default/payments-team` · lifecycle `production` · type `service`',
        '',
        '',
        expandLinks('component:default/billing-worker'),
        '',
        'Consumes billing jobs from the payments queue: closes billing cycles, asks the gateway to charge, posts the outcome to the ledger and runs the dunning schedule for declined cards.',
        '',
        '**Neighbours** (7 edges)',
        '',
        '- dependsOn → `component:default/fernhill-money`, `resource:default/invoices-db`, `resource:default/payments-queue`',
        '- consumesApi → `api:default/ledger-api`, `api:default/payments-gateway-api`',
        '- ownedBy → `group:default/payments-team`',
        '- partOf → `system:default/billing`',
      ],
    );
  });

  it('resolves a kind:name ref in a code comment (namespace defaulted)', async () => {
    // checkoutSession.ts line 1: "// checkoutSession resolver of api:storefront-graphql (component:storefront-bff)."
    const uri = lsp.uri('storefront/services/storefront-bff/src/resolvers/checkoutSession.ts');
    const hover = await hoverAt(uri, { line: 0, character: 34 });
    assert.deepEqual(hover?.range, { start: { line: 0, character: 31 }, end: { line: 0, character: 53 } });
    const lines = markdown(hover).split('\n');
    assert.match(lines[2], /^API `api:default\/storefront-graphql` · /);
    assert.ok(lines.includes('- apiProvidedBy ← `component:default/storefront-bff`'), lines.join('\n'));
  });

  it('says an unresolved ref is unresolved', async () => {
    // legacy-entities.yaml line 18: `    - resource:default/legacy-fax-gateway`
    const hover = await hoverAt(lsp.uri('storefront/catalog/legacy-entities.yaml'), { line: 17, character: 20 });
    assert.deepEqual(hover?.range, { start: { line: 17, character: 6 }, end: { line: 17, character: 41 } });
    assert.equal(
      markdown(hover),
      [
        '**Unresolved entity ref:** `resource:default/legacy-fax-gateway`',
        '',
        'No entity with this ref is in the catalog.',
      ].join('\n'),
    );
  });

  it('suggests the nearest refs for a misspelt short ref in an unsaved buffer', async () => {
    const uri = await lsp.open(
      'payments-platform/catalog/new-service.yaml',
      [
        'apiVersion: backstage.io/v1alpha1',
        'kind: Component',
        'metadata:',
        '  name: refund-worker',
        'spec:',
        '  type: service',
        '  lifecycle: experimental',
        '  owner: payments-teem',
        '',
      ].join('\n'),
    );
    const hover = await hoverAt(uri, { line: 7, character: 12 });
    assert.equal(
      markdown(hover),
      [
        '**Unresolved entity ref:** `group:default/payments-teem`',
        '',
        'No entity with this ref is in the catalog.',
        '',
        'Did you mean `group:default/payments-team`?',
      ].join('\n'),
    );
  });

  it('explains a value that is not a ref in its field (dependsOn needs a kind)', async () => {
    const uri = await lsp.open(
      'payments-platform/catalog/kindless.yaml',
      [
        'apiVersion: backstage.io/v1alpha1',
        'kind: Component',
        'metadata:',
        '  name: kindless',
        'spec:',
        '  type: service',
        '  lifecycle: experimental',
        '  owner: payments-team',
        '  dependsOn:',
        '    - invoices-db',
        '',
      ].join('\n'),
    );
    const hover = await hoverAt(uri, { line: 9, character: 8 });
    assert.deepEqual(hover?.range, { start: { line: 9, character: 6 }, end: { line: 9, character: 17 } });
    assert.deepEqual(markdown(hover).split('\n'), [
      '**Not an entity ref:** `invoices-db`',
      '',
      'Entity reference "invoices-db" had missing or empty kind (e.g. did not start with "component:" or similar); spec.dependsOn has no default kind, write e.g. "component:invoices-db" or "resource:invoices-db"',
      '',
      'Did you mean `resource:default/invoices-db` or `component:default/invoice-api` or `resource:default/invoice-pdfs`?',
    ]);
  });

  it('answers null away from refs', async () => {
    assert.equal(await hoverAt(lsp.uri('payments-platform/catalog-info.yaml'), { line: 19, character: 2 }), null);
  });
});

describe('LSP hover asked before the first pass is in service (built server, JSON-RPC)', () => {
  let lsp: LspClient | undefined;
  after(async () => {
    await lsp?.stop();
    removeTempDirs();
  });

  it('waits for the index and answers with the entity, instead of an empty hover the editor never asks again', async () => {
    lsp = await LspClient.start(copyExampleWorkspace());
    const ready = () => lsp!.statuses.some((s) => s.phase === 'ready');
    // Sent at once after initialize: the example's first pass takes about a second.
    assert.equal(ready(), false, 'the index was in service before the hover was sent: nothing to check');
    const hover = await lsp.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: lsp.uri('payments-platform/catalog-info.yaml') },
      position: { line: 28, character: 12 },
    });
    const value = (hover?.contents as { value: string } | undefined)?.value ?? '';
    assert.deepEqual(value.split('\n').slice(0, 3), [
      '### Payments team',
      '',
      'Group `group:default/payments-team` · type `team`',
    ]);
    await lsp.waitFor('the ready status', () => ready());
  });
});
