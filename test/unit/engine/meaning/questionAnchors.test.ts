/**
 * Meaning's anchors per question (contract 2026-12-01.2): 0 at the question's cosine with the
 * workspace's 90th-percentile section, 1 at 0.40 above it, read from a strided sample; the
 * model's own anchors when too few sections have vectors.
 */
import assert from 'node:assert/strict';
import { questionAnchors, type QuestionCosines } from '../../../../server/src/engine/meaning/questionAnchors';
import { MEANING_SAMPLE, MEANING_SPAN, meaningRaw } from '../../../../server/src/engine/ranking/contract';

const MODEL = { unrelated: 0.1, related: 0.6 };

/** `count` sections; section o has cosine `cos(o)`, and a vector when `has(o)`. */
function corpus(
  count: number,
  cos: (o: number) => number,
  has: (o: number) => boolean = () => true,
): QuestionCosines & { reads: number } {
  const c = {
    count,
    reads: 0,
    hasVector: (o: number) => has(o),
    cosine(o: number) {
      c.reads++;
      return has(o) ? cos(o) : null;
    },
  };
  return c;
}

describe('questionAnchors', () => {
  it('puts meaning 0 at the 90th-percentile section and 1 at MEANING_SPAN above it', () => {
    // Cosines 0.000 .. 0.999 in ordinal order: the strided sample of 512 holds ordinals
    // floor(i x 1000 / 512); its 90th percentile (index 460) is ordinal 898.
    const anchors = questionAnchors(
      corpus(1000, (o) => o / 1000),
      MODEL,
    );
    assert.deepEqual(anchors, { unrelated: 0.898, related: 0.898 + MEANING_SPAN });
  });

  it('reads the same percentile whatever order the sections come in', () => {
    // A permutation of the same cosines (7 is coprime with 1000): every ordinal still sampled evenly.
    const anchors = questionAnchors(
      corpus(1000, (o) => ((o * 7) % 1000) / 1000),
      MODEL,
    );
    assert.ok(Math.abs(anchors.unrelated - 0.9) < 0.02, `unrelated ${anchors.unrelated}`);
  });

  it('reads at most MEANING_SAMPLE cosines, however large the index', () => {
    // Cosines spread uniformly in 0..1 by a multiplicative hash of the ordinal (no period a stride could alias with).
    const big = corpus(1_000_000, (o) => ((Math.imul(o, 2654435761) >>> 0) % 10007) / 10007);
    const anchors = questionAnchors(big, MODEL);
    assert.ok(big.reads <= MEANING_SAMPLE, `${big.reads} cosines read`);
    assert.ok(Math.abs(anchors.unrelated - 0.9) < 0.02, `unrelated ${anchors.unrelated}`);
  });

  it("keeps the model's anchors when fewer than 100 sampled sections have a vector", () => {
    assert.deepEqual(
      questionAnchors(
        corpus(60, (o) => o / 60),
        MODEL,
      ),
      MODEL,
    );
    // 10,000 sections but only every 200th embedded so far: 50 in the sample.
    assert.deepEqual(
      questionAnchors(
        corpus(
          10_000,
          () => 0.5,
          (o) => o % 200 === 0,
        ),
        MODEL,
      ),
      MODEL,
    );
  });

  it('spreads a one-product corpus whose crowd the model anchors would saturate', () => {
    // Argo CD-like: the crowd sits at 0.35-0.55, the answer at 0.70, a near miss at 0.62.
    const anchors = questionAnchors(
      corpus(4000, (o) => 0.35 + (0.2 * ((o * 37) % 4000)) / 4000),
      MODEL,
    );
    assert.equal(meaningRaw(0.7, MODEL), 1);
    assert.equal(meaningRaw(0.62, MODEL), 1);
    const answer = meaningRaw(0.7, anchors);
    const nearMiss = meaningRaw(0.62, anchors);
    assert.ok(answer > nearMiss + 0.15, `answer ${answer} vs near miss ${nearMiss}`);
  });
});
