/**
 * The published ranking contract of `workspace_context` (seed 001), every number in one place.
 *
 *   match = 0.60 x words + 0.40 x meaning      when the passage has an embedding
 *   match = words                              when it has none (never penalised for it)
 *   score = match                              when match < MIN_MATCH ("matches too little")
 *   score = match + title + namedEntity + recency + runHealth      otherwise (bonuses <= 0.50)
 *   a passage whose score is below FLOOR is not returned.
 *
 * Changing any number here is a versioned contract change: bump CONTRACT_VERSION, which every
 * answer echoes, and say why in the changelog below.
 *
 * Changelog
 * - 2026-11-30.1: first version.
 *   Words are the query's terms present in the passage, each weighted by its inverse document
 *   frequency in the workspace (idf = ln(1 + N / df)), as a fraction of the query's total weight:
 *   with equal weights this is exactly "the fraction of your query's terms the passage contains",
 *   and a rare term ("dunning", `BILLING_RETRY_MAX_ATTEMPTS`) counts for more than a common one
 *   ("service"). Meaning is the cosine of the two embeddings clamped to 0..1.
 * - 2026-11-30.2: meaning maps cosine linearly from the model's "unrelated" anchor (0) to its
 *   "related" anchor (1), clamped: raw MiniLM cosines of good paraphrases sit at 0.4-0.6, so
 *   the plain cosine let meaning carry a fraction of its published 0.40.
 */

export const CONTRACT_VERSION = '2026-11-30.2';

/** Weight of the words half of the match when the passage has an embedding. */
export const WORDS_WEIGHT = 0.6;
/** Weight of the meaning half of the match when the passage has an embedding. */
export const MEANING_WEIGHT = 0.4;

/** Bonus weights; they total 0.50, so they never promote a passage over one that matches materially more. */
export const TITLE_WEIGHT = 0.2;
export const NAMED_ENTITY_WEIGHT = 0.15;
export const RECENCY_WEIGHT = 0.1;
export const RUN_HEALTH_WEIGHT = 0.05;
export const MAX_BONUS = TITLE_WEIGHT + NAMED_ENTITY_WEIGHT + RECENCY_WEIGHT + RUN_HEALTH_WEIGHT;

/** Recency decays linearly from 1 (committed now) to 0 at this age. */
export const RECENCY_WINDOW_DAYS = 365;

/**
 * Below this match a passage "matches too little of what you asked" and scores its match and
 * nothing else: with a three-term question, one rare term of three still earns the bonuses, one
 * common term does not.
 */
export const MIN_MATCH = 0.25;

/** Passages scoring below this are not answers and are not returned. */
export const FLOOR = 0.12;

/** Signals that make up a score, in the order `why[]` lists them. */
export type Signal = 'words' | 'meaning' | 'title' | 'namedEntity' | 'recency' | 'runHealth';

export const SIGNAL_WEIGHTS: Readonly<Record<Signal, number>> = Object.freeze({
  words: WORDS_WEIGHT,
  meaning: MEANING_WEIGHT,
  title: TITLE_WEIGHT,
  namedEntity: NAMED_ENTITY_WEIGHT,
  recency: RECENCY_WEIGHT,
  runHealth: RUN_HEALTH_WEIGHT,
});

/** Inverse document frequency of a term held by `df` of `n` sections; always positive. */
export function idf(df: number, n: number): number {
  return Math.log(1 + n / Math.max(1, df));
}

/** Recency raw value for a file last committed `ageMs` ago (null: no history -> 0). */
export function recencyRaw(ageMs: number | null): number {
  if (ageMs === null) return 0;
  const days = Math.max(0, ageMs) / 86_400_000;
  return Math.max(0, 1 - days / RECENCY_WINDOW_DAYS);
}

/** Where a model's cosines fall for unrelated and for related texts (its published anchors). */
export interface SimilarityAnchors {
  unrelated: number;
  related: number;
}

/** Cosine as is: for models with no anchors of their own. */
export const PLAIN_COSINE: SimilarityAnchors = { unrelated: 0, related: 1 };

/**
 * Meaning raw value from a cosine: 0 at the model's "unrelated" anchor, 1 at its "related" one,
 * linear between and clamped to 0..1, so "as close as a paraphrase" counts the same for every
 * model (all-MiniLM-L6-v2: 0.10 and 0.60; USE lite: 0.30 and 0.70; localModels.ts).
 */
export function meaningRaw(cosine: number, anchors: SimilarityAnchors = PLAIN_COSINE): number {
  const span = anchors.related - anchors.unrelated;
  if (!(span > 0)) return Math.min(1, Math.max(0, cosine));
  return Math.min(1, Math.max(0, (cosine - anchors.unrelated) / span));
}
