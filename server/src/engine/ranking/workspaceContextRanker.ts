/**
 * Orders `workspace_context` candidates by the published contract (contract.ts), explaining every
 * score term by term in `why[]`.
 *
 * Candidates come from the postings index (any question term present) and, when embeddings are
 * on, from the vector index (the passages nearest in meaning). Candidate generators only find;
 * the order is always the formula.
 *
 * Words are graded (BM25F, contract.ts): the postings index sums, in one pass over the postings
 * of each question term, every candidate's idf-weighted saturation (`gradedMatch`); the ranker
 * divides by the question's total weight. Words only (no meaning), the ranker hands the index its
 * scoring as arrays (`pruning`: per-document bonuses, the gate, k) so that the index can skip
 * every section that could not reach the top k, max-score style, with the same answer. Every bonus is a per-document value read from typed
 * arrays (rankingTables.ts), so a candidate costs a few array reads; only the final few get a
 * `why[]`, with each term's weight, saturation and fields. Candidates with a vector need a
 * cosine: they are first bounded by the best
 * meaning they could have, and their cosine is only computed while that bound can still reach
 * the top. A section outside the nearest ones by meaning cannot beat the last nearest hit's
 * cosine, which is the bound used for it; at 100k sections that spares most of the cosines
 * (with HNSW the bound is as good as its recall: a section the graph search missed may be bounded
 * below its cosine, the rare case where an approximate index changes an order). Once the best
 * are scored, the evidence rules (scoredCandidates.ts holdToEvidence) hold back the meaning of a
 * passage lacking the question's rarest term that would pass one holding every term, or that
 * repeats the text of a passage ranked above it; words only, when that term is a name
 * (scoredCandidates.ts holdToNames), a passage lacking it is held under the last one holding
 * every term.
 */
import type { IndexState, SectionEntry } from '../indexState';
import { oneBodyOccurrence, unpackCounts, type FieldCounts } from '../lexical/fields';
import type { FieldModel, GradedUnit, Pruning } from '../lexical/postings';
import { SOURCE_KINDS, type Doc, type SourceKind } from '../model';
import { countedTermCount, joinedWord } from '../text/analyzer';
import { isQuestion } from '../text/questionFrame';
import * as contract from './contract';
import type { RankingTuning, Signal, SimilarityAnchors } from './contract';
import { asksAboutReleases } from './documentRoles';
import { entityDictionary, type NamedEntity } from './namedEntities';
import type { QuestionStatistics } from './questionStatistics';
import { PUBLISHED_PART_CREDITS, planUnits, questionTerms, weighUnit, type QuestionUnit } from './questionUnits';
import { rankingTables, type QuestionArrays, type RankingTables } from './rankingTables';
import { tunedFieldModel, tunedMatchScale, tunedPartCredits } from './tunedConstants';
import { compareScored, HELD_MARGIN, holdToEvidence, holdToNames, type Scored } from './scoredCandidates';

export { weighedQuestionUnits, type WeighedUnit } from './questionUnits';
export type { QuestionStatistics } from './questionStatistics';

// Local bindings of the contract's numbers and helpers: read once here rather than through a
// module namespace on every candidate of the hot loop (a measurable cost under CommonJS
// transforms, where each imported name is a getter).
const {
  FLOOR,
  MEANING_WEIGHT,
  MIN_MATCH,
  NAMED_ENTITY_WEIGHT,
  RECENCY_WEIGHT,
  RUN_HEALTH_WEIGHT,
  TITLE_WEIGHT,
  WORDS_WEIGHT,
  DOCUMENT_CAP,
  NAME_EVIDENCE_WINDOW,
} = contract;
const { hybridMeaning, meaningTerm, recencyRaw, namedEntityRaw, titleSaturation } = contract;

/** The contract's BM25F parameters as the postings index takes them: for statements, and for questions. */
const FIELD_MODEL: FieldModel = {
  k1: contract.BM25F_K1,
  weight: contract.FIELD_WEIGHTS,
  b: contract.FIELD_LENGTH_NORMALISATION,
  questionHeadingBoost: 1,
};
const QUESTION_FIELD_MODEL: FieldModel = { ...FIELD_MODEL, questionHeadingBoost: contract.QUESTION_HEADING_BOOST };

/** What the meaning half of the score can ask about a section. */
export interface MeaningSource {
  /** Cosine of the question's embedding with the section's (best window), or null without a vector for its text. */
  cosine(ordinal: number): number | null;
  /** True when the section may have a vector (cheap; `cosine` has the last word). */
  hasVector(ordinal: number): boolean;
  /** The question's cosine anchors (contract.ts `meaningTerm`). */
  anchors: SimilarityAnchors;
  /** Sections nearest the question in meaning: a second candidate generator. */
  nearest: readonly number[];
  /**
   * The highest cosine a section outside `nearest` can have (the last nearest hit's), or null
   * when unknown. It bounds those sections' meaning, so most of them need no cosine at all.
   */
  outsideCosine: number | null;
}

export interface RankOptions {
  question: string;
  /** 1..50. */
  limit: number;
  /** Epoch ms "now" for recency. */
  now: number;
  sourceKinds?: ReadonlySet<SourceKind>;
  /** Only sections of documents in this workspace folder. */
  folder?: string;
  /** Null or absent: embeddings off, every passage ranks on words at full weight. */
  meaning?: MeaningSource | null;
  /**
   * What the question's terms are weighed by when it is asked of several served folders at once
   * (questionStatistics.ts): every asked folder's sections and term counts, so that the folders'
   * scores can be merged. Absent: the state's own.
   */
  statistics?: QuestionStatistics;
  /**
   * The words with which the question names this served folder, when several are asked at once
   * (namedEntities.ts `folderNamedBy`): its passages then belong to what the question names, as
   * an entity's do, for the named-entity bonus (its share the folder's among the asked ones).
   */
  namedFolder?: string;
  /** A measurement's values of the contract's fitted constants (contract.ts RankingTuning); absent: the published ones. */
  tuning?: RankingTuning;
}

export interface WhyTerm {
  signal: Signal;
  weight: number;
  raw: number;
  contribution: number;
  detail: string;
  /**
   * For `words` (and `title`): each question term's part. `raw` is the sum over terms of
   * `share` x `saturation`, where `share` is the term's weight over the question's total weight.
   */
  terms?: WhyWordTerm[];
}

/** One question term's part of the words (or title) value. */
export interface WhyWordTerm {
  term: string;
  /** The term's idf weight. */
  weight: number;
  /** weight / the question's total weight. */
  share: number;
  /** 0..1: BM25F saturation of the term in this passage (0 when absent). */
  saturation: number;
  /**
   * Where the term was found: body, heading, title, context; `parts` (an identifier's parts only);
   * `trailing` (a key path's trailing form only, named in `matched`).
   */
  fields: string[];
  /** The trailing form of a key path the passage holds instead of the whole path (`privatekey.rotationpolicy`). */
  matched?: string;
}

export interface RankedPassage {
  entry: SectionEntry;
  score: number;
  match: number;
  why: WhyTerm[];
  /**
   * Weighted share of the question's terms the section says itself (heading or body) rather than
   * inherits from its document's title, folder or tags. Not part of the score: it only orders
   * passages whose scores are equal, most specific first.
   */
  ownWords: number;
  /**
   * True when the passage is past its document's DOCUMENT_CAP and is shown only because fewer
   * than `limit` passages of other documents scored above the floor (it is in score order with
   * the rest; the store's stopping bound counts it apart).
   */
  capped?: boolean;
}

