/**
 * What a question's terms are weighed by when it is asked of several served folders at once.
 *
 * A folder ranks its passages on its own index, and a term's weight is its idf there: the name of
 * a project, said in nearly every section of its own folder, weighs almost nothing in it, while
 * the other folders, which never say it, lose a large share of the question for lacking it.
 * Folders then give scores on different scales, and a merge by score favours whichever folder's
 * sections happen to hold the question's other words (the issue-39 four-repository set: a question
 * about one project got another repository's page first). Weighed by the document frequencies
 * summed over every asked folder, a term weighs the same in each folder, as it would in one index
 * of all of them, and a passage's words are the same share of the same question wherever it is:
 * the rankings can be merged by score. Only the weights are shared; each folder keeps its own
 * field lengths, titles and entities.
 */
import type { IndexState } from '../indexState';

/** A question's terms' document frequencies over a set of sections (questionUnits.ts `questionIndexTerms`). */
export interface QuestionStatistics {
  sectionCount: number;
  /** Sections holding each of the question's index terms; a term not listed occurs in none. */
  df: ReadonlyMap<string, number>;
}

/** The statistics of `terms` in one index state (a folder's, or a store namespace's question state). */
export function statisticsOf(state: IndexState, terms: readonly string[]): QuestionStatistics {
  return {
    sectionCount: state.lexical.sectionCount,
    df: new Map(terms.map((term) => [term, state.lexical.df(term)])),
  };
}

/** The statistics of several folders' sections taken together: counts summed. */
export function summedStatistics(parts: readonly QuestionStatistics[]): QuestionStatistics {
  const df = new Map<string, number>();
  let sectionCount = 0;
  for (const part of parts) {
    sectionCount += part.sectionCount;
    for (const [term, n] of part.df) df.set(term, (df.get(term) ?? 0) + n);
  }
  return { sectionCount, df };
}
