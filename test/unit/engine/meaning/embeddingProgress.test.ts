/**
 * What background embedding reports while it runs, with the real packaged model on a fresh cache:
 * "loading the model" until the first chunk is in (that chunk carries the model's load), then
 * sections done of total, with seconds left only once a rate has been measured after the load;
 * and the bulk workers' threads run below normal priority (Linux), so the load and the embedding
 * leave the cores to the language server and the editor.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { Engine } from '../../../../server/src/engine/engine';
import { EMBED_CHUNK_SECTIONS, type MeaningProgress } from '../../../../server/src/engine/meaning/sectionVectors';
import { BACKGROUND_NICE } from '../../../../server/src/engine/embeddings/embedWorker';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

/** Nice values of this process's threads (field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

describe('embedding progress (local model)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('says it is loading the model, then counts sections, with a time left measured after the load', async () => {
    const dir = tempDir('progress');
    // Enough sections for three chunks: the rate needs a chunk after the one that loaded the model.
    const topics = ['billing', 'refunds', 'ledger', 'dunning', 'payouts', 'invoices', 'disputes', 'tokens'];
    for (let doc = 0; doc < 10; doc++) {
      const sections = Array.from(
        { length: 9 },
        (_, i) =>
          `## ${topics[(doc + i) % topics.length]} step ${i}\n\nRun the ${topics[i % topics.length]} job ${doc}-${i} and check its queue before the next release.\n`,
      );
      write(dir, `docs/guide-${doc}.md`, `# Guide ${doc}\n\n${sections.join('\n')}`);
    }
    const engine = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: tempDir('progress-cache'),
      embeddings: { provider: 'local' },
    });
    const seen: MeaningProgress[] = [];
    let niceWhileEmbedding: number[] = [];
    engine.onDidChangeMeaning(() => {
      const progress = engine.status().meaning?.embedding;
      if (progress) seen.push({ ...progress });
      if (progress && !progress.loadingModel && process.platform === 'linux') niceWhileEmbedding = threadNiceValues();
    });
    try {
      const state = await engine.waitForIndex();
      await engine.waitForMeaning();
      const total = state.counts.sections;
      assert.ok(total > 2 * EMBED_CHUNK_SECTIONS, `${total} sections`);
      // First: the job starts with the model still to load, and nothing is estimated.
      assert.deepEqual(seen[0], { done: 0, total, loadingModel: true, sectionsPerSecond: null, secondsLeft: null });
      // The first chunk carried the load: counted, but no rate from it.
      assert.equal(seen[1].loadingModel, false);
      assert.equal(seen[1].done, EMBED_CHUNK_SECTIONS);
      assert.equal(seen[1].secondsLeft, null);
      // From the next chunk on, a rate measured after the load, and the time left from it.
      const later = seen.slice(2);
      assert.ok(later.length > 0);
      for (const p of later) {
        assert.equal(p.loadingModel, false);
        assert.ok(p.sectionsPerSecond !== null && p.sectionsPerSecond > 0, JSON.stringify(p));
        assert.ok(p.secondsLeft !== null && Math.abs(p.secondsLeft - (total - p.done) / p.sectionsPerSecond) < 1e-6);
      }
      assert.deepEqual(
        seen.map((p) => p.done),
        [...seen.map((p) => p.done)].sort((a, b) => a - b),
      );
      assert.equal(engine.status().meaning?.embedding, null);
      if (process.platform === 'linux')
        assert.ok(
          niceWhileEmbedding.includes(BACKGROUND_NICE),
          `no thread at nice ${BACKGROUND_NICE}: ${niceWhileEmbedding.join(' ')}`,
        );
    } finally {
      engine.dispose();
    }
  });
});
