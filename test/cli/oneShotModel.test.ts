/**
 * A slow model never keeps a one-shot command alive: `wsctx context` with a model endpoint that
 * holds every request answers on its heuristics (the plan and judge steps give up after their
 * timeouts), and once the answer is printed the calls still pending (the background enrichment,
 * links and conflict check) are abandoned, so the process exits while the model still holds them.
 */
import assert from 'node:assert/strict';
import { startChatServer, type ChatServer } from '../unit/library/models/chatServer';
import { wsctxAsync } from '../helpers/cli';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

/** Longer than the test may run: the model holds every request until the server closes. */
const HOLD_MS = 10 * 60 * 1000;

describe('wsctx one-shot commands and a slow model', function () {
  this.timeout(90_000);
  let server: ChatServer;
  before(async () => {
    server = await startChatServer(() => ({ delayMs: HOLD_MS, content: '{}' }));
  });
  after(async () => {
    await server.close();
    removeTempDirs();
  });

  it('context prints its bundle and exits, abandoning every model call still pending', async () => {
    const result = await wsctxAsync([
      'context',
      'roll back billing-worker after a failed deploy',
      '--workspace',
      EXAMPLE_WORKSPACE,
      '--cache-dir',
      tempDir('slow-model-cache'),
      '--model-url',
      server.baseUrl,
      '--model',
      'slow',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^# Instructions from the fernhill team$/m);
    assert.match(result.stdout, /^## Deploy and rollback\ncatalog_doc: TechDocs of component:default\/billing-worker/m);
    // The plan, the judge and the background work all asked; the model answered none of them.
    assert.ok(server.requests.length >= 3, `${server.requests.length} requests`);
    assert.equal(server.answered(), 0);
    // Abandoned calls are not reported as failures.
    assert.doesNotMatch(result.stderr, /failed/);
  });
});
