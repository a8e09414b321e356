/**
 * The postings index's graded half: packed field counts beside each posting, field lengths beside
 * each ordinal, and `gradedMatch` computing BM25F saturations, checked against a plain
 * re-computation of the formula over the same sections, through adds, removes, compaction and a
 * snapshot round trip.
 */
import assert from 'node:assert/strict';
import {
  packCounts,
  unpackCounts,
  unpackLengths,
  type FieldCounts,
  type SectionFields,
} from '../../../../server/src/engine/lexical/fields';
import { PostingsIndex, type FieldModel } from '../../../../server/src/engine/lexical/postings';
import { PostingsBuilder } from '../../../../server/src/engine/lexical/postingsBuilder';

const MODEL: FieldModel = {
  k1: 1.2,
  weight: { body: 1, heading: 2, title: 2, context: 1 },
  b: { body: 0.75, heading: 0.5, title: 0.5, context: 0 },
  questionHeadingBoost: 1,
};

type Section = {
  terms: Record<string, Partial<FieldCounts>>;
  lengths: { body: number; heading: number; title: number; context: number };
};

function fields(s: Section): SectionFields {
  const counts = new Map<string, number>();
  for (const [term, c] of Object.entries(s.terms))
    counts.set(term, packCounts({ body: 0, heading: 0, title: 0, context: 0, ...c }));
  return { counts, lengths: s.lengths };
}

/** BM25F written out plainly, over the live sections of `sections`. */
function expected(sections: Map<number, Section>, term: string, model: FieldModel): Map<number, number> {
  const n = sections.size;
  const avg = { body: 0, heading: 0, title: 0, context: 0 };
  for (const s of sections.values())
    for (const f of ['body', 'heading', 'title', 'context'] as const) avg[f] += s.lengths[f] / n;
  const out = new Map<number, number>();
  for (const [o, s] of sections) {
    const c = s.terms[term];
    if (!c) continue;
    let tf = 0;
    for (const f of ['body', 'heading', 'title', 'context'] as const) {
      const count = c[f] ?? 0;
      if (!count) continue;
      const a = avg[f] > 0 ? avg[f] : 1;
      tf += (model.weight[f] * count) / (1 - model.b[f] + (model.b[f] * s.lengths[f]) / a);
    }
    out.set(o, tf / (model.k1 + tf));
  }
  return out;
}

const SECTIONS: [number, Section][] = [
  [
    0,
    {
      terms: { dunning: { heading: 1, body: 3 }, schedule: { body: 1 } },
      lengths: { body: 40, heading: 2, title: 1, context: 2 },
    },
  ],
  [
    1,
    {
      terms: { dunning: { body: 1 }, invoice: { body: 2, title: 1 } },
      lengths: { body: 400, heading: 3, title: 2, context: 2 },
    },
  ],
  [
    2,
    {
      terms: { schedule: { heading: 1 }, cron: { body: 1, context: 1 } },
      lengths: { body: 12, heading: 1, title: 3, context: 1 },
    },
  ],
  [5, { terms: { dunning: { title: 1 } }, lengths: { body: 0, heading: 0, title: 1, context: 0 } }],
];

function check(index: PostingsIndex, live: Map<number, Section>): void {
  for (const term of ['dunning', 'schedule', 'invoice', 'cron']) {
    const want = expected(live, term, MODEL);
    const got = index.gradedMatch([{ term, weight: 1, parts: [], partCredit: 0 }], MODEL);
    assert.deepEqual(
      [...got.ordinals],
      [...want.keys()].sort((a, b) => a - b),
      `${term} ordinals`,
    );
    for (let i = 0; i < got.count; i++)
      assert.ok(
        Math.abs(got.words[i] - want.get(got.ordinals[i])!) < 1e-12,
        `${term} at ${got.ordinals[i]}: ${got.words[i]} vs ${want.get(got.ordinals[i])}`,
      );
  }
}

