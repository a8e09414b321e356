import assert from 'node:assert/strict';
import { MIN_RATE_MS, MovingRate } from '../../../server/src/cli/progress';

describe('wsctx index progress: the rate behind "about N min left"', () => {
  it('says nothing until enough time and enough sections are behind it', () => {
    const rate = new MovingRate();
    rate.add(0, 0);
    rate.add(1_000, 2);
    // A second in, two sections of 2,000 done: a rate now would promise ~17 minutes.
    assert.equal(rate.perSecond(1_000, 2, 2_000), null);
    rate.add(MIN_RATE_MS, 40);
    assert.equal(rate.perSecond(MIN_RATE_MS, 40, 2_000), null, 'under 3% of the sections');
  });

  it('reads the recent rate, not the slow start (the model loading)', () => {
    const rate = new MovingRate();
    // 8 s to load the model and build the graph, then 100 sections a second.
    rate.add(0, 0);
    rate.add(8_000, 0);
    for (let t = 9_000; t <= 30_000; t += 1_000) rate.add(t, (t - 8_000) / 10);
    const perSecond = rate.perSecond(30_000, 2_200, 8_000);
    assert.ok(perSecond !== null && Math.abs(perSecond - 100) < 1, String(perSecond));
    // From the start it would have been 73 a second, and the time left a third too long.
    assert.ok(2_200 / 30 < 75);
  });
});
