/**
 * What the store suites compare between a ranking in memory and the same question ranked from a
 * store: everything a tool renders of a ranking.
 */
import assert from 'node:assert/strict';
import { rankWorkspaceContext, type RankResult } from '../../server/src/engine/ranking/workspaceContextRanker';
import type { QueryVector, QuestionScope, StoreReader } from '../../server/src/engine/store/storeReader';

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

/** A question ranked from a store told how it will be ranked, and how many sections it read for it. */
export async function rankScoped(
  reader: StoreReader,
  namespace: string,
  question: string,
  scope: QuestionScope,
  query?: QueryVector,
): Promise<{ result: RankResult; read: number }> {
  const state = await reader.questionState(namespace, question, query, scope);
  assert.ok(state, `namespace ${namespace} is stored`);
  const result = rankWorkspaceContext(state, {
    ...scope,
    question,
    meaning: query ? reader.meaningOf(state) : undefined,
  });
  await reader.completeTexts(
    namespace,
    result.passages.map((p) => p.entry),
  );
  return { result, read: state.sections.length };
}
