/**
 * Seed 001: "The order you see is always the formula above." The per-document cap is a
 * candidate rule only: what is shown is in score order, and the answer says how many passages
 * of which documents the cap held back.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../server/src/engine/engine';
import { DOCUMENT_CAP } from '../../../server/src/engine/ranking/contract';
import { callTool } from '../../../server/src/tools/callTool';
import { createServices } from '../../../server/src/services/services';
import { findTool } from '../../../server/src/tools/registry';
import { renderContext, type ContextOutput } from '../../../server/src/tools/workspaceContext';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

/** One runbook of six passages about the question (its introduction and five sections), and two pages that mention it in passing. */
function workspace(): string {
  const dir = tempDir('order');
  const runbook = ['---', 'kind: epic', '---', '# Webhook cache runbook', '', 'How the webhook cache is run.', ''];
  for (const part of ['Sizing', 'Eviction', 'Warming', 'Metrics', 'Limits']) {
    runbook.push(
      `## Webhook cache ${part.toLowerCase()}`,
      '',
      `${part} of the webhook cache: the webhook cache size bounds the webhook cache; set webhook.cache.size for the webhook cache.`,
      '',
    );
  }
  write(dir, 'epics/webhook-cache.md', runbook.join('\n'));
  write(
    dir,
    'epics/release-notes.md',
    '---\nkind: epic\n---\n# Release notes\n\n## v2\n\nMany fixes across the server, the command line and the dashboards; the cache is quieter.\n',
  );
  write(
    dir,
    'epics/dashboards.md',
    '---\nkind: epic\n---\n# Dashboards\n\n## Panels\n\nThe dashboards show the queue, the workers and the webhook deliveries of the last day.\n',
  );
  return dir;
}

describe('workspace_context order: the formula, always', () => {
  let engine: Engine;
  const ask = async (limit: number) =>
    (await callTool(
      createServices({ engine }),
      findTool('workspace_context')!,
      { workspace: 'ws', question: 'webhook cache size', limit },
      { sessionId: 't' },
    )) as ContextOutput;
  before(async () => {
    engine = new Engine({ folders: [{ name: 'ws', absPath: workspace() }], embeddings: { provider: 'off' } });
    await engine.waitForIndex();
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  const scores = (out: ContextOutput) => out.passages.map((p) => p.score);
  const inScoreOrder = (out: ContextOutput) => scores(out).every((s, i, all) => i === 0 || all[i - 1] >= s);

  it('shows every passage in score order, even past the cap, when the limit leaves room', async () => {
    const out = await ask(10);
    assert.equal(out.passages.filter((p) => p.sourceRef.path === 'epics/webhook-cache.md').length, 6);
    assert.ok(
      out.passages.some((p) => p.sourceRef.path !== 'epics/webhook-cache.md'),
      'another document answers too',
    );
    assert.ok(inScoreOrder(out), scores(out).join(', '));
    // The runbook's six passages outscore the pages that mention the cache in passing.
    assert.deepEqual(
      out.passages.slice(0, 6).map((p) => p.sourceRef.path),
      Array(6).fill('epics/webhook-cache.md'),
    );
    assert.equal(out.heldBack, undefined);
  });

  it("holds back a document's passages past the cap under a tight limit, and says how many of which document", async () => {
    const out = await ask(3);
    assert.ok(inScoreOrder(out), scores(out).join(', '));
    assert.equal(out.passages.filter((p) => p.sourceRef.path === 'epics/webhook-cache.md').length, DOCUMENT_CAP);
    const held = out.heldBack!;
    assert.equal(held.perDocument, DOCUMENT_CAP);
    assert.deepEqual(
      held.documents.map((d) => [d.title, d.path, d.passages]),
      [['Webhook cache runbook', 'epics/webhook-cache.md', 4]],
    );
    assert.ok(
      held.documents[0].bestScore > out.passages[out.passages.length - 1].score,
      'each held-back passage outscored the last one shown',
    );
    assert.match(
      renderContext(out),
      /^held back by the cap of 2 passages per document: 4 of "Webhook cache runbook" \[[0-9a-f]{8}\] \(best \d\.\d{3}\)/m,
    );
  });
});