describe('PostingsIndex graded (BM25F)', () => {
  it('packs field counts and lengths, saturating at each field cap', () => {
    assert.deepEqual(unpackCounts(packCounts({ body: 70_000, heading: 3, title: 40, context: 2 })), {
      body: 65_535,
      heading: 3,
      title: 31,
      context: 2,
    });
    const index = new PostingsIndex();
    index.add(3, {
      counts: new Map([['a', packCounts({ body: 1, heading: 0, title: 0, context: 0 })]]),
      lengths: { body: 9, heading: 5000, title: 2, context: 600, questionHeading: true },
    });
    assert.deepEqual(index.fieldLengths(3), { body: 9, heading: 4095, title: 2, context: 511, questionHeading: true });
    assert.deepEqual(unpackLengths(0, 0), { body: 0, heading: 0, title: 0, context: 0, questionHeading: false });
  });

  it('computes the BM25F saturation of every section, built in bulk, after adds and removes, compacted and restored', () => {
    const live = new Map(SECTIONS);
    const builder = new PostingsBuilder();
    for (const [o, s] of SECTIONS) builder.add(o, fields(s));
    const index = builder.build();
    check(index, live);

    // A delta section and a tombstone change the averages and the postings alike.
    const added: Section = {
      terms: { dunning: { heading: 2, body: 5 }, cron: { body: 1 } },
      lengths: { body: 80, heading: 4, title: 2, context: 3 },
    };
    index.add(9, fields(added));
    live.set(9, added);
    index.remove(1);
    live.delete(1);
    check(index, live);
    assert.equal(unpackCounts(index.fieldCounts(9, 'dunning')).heading, 2);
    assert.equal(index.fieldCounts(1, 'dunning'), 0, 'a removed section holds nothing');

    index.compact();
    check(index, live);
    const restored = PostingsIndex.deserialize(index.serialize());
    check(restored, live);
    assert.deepEqual(restored.averageLengths(), index.averageLengths());
  });

  it('gives an identifier its whole form, or its parts at partCredit times their share present', () => {
    const index = new PostingsIndex();
    index.add(0, {
      counts: new Map([['ledgerunbalancedrejects', packCounts({ body: 1, heading: 1, title: 0, context: 0 })]]),
      lengths: { body: 20, heading: 1, title: 0, context: 0 },
    });
    index.add(1, {
      counts: new Map(
        ['ledger', 'unbalanc', 'reject'].map((t) => [t, packCounts({ body: 1, heading: 0, title: 0, context: 0 })]),
      ),
      lengths: { body: 20, heading: 1, title: 0, context: 0 },
    });
    index.add(2, {
      counts: new Map(['ledger', 'reject'].map((t) => [t, packCounts({ body: 1, heading: 0, title: 0, context: 0 })])),
      lengths: { body: 20, heading: 1, title: 0, context: 0 },
    });
    const parts = ['ledger', 'unbalanc', 'reject'].map((term) => ({ term, weight: 1 }));
    const got = index.gradedMatch([{ term: 'ledgerunbalancedrejects', weight: 1, parts, partCredit: 0.5 }], MODEL);
    const byOrdinal = new Map([...got.ordinals].map((o, i) => [o, got.words[i]]));
    const one = index.saturation(1, packCounts({ body: 1, heading: 0, title: 0, context: 0 }), MODEL);
    assert.ok(Math.abs(byOrdinal.get(1)! - 0.5 * one) < 1e-12, 'every part present: credit x their mean saturation');
    assert.ok(
      Math.abs(byOrdinal.get(2)! - 0.5 * ((2 / 3) * one) * (2 / 3)) < 1e-12,
      'two parts of three: scaled by the share present',
    );
    assert.ok(byOrdinal.get(0)! > byOrdinal.get(1)!, 'the whole form beats its parts');
  });

  it('gives a key path the best of its whole form, its trailing forms at their credit and its parts; whole and forms length-free', () => {
    const index = new PostingsIndex();
    const once = packCounts({ body: 1, heading: 0, title: 0, context: 0 });
    const long = { body: 400, heading: 1, title: 0, context: 0 };
    const short = { body: 10, heading: 1, title: 0, context: 0 };
    // 0: a long reference that shows the whole path once; 1: a short note that shows its tail;
    // 2: a long page with the tail and every part; 3: parts only.
    index.add(0, { counts: new Map([['spec.privatekey.rotationpolicy', once]]), lengths: long });
    index.add(1, { counts: new Map([['privatekey.rotationpolicy', once]]), lengths: short });
    index.add(2, {
      counts: new Map(['privatekey.rotationpolicy', 'spec', 'privatekey', 'rotationpolicy'].map((t) => [t, once])),
      lengths: long,
    });
    index.add(3, { counts: new Map(['spec', 'privatekey', 'rotationpolicy'].map((t) => [t, once])), lengths: short });
    const parts = ['spec', 'privatekey', 'rotationpolicy'].map((term) => ({ term, weight: 1 }));
    const unit = {
      term: 'spec.privatekey.rotationpolicy',
      weight: 2,
      parts,
      partCredit: 0.15,
      forms: [{ term: 'privatekey.rotationpolicy', credit: 0.8 }],
      lengthFree: true,
    };
    const got = index.gradedMatch([unit], MODEL);
    const sum = new Map([...got.ordinals].map((o, i) => [o, got.words[i]]));
    const flat = MODEL.weight.body / (MODEL.k1 + MODEL.weight.body);
    assert.ok(Math.abs(sum.get(0)! - 2 * flat) < 1e-12, 'the whole form, not normalised by the long body');
    assert.ok(Math.abs(sum.get(1)! - 2 * 0.8 * flat) < 1e-12, 'the trailing form at its credit');
    assert.ok(
      Math.abs(sum.get(2)! - 2 * 0.8 * flat) < 1e-12,
      'the best of the trailing form and the (weaker) parts, not their sum',
    );
    const partsOnly = 0.15 * index.saturation(3, once, MODEL);
    assert.ok(Math.abs(sum.get(3)! - 2 * partsOnly) < 1e-9, 'parts only: their credit, length-normalised as words');
    // Read in another order (the parts weigh more than the form), the sums are the same.
    const reordered = index.gradedMatch(
      [{ ...unit, partCredit: 0.9, forms: [{ term: 'privatekey.rotationpolicy', credit: 0.1 }] }],
      MODEL,
    );
    const again = new Map([...reordered.ordinals].map((o, i) => [o, reordered.words[i]]));
    const partsOf2 = 0.9 * index.saturation(2, once, MODEL);
    assert.ok(Math.abs(again.get(2)! - 2 * Math.max(0.1 * flat, partsOf2)) < 1e-9);
  });
});