/** Passages of one document the per-document cap held back: they scored into the answer but past the cap. */
export interface HeldBack {
  doc: Doc;
  passages: number;
  /** The best score among them. */
  bestScore: number;
}

export interface QueryUnitInfo {
  term: string;
  surface: string;
  /** Inverse document frequency weight of the term. */
  weight: number;
}

export interface RankResult {
  /** In score order (the formula's), always. */
  passages: RankedPassage[];
  /** What the per-document cap kept out of `passages`, by document, best first; empty when it kept nothing out. */
  heldBack: HeldBack[];
  terms: QueryUnitInfo[];
  /** Query terms past the postings index's 32-unit limit, not used. */
  droppedTerms: string[];
  named: NamedEntity[];
  /**
   * Candidates considered (lexical and meaning). Words only, the index stops taking new sections
   * once none could reach the top (max-score pruning): then it is the sections read until then.
   */
  candidates: number;
}

/** The question's units, weights and scorer: what ranking and scoring chosen sections share. */
function prepareQuestion(state: IndexState, options: RankOptions) {
  // The question's frame ("how do I", "is it possible to") is not what it is about.
  const statistics = options.statistics;
  const n = Math.max(1, statistics ? statistics.sectionCount : state.lexical.sectionCount);
  const df = statistics ? (term: string) => statistics.df.get(term) ?? 0 : (term: string) => state.lexical.df(term);
  const { units, dropped } = planUnits(questionTerms(options.question, (term) => df(term) > 0));
  const asks = isQuestion(options.question);
  const model = options.tuning
    ? tunedFieldModel(FIELD_MODEL, asks, options.tuning)
    : asks
      ? QUESTION_FIELD_MODEL
      : FIELD_MODEL;
  const named = entityDictionary(state.entities).find(options.question);
  const credits = options.tuning ? tunedPartCredits(options.tuning) : PUBLISHED_PART_CREDITS;
  for (const unit of units) weighUnit(df, unit, n, credits);
  const terms = units.map((u) => ({ term: u.term.key, surface: u.term.surface, weight: u.weight }));
  const scorer = new Scorer(state, rankingTables(state), options, units, named, model, asks);
  // Candidates considered by the last run of the question (topScored).
  return { units, dropped, model, named, terms, scorer, wordsOnly: !options.meaning, candidates: 0 };
}

/**
 * Chosen sections scored and explained by the formula exactly as `rankWorkspaceContext` scores
 * them, whether or not they would be candidates or above the floor: the explain path's view of a
 * passage that did not come back (ranking/explainRanking.ts). A section outside the question's
 * filters (source kinds, folder) or gone from the index is left out.
 */
export function scoreSections(state: IndexState, given: RankOptions, ordinals: readonly number[]): RankedPassage[] {
  const options = withTunedSpan(given);
  return scoreWith(prepareQuestion(state, options).scorer, options.meaning ?? null, ordinals);
}

function scoreWith(scorer: Scorer, meaning: MeaningSource | null, ordinals: readonly number[]): RankedPassage[] {
  const out: RankedPassage[] = [];
  for (const ordinal of ordinals) {
    const doc = scorer.eligibleDoc(ordinal);
    if (doc < 0) continue;
    const { words, mask } = scorer.wordsOf(ordinal);
    const cosine = meaning?.hasVector(ordinal) ? meaning.cosine(ordinal) : null;
    out.push(scorer.explain(scorer.score(ordinal, doc, mask, words, cosine), false));
  }
  return out;
}

export function rankWorkspaceContext(state: IndexState, given: RankOptions): RankResult {
  const options = withTunedSpan(given);
  const question = prepareQuestion(state, options);
  const cap = documentCap(options);
  const sorted = topScored(state, options, question, candidatesFor(question, options.limit, cap));
  return answerAt(state, question, sorted, options.limit, cap, new Map());
}

type PreparedQuestion = ReturnType<typeof prepareQuestion>;

/** The per-document cap (contract.ts DOCUMENT_CAP, or a measurement's value). */
function documentCap(options: RankOptions): number {
  return options.tuning?.DOCUMENT_CAP ?? DOCUMENT_CAP;
}

/** Meaning's curve (contract.ts MEANING_CURVE, or a measurement's value). */
function curveOf(options: Pick<RankOptions, 'tuning'>): number {
  return options.tuning?.MEANING_CURVE ?? contract.MEANING_CURVE;
}

/**
 * The options with a measurement's meaning span: anchors read from the question's crowd
 * (meaning/questionAnchors.ts, MEANING_SPAN apart) keep their crowd, the unrelated cosine, and
 * put "fully related" that far above it. The options as given when the measurement leaves the
 * span alone, meaning is off, or the anchors are the model's own (too few vectors for a crowd).
 */
function withTunedSpan<O extends Pick<RankOptions, 'tuning' | 'meaning'>>(options: O): O {
  const span = options.tuning?.MEANING_SPAN;
  const meaning = options.meaning;
  if (span === undefined || !meaning) return options;
  const unrelated = meaning.anchors.unrelated;
  if (contract.crowdAnchors(unrelated).related !== meaning.anchors.related) return options;
  const tuned: MeaningSource = {
    cosine: (ordinal) => meaning.cosine(ordinal),
    hasVector: (ordinal) => meaning.hasVector(ordinal),
    anchors: contract.crowdAnchors(unrelated, span),
    nearest: meaning.nearest,
    outsideCosine: meaning.outsideCosine,
  };
  return { ...options, meaning: tuned };
}

/** The scored candidates kept for an answer of `limit`: the cap per document needs more than `limit` in hand, enough that capped documents can give way. */
function candidatesKept(limit: number, cap: number): number {
  return Math.min(limit * (cap + 1), limit + 200);
}

/**
 * The candidates kept for `question`'s answer of `limit`: at least the words-only evidence rule's
 * window when the rule may apply (a name asked, words only), so that every limit reads the same
 * window and a deeper run's first passages are a shallower one's.
 */
function candidatesFor(question: PreparedQuestion, limit: number, cap: number): number {
  const kept = candidatesKept(limit, cap);
  return question.wordsOnly && question.scorer.rarestIsName() ? Math.max(kept, NAME_EVIDENCE_WINDOW) : kept;
}

/**
 * The best `capacity` candidates for the question, scored, in the formula's order (the evidence
 * rules applied: meaning's when meaning is on, the name rule's when it is off).
 */
