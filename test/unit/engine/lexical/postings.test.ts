import assert from 'node:assert/strict';
import {
  COMPACT_MIN_POSTINGS,
  MAX_MATCH_UNITS,
  type MatchResult,
  PostingsIndex,
} from '../../../../server/src/engine/lexical/postings';
import { PostingsBuilder, buildPostings } from '../../../../server/src/engine/lexical/postingsBuilder';

/** mulberry32: a small seeded PRNG, so every run sees the same corpus. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The reference: each live section's term set. */
type Model = Map<number, Set<string>>;

function bruteForce(model: Model, units: string[][]): { ordinals: number[]; masks: number[] } {
  const ordinals: number[] = [];
  const masks: number[] = [];
  for (const ordinal of [...model.keys()].sort((a, b) => a - b)) {
    const terms = model.get(ordinal)!;
    let mask = 0;
    units.forEach((alternatives, j) => {
      if (alternatives.some((t) => terms.has(t))) mask = (mask | (1 << j)) >>> 0;
    });
    if (mask !== 0) {
      ordinals.push(ordinal);
      masks.push(mask);
    }
  }
  return { ordinals, masks };
}

function plain(result: MatchResult): { ordinals: number[]; masks: number[] } {
  assert.equal(result.count, result.ordinals.length);
  assert.equal(result.count, result.masks.length);
  return { ordinals: [...result.ordinals], masks: [...result.masks] };
}

/** A synthetic corpus: Zipf-like term frequencies over a small vocabulary, ordinals with gaps. */
class Corpus {
  readonly vocab: string[];
  constructor(
    private readonly random: () => number,
    size: number,
  ) {
    this.vocab = Array.from({ length: size }, (_, i) => `t${i}`);
  }
  term(): string {
    // Rank ~ size^u is a cheap Zipf-like draw: low ranks are common, the tail is long.
    return this.vocab[Math.floor(this.vocab.length ** this.random()) - 1];
  }
  section(): string[] {
    const n = Math.floor(this.random() * 40);
    return Array.from({ length: n }, () => this.term());
  }
  query(): string[][] {
    const units = 1 + Math.floor(this.random() * 6);
    return Array.from({ length: units }, () => {
      const alternatives = 1 + Math.floor(this.random() * 3);
      return Array.from({ length: alternatives }, () => (this.random() < 0.05 ? 'absent-term' : this.term()));
    });
  }
}

function assertAgrees(index: PostingsIndex, model: Model, corpus: Corpus, random: () => number, label: string): void {
  assert.equal(index.sectionCount, model.size, `${label}: sectionCount`);
  for (let q = 0; q < 60; q++) {
    const units = corpus.query();
    assert.deepEqual(plain(index.match(units)), bruteForce(model, units), `${label}: query ${JSON.stringify(units)}`);
  }
  const df = new Map<string, number>();
  for (const terms of model.values()) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  for (const term of corpus.vocab) assert.equal(index.df(term), df.get(term) ?? 0, `${label}: df(${term})`);
  const ordinals = [...model.keys()];
  for (let k = 0; k < 200; k++) {
    const ordinal = random() < 0.9 ? ordinals[Math.floor(random() * ordinals.length)] : Math.floor(random() * 6000);
    const term = corpus.term();
    assert.equal(
      index.has(ordinal, term),
      model.get(ordinal)?.has(term) ?? false,
      `${label}: has(${ordinal}, ${term})`,
    );
    assert.equal(index.hasSection(ordinal), model.has(ordinal), `${label}: hasSection(${ordinal})`);
  }
}

