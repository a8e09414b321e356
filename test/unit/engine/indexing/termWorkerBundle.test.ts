import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { runBesideWorker } from '../../../helpers/workerBundle';

const REPO = path.resolve(__dirname, '../../../..');
const INDEXING = path.join(REPO, 'server/src/engine/indexing');

/**
 * A host bundle that indexes 2,100 sections (700 pages: past the 2,000 a cold index counts in its
 * workers) as a cold pass does, then on its own thread, and prints both postings' digests.
 */
const PROBE = `
import { createHash } from 'node:crypto';
import { SectionStore } from './sectionStore';
import { buildDoc } from '../sources/docBuilder';
const pages = () => {
  const docs: ReturnType<typeof buildDoc>["doc"][] = [];
  for (let i = 0; i < 700; i++) {
    const text = '# Runbook ' + i + '\\n\\nRoll back the billing-worker, step ' + i + '.\\n\\n## How do I retry ' + i + '?\\n\\nSet \`spec.rollout.maxSurge\` to ' + (i % 9) + '.\\n\\n## Notes\\n\\nRetries of straße ' + i + '.\\n';
    docs.push(buildDoc({ path: 'svc-' + (i % 13) + '/docs/page-' + i + '.md', text, sourceKind: 'catalog_doc', format: 'markdown' }).doc);
  }
  return docs;
};
const digest = (store: SectionStore) => createHash('sha256').update(store.postings.serialize()).digest('hex');
void (async () => {
  const docs = pages();
  const pooled = new SectionStore();
  const inWorkers = await pooled.prepareRebuild(docs, { workers: 2 });
  pooled.apply(docs);
  const here = new SectionStore();
  here.apply(docs);
  console.log(JSON.stringify({ inWorkers, sections: pooled.sectionCount, pooled: digest(pooled), here: digest(here) }));
})();
`;

describe('engine/indexing/termWorker bundle', function () {
  // One esbuild run and a child process.
  this.timeout(60_000);

  it('counts a cold index in dist/termWorker.js beside the host bundle, into the postings one thread builds', async () => {
    // A layout like an installed extension or the npm package: <root>/dist/*.js.
    const { stdout, stderr } = await runBesideWorker({ worker: path.join(INDEXING, 'termWorker.ts'), probe: PROBE });
    assert.equal(stderr, '');
    const printed = JSON.parse(stdout) as { inWorkers: boolean; sections: number; pooled: string; here: string };
    assert.equal(printed.inWorkers, true);
    assert.equal(printed.sections, 2_100);
    assert.match(printed.here, /^[0-9a-f]{64}$/);
    assert.equal(printed.pooled, printed.here);
  });
});
