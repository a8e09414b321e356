/**
 * get_context's model steps through the editor's language model: the server asks the client
 * (LanguageModelRequest) and uses the answer; a client that says it has no model is never asked.
 */
import assert from 'node:assert/strict';
import { CallToolRequest, LanguageModelRequest, type LanguageModelParams } from '../../shared/protocol';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

const TASK = 'add a database migration to invoice-api that backfills due dates';

describe('LSP language model bridge (built server, JSON-RPC)', () => {
  const clients: LspClient[] = [];
  after(async () => {
    for (const c of clients) await c.stop();
    removeTempDirs();
  });

  it("asks the client's language model for get_context's plan and judge, with the task in the prompt", async () => {
    const lsp = await startOnExample({ initializationOptions: { languageModels: true } });
    clients.push(lsp);
    const asked: LanguageModelParams[] = [];
    lsp.connection.onRequest(LanguageModelRequest.type, (params) => {
      asked.push(params);
      // Not what either step expects: both must fall back to their heuristics, never fail.
      return { text: 'I cannot help with that.', model: 'test/echo' };
    });
    const result = await lsp.connection.sendRequest(CallToolRequest.type, {
      name: 'get_context',
      arguments: { task: TASK },
    });
    assert.ok(asked.length >= 1, 'the client was asked at least once');
    assert.ok(
      asked.some((p) => p.messages.some((m) => m.content.includes(TASK))),
      'the task is in a prompt',
    );
    assert.match(result.text, /# Rules \(always follow\)/);
    assert.match(result.text, /Migrations are backwards-compatible/);
  });

  it('never asks a client that has no language model', async () => {
    const lsp = await startOnExample({ initializationOptions: { languageModels: false } });
    clients.push(lsp);
    let asked = 0;
    lsp.connection.onRequest(LanguageModelRequest.type, () => {
      asked++;
      return { text: '{}', model: 'test/none' };
    });
    const result = await lsp.connection.sendRequest(CallToolRequest.type, {
      name: 'get_context',
      arguments: { task: TASK },
    });
    assert.equal(asked, 0);
    assert.match(result.text, /Migrations are backwards-compatible/);
  });
});