function topScored(
  state: IndexState,
  options: Omit<RankOptions, 'limit'>,
  question: PreparedQuestion,
  capacity: number,
): Scored[] {
  const { units, model, scorer } = question;
  const top = new TopK(capacity, state.sections);

  const graded: GradedUnit[] = units.map((u) => ({
    term: u.term.key,
    weight: u.weight,
    parts: u.parts,
    partCredit: u.partCredit,
    ...(u.forms.length
      ? { forms: u.forms.map((f) => ({ term: f.term, credit: f.credit, ...(f.leaf ? { lengthBound: true } : {}) })) }
      : {}),
    ...(u.term.path ? { lengthFree: true } : {}),
  }));
  const meaning = options.meaning ?? null;
  // Words only, a passage's score is a function of its words: the index can skip what cannot
  // reach the top (max-score). With meaning, a passage with few words can still rise on its cosine.
  const pruning: Pruning | undefined = meaning ? undefined : scorer.pruning(top.capacity);
  const lexical = units.length
    ? state.lexical.gradedMatch(graded, model, pruning)
    : { ordinals: new Uint32Array(0), masks: new Uint32Array(0), words: new Float64Array(0), count: 0, considered: 0 };
  let candidates = lexical.considered;

  // The nearest sections by meaning first, with their cosines: their scores fill the top, so
  // that most lexical candidates below are rejected on their bound without a cosine.
  const nearestIndex = new Map<number, number>();
  if (meaning) {
    for (const ordinal of meaning.nearest) nearestIndex.set(ordinal, NOT_LEXICAL);
    for (let i = 0; i < lexical.count; i++)
      if (nearestIndex.has(lexical.ordinals[i])) nearestIndex.set(lexical.ordinals[i], i);
    for (const [ordinal, i] of nearestIndex) {
      if (i === NOT_LEXICAL) candidates++;
      const doc = scorer.eligibleDoc(ordinal);
      if (doc < 0) continue;
      const mask = i === NOT_LEXICAL ? 0 : lexical.masks[i];
      const words = i === NOT_LEXICAL ? 0 : scorer.words(lexical.words[i]);
      top.offer(scorer.score(ordinal, doc, mask, words, meaning.cosine(ordinal)));
    }
  }

  // Lexical candidates, scored with numbers; those with a vector wait for their cosine, bounded
  // by the best meaning a section outside the nearest can have.
  const outsideMeaning =
    meaning && meaning.outsideCosine !== null
      ? meaningTerm(meaning.outsideCosine, meaning.anchors, curveOf(options))
      : 1;
  const deferred: { ordinal: number; doc: number; mask: number; words: number; bound: number }[] = [];
  for (let i = 0; i < lexical.count; i++) {
    const ordinal = lexical.ordinals[i];
    if (nearestIndex.has(ordinal)) continue;
    const doc = scorer.eligibleDoc(ordinal);
    if (doc < 0) continue;
    const mask = lexical.masks[i];
    const words = scorer.words(lexical.words[i]);
    if (meaning?.hasVector(ordinal)) {
      const bound = scorer.upperBound(ordinal, doc, words, outsideMeaning);
      if (!top.rejects(bound)) deferred.push({ ordinal, doc, mask, words, bound });
    } else if (!top.rejects(scorer.wordsOnlyScore(ordinal, doc, words))) {
      // Most candidates stop at the line above; only those that can enter the top are built.
      top.offer(scorer.score(ordinal, doc, mask, words, null));
    }
  }
  if (meaning) {
    // Best bounds first; stop once no remaining bound can enter the top.
    deferred.sort((a, b) => b.bound - a.bound || a.ordinal - b.ordinal);
    for (const c of deferred) {
      if (top.rejects(c.bound)) break;
      top.offer(scorer.score(c.ordinal, c.doc, c.mask, c.words, meaning.cosine(c.ordinal)));
    }
  }
  question.candidates = candidates;
  return meaning ? holdToEvidence(top.sorted(), scorer) : holdToNames(top.sorted(), scorer, NAME_EVIDENCE_WINDOW);
}

/**
 * The answer at `limit` from `sorted` (at least `candidatesKept(limit)` of the best, or every
 * candidate): the per-document cap, then each passage shown explained, once per `explained`.
 */
function answerAt(
  state: IndexState,
  question: PreparedQuestion,
  sorted: readonly Scored[],
  limit: number,
  cap: number,
  explained: Map<Scored, RankedPassage>,
): RankResult {
  const { dropped, named, terms, scorer } = question;
  const explain = (s: Scored, capped: boolean) => explainOnce(scorer, explained, s, capped);
  const capped = capPerDocument(sorted, limit, cap);
  const heldBack = capped.heldBack.map((h) => ({
    doc: state.sections[h.first.ordinal]!.doc,
    passages: h.passages,
    bestScore: explain(h.first, true).score,
  }));
  return {
    passages: capped.shown.map(({ s, capped }) => explain(s, capped)),
    heldBack,
    terms,
    droppedTerms: dropped,
    named,
    candidates: question.candidates,
  };
}

/** `s` explained (its why[]), once per `explained` whatever it is asked as. */
function explainOnce(scorer: Scorer, explained: Map<Scored, RankedPassage>, s: Scored, capped: boolean): RankedPassage {
  let passage = explained.get(s);
  if (!passage) explained.set(s, (passage = scorer.explain(s, false)));
  return capped ? { ...passage, capped } : passage;
}

/**
 * One question's ranking of one state, read at several limits: the explain path runs it deeper
 * step by step and bisects for the smallest limit that shows a page (explainRanking.ts). The
 * question is analysed and the per-document tables filled once, and each passage is explained
 * once. Words only, the deepest run so far answers every smaller limit from its prefix: the
 * pruned match keeps every section scoring at least the k-th best (maxScore.ts selectBest), so
 * the best k in the formula's total order are the first k of any deeper run; a run that kept
 * fewer than it could hold every candidate, and answers any limit. With meaning, the evidence
 * rule weighs the passages kept against each other, so each depth is run as it is asked.
 *
 * The scorer's per-question arrays are shared by every ranking of the state (`documentArrays`):
 * read this ranking within the synchronous call that made it, with no other question ranked on
 * the same state in between.
 */
export interface QuestionRanking {
  /** What `rankWorkspaceContext` answers with this limit (`candidates`: those of the run that answered it). */
  at(limit: number): RankResult;
  /**
   * The passages `at(limit)` shows, unexplained: each one's section and formula score (the
   * order's), explained only when `passage(i)` asks (the explain path reads a few of 5,000).
   */
  shownAt(limit: number): ShownPassages;
  /** `scoreSections` for this question. */
  scoreSections(ordinals: readonly number[]): RankedPassage[];
}

/** A ranking's shown passages, explained on demand (`QuestionRanking.shownAt`). */
export interface ShownPassages {
  entries: SectionEntry[];
  /** Each passage's score as the ranker ordered it (its why[]'s sum may differ in the last digits). */
  scores: number[];
  /** The i-th passage, explained (as `at(limit).passages[i]`). */
  passage(i: number): RankedPassage;
  terms: QueryUnitInfo[];
}

export function questionRanking(state: IndexState, given: Omit<RankOptions, 'limit'>): QuestionRanking {
  const options = withTunedSpan(given);
  const question = prepareQuestion(state, { ...options, limit: 1 });
  const cap = documentCap({ ...options, limit: 1 });
  const explained = new Map<Scored, RankedPassage>();
  const wordsOnly = !options.meaning;
  let deepest: { capacity: number; sorted: Scored[] } | undefined;
  const runs = new Map<number, Scored[]>();
  const sortedFor = (capacity: number): readonly Scored[] => {
    if (!wordsOnly) {
      let sorted = runs.get(capacity);
      if (!sorted) runs.set(capacity, (sorted = topScored(state, options, question, capacity)));
      return sorted;
    }
    if (deepest && (deepest.capacity >= capacity || deepest.sorted.length < deepest.capacity))
      return deepest.sorted.length > capacity ? deepest.sorted.slice(0, capacity) : deepest.sorted;
    deepest = { capacity, sorted: topScored(state, options, question, capacity) };
    return deepest.sorted;
  };
  return {
    at: (limit) => answerAt(state, question, sortedFor(candidatesFor(question, limit, cap)), limit, cap, explained),
    shownAt: (limit) => {
      const { shown } = capPerDocument(sortedFor(candidatesFor(question, limit, cap)), limit, cap);
      return {
        entries: shown.map(({ s }) => state.sections[s.ordinal]!),
        scores: shown.map(({ s }) => s.score),
        passage: (i) => explainOnce(question.scorer, explained, shown[i].s, shown[i].capped),
        terms: question.terms,
      };
    },
    scoreSections: (ordinals) => scoreWith(question.scorer, options.meaning ?? null, ordinals),
  };
}

