import assert from 'node:assert/strict';
import {
  evaluateQuery,
  firstRelevantRank,
  meanMetrics,
  ndcgAt,
  rankByScore,
  recallAt,
  reciprocalRankAt,
  type Judgments,
} from '../../../bench/metrics';

const judged = (entries: Record<string, number>): Judgments => new Map(Object.entries(entries));
const close = (actual: number | null, expected: number) => {
  assert.notEqual(actual, null);
  assert.ok(Math.abs(actual! - expected) < 1e-12, `expected ${expected}, got ${actual}`);
};
/** Ten non-relevant ids followed by `tail`. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`);

describe('bench/metrics', () => {
  describe('one relevant document', () => {
    const one = judged({ a: 1 });

    it('at rank 1 scores 1 everywhere', () => {
      assert.deepEqual(evaluateQuery(['a', 'x', 'y'], one), { ndcg10: 1, recall5: 1, recall10: 1, mrr10: 1 });
    });

    it('at rank 3: nDCG 1/log2(4) = 0.5, MRR 1/3', () => {
      assert.deepEqual(evaluateQuery([...filler(2), 'a'], one), { ndcg10: 0.5, recall5: 1, recall10: 1, mrr10: 1 / 3 });
    });

    it('at rank 7: outside recall@5, inside recall@10; nDCG 1/log2(8) = 1/3', () => {
      const m = evaluateQuery([...filler(6), 'a'], one)!;
      close(m.ndcg10, 1 / 3);
      assert.equal(m.recall5, 0);
      assert.equal(m.recall10, 1);
      close(m.mrr10, 1 / 7);
    });

    it('at rank 11 counts nothing, but is still found by firstRelevantRank', () => {
      const ranked = [...filler(10), 'a'];
      assert.deepEqual(evaluateQuery(ranked, one), { ndcg10: 0, recall5: 0, recall10: 0, mrr10: 0 });
      assert.equal(firstRelevantRank(ranked, one), 11);
      assert.equal(firstRelevantRank(filler(3), one), null);
    });

    it('an empty ranking scores 0', () => {
      assert.deepEqual(evaluateQuery([], one), { ndcg10: 0, recall5: 0, recall10: 0, mrr10: 0 });
    });
  });

  describe('graded relevance', () => {
    it('uses linear gain over log2(rank + 1), against the ideal order', () => {
      // DCG = 1/log2(2) + 0 + 2/log2(4) + 1/log2(5) = 2.430676558073393
      // IDCG = 2/log2(2) + 1/log2(3) + 1/log2(4) = 3.1309297535714578
      const grades = judged({ a: 2, b: 1, c: 1 });
      close(ndcgAt(['b', 'x', 'a', 'c'], grades), 2.430676558073393 / 3.1309297535714578);
      close(ndcgAt(['b', 'x', 'a', 'c'], grades), 0.7763433706236033);
      assert.equal(ndcgAt(['a', 'b', 'c'], grades), 1);
      assert.equal(ndcgAt(['a', 'c', 'b'], grades), 1, 'equal grades are interchangeable');
    });

    it('ignores judgments of grade 0 and below', () => {
      const grades = judged({ a: 1, z: 0, w: -1 });
      assert.deepEqual(evaluateQuery(['z', 'w', 'a'], grades), { ndcg10: 0.5, recall5: 1, recall10: 1, mrr10: 1 / 3 });
    });

    it('two equally relevant documents, one at rank 3: nDCG 1.5 / (1 + 1/log2(3))', () => {
      const grades = judged({ a: 1, b: 1 });
      close(ndcgAt(['a', 'x', 'b'], grades), 0.9197207891481876);
      assert.equal(ndcgAt(['b', 'a'], grades), 1);
      assert.equal(recallAt(['a', 'x', 'y'], grades, 5), 0.5);
      assert.equal(reciprocalRankAt(['x', 'b', 'a'], grades), 0.5);
    });

    it('more relevant documents than k: the ideal is cut at k too', () => {
      const ids = Array.from({ length: 12 }, (_, i) => `r${i}`);
      const grades = judged(Object.fromEntries(ids.map((id) => [id, 1])));
      assert.equal(ndcgAt(ids, grades, 10), 1);
      close(recallAt(ids, grades, 10), 10 / 12);
      close(recallAt(ids, grades, 5), 5 / 12);
    });
  });

  it('a document listed twice counts once, at its first position', () => {
    const m = evaluateQuery(['x', 'x', 'a'], judged({ a: 1 }))!;
    close(m.ndcg10, 0.6309297535714575); // 'a' is second once the repeat is dropped: 1/log2(3)
    assert.equal(m.mrr10, 0.5);
    assert.equal(ndcgAt(['a', 'a'], judged({ a: 1 })), 1, 'a repeat of a relevant document earns nothing more');
  });

  describe('queries with no relevant document', () => {
    it('have no value', () => {
      for (const grades of [judged({}), judged({ a: 0 })]) {
        assert.equal(ndcgAt(['a'], grades), null);
        assert.equal(recallAt(['a'], grades, 5), null);
        assert.equal(reciprocalRankAt(['a'], grades), null);
        assert.equal(evaluateQuery(['a'], grades), null);
      }
    });

    it('are left out of the means and counted as unjudged', () => {
      const a = evaluateQuery(['a'], judged({ a: 1 }));
      const b = evaluateQuery(['x', 'x2', 'b'], judged({ b: 1 }));
      const mean = meanMetrics([a, null, b]);
      assert.deepEqual(mean, {
        ndcg10: 0.75,
        recall5: 1,
        recall10: 1,
        mrr10: (1 + 1 / 3) / 2,
        queries: 2,
        unjudged: 1,
      });
      assert.deepEqual(meanMetrics([null]), { ndcg10: 0, recall5: 0, recall10: 0, mrr10: 0, queries: 0, unjudged: 1 });
    });
  });

  describe('rankByScore', () => {
    it('sorts by score, highest first, and breaks ties by id', () => {
      assert.deepEqual(
        rankByScore(
          new Map([
            ['b', 1],
            ['c', 2],
            ['a', 1],
            ['d', 0.5],
          ]),
        ),
        ['c', 'a', 'b', 'd'],
      );
    });

    it('gives the same list whatever order equal scores arrive in', () => {
      const one = rankByScore(
        new Map([
          ['q', 1],
          ['p', 1],
          ['r', 1],
        ]),
      );
      const two = rankByScore(
        new Map([
          ['r', 1],
          ['q', 1],
          ['p', 1],
        ]),
      );
      assert.deepEqual(one, ['p', 'q', 'r']);
      assert.deepEqual(two, one);
      // So a tie between a relevant and a non-relevant document always resolves the same way.
      assert.equal(
        ndcgAt(
          rankByScore(
            new Map([
              ['z', 1],
              ['a', 1],
            ]),
          ),
          judged({ z: 1 }),
        ),
        0.6309297535714575,
      );
    });
  });
});
