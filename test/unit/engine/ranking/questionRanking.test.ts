/**
 * `questionRanking`: one question's ranking read at several limits (the explain path's) must
 * answer each limit exactly as `rankWorkspaceContext` asked at that limit does (explained, or
 * unexplained until read), whatever order the limits are asked in: words only, a deeper run
 * answers a smaller limit from its prefix and a run that kept every candidate answers any limit.
 * On Argo CD's docs (test/fixtures/argocd-docs, Apache-2.0, see its SOURCE.txt) and its labelled
 * questions, with the per-document rule and the source-kind filter in play.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import {
  questionRanking,
  rankWorkspaceContext,
  scoreSections,
  type RankedPassage,
  type RankOptions,
  type RankResult,
} from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { index, NOW } from './rankingFixture';

const ARGOCD = path.resolve(__dirname, '../../../fixtures/argocd-docs');
/** Up, down and back: each order makes the session answer from a deeper run, a fresh one, or its prefix. */
const LIMIT_ORDERS = [
  [1, 3, 10, 50, 200, 1000, 5000],
  [5000, 1000, 200, 50, 10, 3, 1],
  [10, 200, 3, 1000, 50, 1, 10],
];

/** A ranking as its reader sees it: every passage's section, score, why[] and cap flag, and what was held back. */
function answer(result: RankResult) {
  return {
    passages: result.passages.map((p) => ({
      id: p.entry.section.id,
      score: p.score,
      match: p.match,
      ownWords: p.ownWords,
      capped: p.capped,
      why: p.why,
    })),
    heldBack: result.heldBack.map((h) => ({ doc: h.doc.id, passages: h.passages, bestScore: h.bestScore })),
    terms: result.terms,
    droppedTerms: result.droppedTerms,
    named: result.named.map((n) => n.key),
  };
}

describe('questionRanking: one question read at several limits answers as rankWorkspaceContext does', function () {
  this.timeout(300_000);
  let engine: Engine;
  let state: IndexState;
  const questions = readFileSync(path.join(ARGOCD, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { question: string }).question);

  before(async () => {
    ({ engine, state } = await index(ARGOCD));
  });
  after(() => {
    engine?.dispose();
    removeTempDirs();
  });

  for (const [name, extra] of [
    ['every source kind', {}],
    ['a source-kind filter', { sourceKinds: new Set(['catalog_doc', 'epic_doc'] as const) }],
  ] as const) {
    it(`Argo CD's labelled questions, limits in three orders, ${name}`, () => {
      assert.ok(questions.length >= 50, `${questions.length} questions`);
      let capped = 0;
      let deep = 0;
      for (const [q, question] of questions.entries()) {
        const options: Omit<RankOptions, 'limit'> = { question, now: NOW, ...extra };
        const session = questionRanking(state, options);
        for (const limit of LIMIT_ORDERS[q % LIMIT_ORDERS.length]) {
          const direct = rankWorkspaceContext(state, { ...options, limit });
          capped += direct.passages.filter((p) => p.capped).length + direct.heldBack.length;
          if (direct.passages.length > 200) deep++;
          assert.deepEqual(answer(session.at(limit)), answer(direct), `${question} at limit ${limit}`);
          // The same passages unexplained, each explained when read.
          const shown = session.shownAt(limit);
          assert.deepEqual(
            shown.entries.map((e) => e.section.id),
            direct.passages.map((p) => p.entry.section.id),
          );
          const last = direct.passages.length - 1;
          if (last >= 0)
            assert.deepEqual(
              answer({ ...direct, passages: [shown.passage(last)] }).passages[0],
              answer({ ...direct, passages: [direct.passages[last]] }).passages[0],
            );
        }
      }
      // The per-document rule and deep runs were exercised, not only short answers.
      assert.ok(capped > 0, 'no question met the per-document rule');
      assert.ok(name !== 'every source kind' || deep > 0, 'no ranking went past 200 passages');
    });
  }

  it('scores chosen sections as scoreSections does, after its rankings, on the tables they filled', () => {
    const question = questions[0];
    const session = questionRanking(state, { question, now: NOW });
    const ordinals = session.at(50).passages.map((p) => p.entry.ordinal);
    const view = (passages: readonly RankedPassage[]) => passages.map((p) => [p.entry.section.id, p.score, p.why]);
    assert.deepEqual(
      view(session.scoreSections(ordinals)),
      view(scoreSections(state, { question, limit: 1, now: NOW }, ordinals)),
    );
    assert.equal(ordinals.length, 50);
  });
});
