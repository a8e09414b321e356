/**
 * Ranking library sections against a plan (docs/ARCHITECTURE.md, the library tools' contract, "Search"): three signals fused with
 * reciprocal rank fusion, plus the title rule. Deterministic: no model runs, and every tie is
 * broken by a fixed order (document order of the map, then position, then id).
 *
 * Signals, each a list of the sections it finds with a raw score in 0..1:
 * - **summary**: the plan's terms found in the section's summary (heading path and first
 *   sentences, plus its document's summary, `good_for` and `questions`; summaries.ts), weighted by
 *   inverse document frequency from the postings index so common words count less:
 *   `sum idf(found) * w / sum idf(plan terms)`, with `idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`
 *   and `w` 1 for a term of the section's own summary, DOCUMENT_CARD_WEIGHT for one found only in
 *   its document's card (1 when the document has a single section).
 * - **meaning**: passage similarity from embeddings, through {@link MeaningScorer}; absent (not
 *   zero) when no scorer is installed or it answers null.
 * - **exact**: the plan's identifiers, codes and flags (`BILLING_RETRY_MAX`, `mac_...`,
 *   `payments.charge.v1`, `SEV1`, `--dry-run`, anything in backticks) matched whole through the
 *   postings index: `sum idf(found) / sum idf(exact units)`. Absent when the plan has none.
 *
 * Fusion: ranks use competition ranking (equal scores share a rank) and a section's fused score
 * is `sum over signals of 1 / (RRF_K + rank)` (constants.ts), plus the title bonus of its
 * document (`TITLE_BONUS_MAX * strength`, titleSpecificity.ts).
 *
 * A section's *strength* is the mean raw score over the available signals (0..1). RRF orders
 * well but hides how far apart two results are, so the `focused` profile judges "weak next to the
 * best" on strengths, not on fused scores.
 */
import { type Doc, analyzeQuery, termSet, type QueryTerm, MAX_MATCH_UNITS } from '../../engine';
import { DOCUMENT_CARD_WEIGHT, RRF_K, TITLE_BONUS_MAX } from './constants';
import type { LibrarySection, LibraryView } from './libraryView';
import { documentCardTerms, sectionSummaryTerms } from './summaries';
import { titleMatches, type TitleMatch } from './titleSpecificity';

/**
 * Passage-meaning scores for the candidate sections: section id -> similarity mapped to 0..1,
 * only for sections close enough to count as a match. Null when embeddings are off or not ready:
 * the signal is then absent from the fusion, not zero.
 */
export type MeaningScorer = (
  plan: string,
  candidates: readonly LibrarySection[],
) => Promise<ReadonlyMap<string, number> | null>;

export type SignalName = 'summary' | 'meaning' | 'exact';

export interface SignalScore {
  /** 1-based competition rank among the sections the signal found. */
  rank: number;
  /** Raw score, 0..1. */
  score: number;
}

export interface RankedSection {
  entry: LibrarySection;
  signals: Partial<Record<SignalName, SignalScore>>;
  /** What the document's title added (0 when the plan does not name it specifically). */
  titleBonus: number;
  fused: number;
  /** Mean raw score over the available signals, 0..1. */
  strength: number;
}

export interface RankedDocument {
  doc: Doc;
  /** Fused score of its best section. */
  score: number;
  /** max(best section strength, title strength), 0..1. */
  strength: number;
  title?: TitleMatch;
  /** Its matched sections, best first. */
  sections: RankedSection[];
}

export interface LibraryRanking {
  plan: string;
  /** Which signals took part. */
  signals: Record<SignalName, boolean>;
  /** The plan's exact-word units (whole index terms). */
  exactTerms: string[];
  /** Every matched section, best first. */
  sections: RankedSection[];
  /** Every document with a matched section, best first. */
  documents: RankedDocument[];
}

export interface RankOptions {
  meaning?: MeaningScorer;
  /** Only sections this predicate accepts are ranked (a namespace, one document). */
  filter?: (entry: LibrarySection) => boolean;
}

