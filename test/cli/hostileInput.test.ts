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
import { MAX_PASS_GLOB_INSTRUCTIONS, MAX_SOURCE_GLOB_INSTRUCTIONS } from '../../server/src/engine/workspace/globBudget';
import { globSize } from '../../server/src/engine/workspace/globMatch';
import { wsctx } from '../helpers/cli';
import { writeRangeLocationTargets, writeRangeSourceGlobs } from '../helpers/hostileWorkspaces';
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

  it('follows a Location of 200 targets built from {1..1000} ranges within the pass budget, and names each target past it at its line', () => {
    const ws = tempDir('range-targets');
    const { targets, lines } = writeRangeLocationTargets(ws);
    // Killed after 60 s: before, 40 such targets took 24.6 s and 200 several minutes.
    const run = wsctx(['index', '--workspace', ws, '--no-cache', '--json'], { timeoutMs: 60_000 });
    assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
    const summary = JSON.parse(run.stdout) as Summary;
    assert.deepEqual(summary.entitiesByKind, { Location: 1, Component: 2 });
    // What the pass budget lets through, target by target in the order written.
    const sizes = targets.map((t) => globSize(t.slice(2), { dot: false }));
    let spent = 0;
    const followed = sizes.map((size) => {
      assert.ok(size.ok, 'each glob alone is within its own cap');
      if (spent + size.instructions > MAX_PASS_GLOB_INSTRUCTIONS) return false;
      spent += size.instructions;
      return true;
    });
    const refusedAt = followed.indexOf(false);
    assert.ok(refusedAt > 10 && refusedAt < 100, String(refusedAt));
    const located = summary.problems.filter((p) => p.code.startsWith('catalog.location'));
    assert.deepEqual(
      located.map((p) => [p.line, p.code]),
      targets
        .slice(1)
        .map((_, i) => [
          lines[i + 1],
          followed[i + 1] ? 'catalog.location-missing-target' : 'catalog.location-glob-refused',
        ]),
    );
    assert.match(
      located[refusedAt - 1].message,
      /^Location target "\.\/catalogs\/\{1\.\.1000\}.*\.\.\. is not read: the Location globs of one pass may compile to 65,536 automaton instructions in all, and [\d,]+ are taken \(this one needs [\d,]+\); name the files, or use fewer globs \(spec\.targets\[\d+\] of location:default\/ranges\)$/,
    );
  });

  it('refuses 250 {1..1000}-range globs in .wsctx.yaml sources.* by their size, at their line, at once', () => {
    const ws = tempDir('range-sources');
    writeRangeSourceGlobs(ws);
    // Killed after 60 s: before, 60 such globs took 46.5 s and 4.1 GB, and 250 never finished.
    const run = wsctx(['index', '--workspace', ws, '--no-cache'], { timeoutMs: 60_000 });
    assert.equal(run.code, 1, `exit ${run.code}: ${run.stderr}`);
    assert.match(
      run.stderr,
      new RegExp(
        `^wsctx: a problem in the workspace configuration:\\n${path.join(ws, '.wsctx.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: sources\\.catalog: these globs would take the source globs to [\\d,]+ automaton instructions, past the ${MAX_SOURCE_GLOB_INSTRUCTIONS.toLocaleString('en-US')} one pass may run over every file; write fewer alternatives, or fewer globs; not applied\\n$`,
      ),
    );
  });

  it("keeps a served folder's dir: ref inside it: a sibling folder's docs stay its own entity's", () => {
    const parent = tempDir('sibling-folders');
    const alpha = path.join(parent, 'alpha');
    const beta = path.join(parent, 'beta');
    const entity = (name: string, ref: string) =>
      `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${name}\n  annotations:\n    backstage.io/techdocs-ref: ${ref}\nspec:\n  type: service\n  owner: team-x\n  lifecycle: production\n`;
    write(alpha, 'catalog-info.yaml', entity('alpha-service', 'dir:../beta/site'));
    write(beta, 'catalog-info.yaml', entity('beta-service', 'dir:./site'));
    write(beta, 'site/mkdocs.yml', 'site_name: Beta\nnav:\n  - index.md\n');
    write(beta, 'site/docs/index.md', '# Beta runbook\n\nRestart the beta queue consumer with care.\n');
    const folders = ['--workspace', alpha, '--workspace', beta, '--no-cache', '--json'];
    const index = wsctx(['index', ...folders]);
    assert.equal(index.code, 0, index.stderr);
    assert.deepEqual(
      (JSON.parse(index.stdout) as Summary).problems.map((p) => [p.path, p.line, p.code, p.message]),
      [
        [
          'alpha/catalog-info.yaml',
          6,
          'techdocs.outside-folder',
          "Annotation 'backstage.io/techdocs-ref' of component:default/alpha-service leads out of its served folder ('../beta/site' is 'beta/site'); a folder's refs stay inside it, so it is not read.",
        ],
      ],
    );
    // Before, the page was answered as alpha-service's too.
    const ask = wsctx(['ask', 'restart the beta queue consumer', ...folders]);
    assert.equal(ask.code, 0, ask.stderr);
    const page = (
      JSON.parse(ask.stdout) as { passages: { sourceRef: { path: string }; entityRefs: string[] }[] }
    ).passages.find((p) => p.sourceRef.path === 'beta/site/docs/index.md');
    assert.deepEqual(page?.entityRefs, ['component:default/beta-service']);
  });
});
