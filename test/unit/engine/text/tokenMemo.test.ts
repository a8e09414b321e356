import assert from 'node:assert/strict';
import { detach } from '../../../../server/src/engine/text/detach';
import { TokenMemo } from '../../../../server/src/engine/text/tokenMemo';

describe('text/tokenMemo', () => {
  it('finds a key by its characters inside a larger text', () => {
    const memo = new TokenMemo<number>();
    memo.set('worker', TokenMemo.hash('worker', 0, 6), 1);
    const text = 'billing worker workers';
    assert.equal(memo.get(text, 8, 14, TokenMemo.hash(text, 8, 14)), 1);
    assert.equal(memo.get(text, 15, 22, TokenMemo.hash(text, 15, 22)), undefined);
    assert.equal(memo.get(text, 0, 7, TokenMemo.hash(text, 0, 7)), undefined);
  });

  it('tells apart keys that share a hash slot, and starts over when full', () => {
    const memo = new TokenMemo<string>(4); // 16 slots, 8 entries
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    // Forcing every key onto one probe chain exercises the character comparison.
    for (const k of keys) memo.set(k, 7, k.toUpperCase());
    assert.deepEqual(
      keys.map((k) => memo.get(k, 0, k.length, 7)),
      keys.map((k) => k.toUpperCase()),
    );
    assert.equal(memo.size, 8);
    memo.set('k8', 7, 'K8');
    assert.deepEqual([memo.size, memo.get('k8', 0, 2, 7), memo.get('k0', 0, 2, 7)], [1, 'K8', undefined]);
  });

  it('refuses a capacity out of range', () => {
    assert.throws(() => new TokenMemo(3), RangeError);
    assert.throws(() => new TokenMemo(27), RangeError);
  });

  it('detach returns an equal string', () => {
    const text = `${'x'.repeat(1000)} component:default/billing-worker`;
    const slice = text.slice(1001);
    assert.equal(detach(slice), 'component:default/billing-worker');
    assert.equal(detach('short'), 'short');
  });
});
