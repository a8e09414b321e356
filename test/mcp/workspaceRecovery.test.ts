/**
 * A served folder deleted under the built `wsctx mcp` and re-created: the server keeps answering
 * from its last index, flagged `workspace-missing`, and indexes the folder again when it is back,
 * with no restart (the SDK's real client over stdio).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callWhenWarm, connectStdio, type StdioSession } from '../helpers/mcpClients';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

interface Answer {
  passages: { sourceRef: { path: string }; text: string }[];
  degraded: string[];
}

function fill(ws: string, word: string): void {
  write(
    ws,
    'catalog-info.yaml',
    'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: billing-worker\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n',
  );
  write(ws, 'epics/rollout.md', `# Rollout\n\nThe ${word} rollout of billing-worker starts on Monday.\n`);
}

/** Asks until `done` holds for the answer (the server notices and re-indexes in the background). */
async function askUntil(
  client: Client,
  ws: string,
  question: string,
  done: (answer: Answer) => boolean,
): Promise<Answer> {
  let last: Answer | undefined;
  for (let attempt = 0; attempt < 300; attempt++) {
    const result = await client.callTool({
      name: 'workspace_context',
      arguments: { workspace: path.basename(ws), question },
    });
    last = result.structuredContent as Answer;
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never reached: ${JSON.stringify(last)}`);
}

describe('a served folder that disappears and comes back (built MCP server)', function () {
  this.timeout(120_000);
  let ws: string;
  let session: StdioSession;

  before(async () => {
    ws = path.join(tempDir('recover-parent'), 'workspace');
    fs.mkdirSync(ws);
    fill(ws, 'canary');
    session = await connectStdio(ws, ['--no-cache']);
  });
  after(async () => {
    await session?.close();
    removeTempDirs();
  });

  it('answers from the last index, flagged, while the folder is gone; indexes it again when it is back', async () => {
    const first = await callWhenWarm(session.client, 'workspace_context', {
      workspace: 'workspace',
      question: 'canary rollout',
    });
    const warm = first.structuredContent as Answer;
    assert.equal(warm.passages[0].sourceRef.path, 'epics/rollout.md');
    assert.deepEqual(warm.degraded, []);

    fs.rmSync(ws, { recursive: true, force: true });
    const gone = await askUntil(session.client, ws, 'canary rollout', (a) => a.degraded.includes('workspace-missing'));
    assert.equal(gone.passages[0].sourceRef.path, 'epics/rollout.md', 'the last index still answers');
    const status = (await session.client.listTools()).tools.map((t) => t.name);
    assert.ok(status.includes('workspace_context') && status.includes('workspace_expand'), 'the tools stay listed');
    const expand = await session.client.callTool({
      name: 'workspace_expand',
      arguments: { workspace: 'workspace', entityRef: 'billing-worker' },
    });
    assert.deepEqual((expand.structuredContent as { degraded: string[] }).degraded, ['workspace-missing']);

    fs.mkdirSync(ws);
    fill(ws, 'blue-green');
    const back = await askUntil(
      session.client,
      ws,
      'blue-green rollout',
      (a) => !a.degraded.includes('workspace-missing') && /blue-green/.test(a.passages[0]?.text ?? ''),
    );
    assert.deepEqual(back.degraded, []);
    assert.match(session.stderr(), /served folder\(s\) missing: workspace/);
    assert.match(session.stderr(), /is back; watching and indexing it again|every served folder is back/);

    // Watched again: an edit after the return is picked up too.
    write(ws, 'epics/rollout.md', '# Rollout\n\nThe canary-two rollout of billing-worker starts on Tuesday.\n');
    const edited = await askUntil(session.client, ws, 'canary-two rollout', (a) =>
      /canary-two/.test(a.passages[0]?.text ?? ''),
    );
    assert.equal(edited.passages[0].sourceRef.path, 'epics/rollout.md');
  });
});
