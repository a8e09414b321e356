/**
 * What the store suites compare between a ranking in memory and the same question ranked from a
 * store: everything a tool renders of a ranking.
 */
import type { RankResult } from '../../server/src/engine/ranking/workspaceContextRanker';

/** Everything a tool renders of a ranking, with the count of candidates read. */
export function comparable(result: RankResult) {
  return {
    terms: result.terms,
    dropped: result.droppedTerms,
    named: result.named.map((n) => n.key),
    candidates: result.candidates,
    passages: result.passages.map((p) => ({
      id: p.entry.section.id,
      doc: p.entry.doc.id,
      path: p.entry.doc.path,
      text: p.entry.section.text,
      score: p.score,
      match: p.match,
      own: p.ownWords,
      capped: p.capped ?? false,
      why: p.why,
    })),
  };
}

/**
 * What must be equal when the store reads only the sections that can be among the passages
 * (a question scope, engine/store/candidateBound.ts): everything but the count of candidates read.
 */
export function answerOf(result: RankResult) {
  const { candidates: _read, ...answer } = comparable(result);
  return answer;
}
