/**
 * Several folders asked at once are merged fairly (issue 39, point 4), on real repositories of one
 * domain served as four folders of very different sizes (bench/corpora/secrets: external-secrets
 * 1.7 MB, sealed-secrets, secrets-store-csi-driver, Reloader 75 KB):
 *
 * - every folder weighs the question's terms by their counts over all four, so a term has one
 *   weight in every passage's why[] and the scores are on one scale: Reloader's name, in nearly
 *   every section of its own folder, still tells its passages from the other folders';
 * - a question naming one repository prefers that repository's folder: its passages take the
 *   named-entity bonus, which why[] says.
 *
 * Before both, each folder weighed the question on its own counts: "reloader alert slack
 * webhook" ranked external-secrets' webhook and Slack pages among Reloader's, and a question
 * about Reloader and the CSI driver got the CSI driver's page first.
 */
import assert from 'node:assert/strict';
import { docsCorpora, writeDocsFolders } from '../../../bench/evalDocs';
import { Engine } from '../../../server/src/engine/engine';
import { createServices } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import { findTool } from '../../../server/src/tools/registry';
import type { ContextOutput } from '../../../server/src/tools/workspaceContext';
import { removeTempDirs, tempDir } from '../../helpers/tempWorkspace';

describe('workspace_context over several folders: one scale, and the named folder first', function () {
  this.timeout(300_000);
  let engine: Engine;

  before(async () => {
    const corpus = docsCorpora('').find((c) => c.key === 'secrets')!;
    const folders = writeDocsFolders(corpus, tempDir('secrets'));
    engine = new Engine({
      folders,
      settings: { refreshAfterMs: 0, globs: corpus.globs ?? {} },
      embeddings: { provider: 'off' },
    });
    await engine.waitForIndex();
  });
  after(() => {
    engine?.dispose();
    removeTempDirs();
  });

  const ask = async (question: string, workspace?: string) =>
    (await callTool(
      createServices({ engine }),
      findTool('workspace_context')!,
      { question, limit: 10, ...(workspace ? { workspace } : {}) },
      { sessionId: 't' },
    )) as ContextOutput;

  it('weighs each question term alike in every folder', async () => {
    const answer = await ask('restart pods when a synced kubernetes secret changes');
    assert.ok(new Set(answer.passages.map((p) => p.folder)).size >= 2, 'passages from several folders');
    const weights = new Map<string, Set<number>>();
    for (const p of answer.passages)
      for (const t of p.why.find((w) => w.signal === 'words')?.terms ?? [])
        weights.set(t.term, (weights.get(t.term) ?? new Set()).add(t.weight));
    for (const [term, seen] of weights) assert.equal(seen.size, 1, `"${term}" weighs ${[...seen].join(' and ')}`);
    // Narrowed to one folder, that folder's own counts: the common "secret" weighs otherwise there.
    const narrowed = await ask('restart pods when a synced kubernetes secret changes', 'reloader');
    const own = narrowed.passages[0].why.find((w) => w.signal === 'words')!.terms!.find((t) => t.term === 'secret')!;
    assert.notEqual(own.weight, [...weights.get('secret')!][0]);
  });

  it("ranks the named project's passages first, saying why", async () => {
    const alert = await ask('reloader alert slack webhook on reload');
    assert.deepEqual(
      alert.passages.slice(0, 3).map((p) => p.folder),
      ['reloader', 'reloader', 'reloader'],
    );
    assert.equal(alert.passages[0].headingPath.at(-1), '6. 🔔 Alerting on Reload');
    const named = alert.passages[0].why.find((w) => w.signal === 'namedEntity')!;
    assert.ok(named.raw > 0);
    assert.match(named.detail, /served folder reloader, named as "reloader"/);
    // Passages of the folders it does not name take no such bonus.
    for (const p of alert.passages.filter((x) => x.folder !== 'reloader'))
      assert.equal(p.why.find((w) => w.signal === 'namedEntity')!.raw, 0);

    const csi = await ask(
      'Does Reloader restart pods when a mounted CSI secret rotates, since no Secret object changes?',
    );
    assert.equal(csi.passages[0].sourceRef.path, 'reloader/README.md');
    const sealed = await ask('how do I install the sealed secrets controller with helm');
    assert.equal(sealed.passages[0].folder, 'sealed-secrets');
  });
});