/**
 * The per-document cap, a candidate rule (contract.ts DOCUMENT_CAP): the passages shown are the
 * best `limit` of `sorted` taking at most DOCUMENT_CAP of one document, in score order; a
 * document's later passages are shown (marked `capped`) only when fewer than `limit` passages of
 * other documents are left. Those it keeps out are counted per document, never silently dropped:
 * each scored above the last passage shown.
 */
function capPerDocument(
  sorted: readonly Scored[],
  limit: number,
  cap: number,
): { shown: { s: Scored; capped: boolean }[]; heldBack: { first: Scored; passages: number }[] } {
  const perDoc = new Map<number, number>();
  const chosen = new Map<Scored, boolean>();
  let uncapped = 0;
  const overflow: Scored[] = [];
  for (const s of sorted) {
    if (uncapped >= limit) break;
    const seen = perDoc.get(s.doc) ?? 0;
    if (seen >= cap) overflow.push(s);
    else {
      perDoc.set(s.doc, seen + 1);
      chosen.set(s, false);
      uncapped++;
    }
  }
  for (const s of overflow) if (chosen.size < limit) chosen.set(s, true);
  // `sorted` is the formula's order (score, then its tie-breaks): what is shown keeps it.
  const shown: { s: Scored; capped: boolean }[] = [];
  const heldBack = new Map<number, { first: Scored; passages: number }>();
  const passed: Scored[] = [];
  for (const s of sorted) {
    if (shown.length === chosen.size) break;
    if (chosen.has(s)) {
      shown.push({ s, capped: chosen.get(s)! });
      // Overflow passed over before a shown passage would be shown without the cap: held back.
      for (const p of passed) {
        const held = heldBack.get(p.doc);
        if (held) held.passages++;
        else heldBack.set(p.doc, { first: p, passages: 1 });
      }
      passed.length = 0;
    } else passed.push(s);
  }
  return { shown, heldBack: [...heldBack.values()] };
}

/**
 * The per-document arrays a question fills, zeroed (the bonuses are all overwritten), kept on the
 * tables and reused from question to question: ~0.5 MB of typed arrays at 24k documents is
 * memory outside the JS heap, and allocating it per question made V8 collect every ~150
 * questions for "external memory pressure", a pause inside whichever question met it. A ranking
 * fills and reads them within one synchronous call, so one set per tables is enough.
 */
function documentArrays(tables: RankingTables): QuestionArrays {
  const docs = tables.docs.length;
  const entries = tables.entries.count;
  const arrays = tables.questionArrays;
  if (!arrays) {
    return (tables.questionArrays = {
      contextMask: new Int32Array(docs),
      namedDoc: new Uint8Array(docs),
      titleWords: new Float64Array(docs),
      bonusOfGroup: new Float64Array(docs + entries),
      entryTitleWords: new Float64Array(entries),
      titleWhole: new Uint8Array(docs + entries),
      titlePartWeight: new Float64Array(docs + entries),
    });
  }
  arrays.contextMask.fill(0);
  arrays.namedDoc.fill(0);
  arrays.titleWords.fill(0);
  arrays.entryTitleWords.fill(0);
  return arrays;
}

/**
 * Every document's bonuses (named entity + recency + run health + title, in that order) into
 * `out`'s first slots (the FAQ entries' groups follow), and the largest. One pass over all documents per question (~24k at 100k sections),
 * with every array a local rather than read through `this` and the tables on each document.
 */
function documentBonuses(
  out: Float64Array,
  named: number,
  namedDoc: Uint8Array,
  lastCommit: Float64Array,
  now: number,
  healthy: Uint8Array,
  title: Float64Array,
): number {
  let max = 0;
  for (let d = 0; d < title.length; d++) {
    const commit = lastCommit[d];
    const recency = Number.isNaN(commit) ? 0 : recencyRaw(now - commit);
    const bonus =
      named * namedDoc[d] + RECENCY_WEIGHT * recency + RUN_HEALTH_WEIGHT * healthy[d] + TITLE_WEIGHT * title[d];
    out[d] = bonus;
    if (bonus > max) max = bonus;
  }
  return max;
}

/** Marks a nearest section that holds no question term. */
const NOT_LEXICAL = -1;

class Scorer {
  private readonly totalWeight: number;
  /** The match from which the bonuses are paid (contract.ts MIN_MATCH, or a measurement's value). */
  private readonly gate: number;
  /** Meaning's curve (contract.ts MEANING_CURVE, or a measurement's value). */
  private readonly curve: number;
  /**
   * Per pruning group (each document, then each FAQ entry when the question is asked as one):
   * title + named-entity + recency + run-health bonus, paid once words reach MIN_MATCH.
   */
  private readonly bonusOfGroup: Float64Array;
  /** Section ordinal -> its pruning group: its document, or its FAQ entry's own (entryTitles.ts). */
  private readonly groupOf: Int32Array;
  /** Per document: graded title words. */
  private readonly titleWords: Float64Array;
  /** Per FAQ entry: graded words of its question, when the question is asked as one (else all 0). */
  private readonly entryTitleWords: Float64Array;
  private readonly namedDoc: Uint8Array;
  private readonly namedRaw: number;
  private readonly namedShare: number;
  private readonly contextMask: Int32Array;
  private readonly kindAllowed: Uint8Array | null;
  /** The largest bonuses of any group for this question. */
  private readonly maxBonus: number;
  /**
   * What each document's match counts for with this question (contract.ts): release notes count
   * less unless the question asks about a version or a change (documentRoles.ts). Read by
   * document or by pruning group (an FAQ entry's slot holds its document's).
   */
  private readonly scale: Float64Array;
  private readonly releasesAsked: boolean;
  /** The share of the question's weight in plain words, not identifiers: what meaning may add to (contract.ts hybridMeaning). */
  private readonly wordShare: number;
  /** The index's saturation under this question's model, made at the first why[]. */
  private saturation: ((ordinal: number, packed: number) => number) | undefined;
  /** The same without the body's length normalisation: a key path's whole form and trailing forms. */
  private lengthFreeSaturation: ((ordinal: number, packed: number) => number) | undefined;

