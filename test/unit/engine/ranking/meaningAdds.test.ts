/**
 * Meaning that adds without taking away (contract 2026-12-04.2, hybridMeaning): with every section
 * embedded by the packaged model, questions the hybrid used to answer worse than words alone, on
 * real pages of GoReleaser's and cert-manager's docs (bench/corpora; MIT and Apache-2.0, see
 * their SOURCE.txt), each set indexed as its docs repository.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import {
  hybridMeaning,
  MEANING_CURVE,
  MEANING_SPAN,
  MEANING_WEIGHT,
  type RankingTuning,
  WORDS_WEIGHT,
} from '../../../../server/src/engine/ranking/contract';
import { rankWorkspaceContext, type RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';
import { corpusDocsRepository, NOW } from './rankingFixture';

const files = (passages: readonly RankedPassage[]) => [...new Set(passages.map((p) => p.entry.doc.path))];

describe('meaning adds to words, never takes away (local model)', function () {
  this.timeout(600_000);
  const engines: Engine[] = [];
  after(() => {
    engines.splice(0).forEach((e) => e.dispose());
    removeTempDirs();
  });

  async function embedded(dir: string): Promise<{ engine: Engine; state: IndexState }> {
    const engine = new Engine({
      folders: [{ name: 'docs', absPath: dir }],
      cacheDir: process.env.WSCTX_TEST_VECTORS ?? tempDir('vectors'),
      embeddings: { provider: 'local' },
    });
    engines.push(engine);
    await engine.waitForIndex();
    await engine.waitForMeaning();
    return { engine, state: engine.current()! };
  }

  async function both(engine: Engine, state: IndexState, question: string) {
    const meaning = engine.meaningSource(state, await engine.embedQuery(question));
    assert.ok(meaning, 'meaning is on');
    return {
      words: rankWorkspaceContext(state, { question, limit: 10, now: NOW }).passages,
      hybrid: rankWorkspaceContext(state, { question, limit: 10, now: NOW, meaning }).passages,
    };
  }

  it('a question that is only a key path ranks as on words: the embedding of an identifier does not pull a topical page over the one that shows the key', async () => {
    const { engine, state } = await embedded(
      corpusDocsRepository('goreleaser', [
        'includes/repository.md',
        'customization/publish/homebrew_casks.md',
        'customization/publish/homebrew_formulas.md',
        'customization/publish/scoop.md',
        'customization/publish/krew.md',
        'customization/publish/winget.md',
        'customization/ci/actions.md',
        'resources/errors/resource-not-accessible-by-integration.md',
        'resources/errors/multiple-tokens.md',
        'blog/rust-zig.md',
        'blog/goreleaser-v2.10.md',
      ]),
    );
    const { words, hybrid } = await both(engine, state, 'homebrew_casks.repository.token');
    assert.equal(words[0].entry.doc.path, 'docs/includes/repository.md');
    assert.equal(
      hybrid[0].entry.doc.path,
      'docs/includes/repository.md',
      `hybrid first: ${files(hybrid).slice(0, 3).join(' ')}`,
    );
    const meaning = hybrid[0].why.find((w) => w.signal === 'meaning')!;
    assert.match(meaning.detail, /adds only for the 0% of the question in plain words/);
  });

  it("a passage the words rank first keeps its words' worth when its cosine is under the question's crowd", async () => {
    const { engine, state } = await embedded(
      corpusDocsRepository('cert-manager', [
        'releases/upgrading/upgrading-1.12.md',
        'releases/upgrading/upgrading-1.16-1.17.md',
        'releases/upgrading/upgrading-1.17-1.18.md',
        'releases/upgrading/upgrading-1.18-1.19.md',
        'releases/upgrading/upgrading-1.19-1.20.md',
        'releases/release-notes/release-notes-1.17.md',
        'releases/release-notes/release-notes-1.18.md',
        'releases/release-notes/release-notes-1.19.md',
        'installation/upgrade.md',
        'installation/helm.md',
      ]),
    );
    const question = 'What do I need to prepare for when upgrading cert-manager from 1.17 to 1.18?';
    const { words, hybrid } = await both(engine, state, question);
    // Before, the neighbouring upgrade note (1.18 to 1.19), closer in meaning, came first.
    assert.equal(words[0].entry.doc.path, 'docs/releases/upgrading/upgrading-1.17-1.18.md');
    assert.equal(
      hybrid[0].entry.doc.path,
      'docs/releases/upgrading/upgrading-1.17-1.18.md',
      `hybrid: ${files(hybrid).slice(0, 4).join(' ')}`,
    );
    // Every passage's hybrid match is at least its words alone.
    for (const p of hybrid) {
      const w = p.why.find((t) => t.signal === 'words')!;
      const m = p.why.find((t) => t.signal === 'meaning')!;
      assert.ok(m.raw >= w.raw - 1e-12, `${p.entry.doc.path}: meaning ${m.raw} under words ${w.raw}`);
    }
  });

  it("takes a measurement's meaning span and curve where it takes the published ones (bench --grid MEANING_SPAN, MEANING_CURVE)", async () => {
    const { engine, state } = await embedded(
      // Enough sections (about 125) for the question's crowd to set its anchors.
      corpusDocsRepository('cert-manager', [
        'installation/upgrade.md',
        'installation/helm.md',
        'releases/upgrading/upgrading-1.17-1.18.md',
        'releases/release-notes/release-notes-1.17.md',
        'releases/release-notes/release-notes-1.18.md',
        'releases/release-notes/release-notes-1.19.md',
        'configuration/acme/README.md',
      ]),
    );
    const question = 'How do I upgrade cert-manager installed with Helm?';
    const meaning = engine.meaningSource(state, await engine.embedQuery(question));
    assert.ok(meaning, 'meaning is on');
    const rank = (tuning?: RankingTuning) =>
      rankWorkspaceContext(state, { question, limit: 10, now: NOW, meaning, ...(tuning ? { tuning } : {}) }).passages;
    const scores = (passages: readonly RankedPassage[]) =>
      passages.map((p) => `${p.entry.doc.path} ${p.entry.section.headingPath.join(' > ')} ${p.score}`);
    // The published values given as a measurement's rank exactly as the published contract does.
    assert.deepEqual(scores(rank({ MEANING_SPAN, MEANING_CURVE })), scores(rank()));
    // A narrower span and a steeper curve: the anchors keep their crowd, "fully related" comes
    // nearer, and meaning lifts passages past what their words show.
    const tuned = rank({ MEANING_SPAN: 0.2, MEANING_CURVE: 0.5 });
    const first = tuned[0].why.find((w) => w.signal === 'meaning')!;
    const { unrelated, related: published } = meaning.anchors;
    assert.equal(published, Math.round((unrelated + MEANING_SPAN) * 1000) / 1000, "the crowd's anchors");
    const related = Math.round((unrelated + 0.2) * 1000) / 1000;
    assert.match(first.detail, new RegExp(`0 at ${unrelated}, 1 at ${related} for this model; to the power 0.5\\)`));
    assert.notDeepEqual(scores(tuned), scores(rank()));
  });

  it('hybridMeaning: at least the words, adding only for the plain-word share of the question', () => {
    assert.equal(hybridMeaning(0.2, 0.5, 1), 0.5);
    assert.equal(hybridMeaning(0.9, 0.5, 1), 0.9);
    assert.equal(hybridMeaning(0.9, 0.5, 0), 0.5);
    assert.ok(Math.abs(hybridMeaning(0.9, 0.5, 0.5) - 0.7) < 1e-12);
    for (const [c, w, s] of [
      [0, 0.4, 1],
      [1, 0, 0.3],
      [0.3, 0.6, 0.8],
    ])
      assert.ok(WORDS_WEIGHT * w + MEANING_WEIGHT * hybridMeaning(c, w, s) >= w - 1e-12);
  });
});
