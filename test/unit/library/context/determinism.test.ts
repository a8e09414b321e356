/**
 * get_context is deterministic with embeddings on: the library's phrasings are embedded with the
 * index (engine.ts `syncMeaning`, the texts named by services/services.ts), never lazily by the first request, so the first call and every
 * later one compare the task with the same vectors and send the same bundle.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import { libraryPhrasingTexts } from '../../../../server/src/library/context/phrasingTexts';
import { createServices } from '../../../../server/src/services/services';
import { callTool } from '../../../../server/src/tools/callTool';
import { getContextTool, type GetContextOutput } from '../../../../server/src/tools/getContext';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';
import { copyTaxwell } from './herald';

describe('get_context with embeddings: phrasings embedded with the index (local model)', function () {
  this.timeout(180_000);
  after(() => removeTempDirs());

  it('has every phrasing vector before the first request, and answers the first call as every later one', async () => {
    const dir = copyTaxwell();
    const engine = new Engine({
      folders: [{ name: 'taxwell', absPath: dir }],
      cacheDir: tempDir('cache'),
      embeddings: { provider: 'local' },
    });
    // As every host does: the services right after the engine (they name the phrasings to embed).
    const services = createServices({ engine });
    try {
      const state = await engine.waitForIndex();
      await engine.waitForMeaning();
      const texts = libraryPhrasingTexts(state);
      assert.ok(
        texts.includes('writing a cold email to a prospect'),
        `a pack's phrasing is among them: ${texts.join(' | ')}`,
      );
      // Every phrasing has its vector already: the very first comparison is by meaning, for all of them.
      const scores = await services.textMeaning!.similarities('cold email to a CFO switching from Avalara', texts);
      assert.ok(
        scores?.every((s: number | null) => typeof s === 'number'),
        'no phrasing waits for a first request',
      );
      const ask = async () =>
        (await callTool(
          services,
          getContextTool,
          { task: 'answer a prospect who asks how our price compares', format: 'json' },
          { sessionId: 's' },
        )) as GetContextOutput;
      const shape = (out: GetContextOutput) =>
        JSON.stringify([
          out.packs,
          out.pages.map((p) => [p.path, p.reason, p.sections.map((s) => [s.id, s.similarity])]),
        ]);
      const first = await ask();
      const second = await ask();
      assert.equal(shape(second), shape(first));
      assert.equal(first.steps.meaning, true);
    } finally {
      engine.dispose();
    }
  });
});
