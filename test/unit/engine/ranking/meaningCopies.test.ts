/**
 * Meaning lifts one copy of a text (contract 2026-12-06.5, scoredCandidates.ts liftOneCopy): a
 * passage that repeats, word for word, a passage ranked above it and lacks the question's rarest
 * term scores its words alone. Real pages of rclone's docs (bench/corpora/rclone, MIT, see its
 * SOURCE.txt): ten generated command pages repeat the VFS sections ("Fingerprinting" among them),
 * embedded by the packaged model. The paraphrase is one of the dev suite's (r022), which the hybrid
 * answered with that section ten times over.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { rankWorkspaceContext, type RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { corpusVectorCache } from '../../../helpers/runVectors';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { COMMAND_PAGES, copiesRepository, FINGERPRINTS, PARAPHRASE } from './copiesFixture';
import { NOW } from './rankingFixture';

const heading = (p: RankedPassage) => p.entry.section.headingPath.at(-1) ?? '';
const label = (p: RankedPassage) => `${p.entry.doc.path} > ${heading(p)}`;
const signal = (p: RankedPassage, name: string) => p.why.find((w) => w.signal === name)!;
const heldAsCopy = (p: RankedPassage) => signal(p, 'meaning').detail.includes('repeats the text of');

describe('meaning lifts one copy of a text (local model)', function () {
  this.timeout(600_000);
  let engine: Engine;
  let state: IndexState;
  before(async () => {
    // Embedded once per run: test/store/storeCopies.test.ts ranks the same pages.
    const vectors = corpusVectorCache('rclone-copies');
    engine = new Engine({
      folders: [{ name: 'docs', absPath: copiesRepository() }],
      cacheDir: vectors.dir,
      embeddings: { provider: 'local' },
    });
    await engine.waitForIndex();
    await engine.waitForMeaning();
    vectors.keep();
    state = engine.current()!;
  });
  after(() => {
    engine?.dispose();
    removeTempDirs();
  });

  async function hybrid(question: string, limit = 10): Promise<RankedPassage[]> {
    const meaning = engine.meaningSource(state, await engine.embedQuery(question));
    assert.ok(meaning, 'meaning is on');
    return rankWorkspaceContext(state, { question, limit, now: NOW, meaning }).passages;
  }

  it('a paraphrase close to a repeated section: one copy keeps its lift, the others score their words', async () => {
    const passages = await hybrid(PARAPHRASE, 30);
    const copies = passages.filter((p) => heading(p) === 'Fingerprinting');
    assert.ok(copies.length >= 2, `copies answered: ${copies.map(label).join(', ')}`);
    // The first copy is lifted by its meaning; every later one is held to its words.
    assert.ok(!heldAsCopy(copies[0]), label(copies[0]));
    for (const p of copies.slice(1)) {
      assert.ok(heldAsCopy(p), `${label(p)}: ${signal(p, 'meaning').detail}`);
      const meaning = signal(p, 'meaning');
      assert.match(
        meaning.detail,
        new RegExp(
          `repeats the text of ${label(copies[0])}, ranked above it, and lacks "\\w+", the question's rarest term`,
        ),
      );
      assert.ok(Math.abs(meaning.raw - signal(p, 'words').raw) < 1e-12, 'its meaning counts its words');
      const sum = p.why.reduce((s, w) => s + w.contribution, 0);
      assert.ok(Math.abs(sum - p.score) < 1e-12, 'why[] adds up to the score');
    }
    // The first ten: the section once, not once per command page.
    const first10 = passages.slice(0, 10);
    assert.ok(first10.filter((p) => heading(p) === 'Fingerprinting').length <= 2, first10.map(label).join('\n'));
    for (let i = 1; i < passages.length; i++) assert.ok(passages[i - 1].score >= passages[i].score);
  });

  it('a question the copies hold whole: every command page keeps its copy', async () => {
    const passages = await hybrid(FINGERPRINTS, 20);
    assert.equal(passages.filter(heldAsCopy).length, 0, passages.filter(heldAsCopy).map(label).join(', '));
    const pages = new Set(passages.filter((p) => heading(p) === 'Fingerprinting').map((p) => p.entry.doc.path));
    assert.deepEqual([...pages].sort(), COMMAND_PAGES.map((p) => `docs/${p}`).sort());
  });
});
