/**
 * The words-only evidence rule (contract 2026-12-08.2, scoredCandidates.ts holdToNames): when a
 * question's rarest term is a name (a key path, a flag, an environment variable), a passage that
 * lacks it does not rank above a passage holding every term of the question. On real pages of
 * Vite's documentation (bench/corpora/vite, MIT; see its SOURCE.txt) indexed as the docs
 * repository they come from: v029 `build.emptyOutDir outside root` is answered by the option's
 * own section and by the command line page's `--emptyOutDir` row; two server options that say
 * "outside" and "root" more often, and never the option, came between them.
 */
import assert from 'node:assert/strict';
import type { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { questionRanking, rankWorkspaceContext } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { corpusDocsRepository, heading, index, NOW, rank } from './rankingFixture';

const words = (passage: ReturnType<typeof rank>[number]) => passage.why.find((w) => w.signal === 'words')!;

describe('workspace_context, words only: a passage lacking the name asked does not pass one holding every term', () => {
  let engine: Engine;
  let state: IndexState;
  before(async () => {
    ({ engine, state } = await index(
      corpusDocsRepository('vite', [
        'config/build-options.md',
        'config/server-options.md',
        'config/shared-options.md',
        'config/index.md',
        'guide/cli.md',
      ]),
    ));
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('ranks the page holding the key path and every other word before the pages holding only the words', () => {
    // Before, server.fs.strict (0.336) and css.postcss (0.316), which hold "outside" and "root"
    // but not the option, came 2nd and 3rd, and the command line page's Options (0.217) 5th.
    const passages = rank(state, 'build.emptyOutDir outside root');
    assert.deepEqual(
      passages.slice(0, 3).map(heading),
      [
        'docs/config/build-options.md › build.emptyOutDir',
        'docs/guide/cli.md › Options',
        'docs/config/server-options.md › server.fs.strict',
      ],
      passages.slice(0, 5).map(heading).join(' | '),
    );
    const held = words(passages[2]);
    assert.match(
      held.detail,
      /0\.336 held to 0\.217: the passage lacks "build\.emptyOutDir", the name the question asks/,
    );
    assert.match(
      held.detail,
      /may not rank above docs\/guide\/cli\.md > Options, which holds every term of the question/,
    );
    // Its score is what its why[] adds up to, just under the passage it may not pass.
    const sum = passages[2].why.reduce((s, w) => s + w.contribution, 0);
    assert.ok(Math.abs(sum - passages[2].score) < 1e-9, `${sum} against ${passages[2].score}`);
    assert.ok(passages[2].score < passages[1].score);
    // The passages the rule leaves alone keep their own words value.
    assert.doesNotMatch(words(passages[1]).detail, /held to/);
  });

  it('leaves a question whose rarest term is a word as the words rank it', () => {
    // `out-dir` is a word written with a hyphen (text/analyzer.ts joinedWord), not a name.
    const passages = rank(state, 'out-dir outside root');
    assert.ok(passages.length > 3);
    for (const p of passages) assert.doesNotMatch(words(p).detail, /held to/, heading(p));
  });

  it('answers each limit as a fresh ranking at that limit does, whatever order the limits are asked in', () => {
    const question = 'build.emptyOutDir outside root';
    const ranking = questionRanking(state, { question, now: NOW });
    for (const limit of [10, 1, 3, 50, 2]) {
      const fresh = rankWorkspaceContext(state, { question, limit, now: NOW });
      assert.deepEqual(
        ranking.at(limit).passages.map((p) => [p.entry.section.id, p.score]),
        fresh.passages.map((p) => [p.entry.section.id, p.score]),
        `limit ${limit}`,
      );
    }
  });
});