  constructor(
    private readonly state: IndexState,
    private readonly tables: RankingTables,
    private readonly options: RankOptions,
    private readonly units: readonly QuestionUnit[],
    private readonly named: readonly NamedEntity[],
    private readonly model: FieldModel,
    /** The question is asked as one (text/questionFrame.ts isQuestion): FAQ entries are titled by their question. */
    asks: boolean,
  ) {
    this.totalWeight = units.reduce((sum, u) => sum + u.weight, 0);
    this.gate = options.tuning?.MIN_MATCH ?? MIN_MATCH;
    this.curve = curveOf(options);
    this.releasesAsked = asksAboutReleases(options.question);
    this.wordShare =
      this.totalWeight > 0
        ? units.filter((u) => !u.term.isIdentifier).reduce((sum, u) => sum + u.weight, 0) / this.totalWeight
        : 1;
    this.scale = options.tuning
      ? tunedMatchScale(tables, this.releasesAsked, options.tuning)
      : this.releasesAsked
        ? tables.matchScaleOfDoc
        : tables.pageMatchScaleOfDoc;
    const arrays = documentArrays(tables);
    this.contextMask = arrays.contextMask;
    for (const unit of units)
      for (const d of tables.contextIndex.get(unit.term.key) ?? []) this.contextMask[d] |= unit.bit;
    this.namedDoc = arrays.namedDoc;
    let namedSections = 0;
    for (const entity of named) {
      for (const d of tables.entityDocs.get(entity.key) ?? []) {
        if (this.namedDoc[d]) continue;
        this.namedDoc[d] = 1;
        namedSections += tables.docs[d].sections.length;
      }
    }
    // A state of candidates only (a store's) holds few of the named documents: the corpus counts them.
    if (state.corpus) namedSections = state.corpus.namedEntitySections;
    this.namedShare = Math.min(1, namedSections / Math.max(1, state.lexical.sectionCount));
    this.namedRaw = named.length ? namedEntityRaw(this.namedShare) : 0;
    // A served folder the question names (several asked at once): all of it is named, its share
    // the folder's sections among every asked folder's.
    if (options.namedFolder !== undefined) {
      this.namedDoc.fill(1);
      this.namedShare = Math.min(
        1,
        state.lexical.sectionCount / Math.max(1, options.statistics?.sectionCount ?? state.lexical.sectionCount),
      );
      this.namedRaw = namedEntityRaw(this.namedShare);
    }
    this.kindAllowed = options.sourceKinds
      ? Uint8Array.from(SOURCE_KINDS, (k) => (options.sourceKinds!.has(k) ? 1 : 0))
      : null;
    const docs = tables.docs.length;
    this.titleWords = this.gradeTitles(tables.titleIndex, tables.titleTermsOfDoc, 0, arrays.titleWords, arrays);
    this.bonusOfGroup = arrays.bonusOfGroup;
    let maxBonus = documentBonuses(
      this.bonusOfGroup,
      NAMED_ENTITY_WEIGHT * this.namedRaw,
      this.namedDoc,
      tables.lastCommitOfDoc,
      options.now,
      tables.healthyDoc,
      this.titleWords,
    );
    // Asked as a question, an FAQ entry's title is the better of its page's and its own question.
    const entries = tables.entries;
    this.entryTitleWords = arrays.entryTitleWords;
    this.groupOf = tables.docOfSection;
    if (entries.count > 0 && asks) {
      this.gradeTitles(entries.index, entries.termCounts, docs, this.entryTitleWords, arrays);
      this.groupOf = entries.groupOf;
      for (let e = 0; e < entries.count; e++) {
        const d = entries.docOf[e];
        const bonus = this.bonusOfGroup[d] + TITLE_WEIGHT * Math.max(0, this.entryTitleWords[e] - this.titleWords[d]);
        this.bonusOfGroup[docs + e] = bonus;
        if (bonus > maxBonus) maxBonus = bonus;
      }
    }
    this.maxBonus = maxBonus;
  }

  /** The candidate's document index, or -1 when the section is gone or filtered out. */
  eligibleDoc(ordinal: number): number {
    const d = ordinal < this.tables.docOfSection.length ? this.tables.docOfSection[ordinal] : -1;
    if (d < 0) return -1;
    if (this.kindAllowed && !this.kindAllowed[this.tables.kindOfDoc[d]]) return -1;
    if (this.options.folder !== undefined && this.tables.folderOfDoc[d] !== this.options.folder) return -1;
    return d;
  }

  /**
   * One section's words and match mask, from its per-term saturations (the same numbers the
   * index sums in `gradedMatch`, which only walks candidates): for scoring a chosen section.
   */
  wordsOf(ordinal: number): { words: number; mask: number } {
    let sum = 0;
    let mask = 0;
    const terms = this.wordTerms(ordinal);
    this.units.forEach((unit, i) => {
      sum += unit.weight * terms[i].saturation;
      if (terms[i].saturation > 0 && this.state.lexical.fieldCounts(ordinal, unit.term.key)) mask |= unit.bit;
    });
    return { words: this.words(sum), mask };
  }

  /** Words in 0..1 from the index's weighted sum of saturations. */
  words(weightedSum: number): number {
    return this.totalWeight > 0 ? Math.min(1, weightedSum / this.totalWeight) : 0;
  }

  /**
   * The words-only score as the postings index prunes with it (lexical/gradedMatch.ts): the same
   * arithmetic as `wordsOnlyScore`, with the filtered-out sections in no group.
   */
  pruning(k: number): Pruning {
    let groupOf = this.groupOf;
    if (this.kindAllowed || this.options.folder !== undefined) {
      // The same filters give the same groups: made once per tables (get_context's entity
      // excerpts ask with the same source kinds every time), not per question.
      const entries = groupOf === this.tables.docOfSection ? '' : 'entries';
      const key = `${this.kindAllowed?.join('') ?? ''}|${this.options.folder ?? ''}|${entries}`;
      const byFilter = (this.tables.filteredGroups ??= new Map());
      let filtered = byFilter.get(key);
      if (!filtered) {
        filtered = Int32Array.from(groupOf);
        for (let o = 0; o < filtered.length; o++) if (filtered[o] >= 0 && this.eligibleDoc(o) < 0) filtered[o] = -1;
        byFilter.set(key, filtered);
      }
      groupOf = filtered;
    }
    return {
      k,
      floor: FLOOR,
      total: this.totalWeight,
      gate: this.gate,
      groupOf,
      bonus: this.bonusOfGroup,
      scale: this.scale,
      maxBonus: this.maxBonus,
    };
  }

  /** The score of a passage without a vector, as a number only (the hot path). */
  wordsOnlyScore(ordinal: number, doc: number, words: number): number {
    const match = words * this.scale[doc];
    return match >= this.gate ? match + this.bonuses(ordinal) : match;
  }

  /** The best score a candidate with a vector can reach when its meaning is at most `meaningMax`. */
  upperBound(ordinal: number, doc: number, words: number, meaningMax: number): number {
    // Without its vector (text changed since) a candidate scores its words at full weight.
    return (
      this.scale[doc] * Math.max(words, WORDS_WEIGHT * words + MEANING_WEIGHT * meaningMax) + this.bonuses(ordinal)
    );
  }

  score(ordinal: number, doc: number, mask: number, words: number, cosine: number | null): Scored {
    const scale = this.scale[doc];
    const match =
      cosine === null
        ? scale * words
        : scale * WORDS_WEIGHT * words + scale * MEANING_WEIGHT * this.meaningOf(cosine, words);
    const score = match + (match >= this.gate ? this.bonuses(ordinal) : 0);
    const own = this.maskShare(mask & ~this.contextMask[doc]);
    return { ordinal, doc, mask, cosine, words, match, score, own };
  }

  /** The meaning value of a passage with a vector (contract.ts hybridMeaning). */
  private meaningOf(cosine: number, words: number): number {
    return hybridMeaning(meaningTerm(cosine, this.options.meaning!.anchors, this.curve), words, this.wordShare);
  }

  /** The sections, for the order of scored candidates. */
  get sections(): readonly (SectionEntry | undefined)[] {
    return this.state.sections;
  }

  /** The question's rarest unit (the greatest weight; the first of equals), or -1 without units. */
  rarestUnit(): number {
    let rarest = -1;
    this.units.forEach((unit, i) => {
      if (rarest < 0 || unit.weight > this.units[rarest].weight) rarest = i;
    });
    return rarest;
  }

  /** The mask of every unit of the question (bit i: unit i, as `heldUnits`). */
  everyUnit(): number {
    return this.units.length >= 32 ? -1 : (1 << this.units.length) - 1;
  }

  /**
   * The units section `ordinal` holds (bit i: unit i): whole, or a key path by a trailing form;
   * an identifier held only by its parts is not held.
   */
  heldUnits(ordinal: number): number {
    let held = 0;
    this.wordTerms(ordinal).forEach((t, i) => {
      if (t.saturation > 0 && t.fields[0] !== 'parts') held |= 1 << i;
    });
    return held;
  }

