import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import { libraryView } from '../../../../server/src/library/view/libraryView';
import { DelegatingModelProvider } from '../../../../server/src/library/models/delegatingProvider';
import {
  pagePhrasings,
  isReadWhole,
  sectionQuestions,
  packPhrasings,
} from '../../../../server/src/library/models/derivedText';
import { ModelEnrichment } from '../../../../server/src/library/models/enrichment';
import type { CompletionRequest } from '../../../../server/src/library/models/modelProvider';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { run } from '../context/herald';

describe('model enrichment: Good-for phrasings, read-whole and section questions written in the background', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it('asks for what front matter lacks, keys answers by content, and get_context uses them', async () => {
    const dir = tempDir('enrich');
    write(
      dir,
      '.context/guides/close.md',
      '---\ntitle: Month-end close\n---\n\n# Month-end close\n\n## Accruals\n\nPost accruals by the third working day.\n',
    );
    write(
      dir,
      '.context/guides/declared.md',
      '---\ntitle: Declared\ngood_for: [writing release notes]\nread_whole: false\n---\n\n# Declared\n\nText.\n',
    );
    write(dir, '.context/packs/finance.yaml', 'name: Finance\ndescription: Finance work.\nalways: []\n');
    const calls: CompletionRequest[] = [];
    const provider = new DelegatingModelProvider('scripted-writer', async (request) => {
      calls.push(request);
      const system = request.messages[0].content;
      if (system.includes('"Good for" phrasings of a page'))
        return '{"good_for": ["preparing the books at the end of a month"], "read_whole": true}';
      if (system.includes('"Good for" phrasings of a pack')) return '{"good_for": ["doing finance paperwork"]}';
      if (system.includes('questions a section of a team library answers')) {
        return request.messages[1].content.includes('Accruals')
          ? '{"questions": ["when are accruals booked?"]}'
          : '{"questions": ["what does this page say?"]}';
      }
      return 'not json';
    });
    const engine = new Engine({ folders: [{ name: 'enrich', absPath: dir }], settings: { refreshAfterMs: 0 } });
    try {
      const view = libraryView(await engine.waitForIndex(), '2026-06-01');
      const file = path.join(tempDir('enrich-cache'), 'enrichment.json');
      const enrichment = new ModelEnrichment({ file });
      const report = await enrichment.enrich(view, provider);
      // One card (the declared page has both fields), one pack, four sections (two of them blank preambles still count).
      assert.deepEqual(report, { calls: 5, failures: 0, remaining: 0, provider: 'scripted-writer' });
      const close = view.docs.find((d) => d.title === 'Month-end close')!;
      const declared = view.docs.find((d) => d.title === 'Declared')!;
      assert.deepEqual(pagePhrasings(close, enrichment), {
        phrasings: ['preparing the books at the end of a month'],
        source: 'model',
      });
      assert.equal(isReadWhole(close, enrichment), true);
      assert.deepEqual(pagePhrasings(declared, enrichment), {
        phrasings: ['writing release notes'],
        source: 'front-matter',
      });
      assert.deepEqual(sectionQuestions(close, close.sections[1], enrichment), ['when are accruals booked?']);
      assert.deepEqual(packPhrasings(view.state.packs[0], enrichment), ['doing finance paperwork']);
      // Unchanged content is never asked about again, and the answers survive a restart.
      assert.equal((await enrichment.enrich(view, provider)).calls, 0);
      const reloaded = new ModelEnrichment({ file });
      assert.deepEqual(pagePhrasings(close, reloaded).source, 'model');
      // get_context reads the model's phrasings: the page comes whole (read whole) by what it is for.
      const task = 'preparing the books before the auditors arrive';
      const built = await run(view, task, { notes: enrichment });
      assert.deepEqual(
        built.bundle.reference.map((p) => [p.doc.title, p.reason, p.whole]),
        [['Month-end close', 'use', true]],
      );
      const without = await run(view, task);
      assert.deepEqual(
        without.bundle.reference.map((p) => p.doc.title),
        [],
      );
    } finally {
      engine.dispose();
    }
  });
});
