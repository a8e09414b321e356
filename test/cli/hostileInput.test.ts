/**
 * Files a workspace can write to stall or fail an index pass, through the built `wsctx`: a
 * catalog file of 130,000 keys (the YAML library's duplicate-key check was quadratic), a `$json`
 * placeholder naming thousands of nested lists (the walks after it recursed until the stack gave
 * out, and the whole pass failed), deeply nested YAML, and a 300 MB `.wsctx.yaml` (read whole).
 * Each is one file's problem at its line; every other file is indexed.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

interface Summary {
  entitiesByKind: Record<string, number>;
  problems: { path: string; line: number; code: string; message: string }[];
}

const COMPONENT = (name: string) =>
  `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${name}\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n`;

describe('hostile input files (built CLI)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('indexes a catalog file of 130,000 keys in one mapping, and reports its duplicate key at its line', () => {
    const ws = tempDir('many-keys');
    const keys = Array.from({ length: 130_000 }, (_, i) => `k${i}: v`).join(', ');
    write(
      ws,
      'big/catalog-info.yaml',
      `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: big\n  labels: {${keys}, k7: again}\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n`,
    );
    write(ws, 'catalog-info.yaml', COMPONENT('billing-worker'));
    // Killed after 60 s: the quadratic check took minutes.
    const run = wsctx(['index', '--workspace', ws, '--no-cache', '--json'], { timeoutMs: 60_000 });
    assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
    const summary = JSON.parse(run.stdout) as Summary;
    assert.deepEqual(summary.entitiesByKind, { Component: 1 });
    assert.deepEqual(
      summary.problems.map((p) => [p.path, p.line, p.code, p.message]),
      [['big/catalog-info.yaml', 5, 'yaml.syntax', 'YAML error: Map keys must be unique; this document is skipped']],
    );
  });

  it("a $json placeholder naming 6,000 nested lists is that entity's problem, and the pass goes on", () => {
    const ws = tempDir('deep-json');
    write(
      ws,
      'catalog-info.yaml',
      [
        'apiVersion: backstage.io/v1alpha1\nkind: API\nmetadata:\n  name: deep\nspec:\n  type: openapi\n  lifecycle: production\n  owner: payments\n  definition:\n    $json: ./deep.json',
        COMPONENT('billing-worker'),
      ].join('\n---\n'),
    );
    write(ws, 'deep.json', `${'['.repeat(6000)}${']'.repeat(6000)}`);
    // Nesting written straight into a catalog file, flow and block, is refused the same way.
    write(ws, 'flow/catalog-info.yaml', `${COMPONENT('flow')}  extra: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`);
    const run = wsctx(['index', '--workspace', ws, '--no-cache', '--json']);
    assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
    const summary = JSON.parse(run.stdout) as Summary;
    assert.deepEqual(summary.entitiesByKind, { API: 1, Component: 1 });
    assert.deepEqual(
      summary.problems.map((p) => [p.path, p.line, p.code, p.message]),
      [
        [
          'catalog-info.yaml',
          9,
          'catalog.placeholder-unresolved',
          'Placeholder $json found data nested deeper than 100 levels at ./deep.json; spec.definition of api:default/deep is left unresolved (the entity is indexed)',
        ],
        [
          'flow/catalog-info.yaml',
          9,
          'yaml.syntax',
          'YAML error: Nested deeper than 100 levels of mappings and lists; this document is skipped',
        ],
      ],
    );
  });

  it('refuses a 300 MB .wsctx.yaml by its size, without reading it', () => {
    const ws = tempDir('huge-config');
    write(ws, 'catalog-info.yaml', COMPONENT('billing-worker'));
    const config = path.join(ws, '.wsctx.yaml');
    fs.writeFileSync(config, 'organization: Huge\n');
    // Sparse: 300 MB long, costing no disk.
    fs.truncateSync(config, 300 * 1024 * 1024);
    const run = wsctx(['index', '--workspace', ws, '--no-cache']);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `wsctx: a problem in the workspace configuration:\n${config}:1: could not be read: the file holds 314,572,800 bytes; a configuration file may hold at most 262,144, so it is not read\n`,
    );
  });
});
