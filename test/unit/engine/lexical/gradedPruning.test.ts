/**
 * Max-score pruning in the graded match (lexical/gradedMatch.ts): with a pruning the match may
 * return fewer sections, but the best k by the caller's score -- sections, sums and order -- are
 * exactly those of the full match, through delta sections, tombstones, identifiers with parts, key
 * paths with trailing forms and filtered-out sections. The corpus is generated (a fixed seed) with Zipf-like term frequencies,
 * so questions mix rare and common terms as real ones do. Two built corpora pin what the random
 * one may miss: every section tied with the k-th best comes back (the caller breaks ties, not
 * the match), and the k-th best estimate after a word step counts each section once.
 */
import assert from 'node:assert/strict';
import { packCounts, type SectionFields } from '../../../../server/src/engine/lexical/fields';
import { prunedScore, type Pruning } from '../../../../server/src/engine/lexical/gradedMatch';
import type {
  PostingsIndex,
  FieldModel,
  GradedMatch,
  GradedUnit,
} from '../../../../server/src/engine/lexical/postings';
import { PostingsBuilder } from '../../../../server/src/engine/lexical/postingsBuilder';
import { Random } from '../../../../bench/random';

const MODEL: FieldModel = {
  k1: 1.2,
  weight: { body: 1, heading: 2, title: 2, context: 1 },
  b: { body: 0.75, heading: 0.5, title: 0.5, context: 0 },
  questionHeadingBoost: 2,
};
const VOCABULARY = 400;
const SECTIONS = 3000;

/** Deterministic pseudo-random numbers: the bench's seeded generator. */
function random(seed: number): () => number {
  const generator = new Random(seed);
  return () => generator.next();
}

/** Term `i` of the vocabulary, drawn with probability ~ 1 / (i + 1). */
function zipf(next: () => number): string {
  return `t${Math.floor(Math.exp(next() * Math.log(VOCABULARY + 1)) - 1)}`;
}

function section(next: () => number): SectionFields {
  const counts = new Map<string, number>();
  const body = 5 + Math.floor(next() * 200);
  const tally = new Map<string, { body: number; heading: number }>();
  for (let i = 0; i < body; i++) {
    const term = zipf(next);
    const t = tally.get(term) ?? { body: 0, heading: 0 };
    t.body++;
    tally.set(term, t);
  }
  const heading = 1 + Math.floor(next() * 4);
  for (let i = 0; i < heading; i++) {
    const term = zipf(next);
    const t = tally.get(term) ?? { body: 0, heading: 0 };
    t.heading++;
    tally.set(term, t);
  }
  // Identifier parts: some sections spell `ledger-rejects-worker` whole, some hold its parts.
  if (next() < 0.02) tally.set('ledger-rejects-worker', { body: 1, heading: 0 });
  if (next() < 0.2) tally.set('ledger', { body: 1 + Math.floor(next() * 3), heading: 0 });
  if (next() < 0.3) tally.set('rejects', { body: 1, heading: 0 });
  // A key path: some sections show it whole, more its trailing form, more again its parts.
  if (next() < 0.01) tally.set('cfg.tls.cert', { body: 1, heading: 0 });
  if (next() < 0.05) tally.set('tls.cert', { body: 1 + Math.floor(next() * 2), heading: 0 });
  if (next() < 0.15) tally.set('tls', { body: 1, heading: 0 });
  if (next() < 0.1) tally.set('cert', { body: 1, heading: 0 });
  for (const [term, t] of tally)
    counts.set(term, packCounts({ body: t.body, heading: t.heading, title: 0, context: 0 }));
  return { counts, lengths: { body, heading, title: 0, context: 0, questionHeading: next() < 0.1 } };
}

/** What a ranker does with a match: the best k by score, ties by ordinal. */
function bestK(match: GradedMatch, pruning: Pruning): string[] {
  const scored: { o: number; score: number; sum: number; mask: number }[] = [];
  for (let i = 0; i < match.count; i++) {
    const score = prunedScore(pruning, match.ordinals[i], match.words[i]);
    if (score >= pruning.floor) scored.push({ o: match.ordinals[i], score, sum: match.words[i], mask: match.masks[i] });
  }
  scored.sort((a, b) => b.score - a.score || a.o - b.o);
  return scored.slice(0, pruning.k).map((s) => `${s.o}:${s.sum}:${s.mask}`);
}

function pruningFor(
  units: readonly GradedUnit[],
  k: number,
  groups: number,
  next: () => number,
  filtered: boolean,
): Pruning {
  const groupOf = new Int32Array(SECTIONS + 200);
  for (let o = 0; o < groupOf.length; o++) groupOf[o] = filtered && o % 7 === 0 ? -1 : o % groups;
  const bonus = Float64Array.from({ length: groups }, () => (next() < 0.5 ? 0.3 * next() : 0));
  // Some groups' words count for less (the ranker's signed records): pruning must stay exact.
  const scale = Float64Array.from({ length: groups }, () => (next() < 0.2 ? 0.5 + 0.5 * next() : 1));
  return {
    k,
    floor: 0.05,
    total: units.reduce((sum, u) => sum + u.weight, 0),
    gate: 0.2,
    groupOf,
    bonus,
    scale,
    maxBonus: Math.max(...bonus),
  };
}

