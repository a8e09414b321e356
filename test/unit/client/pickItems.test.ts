/**
 * The command QuickPicks' rows (client/src/pickItems.ts): a graph walk grouped by hop, the table
 * of contents by namespace, the diagnostics report by file, entities from workspace symbols, an
 * entity's documents.
 */
import assert from 'node:assert/strict';
import type { DiagnosticsReport } from '../../../shared/protocol';
import {
  diagnosticsRows,
  diagnosticsTitle,
  entityDocsRows,
  entityRows,
  expandRows,
  expandTitle,
  farEnd,
  parsePathLine,
  tocRows,
  type ExpandView,
} from '../../../client/src/pickItems';

const walk: ExpandView = {
  entity: {
    ref: 'group:default/payments-team',
    title: 'Payments team',
    sourceRef: 'platform-infra/catalog/groups.yaml:33',
  },
  depth: 2,
  direction: 'out',
  edges: [
    {
      source: 'group:default/engineering',
      type: 'childOf',
      target: 'group:default/fernhill',
      depth: 2,
      resolved: true,
      declaredAt: 'platform-infra/catalog/groups.yaml:14',
      field: 'spec.children',
    },
    {
      source: 'group:default/payments-team',
      type: 'childOf',
      target: 'group:default/engineering',
      depth: 1,
      resolved: true,
      declaredAt: 'platform-infra/catalog/groups.yaml:28',
      field: 'spec.children',
    },
    {
      source: 'group:default/payments-team',
      type: 'memberOf',
      target: 'group:default/ghost',
      depth: 1,
      resolved: false,
      declaredAt: 'platform-infra/catalog/groups.yaml:40',
      field: 'spec.memberOf',
    },
  ],
  totalEdges: 3,
  degraded: [],
};