  /**
   * `s` with its meaning held back so that it ranks right after `by` (holdToEvidence): the largest
   * meaning value, never under its words, whose score stays below `by`'s. Unchanged when its
   * words alone already score at least `by`'s.
   */
  holdBelow(s: Scored, by: Scored): Scored {
    const scale = this.scale[s.doc];
    const bonus = this.bonuses(s.ordinal);
    const scoreAt = (m: number) => {
      const match = scale * (WORDS_WEIGHT * s.words + MEANING_WEIGHT * m);
      return match + (match >= this.gate ? bonus : 0);
    };
    // A hair under `by`'s score, so that the tie rules cannot put `s` first.
    const target = by.score - HELD_MARGIN;
    if (scoreAt(s.words) >= target) return s;
    const meaningFor = (match: number) => (match / scale - WORDS_WEIGHT * s.words) / MEANING_WEIGHT;
    let m = meaningFor(target - bonus);
    // Under the gate the bonuses are not paid: the match alone must stay under the target.
    if (scale * (WORDS_WEIGHT * s.words + MEANING_WEIGHT * m) < this.gate)
      m = Math.min(meaningFor(target), meaningFor(this.gate) - HELD_MARGIN);
    const current = this.meaningOf(s.cosine!, s.words);
    m = Math.max(s.words, Math.min(current, m));
    const match = scale * (WORDS_WEIGHT * s.words + MEANING_WEIGHT * m);
    const score = match + (match >= this.gate ? bonus : 0);
    return { ...s, match, score, heldTo: { meaning: m, by: by.ordinal, rule: 'rarest' } };
  }

  /**
   * Whether the question's rarest unit is a name (scoredCandidates.ts holdToNames): an identifier
   * (a key path, a flag, an environment variable) that is not a word written joined by a hyphen
   * or a camelCase capital (text/analyzer.ts joinedWord), nor two words the workspace writes as one.
   * Read once per question: the explain path asks it at every limit it tries.
   */
  rarestIsName(): boolean {
    if (this.nameAsked === undefined) {
      const rarest = this.rarestUnit();
      const term = rarest < 0 ? null : this.units[rarest].term;
      this.nameAsked =
        term?.isIdentifier === true && !term.compound && !term.hyphenated && joinedWord(term.surface) === null;
    }
    return this.nameAsked;
  }
  private nameAsked: boolean | undefined;

  /**
   * `s`, words only, with its words held back so that it ranks `below` places under `by`
   * (holdToNames): the largest words value, never above its own, whose score stays under `by`'s.
   * Unchanged when it already scores under that.
   */
  holdWordsBelow(s: Scored, by: Scored, below: number): Scored {
    const scale = this.scale[s.doc];
    const bonus = this.bonuses(s.ordinal);
    const target = by.score - below * HELD_MARGIN;
    if (s.score <= target) return s;
    let words = (target - bonus) / scale;
    // Under the gate the bonuses are not paid: the match alone must stay under the target.
    if (scale * words < this.gate) words = Math.min(target / scale, this.gate / scale - HELD_MARGIN);
    words = Math.max(0, Math.min(s.words, words));
    const match = scale * words;
    const score = match + (match >= this.gate ? bonus : 0);
    return { ...s, match, score, wordsHeldTo: { words, by: by.ordinal } };
  }

  /** `s` scored on its words alone, as a copy of `of`'s text (scoredCandidates.ts liftOneCopy). */
  wordsAlone(s: Scored, of: Scored): Scored {
    const scale = this.scale[s.doc];
    const match = scale * (WORDS_WEIGHT * s.words + MEANING_WEIGHT * s.words);
    const score = match + (match >= this.gate ? this.bonuses(s.ordinal) : 0);
    return { ...s, match, score, heldTo: { meaning: s.words, by: of.ordinal, rule: 'copy' } };
  }

  /** A section as why[] names it: its path and heading. */
  private describe(ordinal: number): string {
    const entry = this.state.sections[ordinal];
    if (!entry) return 'another passage';
    const heading = entry.section.headingPath?.[entry.section.headingPath.length - 1];
    return `${entry.doc.path}${heading ? ` > ${heading}` : ''}`;
  }

  /** Why a document's match counts less (explain's words and meaning details). */
  private roleOf(doc: number): string {
    const reasons: string[] = [];
    if (this.tables.signedRecordDoc[doc] && this.scale[doc] < 1)
      reasons.push(
        `a signed record (its front matter names its authors), not a maintained page (x${contract.SIGNED_RECORD_WEIGHT})`,
      );
    if (!this.releasesAsked && this.tables.releaseNoteDoc[doc])
      reasons.push(
        `a release note (by its path or title) and the question asks about no version or change (x${contract.RELEASE_NOTE_WEIGHT})`,
      );
    return reasons.join('; ');
  }

  /** The bonuses of the passage at `ordinal`: its document's, or its FAQ entry's (entryTitles.ts). */
  private bonuses(ordinal: number): number {
    return this.bonusOfGroup[this.groupOf[ordinal]];
  }

  /**
   * The title value a passage earns: its document title's graded words, or, asked as a question,
   * its FAQ entry's question's when that holds more; with the entry when it is the question's.
   */
  private title(ordinal: number, doc: number): { value: number; entry: number } {
    const g = this.groupOf[ordinal] - this.tables.docs.length;
    const page = this.titleWords[doc];
    return g >= 0 && this.entryTitleWords[g] > page
      ? { value: this.entryTitleWords[g], entry: g }
      : { value: page, entry: -1 };
  }

  /**
   * The title value of every title in `index` (document titles, or FAQ entries' questions) into
   * `out`: only titles holding a question term (or an identifier's part) are touched. The same
   * numbers as `titleTerms`. `offset` places these titles in the shared scratch arrays.
   */
  private gradeTitles(
    index: ReadonlyMap<string, readonly number[]>,
    termCounts: Uint16Array,
    offset: number,
    out: Float64Array,
    arrays: QuestionArrays,
  ): Float64Array {
    if (this.totalWeight <= 0) return out;
    const average = this.tables.averageTitleTerms;
    const saturation = (t: number) => titleSaturation(termCounts[t], average);
    // Marks and weights by title in typed arrays, zeroed again below: an identifier's common
    // parts ("cli", "api") are in thousands of titles, too many for a Set and a Map per question.
    const { titleWhole: whole, titlePartWeight: held } = arrays;
    for (const unit of this.units) {
      const share = unit.weight / this.totalWeight;
      // A title's terms are distinct, so each title is listed once per term.
      const listed = index.get(unit.term.key) ?? [];
      for (const t of listed) out[t] += share * saturation(t);
      if (!unit.parts.length) continue;
      const partWeight = unit.parts.reduce((sum, p) => sum + p.weight, 0);
      if (partWeight <= 0) continue;
      for (const t of listed) whole[offset + t] = 1;
      const reached: number[] = [];
      for (const part of unit.parts) {
        for (const t of index.get(part.term) ?? []) {
          if (whole[offset + t] !== 0) continue;
          if (held[offset + t] === 0) reached.push(t);
          held[offset + t] += part.weight;
        }
      }
      for (const t of reached) {
        out[t] += share * unit.partCredit * saturation(t) * (held[offset + t] / partWeight) ** 2;
        held[offset + t] = 0;
      }
      for (const t of listed) whole[offset + t] = 0;
    }
    return out;
  }

