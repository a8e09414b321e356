/**
 * Meaning-only cases on the example workspace (examples/fernhill-cases.yaml, `kind: meaning`):
 * questions that share no content word with the passage that answers them. Words-only ranking
 * cannot return those passages at all; hybrid ranking (the packaged all-MiniLM-L6-v2 at the
 * contract's 0.40) must bring them into the top 3.
 *
 * Measured with this model: 12 of the 34 cases reach the top 3 in `npm run eval` (contract
 * 2026-12-01.2, meaning measured from each question's crowd; 11 with the model's fixed anchors).
 * The unpadded ONNX graph (embedder id `-g2`) moved boot-buyer-site from the top 3 to rank 6 and
 * brought buyer-reimbursed-late in. The curved meaning term (2026-12-01.4) moved cli-secret-fetch
 * from rank 3 to 4 (11 of 34 in the top 3) while most failing cases rose (what-identifies-a-shop
 * > 20 -> 17, uptime-people 17 -> 10) and the example's hybrid nDCG@10 went 0.653 -> 0.663.
 * The rest lose to passages that share one rarer question term (words weigh 0.60) or the model
 * ranks the answer low even by meaning alone; `npm run eval` prints every case. The list below is
 * the cases that pass today, so a regression in any of them fails this test.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { rankWorkspaceContext } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { isExpected, loadRankingCases } from '../../../helpers/rankingCases';
import { EXAMPLE_WORKSPACE, tempDir } from '../../../helpers/tempWorkspace';

const FOUND_IN_TOP_3 = [
  'purchaser-error-style',
  'cardholder-details-debug',
  'european-records',
  'weekend-shipping',
  'currency-decimals',
  'fix-wrong-entry',
  'blurry-brand-image',
  'disable-risky-change',
  'buyer-reimbursed-late',
  'fewer-purchase-screens',
  'vulnerable-base-image',
];

describe('meaning-only cases on the example workspace (local model)', function () {
  this.timeout(600_000);
  const cases = loadRankingCases().filter((c) => c.kind === 'meaning');
  let engine: Engine;
  let state: IndexState;

  before(async () => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      cacheDir: process.env.WSCTX_TEST_VECTORS ?? tempDir('vectors'),
      embeddings: { provider: 'local' },
    });
    await engine.waitForIndex();
    await engine.waitForMeaning();
    state = engine.current()!;
  });
  after(() => engine.dispose());

  it('words-only ranking returns none of the expected passages', () => {
    for (const c of cases) {
      const ranked = rankWorkspaceContext(state, { question: c.question, limit: 50, now: Date.now() });
      assert.ok(
        !ranked.passages.some((p) => isExpected(c, p.entry.doc.path, p.entry.section.headingPath)),
        `${c.id} found by words alone`,
      );
    }
  });

  it('bounding sections outside the nearest by the last nearest cosine changes no ranking', async () => {
    const questions = loadRankingCases().map((c) => c.question);
    for (const question of questions) {
      const meaning = engine.meaningSource(state, await engine.embedQuery(question))!;
      assert.ok(meaning.outsideCosine !== null && meaning.outsideCosine < 1, `${question}: a bound below 1`);
      const rank = (m: typeof meaning) =>
        rankWorkspaceContext(state, { question, limit: 10, now: Date.UTC(2026, 10, 30), meaning: m }).passages.map(
          (p) => `${p.entry.section.id} ${p.score.toFixed(6)}`,
        );
      assert.deepEqual(rank(meaning), rank({ ...meaning, outsideCosine: null }), question);
    }
  });

  it("measures meaning from the question's crowd: 0 at about its 90th-percentile section, 1 at 0.40 above", async () => {
    for (const c of cases.slice(0, 8)) {
      const meaning = engine.meaningSource(state, await engine.embedQuery(c.question))!;
      const cosines = state.sections.map((_, o) => meaning.cosine(o)).filter((x): x is number => x !== null);
      const below = cosines.filter((x) => x <= meaning.anchors.unrelated).length / cosines.length;
      assert.ok(
        below > 0.85 && below < 0.95,
        `${c.id}: ${(below * 100).toFixed(1)}% of sections at or below ${meaning.anchors.unrelated}`,
      );
      assert.equal(Math.round((meaning.anchors.related - meaning.anchors.unrelated) * 1000), 400, c.id);
    }
  });

  for (const id of FOUND_IN_TOP_3) {
    it(`hybrid ranking finds ${id} in the top 3`, async () => {
      const c = cases.find((x) => x.id === id)!;
      const query = await engine.embedQuery(c.question);
      const ranked = rankWorkspaceContext(state, {
        question: c.question,
        limit: 10,
        now: Date.now(),
        meaning: engine.meaningSource(state, query),
      });
      const rank = ranked.passages.findIndex((p) => isExpected(c, p.entry.doc.path, p.entry.section.headingPath)) + 1;
      assert.ok(rank >= 1 && rank <= 3, `"${c.question}": rank ${rank || 'not in top 10'}`);
      const why = ranked.passages[rank - 1].why;
      assert.equal(why[0].raw, 0, 'it shares no word with the question');
      assert.ok(why[1].raw > 0, 'it came by meaning');
    });
  }
});
