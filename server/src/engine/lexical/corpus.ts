/**
 * A question's candidates as a small index that scores exactly like the whole corpus.
 *
 * A store (server/src/store/) holds a workspace's postings outside this process and hands the
 * ranker only the sections that hold one of the question's terms. The ranker's numbers that are
 * not per-candidate must still be the whole corpus's, or scores would drift with the candidate
 * set: the section count and each term's document frequency (idf), each field's average length
 * (BM25F's length normalisation), the mean title length (the title bonus) and how many sections
 * the named entities' documents hold (the named-entity bonus's share). They travel here, as
 * {@link CorpusStatistics}, beside the candidates.
 */
import type { FieldLengths } from './fields';
import { PostingsIndex } from './postings';
import type { BaseSegment } from './segment';

/** The whole corpus's numbers a state of candidates only is scored with. */
export interface CorpusStatistics {
  /** Live sections in the corpus (the in-memory index's `sectionCount`). */
  sectionCount: number;
  /** Sums of each field's (capped, fields.ts) length over every live section. */
  lengthSums: Readonly<Omit<FieldLengths, 'questionHeading'>>;
  /** Sections holding each term; a term not listed occurs nowhere. */
  documentFrequency: ReadonlyMap<string, number>;
  /** Mean number of distinct title terms per document (rankingTables.ts). */
  averageTitleTerms: number;
  /** Sections of the documents attached to any of the named entities (ranker's named-entity share). */
  namedEntitySections: number;
  /**
   * When present, every term asked for that `documentFrequency` does not list is added here: a
   * library state holds the counts of the terms its reader expected to be asked, and a term it
   * missed would silently score as one no section holds (the store tests assert none is missed).
   */
  unknownTerms?: Set<string>;
}

/**
 * A postings index over a question's candidates that answers `sectionCount`, `df` and
 * `averageLengths` for the whole corpus, so `gradedMatch`, `saturation` and the ranker's idf
 * give the numbers the whole in-memory index would. `base` holds the candidates only
 * (scopedState.ts lays it out).
 */
export class CorpusScopedPostings extends PostingsIndex {
  constructor(
    base: BaseSegment,
    private readonly corpus: CorpusStatistics,
  ) {
    super(base);
  }

  override get sectionCount(): number {
    return this.corpus.sectionCount;
  }

  override df(term: string): number {
    const df = this.corpus.documentFrequency.get(term);
    if (df === undefined) this.corpus.unknownTerms?.add(term);
    return df ?? 0;
  }

  override averageLengths(): FieldLengths {
    // The same arithmetic as PostingsIndex.averageLengths, over the corpus's sums.
    const n = Math.max(1, this.corpus.sectionCount);
    const sums = this.corpus.lengthSums;
    const avg = (sum: number) => (sum > 0 ? sum / n : 1);
    return { body: avg(sums.body), heading: avg(sums.heading), title: avg(sums.title), context: avg(sums.context) };
  }
}
