/**
 * The evidence rule (contract 2026-12-06.3, workspaceContextRanker.ts holdToEvidence): a passage
 * that lacks the question's rarest term is not lifted by its meaning past a passage that holds
 * every term of the question with at least its words. Real pages of Argo CD's docs
 * (test/fixtures/argocd-docs, Apache-2.0, see its SOURCE.txt), embedded by the packaged model; the
 * question is one of the dev suite's keyword questions (a020), which the hybrid answered worse
 * than words alone.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import { rankWorkspaceContext, type RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { NOW } from './rankingFixture';

const ARGOCD_DOCS = path.resolve(__dirname, '../../../fixtures/argocd-docs/docs');
const PAGES = [
  'operator-manual/high_availability.md',
  'operator-manual/server-commands/argocd-repo-server.md',
  'operator-manual/config-management-plugins.md',
  'operator-manual/metrics.md',
  'operator-manual/security.md',
  'user-guide/commands/argocd_app_diff.md',
  'user-guide/commands/argocd_app_sync.md',
  'faq.md',
];
// Pages on other subjects, so that the question's crowd (the cosine of its 90th-percentile
// section) sits as it does over the whole site rather than among pages that are all about it.
const OTHER_PAGES = readdirSync(path.join(ARGOCD_DOCS, 'operator-manual/notifications/services')).map(
  (f) => `operator-manual/notifications/services/${f}`,
);
const QUESTION = 'repo server parallelismlimit concurrent manifest generation';
const REPO_SERVER = 'docs/operator-manual/server-commands/argocd-repo-server.md';

const files = (passages: readonly RankedPassage[]) => [...new Set(passages.map((p) => p.entry.doc.path))];
const meaningOf = (p: RankedPassage) => p.why.find((w) => w.signal === 'meaning')!;
const label = (p: RankedPassage) => `${p.entry.doc.path} > ${p.entry.section.headingPath.at(-1) ?? ''}`;

describe('the evidence rule: meaning does not lift a passage lacking the rarest term past one holding every term', function () {
  this.timeout(600_000);
  let engine: Engine;
  after(() => {
    engine?.dispose();
    removeTempDirs();
  });

  it('a keyword question: the reference page holding every term stays among the first files', async () => {
    const dir = tempDir('argocd');
    write(dir, 'mkdocs.yml', 'site_name: argocd\n');
    for (const page of [...PAGES, ...OTHER_PAGES])
      write(dir, `docs/${page}`, readFileSync(path.join(ARGOCD_DOCS, page), 'utf8'));
    engine = new Engine({
      folders: [{ name: 'docs', absPath: dir }],
      cacheDir: process.env.WSCTX_TEST_VECTORS ?? tempDir('vectors'),
      embeddings: { provider: 'local' },
    });
    await engine.waitForIndex();
    await engine.waitForMeaning();
    const state = engine.current()!;
    const meaning = engine.meaningSource(state, await engine.embedQuery(QUESTION));
    assert.ok(meaning, 'meaning is on');
    const words = rankWorkspaceContext(state, { question: QUESTION, limit: 10, now: NOW }).passages;
    const hybrid = rankWorkspaceContext(state, { question: QUESTION, limit: 10, now: NOW, meaning }).passages;

    // On words, the command reference (it lists --parallelismlimit) is among the first two files.
    assert.ok(files(words).slice(0, 2).includes(REPO_SERVER), `words: ${files(words).slice(0, 4).join(' ')}`);
    // Pages about the same subject that never name the flag came before it on their cosine; a
    // page that names it (metrics.md, missing only "concurrent") may still pass it on meaning.
    const order = files(hybrid);
    for (const other of [
      'docs/user-guide/commands/argocd_app_diff.md',
      'docs/operator-manual/config-management-plugins.md',
    ])
      assert.ok(order.indexOf(REPO_SERVER) < order.indexOf(other), `hybrid: ${order.slice(0, 5).join(' ')}`);

    const held = hybrid.filter((p) => meaningOf(p).detail.includes('held to'));
    assert.ok(held.length > 0, 'some passage was held back');
    for (const p of held) {
      const detail = meaningOf(p).detail;
      assert.match(detail, /lacks "parallelismlimit", the question's rarest term/);
      assert.doesNotMatch(p.why.find((w) => w.signal === 'words')!.detail, /matched parallelismlimit/);
      // It ranks after the passage it names, whose words hold every term.
      const by = hybrid.findIndex((q) => detail.includes(`past ${label(q)},`));
      assert.ok(by >= 0 && by < hybrid.indexOf(p), `${label(p)} ranks after the passage it names`);
      assert.match(hybrid[by].why.find((w) => w.signal === 'words')!.detail, /^6 of 6 terms/);
      // Held back, its meaning still counts at least its words, and why[] adds up to the score.
      assert.ok(meaningOf(p).raw >= p.why.find((w) => w.signal === 'words')!.raw - 1e-12);
      const sum = p.why.reduce((s, w) => s + w.contribution, 0);
      assert.ok(Math.abs(sum - p.score) < 1e-12);
    }
    // Passages in score order, always.
    for (let i = 1; i < hybrid.length; i++) assert.ok(hybrid[i - 1].score >= hybrid[i].score);
  });
});