function questions(index: PostingsIndex, next: () => number, n: number): GradedUnit[][] {
  const out: GradedUnit[][] = [];
  const idf = (term: string) => Math.log(1 + SECTIONS / Math.max(1, index.df(term)));
  for (let q = 0; q < n; q++) {
    const size = 2 + Math.floor(next() * 7);
    const terms = new Set<string>();
    while (terms.size < size) terms.add(next() < 0.15 ? `t${Math.floor(next() * VOCABULARY)}` : zipf(next));
    const units: GradedUnit[] = [...terms].map((term) => ({ term, weight: idf(term), parts: [], partCredit: 0 }));
    if (q % 5 === 0)
      units.push({
        term: 'ledger-rejects-worker',
        weight: idf('ledger-rejects-worker'),
        parts: [
          { term: 'ledger', weight: idf('ledger') },
          { term: 'rejects', weight: idf('rejects') },
          { term: 'worker', weight: 3 },
        ],
        partCredit: q % 2 ? 0.15 : 0.7,
      });
    // An identifier no section spells, with a rare part (t350: ~5% of sections) and common ones:
    // sections holding only the rare part can join the running after pruning has started.
    if (q % 5 === 2) {
      const parts = ['t350', 't1', 't3'].map((term) => ({ term, weight: idf(term) }));
      units.push({
        term: 't350-t1-t3',
        weight: parts.reduce((sum, p) => sum + p.weight, 0) / parts.length,
        parts,
        partCredit: 0.7,
      });
    }
    // A key path with a trailing form, read length-free (the ranker's dotted paths).
    if (q % 5 === 4) {
      const parts = ['cfg', 'tls', 'cert'].map((term) => ({ term, weight: idf(term) }));
      units.push({
        term: 'cfg.tls.cert',
        weight: idf('cfg.tls.cert'),
        parts,
        partCredit: 0.15,
        forms: [{ term: 'tls.cert', credit: q % 2 ? 0.6 : 0.9 }],
        lengthFree: true,
      });
    }
    out.push(units);
  }
  return out;
}

