import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import * as contract from '../../../../server/src/engine/ranking/contract';
import {
  rankWorkspaceContext,
  weighedQuestionUnits,
  type WeighedUnit,
} from '../../../../server/src/engine/ranking/workspaceContextRanker';
import {
  answerThreshold,
  boundOutside,
  cannotReach,
  firstWholeTerms,
  FIRST_ROUND_POSTINGS,
  largestBonuses,
  nextWholeTerm,
} from '../../../../server/src/engine/store/candidateBound';
import { loadRankingCases } from '../../../helpers/rankingCases';
import { EXAMPLE_WORKSPACE } from '../../../helpers/tempWorkspace';

const WORDS_ONLY = { meaningMax: null, bonusMax: 0 };

/** `actual` equals `expected` up to floating-point rounding. */
function close(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} is not ${expected}`);
}

describe('store/candidateBound', () => {
  const units: WeighedUnit[] = [
    { term: 'rollback', parts: [], weight: 3 },
    { term: 'deploy', parts: [], weight: 1 },
  ];

  it('reads the rarest lists whole first, up to the first round budget, and the rest one at a time rarest first', () => {
    const df = new Map([
      ['rollback', 3000],
      ['deploy', 2000],
      ['ghost', 0],
      ['billing-worker', 50],
      ['billing', 900],
      ['worker', 5000],
    ]);
    const asked: WeighedUnit[] = [
      ...units,
      { term: 'ghost', parts: [], weight: 9 },
      { term: 'billing-worker', parts: ['billing', 'worker'], weight: 6 },
    ];
    const count = (t: string) => df.get(t)!;
    const first = firstWholeTerms(asked, count);
    // 0 + 50 + 900 + 2000 = 2950; rollback's 3000 would pass 4096.
    assert.deepEqual(first, ['ghost', 'billing-worker', 'billing', 'deploy']);
    assert.ok(first.reduce((n, t) => n + count(t), 0) <= FIRST_ROUND_POSTINGS);
    assert.equal(nextWholeTerm(asked, count, new Set(first)), 'rollback');
    assert.equal(nextWholeTerm(asked, count, new Set([...first, 'rollback'])), 'worker');
    assert.equal(nextWholeTerm(asked, count, new Set([...first, 'rollback', 'worker'])), undefined);
    // One list longer than the budget is still read: something must be.
    assert.deepEqual(
      firstWholeTerms([{ term: 'the-common', parts: [], weight: 1 }], () => 90_000),
      ['the-common'],
    );
  });

  it('bounds a section holding none of the lists read by the share of the units it can hold, plus every bonus', () => {
    const bonuses = { meaningMax: null, bonusMax: 0.15 };
    // Holding only `deploy`: words at most 1/4, over the gate, so the bonuses and the title's share.
    close(boundOutside(units, new Set(['rollback']), WORDS_ONLY), 0.25 + contract.TITLE_WEIGHT * 0.25);
    close(boundOutside(units, new Set(['rollback']), bonuses), 0.25 + 0.15 + contract.TITLE_WEIGHT * 0.25);
    close(boundOutside(units, new Set(['rollback', 'deploy']), bonuses), 0);
    // Under the gate no bonus is paid.
    const lopsided: WeighedUnit[] = [
      { term: 'rare', parts: [], weight: 9 },
      { term: 'common', parts: [], weight: 1 },
    ];
    close(boundOutside(lopsided, new Set(['rare']), bonuses), 0.1);
    // With meaning, the best meaning a section outside the nearest can have lifts the match over it.
    const hybrid = contract.WORDS_WEIGHT * 0.1 + contract.MEANING_WEIGHT * 0.5;
    close(
      boundOutside(lopsided, new Set(['rare']), { meaningMax: 0.5, bonusMax: 0.15 }),
      hybrid + 0.15 + contract.TITLE_WEIGHT * 0.1,
    );
    // An identifier whose whole form was read can still be reached through a part not read.
    const identifier: WeighedUnit[] = [
      { term: 'billing-worker', parts: ['billing', 'worker'], weight: 4 },
      { term: 'retry', parts: [], weight: 4 },
    ];
    close(
      boundOutside(identifier, new Set(['billing-worker', 'billing', 'retry']), WORDS_ONLY),
      0.5 + contract.TITLE_WEIGHT * 0.5,
    );
    close(
      boundOutside(identifier, new Set(['billing-worker', 'billing', 'worker']), WORDS_ONLY),
      0.5 + contract.TITLE_WEIGHT * 0.5,
    );
  });

  it("takes the largest bonuses from the named entities' share, the newest commit and the runs", () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    const day = 86_400_000;
    assert.equal(largestBonuses({ namedShare: null, newestCommitTime: null, now, anyHealthy: false }), 0);
    close(
      largestBonuses({ namedShare: 0.1, newestCommitTime: now, now, anyHealthy: true }),
      contract.NAMED_ENTITY_WEIGHT + contract.RECENCY_WEIGHT + contract.RUN_HEALTH_WEIGHT,
    );
    close(
      largestBonuses({ namedShare: 1, newestCommitTime: now - 100 * day, now, anyHealthy: false }),
      contract.RECENCY_WEIGHT * contract.recencyRaw(100 * day),
    );
  });

  it('takes the threshold from the limit-th passage the cap per document does not hold back, else the floor', () => {
    const passages = [{ score: 1.2 }, { score: 1.1 }, { score: 0.9, capped: true }, { score: 0.7 }];
    assert.equal(answerThreshold(passages, 1), 1.2);
    assert.equal(answerThreshold(passages, 3), 0.7);
    assert.equal(answerThreshold(passages, 4), contract.FLOOR);
    assert.equal(answerThreshold([{ score: 0.01 }], 1), contract.FLOOR);
    assert.equal(cannotReach(0.69, 0.7), true);
    assert.equal(cannotReach(0.7, 0.7), false);
  });

  describe('on the example workspace', function () {
    this.timeout(60_000);
    let engine: Engine;
    let state: IndexState;
    before(async () => {
      engine = new Engine({
        folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
        embeddings: { provider: 'off' },
      });
      state = await engine.waitForIndex();
    });
    after(() => engine.dispose());

    it('never bounds a passage below its score: for every question and every set of lists read, rarest first', () => {
      const questions = [...new Set(loadRankingCases().map((c) => c.question))];
      let checked = 0;
      for (const question of questions) {
        const df = (t: string) => state.lexical.df(t);
        const asked = weighedQuestionUnits(question, df, state.lexical.sectionCount);
        const now = Date.now();
        const ranked = rankWorkspaceContext(state, { question, limit: 50, now });
        // The namespace's facts as a store holds them (storeReader.ts), here from the whole index.
        const namedKeys = new Set(ranked.named.map((n) => n.key));
        const namedSections = [...state.docs.values()]
          .filter((d) => d.entityRefs.some((r) => namedKeys.has(r)))
          .reduce((n, d) => n + d.sections.length, 0);
        const commitTimes = [...state.commits.values()]
          .map((c) => c.lastCommitTime)
          .filter((t): t is number => t !== null);
        const bonusMax = largestBonuses({
          namedShare: namedKeys.size > 0 ? Math.min(1, namedSections / state.lexical.sectionCount) : null,
          newestCommitTime: commitTimes.length ? Math.max(...commitTimes) : null,
          now,
          anyHealthy: [...state.runHealth.values()].some((h) => h.verdict === 'succeeded'),
        });
        const read = new Set<string>();
        for (let next = nextWholeTerm(asked, df, read); ; next = nextWholeTerm(asked, df, read)) {
          const bound = boundOutside(asked, read, { meaningMax: null, bonusMax });
          for (const p of ranked.passages) {
            const holdsRead = [...read].some((t) => state.lexical.fieldCounts(p.entry.ordinal, t) !== 0);
            if (holdsRead) continue;
            assert.ok(
              p.score <= bound + 1e-9,
              `${question}: ${p.entry.section.id} scores ${p.score} over the bound ${bound} with ${[...read].join(', ') || 'nothing'} read`,
            );
            checked++;
          }
          if (next === undefined) break;
          read.add(next);
        }
      }
      assert.ok(checked > 1000, `checked ${checked} passages`);
    });
  });
});