describe('lexical/postings', () => {
  describe('match against a brute-force set test (seeded property test)', () => {
    for (const seed of [1, 2, 3]) {
      it(`seed ${seed}: bulk build, then random adds, re-adds, removes and compactions`, () => {
        const random = rng(seed);
        const corpus = new Corpus(random, 400);
        const model: Model = new Map();
        // ~3,000 sections at scattered ordinals, added out of order.
        const entries: Array<[number, string[]]> = [];
        for (let ordinal = 0; ordinal < 4000; ordinal++) {
          if (random() < 0.75) entries.push([ordinal, corpus.section()]);
        }
        for (let i = entries.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [entries[i], entries[j]] = [entries[j], entries[i]];
        }
        for (const [ordinal, terms] of entries) model.set(ordinal, new Set(terms));
        let index = buildPostings(entries);
        assertAgrees(index, model, corpus, random, 'built');

        for (let round = 0; round < 6; round++) {
          for (let op = 0; op < 150; op++) {
            const r = random();
            const live = [...model.keys()];
            if (r < 0.4) {
              const ordinal = Math.floor(random() * 5000); // new, or replacing a live one
              const terms = corpus.section();
              index.add(ordinal, terms);
              model.set(ordinal, new Set(terms));
            } else if (r < 0.8 && live.length > 0) {
              const ordinal = live[Math.floor(random() * live.length)];
              assert.equal(index.remove(ordinal), true);
              model.delete(ordinal);
            } else {
              const ordinal = 5000 + Math.floor(random() * 100);
              assert.equal(index.remove(ordinal), model.delete(ordinal));
            }
          }
          assertAgrees(index, model, corpus, random, `round ${round} before compaction`);
          if (round % 2 === 1) {
            index.compact();
            assertAgrees(index, model, corpus, random, `round ${round} after compaction`);
          } else {
            index = PostingsIndex.deserialize(index.serialize());
            assertAgrees(index, model, corpus, random, `round ${round} after a snapshot round trip`);
          }
        }
      });
    }

    it('handles 32 units, bit 31 included, and refuses 33', () => {
      const index = buildPostings(Array.from({ length: 40 }, (_, i) => [i, [`u${i % 32}`]] as const));
      const units = Array.from({ length: MAX_MATCH_UNITS }, (_, j) => [`u${j}`]);
      const result = index.match(units);
      assert.equal(result.count, 40);
      assert.equal(result.masks[31], 0x80000000);
      assert.equal(result.masks[39], 1 << 7);
      assert.throws(() => index.match([...units, ['x']]), /at most 32 units/);
    });

    it('answers an empty query, an empty index and unknown terms with no matches', () => {
      const empty = new PostingsIndex();
      assert.deepEqual(plain(empty.match([['a']])), { ordinals: [], masks: [] });
      const index = buildPostings([[3, ['a']]]);
      assert.deepEqual(plain(index.match([])), { ordinals: [], masks: [] });
      assert.deepEqual(plain(index.match([['zzz'], []])), { ordinals: [], masks: [] });
      assert.deepEqual(plain(index.match([['zzz'], ['a']])), { ordinals: [3], masks: [2] });
    });
  });

  describe('updates', () => {
    it('replaces a section on re-add, in the base and in the delta', () => {
      const index = buildPostings([
        [0, ['a', 'b']],
        [1, ['b']],
      ]);
      index.add(0, ['c']);
      assert.deepEqual([index.has(0, 'a'), index.has(0, 'c'), index.df('a'), index.df('b')], [false, true, 0, 1]);
      index.add(0, ['d', 'd']);
      assert.deepEqual([index.has(0, 'c'), index.has(0, 'd'), index.df('c'), index.df('d')], [false, true, 0, 1]);
      assert.equal(index.sectionCount, 2);
      assert.deepEqual(plain(index.match([['a', 'b'], ['d']])), { ordinals: [0, 1], masks: [2, 1] });
    });

    it('counts sections that have no terms', () => {
      const index = buildPostings([
        [0, []],
        [5, ['x']],
      ]);
      index.add(9, []);
      assert.deepEqual(
        [index.sectionCount, index.hasSection(0), index.hasSection(9), index.hasSection(4)],
        [3, true, true, false],
      );
      assert.equal(index.remove(0), true);
      assert.equal(index.remove(0), false);
      index.compact();
      assert.deepEqual([index.sectionCount, index.hasSection(9), index.hasSection(0)], [2, true, false]);
    });

    it('drops terms no section holds any more at compaction', () => {
      const index = buildPostings([
        [0, ['keep', 'gone']],
        [1, ['keep']],
      ]);
      index.add(2, ['fresh']);
      index.remove(0);
      index.add(3, ['temporary']);
      index.remove(3);
      assert.equal(index.termCount, 4);
      index.compact();
      assert.equal(index.termCount, 2);
      assert.deepEqual([index.df('keep'), index.df('fresh'), index.df('gone')], [1, 1, 0]);
    });

    it('asks for compaction past the threshold and not after', () => {
      const index = buildPostings([[0, ['a']]]);
      assert.equal(index.needsCompaction(), false);
      index.add(
        1,
        Array.from({ length: COMPACT_MIN_POSTINGS + 1 }, (_, i) => `w${i}`),
      );
      assert.equal(index.needsCompaction(), true);
      index.compact();
      assert.equal(index.needsCompaction(), false);
      assert.equal(index.df('w100000'), 1);
    });

    it('refuses invalid ordinals and duplicate ordinals in the builder', () => {
      assert.throws(() => new PostingsIndex().add(-1, ['a']), RangeError);
      assert.throws(() => new PostingsIndex().add(1.5, ['a']), RangeError);
      assert.throws(() => new PostingsBuilder().add(2 ** 32, ['a']), RangeError);
      const builder = new PostingsBuilder().add(4, ['a']);
      assert.throws(() => builder.add(4, ['b']), /ordinal 4 was already added/);
      builder.build();
      assert.throws(() => builder.add(5, ['b']), /after build/);
    });
  });

  describe('memory', () => {
    it('reports typed arrays exactly plus the documented dictionary estimate', () => {
      const index = buildPostings([
        [0, ['a']],
        [1, ['a', 'bb']],
      ]);
      // offsets 3*4 + postings 3*4 + field counts 3*4 + present 1*4 + field lengths 2 ordinals * 2 * 4
      // + dictionary (3 chars * 2 + 2 terms * 48)
      assert.equal(index.byteSize(), 12 + 12 + 12 + 4 + 16 + 6 + 96);
      index.match([['a']]);
      // plus the scratch arrays for 2 ordinals: accumulator, touched, unit touched, kept
      // contenders and the survivors' postings found (ordinal and packed counts) (4 bytes each),
      // the graded sums, parts, cover and an identifier's whole-form saturations (8 bytes each)
      // and the pruning's live marks (1 byte)
      assert.equal(index.byteSize(), 158 + 2 * (6 * 4 + 4 * 8 + 1));
      index.gradedMatch([{ term: 'a', weight: 1, parts: [], partCredit: 0 }], {
        k1: 1.2,
        weight: { body: 1, heading: 2, title: 2, context: 1 },
        b: { body: 0.75, heading: 0.5, title: 0.5, context: 0 },
        questionHeadingBoost: 1,
      });
      // and the body norms of the graded match, one float64 per ordinal
      assert.equal(index.byteSize(), 158 + 2 * (6 * 4 + 4 * 8 + 1) + 2 * 8);
    });
  });

  describe('snapshots', () => {
    function sample(): PostingsIndex {
      const index = buildPostings([
        [2, ['billing-worker', 'bill', 'worker', 'straße', '東京', '𝐀𝐁']],
        [7, ['worker', 'retri']],
        [40, []],
      ]);
      index.add(9, ['retri', 'new']);
      index.remove(7);
      return index;
    }

    it('round-trips: same answers, same bytes again', () => {
      const index = sample();
      const bytes = index.serialize();
      const loaded = PostingsIndex.deserialize(bytes);
      assert.deepEqual(Buffer.from(loaded.serialize()), Buffer.from(bytes));
      assert.deepEqual(
        [loaded.sectionCount, loaded.termCount, loaded.hasSection(40), loaded.hasSection(7)],
        [3, 8, true, false],
      );
      for (const term of ['billing-worker', 'bill', 'worker', 'straße', '東京', '𝐀𝐁', 'retri', 'new']) {
        assert.deepEqual(plain(loaded.match([[term]])), plain(index.match([[term]])), term);
        assert.equal(loaded.df(term), index.df(term), term);
      }
      assert.deepEqual(plain(loaded.match([['worker'], ['retri']])), { ordinals: [2, 9], masks: [1, 2] });
    });

    it('does not change the index it serializes', () => {
      const index = sample();
      index.serialize();
      index.add(11, ['later']);
      assert.deepEqual(plain(index.match([['retri', 'later']])), { ordinals: [9, 11], masks: [1, 1] });
      assert.equal(index.sectionCount, 4);
    });

    it('reads a snapshot from an unaligned buffer', () => {
      const bytes = sample().serialize();
      const shifted = new Uint8Array(bytes.length + 1);
      shifted.set(bytes, 1);
      const loaded = PostingsIndex.deserialize(shifted.subarray(1));
      assert.deepEqual(plain(loaded.match([['worker']])), { ordinals: [2], masks: [1] });
    });

    it('refuses what is not a valid snapshot', () => {
      const bytes = sample().serialize();
      assert.throws(() => PostingsIndex.deserialize(new Uint8Array(8)), /shorter than its header/);
      const badMagic = bytes.slice();
      badMagic[0] ^= 0xff;
      assert.throws(() => PostingsIndex.deserialize(badMagic), /bad magic/);
      const future = bytes.slice();
      new DataView(future.buffer).setUint32(4, 99, true);
      assert.throws(() => PostingsIndex.deserialize(future), /version 99 is not supported/);
      assert.throws(() => PostingsIndex.deserialize(bytes.subarray(0, bytes.length - 8)), /truncated/);
      const unsorted = bytes.slice();
      const view = new DataView(unsorted.buffer);
      const termCount = view.getUint32(8, true);
      const firstPosting = (8 + termCount + 1) * 4;
      view.setUint32(firstPosting, 1_000_000, true);
      assert.throws(() => PostingsIndex.deserialize(unsorted), /not ascending ordinals/);
    });
  });
});