/** Ranks the view's ready sections against `plan`. */
export async function rankLibrary(view: LibraryView, plan: string, options: RankOptions = {}): Promise<LibraryRanking> {
  const candidates = options.filter ? view.sections.filter(options.filter) : view.sections;
  const planTerms = termSet(plan);
  const exactUnits = exactWordUnits(plan);
  const meaningScores = candidates.length > 0 && options.meaning ? await options.meaning(plan, candidates) : null;
  const available: Record<SignalName, boolean> = {
    summary: true,
    meaning: meaningScores !== null,
    exact: exactUnits.length > 0,
  };
  const empty: LibraryRanking = {
    plan,
    signals: available,
    exactTerms: exactUnits.map((u) => u.key),
    sections: [],
    documents: [],
  };
  if (planTerms.size === 0 || candidates.length === 0) return empty;

  const idf = idfOf(view);
  const raw: Record<SignalName, Map<LibrarySection, number>> = {
    summary: summaryScores(candidates, planTerms, idf),
    meaning: new Map(),
    exact: exactScores(view, candidates, exactUnits, idf, options.filter),
  };
  if (meaningScores) {
    for (const entry of candidates) {
      const score = meaningScores.get(entry.section.id);
      if (score !== undefined && score > 0) raw.meaning.set(entry, Math.min(1, score));
    }
  }

  const candidateDocs = new Set(candidates.map((c) => c.doc.id));
  const titles = new Map([...titleMatches(view.titles, planTerms)].filter(([id]) => candidateDocs.has(id)));
  const byOrder = (a: LibrarySection, b: LibrarySection) => a.order - b.order;

  const ranks: Record<SignalName, Map<LibrarySection, SignalScore>> = {
    summary: competitionRanks(raw.summary, byOrder),
    meaning: competitionRanks(raw.meaning, byOrder),
    exact: competitionRanks(raw.exact, byOrder),
  };
  const signalCount = (Object.keys(available) as SignalName[]).filter((s) => available[s]).length;
  const matched = new Set<LibrarySection>([...raw.summary.keys(), ...raw.meaning.keys(), ...raw.exact.keys()]);
  for (const entry of candidates) if (titles.has(entry.doc.id)) matched.add(entry);

  const sections: RankedSection[] = [];
  for (const entry of matched) {
    const signals: Partial<Record<SignalName, SignalScore>> = {};
    let fused = 0;
    let rawSum = 0;
    for (const name of ['summary', 'meaning', 'exact'] as const) {
      const score = ranks[name].get(entry);
      if (!score) continue;
      signals[name] = score;
      fused += 1 / (RRF_K + score.rank);
      rawSum += score.score;
    }
    const titleBonus = TITLE_BONUS_MAX * (titles.get(entry.doc.id)?.strength ?? 0);
    sections.push({ entry, signals, titleBonus, fused: fused + titleBonus, strength: rawSum / signalCount });
  }
  sections.sort((a, b) => b.fused - a.fused || b.strength - a.strength || byOrder(a.entry, b.entry));

  const docs = new Map<string, RankedDocument>();
  for (const ranked of sections) {
    const doc = ranked.entry.doc;
    let rankedDoc = docs.get(doc.id);
    if (!rankedDoc) {
      const title = titles.get(doc.id);
      rankedDoc = { doc, score: ranked.fused, strength: Math.max(ranked.strength, title?.strength ?? 0), sections: [] };
      if (title) rankedDoc.title = title;
      docs.set(doc.id, rankedDoc);
    }
    rankedDoc.sections.push(ranked);
  }
  const documents = [...docs.values()].sort(
    (a, b) => b.score - a.score || b.strength - a.strength || byOrder(a.sections[0].entry, b.sections[0].entry),
  );
  return { ...empty, sections, documents };
}

/** ln(1 + (N - df + 0.5) / (df + 0.5)) over the postings index (BM25's idf, never negative). */
function idfOf(view: LibraryView): (term: string) => number {
  const lexical = view.state.lexical;
  const n = lexical.sectionCount;
  const cache = new Map<string, number>();
  return (term) => {
    let value = cache.get(term);
    if (value === undefined) {
      const df = Math.min(lexical.df(term), n);
      value = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      cache.set(term, value);
    }
    return value;
  };
}

