import assert from 'node:assert/strict';
import { ModelError } from '../../../../server/src/library/models/modelProvider';
import { OpenAiModelProvider } from '../../../../server/src/library/models/openAiProvider';
import { JUDGE_QUESTIONS } from '../../../../server/src/library/models/prompts';
import { judgeItemIds, startChatServer, type ChatServer } from './chatServer';

describe('OpenAI-compatible model provider (against a local chat completions server)', () => {
  let server: ChatServer;
  before(async () => {
    server = await startChatServer((request) => {
      if (request.body.model === 'broken') return { status: 500, raw: '{"error":{"message":"model crashed"}}' };
      if (request.body.model === 'slow') return { content: '{}', delayMs: 2_000 };
      if (request.body.model === 'prose') return { content: 'I think the answer is yes.' };
      const system = request.body.messages[0].content;
      if (system.startsWith('You answer yes/no questions')) {
        // Deterministic: every item whose material mentions Avalara is a yes.
        const user = request.body.messages[1].content;
        const blocks = user.split(/\n\n(?=\[)/).slice(1);
        const answers: Record<string, number> = {};
        for (const block of blocks) {
          const id = /^\[([a-z0-9]+)\]/.exec(block)![1];
          answers[id] = block.includes('Avalara') ? 0.91 : 0.12;
        }
        return { content: JSON.stringify(answers) };
      }
      return { content: `echo: ${request.body.messages[1].content}` };
    });
  });
  after(() => server.close());

  it('judges every item in one call, with the probability the model gave each', async () => {
    const provider = new OpenAiModelProvider({ baseUrl: server.baseUrl, model: 'judge-small', apiKey: 'sk-test' });
    const before = server.requests.length;
    const answers = await provider.judge({
      task: 'cold email to a CFO switching from Avalara',
      items: [
        { id: 's1u', question: JUDGE_QUESTIONS.use, material: 'Avalara battlecard: why customers switch' },
        { id: 's2u', question: JUDGE_QUESTIONS.use, material: 'TaxJar battlecard: why customers switch' },
      ],
    });
    assert.deepEqual(answers, [
      { id: 's1u', yes: true, probability: 0.91 },
      { id: 's2u', yes: false, probability: 0.12 },
    ]);
    assert.equal(server.requests.length, before + 1, 'one call for all items');
    const request = server.requests[server.requests.length - 1];
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.headers.authorization, 'Bearer sk-test');
    assert.equal(request.body.model, 'judge-small');
    assert.equal(request.body.temperature, 0);
    assert.deepEqual(request.body.response_format, { type: 'json_object' });
    assert.equal(request.body.max_tokens, 40 + 12 * 2);
    assert.deepEqual(judgeItemIds(request), ['s1u', 's2u']);
    assert.match(
      request.body.messages[1].content,
      /^Task: cold email to a CFO switching from Avalara\n\n\[s1u\] Would someone doing this task use this material\?\nAvalara battlecard/,
    );
    assert.equal(provider.name, 'openai:judge-small');
    assert.equal(provider.available(), true);
  });

  it('generates text, and leaves out response_format when told the server refuses it', async () => {
    const provider = new OpenAiModelProvider({
      baseUrl: `${server.baseUrl}/`,
      model: 'writer',
      jsonResponseFormat: false,
    });
    const text = await provider.generate({ system: 'Be brief.', prompt: 'hello', json: true, maxTokens: 20 });
    assert.equal(text, 'echo: hello');
    const request = server.requests[server.requests.length - 1];
    assert.equal(request.body.response_format, undefined);
    assert.equal(request.headers.authorization, undefined);
    assert.deepEqual(request.body.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello' },
    ]);
    assert.equal(request.body.max_tokens, 20);
  });

  it('rejects with a ModelError naming the status, the timeout, or the unreadable answer', async () => {
    const broken = new OpenAiModelProvider({ baseUrl: server.baseUrl, model: 'broken' });
    await assert.rejects(
      broken.generate({ system: 's', prompt: 'p' }),
      (e: Error) =>
        e instanceof ModelError && /answered 500: \{"error":\{"message":"model crashed"\}\}/.test(e.message),
    );
    const slow = new OpenAiModelProvider({ baseUrl: server.baseUrl, model: 'slow' });
    await assert.rejects(
      slow.generate({ system: 's', prompt: 'p' }, { timeoutMs: 50 }),
      (e: Error) => e instanceof ModelError && e.message === 'no answer within 50 ms',
    );
    const prose = new OpenAiModelProvider({ baseUrl: server.baseUrl, model: 'prose' });
    await assert.rejects(
      prose.judge({ task: 't', items: [{ id: 'q1', question: 'q?', material: 'm' }] }),
      (e: Error) =>
        e instanceof ModelError &&
        e.message === "openai:prose: the judge's answer is not the JSON asked for: I think the answer is yes.",
    );
    const nowhere = new OpenAiModelProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x' });
    await assert.rejects(
      nowhere.generate({ system: 's', prompt: 'p' }),
      (e: Error) =>
        e instanceof ModelError && /request to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions failed/.test(e.message),
    );
  });

  it('refuses a base URL that is not http(s) and a missing model name', () => {
    assert.throws(
      () => new OpenAiModelProvider({ baseUrl: 'ftp://x', model: 'm' }),
      /baseUrl must start with http:\/\/ or https:\/\//,
    );
    assert.throws(() => new OpenAiModelProvider({ baseUrl: 'http://x', model: ' ' }), /a model name is required/);
  });
});
