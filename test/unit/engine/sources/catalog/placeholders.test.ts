/**
 * Placeholders resolved as Backstage's PlaceholderProcessor resolves them, from workspace files
 * only: each resolver's content, what is left alone, and what is never read (URLs, paths outside
 * the workspace), with the entity kept and a warning at the placeholder's line.
 */
import assert from 'node:assert/strict';
import { loadCatalog, type CatalogLoad } from '../../../../../server/src/engine/sources/catalog/loadCatalog';
import { findPlaceholders } from '../../../../../server/src/engine/sources/catalog/placeholders';
import { DirectoryFileSource, removeWorkspace, writeWorkspace } from './diskFileSource';

const api = (name: string, definition: string) => `apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: ${name}
spec:
  type: openapi
  lifecycle: production
  owner: team-a
  system: shop
  definition:
    ${definition}
`;

describe('catalog/placeholders', () => {
  let root: string;
  let load: CatalogLoad;
  const spec = (name: string) =>
    load.entities.find((e) => e.name === name)?.raw.spec as Record<string, unknown> | undefined;

  before(async () => {
    root = writeWorkspace({
      'catalog/catalog-info.yaml': [
        api('text-api', '$text: ../specs/orders.graphql'),
        api('openapi-api', '$openapi: ../specs/orders.yaml'),
        api('asyncapi-api', '$asyncapi: ../specs/events.yaml'),
        api('url-api', '$openapi: https://example.com/openapi.yaml'),
        api('outside-api', '$text: ../../elsewhere/secret.txt'),
        api('missing-api', '$text: ./nope.graphql'),
        `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: configured
  annotations:
    example.com/settings: plain
spec:
  type: service
  lifecycle: production
  owner: team-a
  settings:
    $json: ../specs/settings.json
  limits:
    $yaml: ../specs/limits.yaml
  schema:
    $ref: '#/definitions/node'
  mixed:
    $text: ../specs/orders.graphql
    other: kept
`,
      ].join('---\n'),
      'specs/orders.graphql': 'type Query { orders: [Order] }\n',
      'specs/orders.yaml': 'openapi: 3.0.0\ncomponents:\n  schemas:\n    Order:\n      $ref: ./schemas.yaml#/Order\n',
      'specs/schemas.yaml': 'Order:\n  type: object\n  properties:\n    id: { type: string }\n',
      'specs/events.yaml': 'asyncapi: 2.6.0\nchannels: {}\n',
      'specs/settings.json': '{ "retries": 3, "regions": ["eu", "us"] }',
      'specs/limits.yaml': 'rate: 10\nburst: 20\n',
    });
    load = await loadCatalog(new DirectoryFileSource(root), ['catalog/catalog-info.yaml']);
  });
  after(() => removeWorkspace(root));

  it('finds the placeholders Backstage would resolve, and leaves $ref and mixed mappings alone', () => {
    const raw = {
      spec: {
        a: { $text: 'x' },
        b: [{ $json: 'y' }],
        c: { $ref: '#/z' },
        d: { $text: 'x', e: 1 },
        f: { $unknown: 'q' },
      },
    };
    assert.deepEqual(findPlaceholders(raw), [
      { path: ['spec', 'a'], resolver: 'text', target: 'x' },
      { path: ['spec', 'b', 0], resolver: 'json', target: 'y' },
    ]);
  });

  it('$text reads the file relative to the catalog file', () => {
    assert.equal(spec('text-api')?.definition, 'type Query { orders: [Order] }\n');
  });

  it('$openapi and $asyncapi give the document as YAML with its file $refs bundled in', () => {
    const openapi = spec('openapi-api')?.definition as string;
    assert.equal(
      openapi,
      'openapi: 3.0.0\ncomponents:\n  schemas:\n    Order:\n      type: object\n      properties:\n        id:\n          type: string\n',
    );
    assert.equal(spec('asyncapi-api')?.definition, 'asyncapi: 2.6.0\nchannels: {}\n');
  });

  it('$json and $yaml give data; $ref and mappings with other keys stay as written', () => {
    const configured = spec('configured')!;
    assert.deepEqual(configured.settings, { retries: 3, regions: ['eu', 'us'] });
    assert.deepEqual(configured.limits, { rate: 10, burst: 20 });
    assert.deepEqual(configured.schema, { $ref: '#/definitions/node' });
    assert.deepEqual(configured.mixed, { $text: '../specs/orders.graphql', other: 'kept' });
  });

  it('never fetches a URL nor reads outside the workspace: the entity and its relations stay, a warning names file and line', () => {
    for (const name of ['url-api', 'outside-api', 'missing-api']) assert.ok(spec(name), name);
    assert.deepEqual(spec('url-api')?.definition, { $openapi: 'https://example.com/openapi.yaml' });
    assert.ok(
      load.relations.some(
        (r) => r.source === 'api:default/url-api' && r.type === 'partOf' && r.target === 'system:default/shop',
      ),
    );
    assert.ok(
      load.relations.some(
        (r) => r.source === 'group:default/team-a' && r.type === 'ownerOf' && r.target === 'api:default/url-api',
      ),
    );
    const warnings = load.problems.map((p) => `${p.path}:${p.line} ${p.severity} ${p.code}: ${p.message}`);
    assert.deepEqual(warnings, [
      'catalog/catalog-info.yaml:46 warning catalog.placeholder-unresolved: Placeholder $openapi target "https://example.com/openapi.yaml" is a URL; URLs are never fetched, only files in the workspace are read; spec.definition of api:default/url-api is left unresolved (the entity is indexed)',
      'catalog/catalog-info.yaml:58 warning catalog.placeholder-unresolved: Placeholder $text target "../../elsewhere/secret.txt" points outside the workspace (../elsewhere/secret.txt); spec.definition of api:default/outside-api is left unresolved (the entity is indexed)',
      'catalog/catalog-info.yaml:70 warning catalog.placeholder-unresolved: Placeholder $text could not read location ./nope.graphql: catalog/nope.graphql is not a file the workspace index reads; spec.definition of api:default/missing-api is left unresolved (the entity is indexed)',
    ]);
  });

  it('drops an entity whose resolved content breaks its kind schema, as Backstage would, at the placeholder line', async () => {
    const dir = writeWorkspace({
      'catalog-info.yaml': api('json-definition', '$json: ./definition.json'),
      'definition.json': '{ "openapi": "3.0.0" }',
    });
    try {
      const broken = await loadCatalog(new DirectoryFileSource(dir), ['catalog-info.yaml']);
      assert.equal(broken.entities.length, 0);
      assert.deepEqual(
        broken.problems.map((p) => `${p.line} ${p.code}: ${p.message}`),
        [
          '10 catalog.invalid-entity: spec.definition must be a non-empty string, found a mapping once its placeholders are resolved (api:default/json-definition is not indexed)',
        ],
      );
    } finally {
      removeWorkspace(dir);
    }
  });
});
