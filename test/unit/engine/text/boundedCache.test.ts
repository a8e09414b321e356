import assert from 'node:assert/strict';
import { BoundedCache } from '../../../../server/src/engine/text/boundedCache';

describe('text/boundedCache', () => {
  it('keeps at most two generations and promotes entries that are read', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3); // a, b age into the old generation
    assert.equal(cache.get('a'), 1); // promoted into the young one (c, a)
    cache.set('d', 4); // young (c, a) ages; b is dropped
    assert.equal(cache.get('b'), undefined);
    assert.deepEqual(
      ['a', 'c', 'd'].map((k) => cache.get(k)),
      [1, 3, 4],
    );
    assert.ok(cache.size <= 4);
  });

  it('refuses a generation size below 1', () => {
    assert.throws(() => new BoundedCache(0), /generationSize/);
  });
});
