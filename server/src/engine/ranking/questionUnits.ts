/**
 * A question as `workspace_context` scores it: its units (contract.ts), one per distinct term, up
 * to the postings index's 32, each weighed by its idf, an identifier with its parts and a key path
 * with its trailing forms; and the same units as a store bounds its candidate search by them.
 */
import { MAX_MATCH_UNITS } from '../lexical/postings';
import { analyzeQuery, joinedWord, segmentTerm, type QueryTerm } from '../text/analyzer';
import { compoundCandidates, joinCompounds } from '../text/compounds';
import { stripQuestionFrame } from '../text/questionFrame';
import * as contract from './contract';

const { idf } = contract;

/** One unit of a question: a term (an identifier's whole form), its bit in match masks and its weights. */
export interface QuestionUnit {
  term: QueryTerm;
  bit: number;
  weight: number;
  /** An identifier's parts with their weights (empty for plain words). */
  parts: { term: string; weight: number }[];
  /** What the parts can give at most (contract.ts): less when the workspace spells the identifier. */
  partCredit: number;
  /**
   * A key path's trailing forms that occur in the workspace, with their credits (contract.ts
   * trailingFormCredit); `leaf`: its last segment alone, a word of prose rather than a path.
   */
  forms: { term: string; credit: number; leaf?: boolean }[];
}

/** What an identifier's parts and a key path's trailing forms can give (contract.ts). */
export interface PartCredits {
  identifierPart: number;
  spelledIdentifierPart: number;
  trailingFormMax: number;
}

export const PUBLISHED_PART_CREDITS: Readonly<PartCredits> = Object.freeze({
  identifierPart: contract.IDENTIFIER_PART_CREDIT,
  spelledIdentifierPart: contract.SPELLED_IDENTIFIER_PART_CREDIT,
  trailingFormMax: contract.TRAILING_FORM_CREDIT_MAX,
});

/**
 * The terms a question is scored on: its words and identifiers without the question's frame
 * ("how do I", text/questionFrame.ts), each hyphenated or two-part camelCase word keyed by the
 * word it joins to (`built-in` -> `builtin`, `camelCase` -> `camelcas`, text/analyzer.ts), two adjacent words the index holds written as one
 * joined into that word (text/compounds.ts). `known(term)`: the index holds the term.
 */
export function questionTerms(question: string, known: (term: string) => boolean): QueryTerm[] {
  const text = stripQuestionFrame(question);
  return joinCompounds(text, keyedByJoinedWords(analyzeQuery(text)), known);
}

/**
 * `terms` with each hyphenated or two-part camelCase word (`re-read`, `built-in`, `camelCase`)
 * keyed by the word it joins to
 * (text/analyzer.ts `joinedWord`): what workspace_context looks a question's word up by, since a
 * section holding either spelling holds that term. A unit whose key then repeats an earlier one
 * is dropped. The library's tools keep the whole form: their exact words are exact.
 */
export function keyedByJoinedWords(terms: readonly QueryTerm[]): QueryTerm[] {
  const out: QueryTerm[] = [];
  const seen = new Set<string>();
  for (const term of terms) {
    const joined = term.isIdentifier && !term.path && !term.compound ? joinedWord(term.surface) : null;
    const keyed =
      joined !== null && joined !== term.key
        ? { ...term, key: joined, parts: term.parts.filter((p) => p !== joined), hyphenated: true }
        : term;
    if (seen.has(keyed.key)) continue;
    seen.add(keyed.key);
    out.push(keyed);
  }
  return out;
}

/**
 * Every index term the ranking of `question` may look up: its units' keys, identifiers' parts,
 * key paths' trailing forms and segments (whose counts weigh the forms' credits), and two
 * adjacent words the index may hold joined (text/compounds.ts). Their document frequencies are
 * all a question's weights depend on (a store reads them; several folders' are summed).
 */
export function questionIndexTerms(question: string): string[] {
  const text = stripQuestionFrame(question);
  const terms = new Set<string>(compoundCandidates(text));
  for (const term of keyedByJoinedWords(analyzeQuery(text))) {
    terms.add(term.key);
    for (const part of term.parts) terms.add(part);
    for (const form of term.path?.trailing ?? []) terms.add(form.term);
    for (const segment of term.path?.written ?? []) {
      const key = segmentTerm(segment);
      if (key !== null) terms.add(key);
    }
  }
  return [...terms];
}

