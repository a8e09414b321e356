import assert from 'node:assert/strict';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import { FACET_WEIGHT } from '../../../../server/src/library/context/phraseMatch';
import { searchSections, type SearchHit } from '../../../../server/src/library/context/sectionSearch';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { indexDir, pageText, referencePages, run, writeWorkspace, type Indexed } from './herald';

const TASK = 'which environment do merchants integrate against with test keys?';

describe('get_context step 6, section search: a facet scores a section only when the section is about it', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(
      writeWorkspace({
        '.context/reference/environments.md': pageText(
          { title: 'Environments' },
          '# Environments\n\n## Sandbox\n\nMerchants integrate against the sandbox with test keys (`sk_test_...`).\n\n## Live\n\nLive keys move real money; only the payments team holds them.\n',
        ),
        '.context/guides/coding-rules.md': pageText(
          { title: 'Coding rules' },
          '# Coding rules\n\n## Before you push\n\nRun the test suite. Never commit keys or other secrets.\n',
        ),
      }),
      'facets',
    );
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  const heading = (h: SearchHit) => h.entry.section.headingPath.slice(1).join(' › ');

  it('lets a facet whose words a section holds only in its body rank it, never give it a similarity', async () => {
    const index = contextIndex(lib.view);
    const search = (queries: string[]) =>
      searchSections({ index, sections: lib.view.sections, queries, names: [], tags: [], liftedPages: new Set() });
    const alone = await search([TASK]);
    const withFacet = await search([TASK, 'test keys']);
    const find = (hits: SearchHit[], h: string) => hits.find((x) => heading(x) === h)!;
    // "test" and "keys" are both in the coding rules' body, in no heading: the facet ranks the
    // section (its fused score grows) but its words score stays the task's own.
    const rulesAlone = find(alone.hits, 'Before you push');
    const rules = find(withFacet.hits, 'Before you push');
    assert.equal(rules.signals.words, rulesAlone.signals.words);
    assert.equal(rules.query, TASK);
    assert.ok(rules.fused > rulesAlone.fused, `${rules.fused} > ${rulesAlone.fused}`);
    // A section whose heading path holds the facet's words is about it: FACET_WEIGHT of its match.
    const sandbox = find((await search(['move real money', 'sandbox environment'])).hits, 'Sandbox');
    assert.deepEqual([sandbox.query, sandbox.signals.words], ['sandbox environment', FACET_WEIGHT]);
  });

  it("sends the page about the task, not the page that mentions the facet's words", async () => {
    const built = await run(lib.view, TASK);
    assert.deepEqual(built.bundle.plan.searches, ['which environment do merchants integrate', 'test keys?']);
    assert.deepEqual(referencePages(built), [['Environments', 'use', false]]);
  });
});
