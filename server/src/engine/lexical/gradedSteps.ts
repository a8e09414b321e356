/**
 * How a graded match (gradedMatch.ts) plans its reading: the steps, one per unit's word or
 * identifier whole form, other forms and parts, in the order of what each can add; and, for
 * pruning, which of an identifier's parts are rare, so that once only their holders can still
 * reach the best k the long lists of its common parts need not be read. Planning runs once per
 * question; the loops over postings stay in gradedMatch.ts.
 */
import type { GradedUnit, PostingsView } from './gradedUnits';

/** How many postings a step reads without pruning (an identifier's parts: all of theirs). */
export function postingsLength(view: PostingsView, units: readonly GradedUnit[], step: Step): number {
  const unit = units[step.unit];
  let n = 0;
  const terms =
    step.form >= 0 ? [unit.forms![step.form].term] : step.parts ? unit.parts.map((p) => p.term) : [unit.term];
  for (const term of terms) {
    const list = view.postingsOf(term);
    if (list !== null) n += list.end - list.start + (list.delta?.length ?? 0);
  }
  return n;
}

/**
 * One step of a match: a unit's word (or an identifier's whole form), an identifier's parts, or
 * one of its other forms (read as parts, `form` its index).
 */
export interface Step {
  unit: number;
  parts: boolean;
  /** Index in the unit's `forms`, or -1. */
  form: number;
  /** The most the step can add to a section's sum. */
  most: number;
}

/**
 * Steps by what they can add, most first; an identifier's whole form before its other forms and
 * its parts; ties by position.
 */
export function readingOrder(units: readonly GradedUnit[]): Step[] {
  const steps: Step[] = [];
  units.forEach((unit, j) => {
    steps.push({ unit: j, parts: false, form: -1, most: unit.weight });
    unit.forms?.forEach((f, k) => steps.push({ unit: j, parts: true, form: k, most: unit.weight * f.credit }));
    if (unit.parts.length > 0) steps.push({ unit: j, parts: true, form: -1, most: unit.weight * unit.partCredit });
  });
  return steps.sort(
    (a, b) => b.most - a.most || Number(a.parts) - Number(b.parts) || a.unit - b.unit || a.form - b.form,
  );
}

/** The unit's form `k` as a parts step reads it: one part at the form's credit. */
export function formUnit(unit: GradedUnit, k: number): GradedUnit {
  const form = unit.forms![k];
  return { term: unit.term, weight: unit.weight, parts: [{ term: form.term, weight: 1 }], partCredit: form.credit };
}

/**
 * A part is rare when at most this share of the sections hold it. Parts more common weigh little
 * (idf ln 17 = 2.8 and below) against an identifier's rare ones (a number, a product name), and
 * their lists are the long ones: 17k-93k postings at 100k generated sections for "cli", "api" or
 * "service", where the number of `race-3763-api` is in 52.
 */
const RARE_PART_SHARE = 1 / 16;
/** The idf of a part held by RARE_PART_SHARE of the sections: ln(1 + N / df). */
const RARE_PART_WEIGHT = Math.log(1 + 1 / RARE_PART_SHARE);

/** An identifier's rare parts, and the most its parts step adds to a section holding none of them. */
export interface RareParts {
  terms: string[];
  /** Their postings, summed. */
  postings: number;
  most: number;
}

/** The rare parts' postings of the steps from `from` on. */
export function rarePostings(rare: readonly (RareParts | null)[], from: number): number {
  let n = 0;
  for (let i = from; i < rare.length; i++) n += rare[i]?.postings ?? 0;
  return n;
}

/**
 * The parts step of `unit` gives a section credit x (weighted mean saturation of the parts it
 * holds) x (their weighted share), each factor at most the share of the parts it holds; a section
 * holding only common parts gets at most weight x credit x (their share)^2, a sliver when the
 * identifier's weight is in its rare parts. Null when no part is rare (nothing gained). The bound
 * is rounded up a little: the step's own arithmetic adds Number.MIN_VALUE per part.
 */
export function rareParts(view: PostingsView, unit: GradedUnit): RareParts | null {
  let partWeight = 0;
  for (const part of unit.parts) partWeight += part.weight;
  if (!(partWeight > 0)) return null;
  const terms: string[] = [];
  let postings = 0;
  let commonShare = 0;
  for (const part of unit.parts) {
    // By its weight, not its list: a store's question state holds only the candidates, and the
    // same weight (idf over the whole corpus) makes the same choice there as in memory.
    if (part.weight >= RARE_PART_WEIGHT) {
      const list = view.postingsOf(part.term);
      terms.push(part.term);
      postings += list === null ? 0 : list.end - list.start + (list.delta?.length ?? 0);
    } else commonShare += part.weight / partWeight;
  }
  if (terms.length === 0) return null;
  const share = Math.min(1, commonShare);
  return { terms, postings, most: unit.weight * unit.partCredit * share * share * (1 + 1e-9) + 1e-300 };
}