/** One bit per distinct question term; terms past the 32-bit mask are dropped and reported. */
export function planUnits(queryTerms: QueryTerm[]): { units: QuestionUnit[]; dropped: string[] } {
  const units: QuestionUnit[] = [];
  const dropped: string[] = [];
  for (const queryTerm of queryTerms) {
    if (units.length >= MAX_MATCH_UNITS) dropped.push(queryTerm.surface);
    else units.push({ term: queryTerm, bit: 1 << units.length, weight: 0, parts: [], partCredit: 0, forms: [] });
  }
  return { units, dropped };
}

/**
 * A unit's weight is its idf. An identifier also brings its parts (each weighed by its own idf);
 * when the identifier itself occurs nowhere, its weight is its parts' mean weight, so a name the
 * workspace never spells does not outweigh the rest of the question by being rare. A key path
 * brings its trailing forms that occur somewhere, each credited with the idf-weighted share of
 * the path's segments it holds. `credits`: the contract's published credits unless a measurement
 * varies them (contract.ts RankingTuning).
 */
export function weighUnit(
  documentFrequency: (term: string) => number,
  unit: QuestionUnit,
  n: number,
  credits: PartCredits = PUBLISHED_PART_CREDITS,
): void {
  const df = documentFrequency(unit.term.key);
  unit.parts = unit.term.parts.map((term) => ({ term, weight: idf(documentFrequency(term), n) }));
  unit.forms = trailingForms(documentFrequency, unit.term, n, credits.trailingFormMax);
  // A hyphenated or camelCase word the workspace writes in no joined spelling ("object-form" asked
  // of pages that say "object form") is its two words written apart: a compound.
  if (unit.term.compound || (unit.term.hyphenated && df === 0)) {
    // Either spelling is the whole unit, weighed as its two words were: a section with the words
    // apart scores what it did, one with the joined word scores as if it had both.
    unit.partCredit = contract.COMPOUND_PART_CREDIT;
    unit.weight = unit.parts.reduce((sum, p) => sum + p.weight, 0);
    return;
  }
  unit.partCredit = df > 0 || unit.forms.some((f) => !f.leaf) ? credits.spelledIdentifierPart : credits.identifierPart;
  if (df > 0 || unit.parts.length === 0) unit.weight = idf(df, n);
  else unit.weight = unit.parts.reduce((sum, p) => sum + p.weight, 0) / unit.parts.length;
}

/** A key path's trailing forms that occur in the workspace, with their credits. */
function trailingForms(
  documentFrequency: (term: string) => number,
  term: QueryTerm,
  n: number,
  max: number,
): { term: string; credit: number; leaf?: boolean }[] {
  const path = term.path;
  if (!path || path.trailing.length === 0) return [];
  const present = path.trailing.filter((t) => documentFrequency(t.term) > 0);
  if (present.length === 0) return [];
  const weights = path.written.map((segment) => {
    const key = segmentTerm(segment);
    return key === null ? 0 : idf(documentFrequency(key), n);
  });
  return present
    .map((t) => ({
      term: t.term,
      credit: contract.trailingFormCredit(weights, t.from, max),
      ...(t.leaf ? { leaf: true } : {}),
    }))
    .filter((f) => f.credit > 0);
}

/** A question unit as a store's candidate search bounds it (engine/store/candidateBound.ts). */
export interface WeighedUnit {
  /** The unit's term (an identifier's whole form). */
  term: string;
  /** An identifier's parts: a section holding only these still scores some of the unit. */
  parts: readonly string[];
  /** A key path's trailing forms that occur in the corpus: a section holding one scores some of the unit. */
  forms?: readonly string[];
  /** Its weight, as the ranker gives it: the most the unit adds to the words sum. */
  weight: number;
}

/**
 * The units `rankWorkspaceContext` scores `question` by (the 32 it keeps), weighed as it weighs
 * them over a corpus of `n` sections whose document frequencies `df` gives. A unit adds at most
 * its weight to a section's words sum (its saturation, or its parts' credit, is at most 1), so a
 * store can bound what a section holding only some terms can score without reading it.
 */
export function weighedQuestionUnits(question: string, df: (term: string) => number, n: number): WeighedUnit[] {
  const { units } = planUnits(questionTerms(question, (term) => df(term) > 0));
  for (const unit of units) weighUnit(df, unit, Math.max(1, n));
  return units.map((u) => ({
    term: u.term.key,
    parts: u.term.parts,
    forms: u.forms.map((f) => f.term),
    weight: u.weight,
  }));
}