  /** The question terms a title holds, for why[]: a document's (`entry` -1) or an FAQ entry's question's. */
  private titleTerms(doc: number, entry: number): WhyWordTerm[] {
    const terms = entry >= 0 ? this.tables.entries.terms[entry] : this.state.titleTerms.get(this.tables.docs[doc].id);
    if (!terms || this.totalWeight <= 0) return [];
    const saturation = titleSaturation(countedTermCount(terms), this.tables.averageTitleTerms);
    const out: WhyWordTerm[] = [];
    for (const unit of this.units) {
      let s = terms.has(unit.term.key) ? saturation : 0;
      let fields = s > 0 ? ['title'] : [];
      if (s === 0 && unit.parts.length) {
        const partWeight = unit.parts.reduce((sum, p) => sum + p.weight, 0);
        const held = unit.parts.filter((p) => terms.has(p.term)).reduce((sum, p) => sum + p.weight, 0);
        if (held > 0 && partWeight > 0) {
          s = unit.partCredit * saturation * (held / partWeight) ** 2;
          fields = ['parts'];
        }
      }
      if (s > 0)
        out.push({
          term: unit.term.surface,
          weight: unit.weight,
          share: unit.weight / this.totalWeight,
          saturation: s,
          fields,
        });
    }
    return out;
  }

  /** Weighted share of the units in `mask` (no saturation): the tie-break on what a section says itself. */
  private maskShare(mask: number): number {
    if (this.totalWeight <= 0 || mask === 0) return 0;
    let sum = 0;
    for (const unit of this.units) if (mask & unit.bit) sum += unit.weight;
    return sum / this.totalWeight;
  }

  /** The kept passage with its why[]: every term, weight, raw value, contribution and detail. */
  explain(s: Scored, capped: boolean): RankedPassage {
    const entry = this.state.sections[s.ordinal]!;
    const doc = entry.doc;
    const why: WhyTerm[] = [];
    const hasVector = s.cosine !== null;
    const wordTerms = this.wordTerms(s.ordinal);
    // A signed record's match counts for SIGNED_RECORD_WEIGHT: its weights say so, its raw values stay as measured.
    const scale = this.scale[s.doc];
    const record = scale < 1 ? `; x${scale.toFixed(2)}: ${this.roleOf(s.doc)}` : '';
    const heldWords = s.wordsHeldTo
      ? `; ${s.words.toFixed(3)} held to ${s.wordsHeldTo.words.toFixed(3)}: the passage lacks "${this.units[this.rarestUnit()].term.surface}", the name the question asks about and its rarest term, and may not rank above ${this.describe(s.wordsHeldTo.by)}, which holds every term of the question`
      : '';
    why.push({
      ...term(
        'words',
        (hasVector ? WORDS_WEIGHT : 1) * scale,
        s.wordsHeldTo ? s.wordsHeldTo.words : s.words,
        this.wordsDetail(wordTerms) + heldWords + record,
      ),
      terms: wordTerms,
    });
    if (hasVector) {
      const anchors = this.options.meaning!.anchors;
      const cosineTerm = meaningTerm(s.cosine!, anchors, this.curve);
      const lifted = hybridMeaning(cosineTerm, s.words, this.wordShare);
      const value = s.heldTo ? s.heldTo.meaning : lifted;
      const rarest = s.heldTo ? `"${this.units[this.rarestUnit()].term.surface}", the question's rarest term` : '';
      const floor = s.heldTo
        ? s.heldTo.rule === 'copy'
          ? `; ${lifted.toFixed(3)} held to ${value.toFixed(3)}: the passage repeats the text of ${this.describe(s.heldTo.by)}, ranked above it, and lacks ${rarest}: meaning lifts one copy of a text`
          : `; ${lifted.toFixed(3)} held to ${value.toFixed(3)}: the passage lacks ${rarest}, and meaning may not lift it past ${this.describe(s.heldTo.by)}, which holds every term of the question with at least its words`
        : value > cosineTerm
          ? `; ${cosineTerm.toFixed(3)} raised to ${value.toFixed(3)}: meaning counts at least the passage's words${this.wordShare < 1 ? ` and adds only for the ${Math.round(this.wordShare * 100)}% of the question in plain words (identifiers are matched by words)` : ''}`
          : this.wordShare < 1
            ? `; meaning adds only for the ${Math.round(this.wordShare * 100)}% of the question in plain words (identifiers are matched by words)`
            : '';
      why.push(
        term(
          'meaning',
          MEANING_WEIGHT * scale,
          value,
          `cosine ${s.cosine!.toFixed(3)} (0 at ${anchors.unrelated}, 1 at ${anchors.related} for this model; to the power ${this.curve})${floor}${record}`,
        ),
      );
    } else {
      why.push({
        signal: 'meaning',
        weight: 0,
        raw: 0,
        contribution: 0,
        detail: this.options.meaning
          ? 'no embedding for this passage yet: words count at full weight'
          : 'embeddings are off: words count at full weight',
      });
    }
    const bonuses = s.match >= this.gate;
    const gate = `no bonus: match ${s.match.toFixed(3)} is below the minimum ${this.gate}`;
    const bonus = (signal: Signal, weight: number, raw: number, detail: string, terms?: WhyWordTerm[]) =>
      why.push(
        bonuses ? { ...term(signal, weight, raw, detail), ...(terms ? { terms } : {}) } : zero(signal, weight, gate),
      );

    const title = this.title(s.ordinal, s.doc);
    const titleTerms = this.titleTerms(s.doc, title.entry);
    const held = titleTerms.map((t) => `${t.term} ${t.saturation.toFixed(2)}`).join(', ');
    const question = entry.section.headingPath[entry.section.headingPath.length - 1];
    bonus(
      'title',
      TITLE_WEIGHT,
      title.value,
      title.entry >= 0
        ? `the FAQ entry's question "${question}" holds ${held}: asked as a question, an FAQ entry is titled by its question (the page's title "${doc.title}" holds less)`
        : titleTerms.length
          ? `title "${doc.title}" holds ${held}`
          : `no question term in the title "${doc.title}"`,
      titleTerms,
    );

    const refs = entry.section.entityRefs ?? doc.entityRefs;
    const hit = this.named.find((e) => refs.includes(e.key));
    const folder = this.options.namedFolder;
    let namedDetail: string;
    if (folder !== undefined)
      namedDetail = `belongs to the served folder ${doc.folder}, named as "${folder}"; it holds ${Math.round(this.namedShare * 100)}% of the asked folders' passages${this.namedRaw < 1 ? `, so the bonus is scaled to ${this.namedRaw.toFixed(2)}` : ''}`;
    else if (this.named.length === 0) namedDetail = 'the question names no catalog entity';
    else if (!hit) namedDetail = `belongs to none of the named entities (${this.named.map((e) => e.ref).join(', ')})`;
    else if (this.namedRaw < 1)
      namedDetail = `belongs to ${hit.ref}, named as "${hit.phrase}"; the named entities hold ${Math.round(this.namedShare * 100)}% of all passages, so the bonus is scaled to ${this.namedRaw.toFixed(2)} (it cannot tell their passages apart)`;
    else namedDetail = `belongs to ${hit.ref}, named as "${hit.phrase}"`;
    bonus('namedEntity', NAMED_ENTITY_WEIGHT, this.namedDoc[s.doc] * this.namedRaw, namedDetail);

    const commit = this.tables.lastCommitOfDoc[s.doc];
    if (Number.isNaN(commit)) bonus('recency', RECENCY_WEIGHT, 0, 'no commit history for this file');
    else {
      const days = Math.max(0, Math.floor((this.options.now - commit) / 86_400_000));
      bonus(
        'recency',
        RECENCY_WEIGHT,
        recencyRaw(this.options.now - commit),
        `last committed ${days} day${days === 1 ? '' : 's'} ago`,
      );
    }

    const root = this.tables.rootOfDoc[s.doc];
    const health = root === undefined ? undefined : this.state.runHealth.get(root);
    if (!health || health.verdict === 'unknown')
      bonus(
        'runHealth',
        RUN_HEALTH_WEIGHT,
        0,
        `no run verdict for repository ${root || '.'} (unknown counts as nothing)`,
      );
    else
      bonus(
        'runHealth',
        RUN_HEALTH_WEIGHT,
        health.verdict === 'succeeded' ? 1 : 0,
        `last run of ${root || '.'} ${health.verdict}${health.finishedAt ? ` at ${health.finishedAt}` : ''}`,
      );

    // The score is the sum of the listed contributions, in order: why[] always adds up.
    let score = 0;
    for (const t of why) score += t.contribution;
    return { entry, score, match: s.match, why, ownWords: s.own, ...(capped ? { capped } : {}) };
  }

