/**
 * Diagnostics through the built language server: published for the whole workspace after indexing
 * (not only for open files), with related information pointing at the other place, and updated
 * after file changes.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiagnosticSeverity, FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP diagnostics (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const published = (rel: string) => lsp.waitFor(`diagnostics for ${rel}`, () => lsp.diagnostics.get(lsp.uri(rel)));

  it('publishes the invalid entity (line 25) and the unresolved legacy-fax-gateway ref of legacy-entities.yaml', async () => {
    assert.deepEqual(await published('storefront/catalog/legacy-entities.yaml'), [
      {
        range: { start: { line: 17, character: 6 }, end: { line: 17, character: 41 } },
        severity: DiagnosticSeverity.Warning,
        code: 'ref.unresolved',
        source: 'workspace-context',
        message: "'resource:default/legacy-fax-gateway' in spec.dependsOn names no entity in the catalog.",
      },
      {
        range: { start: { line: 24, character: 2 }, end: { line: 24, character: 20 } },
        severity: DiagnosticSeverity.Error,
        code: 'catalog.invalid-entity',
        source: 'workspace-context',
        message:
          'metadata.name "promo banner" is not a valid name: expected sequences of [a-zA-Z0-9] separated by any of [-_.], at most 63 characters in total (Component "promo banner" is not indexed)',
      },
    ]);
  });

  it('publishes the expired library page at its expires line', async () => {
    assert.deepEqual(await published('.context/guides/pci-dss-4-transition.md'), [
      {
        range: { start: { line: 3, character: 0 }, end: { line: 3, character: 19 } },
        severity: DiagnosticSeverity.Warning,
        code: 'library.expired',
        source: 'workspace-context',
        message:
          '"PCI DSS 4.0 transition checklist" expired on 2025-06-30; library tools no longer serve it. Update it and its expires date, or remove it.',
      },
    ]);
    // The two refund pages (conflict) and the two gateway pages (duplicate) are the others.
    assert.equal(lsp.diagnostics.size, 5, [...lsp.diagnostics.keys()].join('\n'));
  });

  it('publishes the 14-day vs 30-day refund conflict on both pages, each worded with the other page and pointing at it', async () => {
    const policy = (await published('.context/reference/refund-policy.md')).filter(
      (d: Diagnostic) => d.code === 'library.conflict',
    );
    assert.equal(policy.length, 1);
    assert.equal(policy[0].severity, DiagnosticSeverity.Warning);
    assert.equal(policy[0].range.start.line, 20); // "Merchants can refund a captured charge within **14 days**" (line 21)
    assert.equal(
      policy[0].message,
      'This page says "Merchants can refund a captured charge within 14 days of capture, in full or in part." but "Issuing refunds" says "A captured charge can be refunded up to 30 days after capture, in full or in part, any number of times until the captured amount is used up." (30 days vs 14 days). An agent given both cannot know which to follow.',
    );
    assert.deepEqual(
      policy[0].relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]),
      [[lsp.uri('.context/guides/issuing-refunds.md'), 22]],
    );
    const guide = (await published('.context/guides/issuing-refunds.md')).map((d: Diagnostic) => [
      d.code,
      d.range.start.line + 1,
    ]);
    assert.deepEqual(guide, [
      ['library.conflict', 23],
      ['library.duplicate', 41],
    ]);
    const gateway = await published('.context/guides/calling-the-payments-gateway.md');
    assert.deepEqual(
      gateway.map((d: Diagnostic) => [d.code, d.severity, d.range.start.line + 1]),
      [['library.duplicate', DiagnosticSeverity.Information, 21]],
    );
    assert.match(
      String(gateway[0].message),
      /^"Idempotency keys" repeats "Idempotency keys" in "Issuing refunds" \(77% the same words\)/,
    );
  });

  it('clears a conflict its page settles with conflicts_resolved, and names the field and line of an entry that names no page', async () => {
    const rel = '.context/guides/issuing-refunds.md';
    const file = path.join(lsp.workspace, rel);
    const original = fs.readFileSync(file, 'utf8');
    const settle = async (names: string[]) => {
      const statuses = lsp.statuses.length;
      fs.writeFileSync(
        file,
        original.replace(
          'usage: For the mechanics',
          `conflicts_resolved:\n${names.map((n) => `  - ${n}\n`).join('')}usage: For the mechanics`,
        ),
      );
      await lsp.fileEvents([{ uri: lsp.uri(rel), type: FileChangeType.Changed }]);
      await lsp.waitForReady(statuses + 1);
    };
    try {
      await settle(['Refund policy']);
      assert.deepEqual(
        lsp.diagnostics.get(lsp.uri(rel))?.map((d) => d.code),
        ['library.duplicate'],
      );
      // The other page's half of the flag is gone too.
      assert.deepEqual(lsp.diagnostics.get(lsp.uri('.context/reference/refund-policy.md')), []);

      await settle(['"[[Refund policy]]"', 'Refund polcy']);
      const now = lsp.diagnostics.get(lsp.uri(rel))!;
      assert.deepEqual(
        now.map((d) => [d.code, d.range.start.line + 1]),
        [
          ['library.conflicts-resolved-unknown', 12],
          ['library.duplicate', 44],
        ],
      );
      assert.equal(
        now[0].message,
        "Front matter field 'conflicts_resolved' names 'Refund polcy', which is no page of the library (write the other page's title or its workspace-relative path).",
      );
    } finally {
      const statuses = lsp.statuses.length;
      fs.writeFileSync(file, original);
      await lsp.fileEvents([{ uri: lsp.uri(rel), type: FileChangeType.Changed }]);
      await lsp.waitForReady(statuses + 1);
    }
    assert.deepEqual(
      lsp.diagnostics.get(lsp.uri(rel))?.map((d) => d.code),
      ['library.conflict', 'library.duplicate'],
    );
  });

  it('points a duplicate entity and a misspelt ref at the other place, and clears what was fixed', async () => {
    const statuses = lsp.statuses.length;
    const rel = 'storefront/extra/catalog-info.yaml';
    fs.mkdirSync(path.join(lsp.workspace, 'storefront/extra'), { recursive: true });
    fs.writeFileSync(
      path.join(lsp.workspace, rel),
      [
        'apiVersion: backstage.io/v1alpha1',
        'kind: Component',
        'metadata:',
        '  name: order-export',
        'spec:',
        '  type: service',
        '  lifecycle: production',
        '  owner: storefront-team',
        '---',
        'apiVersion: backstage.io/v1alpha1',
        'kind: Component',
        'metadata:',
        '  name: gift-cards',
        'spec:',
        '  type: service',
        '  lifecycle: experimental',
        '  owner: storefront-teem',
        '',
      ].join('\n'),
    );
    // And the unresolved ref of legacy-entities.yaml is fixed.
    const legacy = path.join(lsp.workspace, 'storefront/catalog/legacy-entities.yaml');
    fs.writeFileSync(
      legacy,
      fs
        .readFileSync(legacy, 'utf8')
        .replace('    - resource:default/legacy-fax-gateway\n', '    - resource:default/legacy-orders-db\n'),
    );
    await lsp.fileEvents([
      { uri: lsp.uri(rel), type: FileChangeType.Created },
      { uri: lsp.uri('storefront/catalog/legacy-entities.yaml'), type: FileChangeType.Changed },
    ]);
    await lsp.waitForReady(statuses + 1);

    const extra = lsp.diagnostics.get(lsp.uri(rel))!;
    const duplicate = extra.find((d: Diagnostic) => d.code === 'catalog.duplicate-entity')!;
    // Both declarations are reported where each entity starts (the kept one's leading comment included).
    assert.deepEqual(duplicate.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 33 } });
    assert.equal(
      duplicate.message,
      'Entity component:default/order-export is already declared at storefront/catalog/legacy-entities.yaml:1; this declaration is ignored',
    );
    assert.deepEqual(duplicate.relatedInformation, [
      {
        location: {
          uri: lsp.uri('storefront/catalog/legacy-entities.yaml'),
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 91 } },
        },
        message: 'First declaration of component:default/order-export, which is kept',
      },
    ]);

    const typo = extra.find((d: Diagnostic) => d.code === 'ref.unresolved')!;
    assert.deepEqual(typo.range, { start: { line: 16, character: 9 }, end: { line: 16, character: 24 } });
    assert.equal(
      typo.message,
      "'group:default/storefront-teem' in spec.owner names no entity in the catalog. Did you mean 'group:default/storefront-team'?",
    );
    assert.deepEqual(typo.relatedInformation, [
      {
        location: {
          uri: lsp.uri('platform-infra/catalog/groups.yaml'),
          range: { start: { line: 62, character: 2 }, end: { line: 62, character: 23 } },
        },
        message: 'Did you mean group:default/storefront-team?',
      },
    ]);

    const legacyNow = lsp.diagnostics.get(lsp.uri('storefront/catalog/legacy-entities.yaml'))!;
    assert.deepEqual(
      legacyNow.map((d) => d.code),
      ['catalog.invalid-entity'],
    );
  });
});
