import assert from 'node:assert/strict';
import { parseCatalogFile } from '../../../../../server/src/engine/sources/catalog/parseCatalogFile';

const PATH = 'billing/catalog-info.yaml';

// Line numbers are part of the assertions below; keep this text as it is.
const MIXED = `# Billing components
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: billing-worker
  title: Billing Worker
  tags: [java, billing]
spec:
  type: service
  lifecycle: production
  owner: team-billing
  system: payments
  dependsOn:
    - resource:billing-db
    - component:ledger
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: broken
  description: Bills: monthly
spec:
  type: service
---
---
just a string
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: Invalid Name
spec:
  type: library
  lifecycle: experimental
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: billing-api
spec:
  type: openapi
  lifecycle: production
  owner: group:finance/team-billing
  definition:
    $text: ./openapi.yaml
`;

describe('catalog/parseCatalogFile', () => {
  it('loads the good documents of a multi-document file and reports each bad one at its line', () => {
    const result = parseCatalogFile(PATH, MIXED);
    assert.deepEqual(
      result.entities.map((e) => [e.entity.ref, e.entity.location]),
      [
        ['component:default/billing-worker', { path: PATH, startLine: 1, endLine: 15 }],
        ['api:default/billing-api', { path: PATH, startLine: 36, endLine: 45 }],
      ],
    );
    assert.deepEqual(result.problems, [
      {
        path: PATH,
        line: 21,
        column: 16,
        severity: 'error',
        code: 'yaml.syntax',
        message: 'YAML error: Nested mappings are not allowed in compact mappings; this document is skipped',
      },
      {
        path: PATH,
        line: 26,
        severity: 'error',
        code: 'catalog.not-an-entity',
        message:
          'Expected an entity (a mapping with apiVersion, kind, metadata, spec) at the document root, found "just a string"',
      },
      {
        path: PATH,
        line: 31,
        severity: 'error',
        code: 'catalog.invalid-entity',
        message:
          'metadata.name "Invalid Name" is not a valid name: expected sequences of [a-zA-Z0-9] separated by any of [-_.], at most 63 characters in total (Component "Invalid Name" is not indexed)',
      },
      {
        path: PATH,
        line: 32,
        severity: 'error',
        code: 'catalog.invalid-entity',
        message: 'spec.owner is required for kind Component (Component "Invalid Name" is not indexed)',
      },
    ]);
  });

  it('builds the catalog entity from the envelope, keeping the document as written', () => {
    const [worker, api] = parseCatalogFile(PATH, MIXED).entities;
    assert.deepEqual(worker.entity, {
      ref: 'component:default/billing-worker',
      key: 'component:default/billing-worker',
      kind: 'Component',
      namespace: 'default',
      name: 'billing-worker',
      apiVersion: 'backstage.io/v1alpha1',
      title: 'Billing Worker',
      tags: ['java', 'billing'],
      annotations: {},
      labels: {},
      type: 'service',
      lifecycle: 'production',
      raw: {
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Component',
        metadata: { name: 'billing-worker', title: 'Billing Worker', tags: ['java', 'billing'] },
        spec: {
          type: 'service',
          lifecycle: 'production',
          owner: 'team-billing',
          system: 'payments',
          dependsOn: ['resource:billing-db', 'component:ledger'],
        },
      },
      location: { path: PATH, startLine: 1, endLine: 15 },
    });
    // A `$text` placeholder stands for the file's text, as Backstage resolves it before validating.
    assert.deepEqual(api.entity.raw.spec, {
      type: 'openapi',
      lifecycle: 'production',
      owner: 'group:finance/team-billing',
      definition: { $text: './openapi.yaml' },
    });
  });

  it('records the line of every field value, list items one by one', () => {
    const [worker, api] = parseCatalogFile(PATH, MIXED).entities;
    assert.deepEqual(worker.lines, {
      apiVersion: 2,
      kind: 3,
      metadata: 4,
      'metadata.name': 5,
      'metadata.title': 6,
      'metadata.tags': 7,
      'metadata.tags[0]': 7,
      'metadata.tags[1]': 7,
      spec: 8,
      'spec.type': 9,
      'spec.lifecycle': 10,
      'spec.owner': 11,
      'spec.system': 12,
      'spec.dependsOn': 13,
      'spec.dependsOn[0]': 14,
      'spec.dependsOn[1]': 15,
    });
    assert.equal(api.lines['spec.owner'], 43);
    assert.equal(api.lines['spec.definition.$text'], 45);
  });

  it('ignores empty files, comment-only files, stray separators and a document end marker', () => {
    assert.deepEqual(parseCatalogFile(PATH, ''), { entities: [], problems: [] });
    assert.deepEqual(parseCatalogFile(PATH, '# nothing here yet\n'), { entities: [], problems: [] });
    const text = [
      '---',
      '---',
      'apiVersion: backstage.io/v1alpha1',
      'kind: System',
      'metadata: {name: payments}',
      'spec: {owner: team-billing}',
      '...',
      '---',
      '',
    ].join('\n');
    const result = parseCatalogFile(PATH, text);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.entities.map((e) => [e.entity.ref, e.entity.location.startLine, e.entity.location.endLine]),
      [['system:default/payments', 3, 6]],
    );
  });

  it('reports an unclosed quote on the line and column where the string opens, not at the end of the file', () => {
    const text = [
      'apiVersion: backstage.io/v1alpha1',
      'kind: Component',
      'metadata:',
      '  name: billing-worker',
      '  description: "Bills customers',
      'spec:',
      '  type: service',
      '  owner: payments-team',
      '  lifecycle: production',
      '---',
      'apiVersion: backstage.io/v1alpha1',
      'kind: Group',
      'metadata:',
      '  name: payments-team',
      'spec: {type: team, children: []}',
      '',
    ].join('\n');
    const result = parseCatalogFile(PATH, text);
    assert.deepEqual(result.problems, [
      {
        path: PATH,
        line: 5,
        column: 16,
        severity: 'error',
        code: 'yaml.syntax',
        message:
          'YAML error: Missing closing "quote: the string that opens here is never closed; this document is skipped',
      },
    ]);
    // The open string runs on over the `---`, so the Group below it is inside it: nothing is indexed.
    assert.deepEqual(result.entities, []);
  });

  it('reads CRLF files with the same lines and treats duplicate keys as a YAML error, as Backstage does', () => {
    const text =
      'apiVersion: backstage.io/v1alpha1\r\nkind: Group\r\nmetadata:\r\n  name: team-a\r\n  name: team-b\r\nspec: {type: team, children: []}\r\n---\r\n# the platform team\r\napiVersion: backstage.io/v1alpha1\r\nkind: Group\r\nmetadata:\r\n  name: platform\r\nspec:\r\n  type: team\r\n  children: [team-a]\r\n';
    const result = parseCatalogFile('org.yaml', text);
    assert.deepEqual(result.problems, [
      {
        path: 'org.yaml',
        line: 5,
        column: 3,
        severity: 'error',
        code: 'yaml.syntax',
        message: 'YAML error: Map keys must be unique; this document is skipped',
      },
    ]);
    assert.deepEqual(
      result.entities.map((e) => [e.entity.ref, e.entity.location]),
      [['group:default/platform', { path: 'org.yaml', startLine: 8, endLine: 15 }]],
    );
    assert.equal(result.entities[0].lines['spec.children[0]'], 15);
  });

  it('reports a list at the root and a kind in the wrong case (kept, without relations)', () => {
    const text = '- a\n- b\n---\napiVersion: backstage.io/v1alpha1\nkind: component\nmetadata:\n  name: x\n';
    const result = parseCatalogFile('x.yaml', text);
    assert.deepEqual(result.problems, [
      {
        path: 'x.yaml',
        line: 1,
        severity: 'error',
        code: 'catalog.not-an-entity',
        message:
          'Expected an entity (a mapping with apiVersion, kind, metadata, spec) at the document root, found a list',
      },
      {
        path: 'x.yaml',
        line: 5,
        severity: 'warning',
        code: 'catalog.kind-case',
        message:
          'kind "component" is not the built-in kind "Component" (kinds are case-sensitive); it is kept as a custom kind without relations',
      },
    ]);
    assert.deepEqual(
      result.entities.map((e) => e.entity.ref),
      ['component:default/x'],
    );
  });

  it('leaves `$ref` and multi-key mappings alone, so they still fail where Backstage fails', () => {
    const text = [
      'apiVersion: backstage.io/v1alpha1',
      'kind: API',
      'metadata: {name: broken-api}',
      'spec:',
      '  type: openapi',
      '  lifecycle: production',
      '  owner: team-a',
      '  definition:',
      '    $ref: "#/x"',
    ].join('\n');
    const result = parseCatalogFile('api.yaml', text);
    assert.deepEqual(result.entities, []);
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.message]),
      [[8, 'spec.definition must be a non-empty string, found a mapping (API "broken-api" is not indexed)']],
    );
  });
});