describe('graded match pruning (max-score)', () => {
  const next = random(20261201);
  const builder = new PostingsBuilder();
  for (let o = 0; o < SECTIONS; o++) builder.add(o, section(next));
  const index = builder.build();

  function agree(label: string): void {
    let pruned = 0;
    let read = 0;
    for (const [q, units] of questions(index, next, 120).entries()) {
      for (const k of [1, 10, 30]) {
        const pruning = pruningFor(units, k, 40 + q, next, q % 3 === 0);
        const full = index.gradedMatch(units, MODEL);
        const cut = index.gradedMatch(units, MODEL, pruning);
        assert.deepEqual(
          bestK(cut, pruning),
          bestK(full, pruning),
          `${label}: question ${q} (${units.map((u) => u.term).join(' ')}), k ${k}`,
        );
        pruned += cut.count;
        read += full.count;
      }
    }
    // It must also prune: otherwise the test proves nothing about the pruned path.
    assert.ok(pruned < read / 4, `${label}: pruning kept ${pruned} of ${read} sections`);
  }

  it('keeps exactly the best k of the full match', () => agree('base'));

  it('agrees through delta sections and tombstones', () => {
    for (let o = 0; o < SECTIONS; o += 13) index.remove(o);
    for (let o = 5; o < SECTIONS; o += 29) index.add(o, section(next));
    for (let o = SECTIONS; o < SECTIONS + 150; o++) index.add(o, section(next));
    agree('delta');
  });

  it('reports the sections it read in `considered`, and all of them without pruning', () => {
    const units = questions(index, next, 1)[0];
    const full = index.gradedMatch(units, MODEL);
    assert.equal(full.considered, full.count);
    const cut = index.gradedMatch(units, MODEL, pruningFor(units, 10, 50, next, false));
    assert.ok(
      cut.considered <= full.count && cut.considered >= cut.count,
      `${cut.count} <= ${cut.considered} <= ${full.count}`,
    );
  });

  /** A pruning with one group, no bonus: the score is the words. */
  function plain(units: readonly GradedUnit[], k: number, bound: number): Pruning {
    return {
      k,
      floor: 0.05,
      total: units.reduce((sum, u) => sum + u.weight, 0),
      gate: 0.2,
      groupOf: new Int32Array(bound),
      bonus: new Float64Array(1),
      scale: Float64Array.of(1),
      maxBonus: 0,
    };
  }

  it('returns every section tied with the k-th best, whatever order the caller breaks ties in', () => {
    // 40 identical sections (the same counts and lengths: the same score) among 400 that hold
    // the word once in a long body; the best 10 are some 10 of the 40, chosen by the caller.
    const tied = new PostingsBuilder();
    const same = (): SectionFields => ({
      counts: new Map([['alpha', packCounts({ body: 2, heading: 1, title: 0, context: 0 })]]),
      lengths: { body: 20, heading: 2, title: 0, context: 0 },
    });
    for (let o = 0; o < 400; o++)
      tied.add(
        o,
        o % 10 === 3
          ? same()
          : {
              counts: new Map([['alpha', packCounts({ body: 1, heading: 0, title: 0, context: 0 })]]),
              lengths: { body: 150, heading: 2, title: 0, context: 0 },
            },
      );
    const index = tied.build();
    const units: GradedUnit[] = [{ term: 'alpha', weight: 2, parts: [], partCredit: 0 }];
    const cut = index.gradedMatch(units, MODEL, plain(units, 10, 400));
    assert.deepEqual(
      [...cut.ordinals],
      Array.from({ length: 40 }, (_, i) => 10 * i + 3),
    );
  });

  it('takes in the sections holding only a rare part of an identifier once the rest cannot reach the top', () => {
    // 2,000 sections: `omega` (once in a heading) in 200; `zeta` and `n9000` (rare parts of the
    // identifier zeta-n9000-service, which no section spells) in 30 and 24 others,
    // in their headings; `service` (its common part) in 60% and `common` in 90%. Read rarest
    // first: omega, the whole form (no list), then the parts. Before the parts, an unseen section
    // could still pass the 10th best through them, but only through zeta or n9000: those 30 join
    // the running, the 1,200 holding only `service` are never read, and the best 10 are the
    // full match's -- all of them sections that hold only the rare parts and `common`.
    const built = new PostingsBuilder();
    const body = (n: number) => packCounts({ body: n, heading: 0, title: 0, context: 0 });
    const heading = (n: number) => packCounts({ body: 0, heading: n, title: 0, context: 0 });
    for (let o = 0; o < 2000; o++) {
      const counts = new Map<string, number>();
      if (o % 10 === 0) counts.set('omega', heading(1));
      else if (o % 50 === 1 && o < 1500) counts.set('zeta', heading(4));
      if (o % 50 === 1 && o < 1200) counts.set('n9000', heading(3 + (o % 2)));
      if (o % 5 < 3) counts.set('service', body(1));
      if (o % 10 !== 9 && !counts.has('omega')) counts.set('common', body(1 + (o % 3)));
      built.add(o, { counts, lengths: { body: 40 + (o % 17), heading: 3, title: 0, context: 0 } });
    }
    const index = built.build();
    const idf = (term: string) => Math.log(1 + 2000 / Math.max(1, index.df(term)));
    const parts = ['zeta', 'n9000', 'service'].map((term) => ({ term, weight: idf(term) }));
    const units: GradedUnit[] = [
      { term: 'omega', weight: idf('omega'), parts: [], partCredit: 0 },
      { term: 'zeta-n9000-service', weight: 2.2, parts, partCredit: 0.7 },
      { term: 'common', weight: idf('common'), parts: [], partCredit: 0 },
    ];
    const pruning = plain(units, 10, 2000);
    const cut = index.gradedMatch(units, MODEL, pruning);
    assert.deepEqual(bestK(cut, pruning), bestK(index.gradedMatch(units, MODEL), pruning));
    const best = bestK(cut, pruning).map((s) => Number(s.split(':')[0]));
    assert.deepEqual(
      best.filter((o) => o % 50 !== 1),
      [],
      `the best 10 hold the rare parts: ${best.join(' ')}`,
    );
    // Read: the 200 omega sections and the 30 rare-part holders, nothing else.
    assert.equal(cut.considered, 230);
  });

  it('counts each section once in the k-th best estimate after a word step', () => {
    // Sections 0-19 hold both rare terms, with bodies of growing length (falling scores); 1,000
    // more hold only `beta`. After `alpha` the match measures its 20 sections; after `beta` it
    // measures them again with beta's list. Counting them twice would put the 10th best at the
    // 5th's score and drop the true 6th to 10th before `gamma`, worth almost nothing, is read.
    const built = new PostingsBuilder();
    const body = (n: number) => packCounts({ body: n, heading: 0, title: 0, context: 0 });
    for (let o = 0; o < 1020; o++) {
      const counts = new Map<string, number>([['beta', body(1)]]);
      if (o < 20) counts.set('alpha', body(2));
      if (o % 50 === 7) counts.set('gamma', body(1));
      built.add(o, { counts, lengths: { body: o < 20 ? 10 + 5 * o : 60, heading: 0, title: 0, context: 0 } });
    }
    const index = built.build();
    const units: GradedUnit[] = [
      { term: 'alpha', weight: 5, parts: [], partCredit: 0 },
      { term: 'beta', weight: 4.9, parts: [], partCredit: 0 },
      { term: 'gamma', weight: 0.01, parts: [], partCredit: 0 },
    ];
    const pruning = plain(units, 10, 1020);
    const cut = index.gradedMatch(units, MODEL, pruning);
    assert.deepEqual(bestK(cut, pruning), bestK(index.gradedMatch(units, MODEL), pruning));
    assert.deepEqual(
      [...cut.ordinals],
      Array.from({ length: 10 }, (_, i) => i),
    );
    // The pruned path ran: the sections holding only beta were read but not returned.
    assert.equal(cut.considered, 1020);
  });
});
