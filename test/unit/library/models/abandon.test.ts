import assert from 'node:assert/strict';
import { ModelError } from '../../../../server/src/library/models/modelProvider';
import { OpenAiModelProvider } from '../../../../server/src/library/models/openAiProvider';
import { startChatServer, type ChatServer } from './chatServer';

describe('model provider: abandoning the calls in flight', () => {
  let server: ChatServer;
  before(async () => {
    server = await startChatServer(() => ({ delayMs: 60_000, content: '{}' }));
  });
  after(() => server.close());

  it('aborts a pending request, refuses later calls and says it is unavailable', async () => {
    const provider = new OpenAiModelProvider({ baseUrl: server.baseUrl, model: 'slow' });
    const pending = provider.generate({ system: 's', prompt: 'p' });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    assert.equal(provider.available(), true);
    provider.abandon();
    await assert.rejects(pending, (e: Error) => e instanceof ModelError && e.message === 'cancelled');
    await assert.rejects(
      provider.judge({ task: 't', items: [{ id: 'q1', question: 'q', material: 'm' }] }),
      /openai:slow: abandoned/,
    );
    assert.equal(provider.available(), false);
    while (server.abandoned() === 0) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual([server.requests.length, server.answered(), server.abandoned()], [1, 0, 1]);
  });
});