describe('client pick rows', () => {
  it('titles a walk with the entity, direction, depth and edge counts', () => {
    assert.equal(
      expandTitle(walk),
      'group:default/payments-team (Payments team) · dependencies · depth 2 · 3 of 3 edges',
    );
    assert.equal(
      expandTitle({ ...walk, candidatesCapped: { droppedByLimit: 4, droppedByBudget: 0, limit: 3 } }),
      'group:default/payments-team (Payments team) · dependencies · depth 2 · 3 of 3 edges, capped',
    );
    assert.equal(expandTitle({ ...walk, entity: undefined, notice: 'No entity "x".' }), 'No entity "x".');
  });

  it('lists a walk hop by hop, marking unresolved edges and where each is declared', () => {
    assert.deepEqual(
      expandRows(walk).map((r) =>
        r.kind === 'separator' ? `-- ${r.label}` : `${r.label} | ${r.description} | ${r.detail}`,
      ),
      [
        '-- 1 hop',
        'group:default/payments-team ─childOf→ group:default/engineering |  | declared at platform-infra/catalog/groups.yaml:28 (spec.children)',
        'group:default/payments-team ─memberOf→ group:default/ghost | unresolved | declared at platform-infra/catalog/groups.yaml:40 (spec.memberOf)',
        '-- 2 hops',
        'group:default/engineering ─childOf→ group:default/fernhill |  | declared at platform-infra/catalog/groups.yaml:14 (spec.children)',
      ],
    );
  });

  it('walks on from the far end of an edge: its target, since every edge is read from the entity it was reached from', () => {
    assert.equal(
      farEnd({ source: 'component:default/billing-worker', target: 'resource:default/invoices-db' }),
      'resource:default/invoices-db',
    );
    assert.equal(
      farEnd({ source: 'resource:default/invoices-db', target: 'component:default/billing-worker' }),
      'component:default/billing-worker',
    );
  });

  it('reads path:line and path:start-end, and nothing else', () => {
    assert.deepEqual(parsePathLine('a/b.yaml:28'), { path: 'a/b.yaml', line: 28 });
    assert.deepEqual(parsePathLine('a/b.md:35-45'), { path: 'a/b.md', line: 35 });
    assert.equal(parsePathLine('a/b.md'), undefined);
  });

  it('maps the library by namespace, documents with their sections indented', () => {
    const rows = tocRows({
      mode: 'map',
      namespaces: [
        {
          name: 'rules',
          label: 'rules',
          documents: [
            {
              id: 'ab12cd34',
              title: 'Money in minor units',
              namespace: 'rules',
              summary: 'Store money as integers.',
              sectionCount: 2,
              pinned: true,
              sections: [{ id: 'ef56ab78', heading: 'Why', depth: 2 }],
            },
            { id: 'cd34ef56', title: 'Never log PANs', namespace: 'rules', sectionCount: 1, pinned: false },
          ],
        },
      ],
    });
    assert.deepEqual(
      rows.map((r) =>
        r.kind === 'separator'
          ? `-- ${r.label}`
          : [r.label, r.description, r.detail ?? '', JSON.stringify(r.value)].join(' | '),
      ),
      [
        '-- rules',
        '$(book) Money in minor units | ab12cd34 · 2 sections · pinned | Store money as integers. | {"kind":"document","id":"ab12cd34","title":"Money in minor units"}',
        '\u2003\u2003Why | ef56ab78 |  | {"kind":"section","id":"ef56ab78","title":"Why"}',
        '$(book) Never log PANs | cd34ef56 · 1 section |  | {"kind":"document","id":"cd34ef56","title":"Never log PANs"}',
      ],
    );
  });

  it("lists a document's sections under its title", () => {
    const rows = tocRows({
      mode: 'document',
      document: { id: 'ab12cd34', title: 'Money in minor units', namespace: 'rules', sectionCount: 2, pinned: false },
      sections: [{ id: 'ef56ab78', heading: 'Why', depth: 1 }],
    });
    assert.deepEqual(
      rows.map((r) => r.label),
      ['Money in minor units', '\u2003Why'],
    );
  });

  it('lists diagnostics by file with severity, place, code, source and the related place', () => {
    const range = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 5 } });
    const report: DiagnosticsReport = {
      generatedAt: '2026-11-30T12:00:00Z',
      indexedAt: null,
      total: 2,
      bySeverity: { error: 1, warning: 1, info: 0 },
      byCode: {},
      items: [
        {
          uri: 'file:///ws/a.yaml',
          path: 'a.yaml',
          range: range(17),
          severity: 'warning',
          code: 'ref.unresolved',
          message: 'No entity x',
          source: 'unresolved-refs',
          related: [],
        },
        {
          uri: 'file:///ws/a.yaml',
          path: 'a.yaml',
          range: range(24),
          severity: 'error',
          code: 'catalog.duplicate',
          message: 'Declared twice',
          source: 'problems',
          related: [{ uri: 'file:///ws/b.yaml', path: 'b.yaml', range: range(2), message: 'first here' }],
        },
      ],
    };
    assert.equal(diagnosticsTitle(report), 'Workspace Context: 2 diagnostics (1 error, 1 warning, 0 info)');
    assert.deepEqual(
      diagnosticsRows(report).map((r) =>
        r.kind === 'separator' ? `-- ${r.label}` : `${r.label} | ${r.description} | ${r.detail}`,
      ),
      [
        '-- a.yaml',
        '$(warning) No entity x | a.yaml:18 | ref.unresolved · unresolved-refs',
        '$(error) Declared twice | a.yaml:25 | catalog.duplicate · problems · see b.yaml:3',
      ],
    );
  });

  it('keeps only entity refs from workspace symbols, once each', () => {
    const rows = entityRows([
      { name: 'component:default/billing-worker', containerName: 'Billing worker' },
      { name: 'Rolling back', containerName: 'Deploy and rollback · deploy.md' },
      { name: 'component:default/billing-worker', containerName: 'Billing worker' },
      { name: 'group:default/payments-team' },
    ]);
    assert.deepEqual(
      rows.map((r) => (r.kind === 'item' ? [r.label, r.description] : [])),
      [
        ['component:default/billing-worker', 'Billing worker'],
        ['group:default/payments-team', ''],
      ],
    );
  });

  it("lists an entity's documents with their kind", () => {
    const rows = entityDocsRows({
      entityRef: 'component:default/billing-worker',
      docs: [{ title: 'Runbook', path: 'docs/r.md', sourceKind: 'catalog_doc' }],
    });
    assert.deepEqual(rows, [{ kind: 'item', label: 'Runbook', description: 'catalog doc', value: 'docs/r.md' }]);
  });
});