function summaryScores(
  candidates: readonly LibrarySection[],
  planTerms: ReadonlySet<string>,
  idf: (t: string) => number,
): Map<LibrarySection, number> {
  const terms = [...planTerms];
  const weights = terms.map(idf);
  const total = weights.reduce((a, b) => a + b, 0);
  const scores = new Map<LibrarySection, number>();
  if (total <= 0) return scores;
  for (const entry of candidates) {
    const own = sectionSummaryTerms(entry.section);
    const card = documentCardTerms(entry.doc);
    // The weight only ranks a document's sections among themselves; a page of one section is its card.
    const cardWeight = entry.doc.sections.length > 1 ? DOCUMENT_CARD_WEIGHT : 1;
    let found = 0;
    for (let i = 0; i < terms.length; i++) {
      if (own.has(terms[i])) found += weights[i];
      else if (card.has(terms[i])) found += cardWeight * weights[i];
    }
    if (found > 0) scores.set(entry, found / total);
  }
  return scores;
}

function exactScores(
  view: LibraryView,
  candidates: readonly LibrarySection[],
  units: readonly QueryTerm[],
  idf: (t: string) => number,
  filter: RankOptions['filter'],
): Map<LibrarySection, number> {
  const scores = new Map<LibrarySection, number>();
  if (units.length === 0 || candidates.length === 0) return scores;
  const weights = units.map((u) => idf(u.key));
  const total = weights.reduce((a, b) => a + b, 0);
  const result = view.state.lexical.match(units.map((u) => [u.key]));
  for (let i = 0; i < result.count; i++) {
    const entry = view.sectionByOrdinal.get(result.ordinals[i]);
    if (!entry || (filter && !filter(entry))) continue;
    let found = 0;
    for (let j = 0; j < units.length; j++) if (result.masks[i] & (1 << j)) found += weights[j];
    if (found > 0) scores.set(entry, total > 0 ? found / total : 1);
  }
  return scores;
}

/**
 * The plan's units that name something exactly: identifiers (`billing-worker`, `amount_minor`,
 * `payments.charge.v1`), words with a digit (`SEV1`, `409`), upper-case codes (`PAN`, `EUR`),
 * flags written `--name`, and anything inside backticks. At most MAX_MATCH_UNITS.
 */
export function exactWordUnits(plan: string): QueryTerm[] {
  const quoted = new Set<string>();
  for (const match of plan.matchAll(/`([^`]+)`/g)) for (const unit of analyzeQuery(match[1])) quoted.add(unit.key);
  const flags = new Set<string>();
  for (const match of plan.matchAll(/(?:^|[\s(])--([A-Za-z0-9][\w-]*)/g))
    for (const unit of analyzeQuery(match[1])) flags.add(unit.key);
  return analyzeQuery(plan)
    .filter(
      (u) =>
        u.isIdentifier ||
        /\d/.test(u.surface) ||
        (u.surface.length >= 2 && /^[A-Z][A-Z0-9]+$/.test(u.surface)) ||
        quoted.has(u.key) ||
        flags.has(u.key),
    )
    .slice(0, MAX_MATCH_UNITS);
}

/**
 * Competition ranking ("1224"): best score first, equal scores share a rank; `order` breaks
 * ties for a stable output. get_context's section search ranks its signals the same way.
 */
export function competitionRanks(
  scores: ReadonlyMap<LibrarySection, number>,
  order: (a: LibrarySection, b: LibrarySection) => number,
): Map<LibrarySection, SignalScore> {
  const sorted = [...scores].sort((a, b) => b[1] - a[1] || order(a[0], b[0]));
  const ranks = new Map<LibrarySection, SignalScore>();
  let rank = 0;
  let previous = Number.NaN;
  sorted.forEach(([entry, score], i) => {
    if (score !== previous) {
      rank = i + 1;
      previous = score;
    }
    ranks.set(entry, { rank, score });
  });
  return ranks;
}
