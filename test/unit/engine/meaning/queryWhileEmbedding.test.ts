/**
 * A question asked while the whole workspace embeds in the background is answered while that job
 * still has most of its batches to go: its embedding runs on the query worker, ahead of every
 * section batch, and the ranking uses whatever vectors exist (words for the rest).
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import { callTool } from '../../../../server/src/tools/callTool';
import { createServices } from '../../../../server/src/services/services';
import { findTool } from '../../../../server/src/tools/registry';
import type { ContextOutput } from '../../../../server/src/tools/workspaceContext';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const TOPICS = [
  'ledger reconciliation',
  'queue consumers',
  'schema migrations',
  'cache eviction',
  'feature flags',
  'audit trails',
  'rate limits',
  'search indexing',
];

/** 160 epics of 5 sections of ~90 words each: 800 sections, a long job for the local model. */
function bigWorkspace(): string {
  const dir = tempDir('busy');
  for (let d = 0; d < 160; d++) {
    const topic = TOPICS[d % TOPICS.length];
    const sections = Array.from({ length: 5 }, (_, s) => {
      const body = Array.from(
        { length: 6 },
        (_, k) =>
          `Step ${k} of ${topic} in service ${d}-${s} checks the inputs, records what changed and reports the outcome to the owning team.`,
      ).join(' ');
      return `## Part ${s}\n\n${body}\n`;
    });
    write(dir, `epics/e${d}.md`, `# ${topic} ${d}\n\n${sections.join('\n')}`);
  }
  write(
    dir,
    'epics/dunning.md',
    '# Dunning\n\n## Collection schedule\n\nA declined charge is attempted again on days 1, 3, 7 and 14; then the subscription is suspended.\n',
  );
  return dir;
}

describe('a question while the workspace embeds (local model)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('is answered with the right passage while most of the background job is still to run', async () => {
    const dir = bigWorkspace();
    const engine = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: tempDir('busy-cache'),
      embeddings: { provider: 'local', workers: 1 },
    });
    try {
      await engine.waitForIndex();
      // Wait for the job's first chunk: both the bulk and the query worker have loaded by then.
      while ((engine.status().meaning?.embedding?.done ?? 0) === 0) await new Promise((r) => setTimeout(r, 50));
      const before = engine.status().meaning!.embedding!;
      const out = (await callTool(
        createServices({ engine }),
        findTool('workspace_context')!,
        { workspace: 'ws', question: 'declined charge attempted again', limit: 3 },
        { sessionId: 't' },
      )) as ContextOutput;
      const after = engine.status().meaning!.embedding;
      assert.equal(out.passages[0].sourceRef.path, 'epics/dunning.md');
      // The job was still running when the answer came, with most of its sections to go.
      assert.ok(after, 'the background job ended before the answer');
      assert.equal(after.total, before.total);
      assert.ok(
        after.done < after.total / 2,
        `answered only after ${after.done} of ${after.total} sections were embedded`,
      );
      // The question had a vector (it ranked with meaning where sections have one).
      assert.match(JSON.stringify(out), /all-minilm-l6-v2\+onnx-int8/);
    } finally {
      engine.dispose();
    }
  });
});
