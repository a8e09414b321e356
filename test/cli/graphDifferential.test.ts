/**
 * `wsctx graph --format json` against what Backstage itself stores, over two real public
 * catalogs: Backstage's example catalog (packages/catalog-model/examples) and the demo
 * deployment's own catalog (backstage/demo). The expected relations come from
 * `@backstage/catalog-model` and the rules of Backstage's processors (helpers/backstageRelations.ts);
 * the sets must be equal: recall and precision 1.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { backstageCatalog, recallPrecision } from '../helpers/backstageRelations';
import { wsctx } from '../helpers/cli';
import { removeTempDirs, tempDir } from '../helpers/tempWorkspace';

/** Each catalog and the number of relations Backstage stores for it (so an empty helper fails). */
const CATALOGS: Record<string, [dir: string, relations: number]> = {
  'backstage-catalog-examples': [
    path.resolve(__dirname, '../fixtures/backstage-catalog-examples/packages/catalog-model/examples'),
    148,
  ],
  'backstage-demo': [path.resolve(__dirname, '../fixtures/backstage-demo'), 10],
};

interface GraphJson {
  entities: { ref: string }[];
  edges: { source: string; type: string; target: string; declaredAt: string; field: string }[];
}

describe("wsctx graph against Backstage's own relations", () => {
  after(removeTempDirs);

  for (const [name, [source, relationCount]] of Object.entries(CATALOGS)) {
    it(`${name}: every relation Backstage stores, both directions, and nothing else`, async function () {
      if (!fs.existsSync(source)) throw new Error(`catalog missing at ${source}`);
      // A copy, so nothing the CLI could write lands beside the shared data.
      const dir = tempDir(name);
      fs.cpSync(source, dir, { recursive: true });
      const run = wsctx(['graph', '--format', 'json', '--workspace', dir, '--no-cache']);
      assert.equal(run.code, 0, run.stderr);
      const graph = JSON.parse(run.stdout) as GraphJson;
      const expected = await backstageCatalog(dir);
      assert.equal(expected.relations.size, relationCount);

      const ours = new Set(graph.edges.map((e) => `${e.source.toLowerCase()} ${e.type} ${e.target.toLowerCase()}`));
      const score = recallPrecision(expected.relations, ours);
      assert.deepEqual({ missing: score.missing, extra: score.extra }, { missing: [], extra: [] });
      assert.equal(score.recall, 1);
      assert.equal(score.precision, 1);
      // Every entity Backstage accepts is in the graph (the graph may hold more: custom kinds).
      const entities = new Set(graph.entities.map((e) => e.ref.toLowerCase()));
      assert.deepEqual(
        [...expected.entities].filter((e) => !entities.has(e)),
        [],
      );
      // Both halves carry the place the pair was declared.
      for (const edge of graph.edges)
        assert.match(edge.declaredAt, /^[^:]+\.ya?ml:\d+$/, `${edge.source} ${edge.type} ${edge.target}`);
    });
  }
});
