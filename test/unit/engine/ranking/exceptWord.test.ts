/**
 * `except` is a word of the question, not a stop word (contract 2026-12-07.4), on real pages of
 * pnpm's documentation (bench/corpora/pnpm, MIT; see its SOURCE.txt) indexed as the docs
 * repository they come from. It failed while `except` was on the stop list: the run command's
 * options and the recursive page, which hold every other word, came first and the filter's
 * "Excluding" section 10th.
 */
import assert from 'node:assert/strict';
import type { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { corpusDocsRepository, heading, index, rank } from './rankingFixture';

describe('workspace_context: an exclusion asked with "except"', () => {
  let engine: Engine;
  let state: IndexState;
  before(async () => {
    ({ engine, state } = await index(
      corpusDocsRepository('pnpm', [
        'filtering.md',
        'cli/run.md',
        'cli/recursive.md',
        'cli/exec.md',
        'package-managers.md',
        'workspaces.md',
      ]),
    ));
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('meets the section on excluding projects first, by the word the question and the page share', () => {
    const passages = rank(state, 'How do I run a command in all workspace projects except one of them?');
    assert.equal(heading(passages[0]), 'docs/filtering.md › Excluding', passages.slice(0, 3).map(heading).join(' | '));
    const words = passages[0].why.find((w) => w.signal === 'words')!;
    assert.ok(
      words.terms!.some((t) => t.term === 'except' && t.saturation > 0),
      words.detail,
    );
  });
});
