/**
 * FAQ entries, titled by their question (contract.ts, the title bonus).
 *
 * An FAQ page is many small documents under one title: "Frequently Asked Questions" holds none of
 * the words of a question asked of it, so each entry's title bonus was 0 where a tutorial titled
 * with the question's subject earned up to the whole bonus. A section whose own heading is a
 * question ("Can I use rclone with an HTTP proxy?", lexical/fields.ts isQuestionHeading) is such
 * an entry, and its question is what a title is to a page: when the question is asked as one
 * (text/questionFrame.ts isQuestion), an entry's title bonus is the better of its page's title and
 * its own question, graded the same way (the share of the question's weight it holds, saturated
 * by its length against the mean title's).
 *
 * For max-score pruning (lexical/maxScore.ts) the bonus is paid by group: every entry is a group
 * of its own after the documents, so the bounds stay exact and a page's other sections keep their
 * page's bonus.
 */
import type { IndexState } from '../indexState';
import { countedTermCount, termSet } from '../text/analyzer';

export interface EntryTitles {
  /** How many entries the state holds. */
  count: number;
  /** Entry -> its section ordinal. */
  ordinals: Uint32Array;
  /** Entry -> its document's index in the ranking tables. */
  docOf: Int32Array;
  /** Entry -> the distinct terms of its question. */
  terms: ReadonlySet<string>[];
  /** Entry -> how many distinct terms its question holds (the title grade's length). */
  termCounts: Uint16Array;
  /** Term -> the entries whose question holds it. */
  index: Map<string, number[]>;
  /**
   * Section ordinal -> pruning group: its document's index, or, for an entry, the number of
   * documents plus the entry's index; -1 for removed sections.
   */
  groupOf: Int32Array;
}

/** The state's FAQ entries, from its sections' own headings (the index marks which are questions). */
export function entryTitles(state: IndexState, docOfSection: Int32Array, documents: number): EntryTitles {
  const ordinals: number[] = [];
  const terms: ReadonlySet<string>[] = [];
  const index = new Map<string, number[]>();
  const groupOf = Int32Array.from(docOfSection);
  for (const entry of state.sections) {
    if (!entry || docOfSection[entry.ordinal] < 0 || !state.lexical.questionHeading(entry.ordinal)) continue;
    const question = entry.section.headingPath[entry.section.headingPath.length - 1] ?? '';
    const own = termSet(question);
    if (own.size === 0) continue;
    const e = ordinals.length;
    ordinals.push(entry.ordinal);
    terms.push(own);
    for (const term of own) {
      const list = index.get(term);
      if (list) list.push(e);
      else index.set(term, [e]);
    }
    groupOf[entry.ordinal] = documents + e;
  }
  const count = ordinals.length;
  const docOf = new Int32Array(count);
  const termCounts = new Uint16Array(count);
  for (let e = 0; e < count; e++) {
    docOf[e] = docOfSection[ordinals[e]];
    termCounts[e] = Math.min(countedTermCount(terms[e]), 0xffff);
  }
  return { count, ordinals: Uint32Array.from(ordinals), docOf, terms, termCounts, index, groupOf };
}
