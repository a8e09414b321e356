/**
 * sortOrdinals (lexical/ordinalSort.ts): the same ascending order as the built-in sort, in place,
 * on both of its paths (the built-in sort up to 4,096 elements, the radix sort past it), with
 * ordinals of every width (two passes of digits half as wide as the largest ordinal).
 */
import assert from 'node:assert/strict';
import { OrdinalSortWork, sortOrdinals } from '../../../../server/src/engine/lexical/ordinalSort';
import { Random } from '../../../../bench/random';

/** `n` distinct ordinals below `bound`, in a seeded random order. */
function shuffledOrdinals(n: number, bound: number, seed: number): Uint32Array {
  const random = new Random(seed);
  const chosen = new Set<number>();
  while (chosen.size < n) chosen.add(Math.floor(random.next() * bound));
  return Uint32Array.from(chosen);
}

describe('sortOrdinals', () => {
  for (const [n, bound] of [
    [0, 10],
    [1, 10],
    [4096, 100_000],
    [4097, 100_000],
    [9000, 60_000],
    [25_000, 100_000],
    [30_000, 3_000_000],
    // The digits follow the largest ordinal: two of 7 bits here, two of 16 for the largest ordinals.
    [5_000, 9_000],
    [5_000, 2 ** 32 - 1],
  ] as const) {
    it(`sorts ${n} distinct ordinals below ${bound} ascending, in place`, () => {
      const ordinals = shuffledOrdinals(n, bound, n + bound);
      const expected = Array.from(ordinals).sort((a, b) => a - b);
      const sorted = sortOrdinals(ordinals, new OrdinalSortWork());
      assert.equal(sorted, ordinals, 'sorts in place and returns the same array');
      assert.deepEqual(Array.from(sorted), expected);
    });
  }

  it('sorts a view into a larger buffer without touching the rest of it', () => {
    const buffer = new Uint32Array(12_000).fill(7);
    const view = buffer.subarray(0, 10_000);
    view.set(shuffledOrdinals(10_000, 1 << 20, 3));
    const expected = Array.from(view).sort((a, b) => a - b);
    sortOrdinals(view, new OrdinalSortWork());
    assert.deepEqual(Array.from(view), expected);
    assert.ok(buffer.subarray(10_000).every((v) => v === 7));
  });

  it('reuses one work object across sorts of different sizes', () => {
    const work = new OrdinalSortWork();
    for (const [n, seed] of [
      [20_000, 1],
      [6_000, 2],
      [30_000, 3],
      [5_000, 4],
    ] as const) {
      const ordinals = shuffledOrdinals(n, 200_000, seed);
      const expected = Array.from(ordinals).sort((a, b) => a - b);
      assert.deepEqual(Array.from(sortOrdinals(ordinals, work)), expected, `${n} ordinals after earlier sorts`);
    }
  });

  it('keeps ordinals that repeat (the built-in sort does)', () => {
    const random = new Random(5);
    const ordinals = Uint32Array.from({ length: 6000 }, () => Math.floor(random.next() * 500) * 300);
    const expected = Array.from(ordinals).sort((a, b) => a - b);
    assert.deepEqual(Array.from(sortOrdinals(ordinals, new OrdinalSortWork())), expected);
  });
});
