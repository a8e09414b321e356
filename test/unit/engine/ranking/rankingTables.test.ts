/**
 * The ranker's per-state tables (rankingTables.ts) on a real layout of nested repositories: the
 * example workspace's three repositories inside the top folder's own.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import { rankingTables } from '../../../../server/src/engine/ranking/rankingTables';
import { copyExampleWorkspace, removeTempDirs } from '../../../helpers/tempWorkspace';

const REPOSITORIES = ['payments-platform', 'storefront', 'platform-infra'];

describe("the ranker's per-state tables", function () {
  this.timeout(60_000);
  let engine: Engine;

  before(() => {
    const dir = copyExampleWorkspace({ git: true });
    engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }], settings: { refreshAfterMs: 0 } });
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it("places each document in its innermost repository, not the workspace's top one", async () => {
    const state = await engine.waitForIndex();
    const tables = rankingTables(state);
    const roots = new Map<string, string | undefined>();
    tables.docs.forEach((doc, d) => roots.set(doc.path, tables.rootOfDoc[d]));
    assert.equal(roots.get('platform-infra/docs/runbooks/rollback.md'), 'platform-infra');
    assert.equal(roots.get('AGENTS.md'), '');
    for (const [docPath, root] of roots) {
      const top = docPath.split('/')[0];
      assert.equal(root, REPOSITORIES.includes(top) ? top : '', docPath);
    }
  });
});
