/**
 * Big reference pages (issue 39, point 3): a question naming a flag, or saying what it does, finds
 * its one short section in a page of 100 KB or more, on real pages of rclone's documentation
 * (bench/corpora/rclone, MIT; see its SOURCE.txt): docs.md (137 KB, one `### --flag` heading per
 * global flag), s3.md (309 KB, one `#### --s3-...` heading per backend option) and flags.md
 * (124 KB, every flag as one line of a code block: the page that names every flag and documents
 * none). The section's score is its own (BM25F over the section: the page's other sections and
 * its length play no part), and the per-document rule lets a page's best two sections through.
 */
import assert from 'node:assert/strict';
import type { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { DOCUMENT_CAP } from '../../../../server/src/engine/ranking/contract';
import { rankWorkspaceContext } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { corpusDocsRepository, heading, index, NOW, rank } from './rankingFixture';

describe('workspace_context: a short section of a big reference page', () => {
  let engine: Engine;
  let state: IndexState;
  before(async () => {
    ({ engine, state } = await index(
      corpusDocsRepository('rclone', [
        'docs.md',
        's3.md',
        'flags.md',
        'crypt.md',
        'bisync.md',
        'commands/rclone_copyto.md',
        'commands/rclone_settier.md',
      ]),
    ));
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  const firstAt = (question: string, want: string) => {
    const passages = rank(state, question);
    return { at: passages.findIndex((p) => heading(p) === want) + 1, seen: passages.slice(0, 3).map(heading) };
  };

  it('a flag named alone: its own section of the 137 KB page first, above the page listing every flag', () => {
    const { at, seen } = firstAt('--cutoff-mode', 'docs/docs.md › --cutoff-mode HARD|SOFT|CAUTIOUS');
    assert.equal(at, 1, seen.join(' | '));
  });

  it('a backend option named with what the asker wants: its section of the 309 KB page first', () => {
    const { at, seen } = firstAt('--s3-chunk-size largest file you can stream upload', 'docs/s3.md › --s3-chunk-size');
    assert.equal(at, 1, seen.join(' | '));
  });

  it('the per-document rule shows the page’s best sections first; the rest only once other pages run out', () => {
    const { passages } = rankWorkspaceContext(state, {
      question: 'how do I restore objects from Glacier',
      limit: 10,
      now: NOW,
    });
    const s3 = passages.filter((p) => p.entry.doc.path === 'docs/s3.md');
    const uncapped = s3.filter((p) => !p.capped);
    assert.equal(uncapped.length, DOCUMENT_CAP, s3.map(heading).join(' | '));
    // The page's best sections are the ones the rule lets through: no capped section outscores them.
    for (const c of s3.filter((p) => p.capped))
      for (const u of uncapped)
        assert.ok(u.score >= c.score, `${heading(c)} ${c.score} above ${heading(u)} ${u.score}`);
    // The backend command that restores comes first when asked by name.
    const byName = firstAt('s3 backend command restore', 'docs/s3.md › restore');
    assert.ok(byName.at >= 1 && byName.at <= 2, `rank ${byName.at}: ${byName.seen.join(' | ')}`);
  });
});
