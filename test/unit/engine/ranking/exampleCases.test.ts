/**
 * Ranking cases on the example workspace: realistic questions with the passage that must come
 * first (or in the top 3), covering every source kind. Words-only here; the meaning cases run
 * with embeddings in the embeddings suite.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { rankWorkspaceContext } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { isExpected, loadRankingCases } from '../../../helpers/rankingCases';
import { EXAMPLE_WORKSPACE } from '../../../helpers/tempWorkspace';

describe('ranking cases on the example workspace (words only)', () => {
  const cases = loadRankingCases();
  const words = cases.filter((c) => c.kind === 'words');
  let engine: Engine;
  let state: IndexState;

  before(async () => {
    engine = new Engine({ folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }] });
    state = await engine.waitForIndex();
  });
  after(() => engine.dispose());

  it('has at least 20 cases covering every source kind', () => {
    assert.ok(words.length >= 20);
    const kinds = new Set(words.map((c) => c.sourceKind));
    assert.deepEqual([...kinds].sort(), ['catalog_doc', 'catalog_entity', 'epic_doc', 'library', 'repo_overview']);
  });

  for (const c of loadRankingCases().filter((x) => x.kind === 'words')) {
    it(`${c.id}: "${c.question}" -> ${c.expect.path}${c.expect.heading ? ` # ${c.expect.heading}` : ''} within ${c.within}`, () => {
      const result = rankWorkspaceContext(state, { question: c.question, limit: 10, now: Date.now() });
      const rank = result.passages.findIndex((p) => isExpected(c, p.entry.doc.path, p.entry.section.headingPath)) + 1;
      const top = result.passages
        .slice(0, 3)
        .map((p) => `${p.entry.doc.path} # ${p.entry.section.headingPath.at(-1)} (${p.score.toFixed(3)})`);
      assert.ok(
        rank >= 1 && rank <= c.within,
        `expected within ${c.within}, got ${rank || 'not in top 10'}; top 3: ${top.join(' | ')}`,
      );
      assert.equal(result.passages[rank - 1].entry.doc.sourceKind, c.sourceKind);
    });
  }
});
