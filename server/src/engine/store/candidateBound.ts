/**
 * Which of a question's posting lists a store must read whole, and when it may stop.
 *
 * A store (server/src/store/) finds a question's candidates and the ranker orders them. Reading
 * every posting of every asked term makes a question's cost grow with the corpus: at 100k
 * sections one common word is tens of thousands of rows, with their sections and documents. The
 * ranker, though, only keeps the best `limit` passages, and a section that holds none of the
 * question's rare terms can score only so much. So, as max-score does inside the in-memory index
 * (lexical/gradedMatch.ts; Turtle and Flood 1995), a store reads the rarest terms' lists whole,
 * and the other terms only for the sections found that way (and the nearest sections by meaning);
 * it ranks those, and stops when no section holding only the unread terms could reach the
 * `limit`-th passage. Otherwise it reads the next rarest list whole and ranks again.
 *
 * The answer is the one the whole candidate set gives: every section that can be among the
 * passages is read with every posting of every asked term; only the number of candidates
 * considered (`candidates`) counts what was read.
 *
 * Why the stop is safe: let θ be the score of the `limit`-th passage not held back by the cap per
 * document (contract.ts DOCUMENT_CAP) among the sections read. Adding sections never lowers how
 * many sections of each document score θ or more, so the whole corpus too has `limit` such
 * passages, and every passage of its answer scores θ or more. A section below θ is never one.
 */
import * as contract from '../ranking/contract';
import type { WeighedUnit } from '../ranking/workspaceContextRanker';

/**
 * Postings read whole in the first round by default: the rarest lists until their sum passes
 * this. Small enough that a question over a million sections reads a few thousand rows before it
 * can stop, large enough that most questions stop after the first round.
 */
export const FIRST_ROUND_POSTINGS = 4096;

/** Below this much under the threshold a section is set aside (the bound's arithmetic differs from the ranker's). */
const BOUND_SLACK = 1e-9;

/** What the bound needs of the question beyond its units. */
export interface BoundContext {
  /** The best meaning term a section outside the nearest can have (0..1); null words only. */
  meaningMax: number | null;
  /**
   * The most the named-entity, recency and run-health bonuses add to any section, weighted
   * ({@link largestBonuses}); the title bonus is bounded here, by the words a section can hold.
   */
  bonusMax: number;
}

/**
 * The most the named-entity, recency and run-health bonuses can add to a passage of a namespace
 * (contract.ts): the named entities' bonus at their share of the sections, recency at the newest
 * commit's age, and run health when some repository's last run succeeded.
 */
export function largestBonuses(facts: {
  namedShare: number | null;
  newestCommitTime: number | null;
  now: number;
  anyHealthy: boolean;
}): number {
  const named =
    facts.namedShare === null ? 0 : contract.NAMED_ENTITY_WEIGHT * contract.namedEntityRaw(facts.namedShare);
  const recency =
    facts.newestCommitTime === null
      ? 0
      : contract.RECENCY_WEIGHT * contract.recencyRaw(facts.now - facts.newestCommitTime);
  return named + recency + (facts.anyHealthy ? contract.RUN_HEALTH_WEIGHT : 0);
}

/**
 * The terms to read whole first: the units' terms, parts and trailing forms, rarest first, until their lists
 * hold `budget` postings (at least one list). Terms that occur nowhere cost nothing and are all
 * taken.
 */
export function firstWholeTerms(
  units: readonly WeighedUnit[],
  df: (term: string) => number,
  budget = FIRST_ROUND_POSTINGS,
): string[] {
  const order = rarestFirst(units, df);
  const whole: string[] = [];
  let postings = 0;
  for (const term of order) {
    const n = df(term);
    if (whole.length > 0 && n > 0 && postings + n > budget) break;
    whole.push(term);
    postings += n;
  }
  return whole;
}

/** The next term to read whole (the rarest not yet read), or undefined when every list is read. */
export function nextWholeTerm(
  units: readonly WeighedUnit[],
  df: (term: string) => number,
  whole: ReadonlySet<string>,
): string | undefined {
  return rarestFirst(units, df).find((t) => !whole.has(t));
}

/**
 * The most a section that holds none of the `whole` terms can score: its words at most the share
 * of the units it can hold at all (a unit adds at most its weight), its meaning at most
 * `meaningMax`, and every bonus at its largest (the title's at most the same share of words,
 * since a document's title terms are in every one of its sections, and an FAQ entry's question,
 * its title when asked as a question, is in its own heading: ranking/entryTitles.ts).
 */
export function boundOutside(units: readonly WeighedUnit[], whole: ReadonlySet<string>, context: BoundContext): number {
  const total = units.reduce((sum, u) => sum + u.weight, 0);
  if (total <= 0) return 0;
  let reachable = 0;
  for (const u of units)
    if (!whole.has(u.term) || u.parts.some((p) => !whole.has(p)) || u.forms?.some((f) => !whole.has(f)))
      reachable += u.weight;
  const words = Math.min(1, reachable / total);
  // A signed record's match counts less (contract.ts SIGNED_RECORD_WEIGHT): at most the full match.
  const match =
    context.meaningMax === null
      ? words
      : Math.max(words, contract.WORDS_WEIGHT * words + contract.MEANING_WEIGHT * context.meaningMax);
  if (match < contract.MIN_MATCH) return match;
  return match + context.bonusMax + contract.TITLE_WEIGHT * words;
}

/**
 * The score every passage of the whole answer reaches (the module comment's θ), from a ranking of
 * some of the candidates: the `limit`-th passage not held back by the cap per document, or the
 * floor when there are fewer (a passage under the floor is never returned).
 */
export function answerThreshold(passages: readonly { score: number; capped?: boolean }[], limit: number): number {
  let uncapped = 0;
  for (const p of passages) {
    if (p.capped) continue;
    if (++uncapped === limit) return Math.max(contract.FLOOR, p.score);
  }
  return contract.FLOOR;
}

/** True when a section scoring at most `bound` can be left unread against `threshold`. */
export function cannotReach(bound: number, threshold: number): boolean {
  return bound < threshold - BOUND_SLACK;
}

function rarestFirst(units: readonly WeighedUnit[], df: (term: string) => number): string[] {
  const terms = new Set<string>();
  for (const u of units) {
    terms.add(u.term);
    for (const p of u.parts) terms.add(p);
    for (const f of u.forms ?? []) terms.add(f);
  }
  return [...terms].sort((a, b) => df(a) - df(b) || (a < b ? -1 : a > b ? 1 : 0));
}