  /** Each question term's weight, saturation and fields in section `ordinal`, as the index scored them. */
  private wordTerms(ordinal: number): WhyWordTerm[] {
    const lexical = this.state.lexical;
    const saturation = (this.saturation ??= lexical.saturations(this.model));
    const flat = (this.lengthFreeSaturation ??= lexical.saturations({
      ...this.model,
      b: { ...this.model.b, body: 0 },
    }));
    const lengthFree = (ordinal: number, packed: number) => flat(ordinal, oneBodyOccurrence(packed));
    const out: WhyWordTerm[] = [];
    for (const unit of this.units) {
      const share = this.totalWeight > 0 ? unit.weight / this.totalWeight : 0;
      const packed = lexical.fieldCounts(ordinal, unit.term.key);
      // A key path is a name: its whole form and trailing forms ignore the body's length and count once (gradedMatch.ts `lengthFree`).
      const named = unit.term.path ? lengthFree : saturation;
      let sat = packed ? named(ordinal, packed) : 0;
      let fields = packed ? fieldsOf(unpackCounts(packed)) : [];
      if (unit.parts.length) {
        const partWeight = unit.parts.reduce((sum, p) => sum + p.weight, 0);
        let parts = 0;
        let cover = 0;
        for (const part of unit.parts) {
          const p = lexical.fieldCounts(ordinal, part.term);
          if (!p || partWeight <= 0) continue;
          parts += (part.weight / partWeight) * saturation(ordinal, p);
          cover += part.weight / partWeight;
        }
        parts *= unit.partCredit * Math.min(1, cover);
        if (parts > sat) {
          sat = parts;
          fields = ['parts'];
        }
      }
      let matched: string | undefined;
      for (const form of unit.forms) {
        const p = lexical.fieldCounts(ordinal, form.term);
        if (!p) continue;
        // The last key alone is a word of prose: length counts (gradedMatch.ts `lengthBound`).
        const value = form.credit * (form.leaf ? saturation : named)(ordinal, p);
        if (value > sat) {
          sat = value;
          fields = ['trailing'];
          matched = form.term;
        }
      }
      out.push({
        term: unit.term.surface,
        weight: unit.weight,
        share,
        saturation: sat,
        fields,
        ...(matched ? { matched } : {}),
      });
    }
    return out;
  }

  private wordsDetail(terms: readonly WhyWordTerm[]): string {
    if (this.units.length === 0) return 'the question has no searchable words';
    const present = terms.filter((t) => t.saturation > 0);
    const missing = terms.filter((t) => t.saturation === 0).map((t) => t.term);
    const head = `${present.length} of ${this.units.length} terms`;
    const found = present
      .map((t) => `${t.term} ${t.saturation.toFixed(2)} (${t.matched ? `trailing ${t.matched}` : t.fields.join('+')})`)
      .join(', ');
    return [head, found ? `matched ${found}` : '', missing.length ? `missing ${missing.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
  }
}

/** The fields a term occurs in, from its packed counts. */
function fieldsOf(c: FieldCounts): string[] {
  return (['heading', 'title', 'body', 'context'] as const).filter((f) => c[f] > 0);
}

/**
 * The best `limit` candidates, kept sorted best first. Equal scores are ordered by match, then by
 * how much of the question the section says itself, then in the workspace's reading order: by
 * folder and path of the document, then by position in it (section id last, for repeated
 * headings), so the same question on the same index always gives the same order, and the order
 * of two equal pages is the one their files have rather than a hash's.
 */
class TopK {
  private readonly items: Scored[] = [];

  constructor(
    readonly capacity: number,
    private readonly sections: readonly (SectionEntry | undefined)[],
  ) {}

  /** True when a candidate scoring at most `bound` can no longer enter. */
  rejects(bound: number): boolean {
    return bound < FLOOR || (this.items.length >= this.capacity && bound < this.items[this.items.length - 1].score);
  }

  offer(s: Scored): void {
    if (this.rejects(s.score)) return;
    const items = this.items;
    // The first kept item `s` beats (the order is total, so "beats" turns true once): found by
    // halving, not by walking up from the last, which cost the explain path's 5,000-deep runs
    // ~n/2 comparisons per candidate.
    let i = 0;
    let end = items.length;
    while (i < end) {
      const mid = (i + end) >>> 1;
      if (this.better(s, items[mid])) end = mid;
      else i = mid + 1;
    }
    if (i >= this.capacity) return;
    items.splice(i, 0, s);
    if (items.length > this.capacity) items.pop();
  }

  sorted(): Scored[] {
    return this.items;
  }

  private better(a: Scored, b: Scored): boolean {
    return compareScored(a, b, this.sections) < 0;
  }
}

/**
 * The ranker's order between two ranked passages, as a sort comparator (negative: `a` first):
 * score, then TopK's tie rules. For merging rankings made separately (one per served folder).
 */
export function comparePassages(a: RankedPassage, b: RankedPassage): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.match !== b.match) return b.match - a.match;
  if (a.ownWords !== b.ownWords) return b.ownWords - a.ownWords;
  const ea = a.entry;
  const eb = b.entry;
  if (ea.doc.id === eb.doc.id && ea.section.startLine !== eb.section.startLine)
    return ea.section.startLine - eb.section.startLine;
  if (ea.doc.id !== eb.doc.id && (ea.doc.folder !== eb.doc.folder || ea.doc.path !== eb.doc.path)) {
    if (ea.doc.folder !== eb.doc.folder) return ea.doc.folder < eb.doc.folder ? -1 : 1;
    return ea.doc.path < eb.doc.path ? -1 : 1;
  }
  return ea.section.id < eb.section.id ? -1 : ea.section.id > eb.section.id ? 1 : 0;
}

function term(signal: Signal, weight: number, raw: number, detail: string): WhyTerm {
  return { signal, weight, raw, contribution: weight * raw, detail };
}

function zero(signal: Signal, weight: number, detail: string): WhyTerm {
  return { signal, weight, raw: 0, contribution: 0, detail };
}

/** The innermost repository root holding a workspace-relative path. */
export function repoRootOf(state: IndexState, path: string): string | undefined {
  let best: string | undefined;
  for (const repo of state.repos) {
    if (
      (repo.root === '' || path.startsWith(`${repo.root}/`)) &&
      (best === undefined || repo.root.length > best.length)
    )
      best = repo.root;
  }
  return best;
}
