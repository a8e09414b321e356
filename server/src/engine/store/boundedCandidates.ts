/**
 * Reads a question's candidates from a store in at most two rounds, as candidateBound.ts
 * decides: the rarest posting lists whole first, then every section found (and the nearest by
 * meaning) with its postings of the other terms looked up; rank what is read, which gives the
 * score every passage of the answer reaches; stop when nothing unread can reach it, else read
 * whole as many more lists, rarest first, as it takes that nothing left unread can (the score
 * only rises as more sections are read), and only the sections they add.
 *
 * The second round reads only sections the first did not, so a question that cannot stop early
 * costs about what reading every list costs, and one that can stops after a few thousand rows.
 * Every read names the generation it saw; a write in between answers undefined and the caller
 * starts again.
 */
import type { IndexState } from '../indexState';
import { FLOOR, meaningTerm } from '../ranking/contract';
import {
  rankWorkspaceContext,
  weighedQuestionUnits,
  type MeaningSource,
  type RankOptions,
} from '../ranking/workspaceContextRanker';
import {
  answerThreshold,
  boundOutside,
  cannotReach,
  firstWholeTerms,
  largestBonuses,
  nextWholeTerm,
  type BoundContext,
} from './candidateBound';
import type { IndexStore } from './indexStore';
import type { CandidateRows, StoredDoc } from './rows';
import { questionState, type NamespaceBase } from './scopedState';

/**
 * How the question's passages will be ranked (rankWorkspaceContext's options but the question and
 * its meaning): with it, a store reads only the sections that can be among them.
 */
export type QuestionScope = Omit<RankOptions, 'question' | 'meaning'>;

/** What one question's bounded read works from. */
export interface BoundedRead {
  store: IndexStore;
  namespace: string;
  base: NamespaceBase;
  question: string;
  /** The question's index terms (units and identifier parts; the ranker's analysis). */
  asked: readonly string[];
  /** Keys of the catalog entities the question names. */
  named: readonly string[];
  /** The nearest sections by meaning (store ordinals), read whatever their words. */
  nearest: readonly number[];
  /** The namespace's count of every asked term. */
  frequencies: ReadonlyMap<string, number>;
  /** The meaning half over rows read so far; undefined words only. */
  meaningOf(rows: CandidateRows): MeaningSource | undefined;
  scope: QuestionScope;
  /** Postings read whole in the first round (candidateBound.ts FIRST_ROUND_POSTINGS). */
  firstRoundPostings: number;
}

/** The rows read and the state built from them; undefined when a write moved the namespace on. */
export async function readBoundedCandidates(
  read: BoundedRead,
): Promise<{ rows: CandidateRows; state: IndexState } | undefined> {
  const { store, namespace, base, question, asked, named, frequencies, scope } = read;
  const generation = base.generation;
  const df = (term: string) => frequencies.get(term) ?? 0;
  // The weights the ranking will give (several namespaces asked at once: their statistics summed).
  const weighing = scope.statistics;
  const units = weighing
    ? weighedQuestionUnits(question, (term) => weighing.df.get(term) ?? 0, weighing.sectionCount)
    : weighedQuestionUnits(question, df, base.stats.sectionCount);
  const rows: CandidateRows = {
    postings: [],
    sections: [],
    docs: [],
    commits: new Map(),
    namedEntitySections: 0,
    generation,
    stats: base.stats,
  };
  const docIds = new Set<string>();
  const seen = new Set<number>();
  const whole = new Set<string>();
  let toRead = firstWholeTerms(units, df, read.firstRoundPostings);
  let also: readonly number[] = read.nearest;
  // The meaning a section outside the nearest can have, and the largest bonuses (candidateBound.ts).
  const outside = read.meaningOf(rows);
  const context: BoundContext = {
    meaningMax: outside
      ? outside.outsideCosine === null
        ? 1
        : meaningTerm(outside.outsideCosine, outside.anchors)
      : null,
    bonusMax: 0,
  };
  // No passage under the floor is returned: below it nothing needs reading.
  let threshold = FLOOR;
  for (;;) {
    // The next lists whole; the sections they (and the nearest) bring that were not read yet.
    const lists = await store.termPostings(namespace, toRead);
    if (lists.generation !== generation) return undefined;
    for (const term of toRead) whole.add(term);
    const fresh: number[] = [];
    const take = (o: number) => {
      if (seen.has(o)) return;
      seen.add(o);
      fresh.push(o);
    };
    for (const p of lists.postings) take(p.ordinal);
    for (const o of also) take(o);
    also = [];
    if (fresh.length > 0) {
      const found = await store.sectionCandidates(
        namespace,
        fresh,
        asked.filter((t) => !whole.has(t)),
        named,
      );
      if (found.generation !== generation) return undefined;
      // Their postings of this round's lists are in hand (a list read whole in an earlier round
      // holds none of them: they would have been read then); the other terms' were looked up.
      const isFresh = new Set(fresh);
      for (const p of lists.postings) if (isFresh.has(p.ordinal)) rows.postings.push(p);
      for (const p of found.postings) rows.postings.push(p);
      for (const s of found.sections) rows.sections.push(s);
      addDocs(rows, docIds, found.docs);
      for (const [path, commit] of found.commits) rows.commits.set(path, commit);
      rows.namedEntitySections = found.namedEntitySections;
    }
    context.bonusMax = largestBonuses({
      namedShare:
        scope.namedFolder !== undefined
          ? Math.min(
              1,
              base.stats.sectionCount / Math.max(1, scope.statistics?.sectionCount ?? base.stats.sectionCount),
            )
          : named.length > 0
            ? Math.min(1, rows.namedEntitySections / Math.max(1, base.stats.sectionCount))
            : null,
      newestCommitTime: base.stats.newestCommitTime,
      now: scope.now,
      anyHealthy: [...base.runHealth.values()].some((h) => h.verdict === 'succeeded'),
    });
    const state = questionState(base, rows, asked, frequencies);
    if (nextWholeTerm(units, df, whole) === undefined) return { rows, state };
    const bound = boundOutside(units, whole, context);
    if (cannotReach(bound, threshold)) return { rows, state };
    // What is read so far gives the threshold; it only rises as more sections are read.
    const meaning = read.meaningOf(rows);
    const ranked = rankWorkspaceContext(state, { ...scope, question, meaning: meaning ?? null });
    threshold = Math.max(threshold, answerThreshold(ranked.passages, scope.limit));
    if (cannotReach(bound, threshold)) return { rows, state };
    // Enough more lists whole, rarest first, that nothing left unread can reach it: the next
    // round is the last.
    toRead = [];
    const trial = new Set(whole);
    for (let next = nextWholeTerm(units, df, trial); next !== undefined; next = nextWholeTerm(units, df, trial)) {
      trial.add(next);
      toRead.push(next);
      if (cannotReach(boundOutside(units, trial, context), threshold)) break;
    }
  }
}

/** Adds the documents not held yet (a fresh section of a document already read brings it again). */
function addDocs(rows: CandidateRows, held: Set<string>, docs: readonly StoredDoc[]): void {
  for (const doc of docs) {
    if (held.has(doc.id)) continue;
    held.add(doc.id);
    rows.docs.push(doc);
  }
}
