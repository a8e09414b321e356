/**
 * What a graded match (gradedMatch.ts) is asked and what it reads: the question's units, and the
 * postings index seen as arrays. Kept apart so that the match's planning (gradedSteps.ts) and its
 * loops share them without importing each other.
 */
import type { FieldLengths } from './fields';

/** One unit of a graded match: a term, or an identifier with its parts as a weaker fallback. */
export interface GradedUnit {
  /** The term itself (an identifier's whole form). */
  term: string;
  /** Weight of the unit (its idf). */
  weight: number;
  /** Parts of an identifier, each with its own weight; empty for a plain word. */
  parts: readonly { term: string; weight: number }[];
  /**
   * What the parts can give at most, as a share of the whole form's saturation: a section holding
   * every part of `ignoreMissingValueFiles` strongly scores `partCredit`, one holding the whole
   * form scores its saturation. The parts' value is their weighted mean saturation times the
   * weighted share of the parts present, so two parts of three count for much less than all
   * three (`BillingWorkerLedgerRejects` is not `LedgerUnbalancedRejects`). 0..1.
   */
  partCredit: number;
  /**
   * Other whole forms the unit matches by, each at a credit below 1: a key path's trailing forms
   * (`privatekey.rotationpolicy` of `spec.privatekey.rotationpolicy`). A section holding one scores
   * `credit` x its saturation; the unit takes the best of its whole form, its forms and its parts.
   */
  forms?: readonly { term: string; credit: number; lengthBound?: boolean }[];
  /**
   * True when the whole form and the other forms are names (a configuration key path; a form
   * with `lengthBound`, a key path's last segment alone, is a word of prose and is not): their body
   * frequency is not normalised by the section's length (`b` 0 for the body), so a long
   * configuration reference that shows the key once holds it as strongly as a short note that
   * names it. The parts stay words.
   */
  lengthFree?: boolean;
}

/** One term's live postings as the index holds them: a base range beside its packed counts, and a small delta. */
export interface TermPostings {
  postings: Uint32Array;
  freqs: Uint32Array;
  start: number;
  end: number;
  /** Delta sections holding the term (unsorted, never tombstoned), with their packed counts. */
  delta: readonly number[] | null;
  deltaFreqs: readonly number[] | null;
}

/** What a graded match reads of the index. */
export interface PostingsView {
  /** One more than the largest ordinal in use. */
  ordinalBound: number;
  bodyLengths: Uint32Array;
  shortLengths: Uint32Array;
  /** Tombstones over base ordinals; null when there are none. */
  dead: Uint32Array | null;
  averages: FieldLengths;
  /** Changes whenever any section's lengths change (cached per-section norms are then stale). */
  lengthsVersion: number;
  /** The term's postings, or null when no section holds it. */
  postingsOf(term: string): TermPostings | null;
}
