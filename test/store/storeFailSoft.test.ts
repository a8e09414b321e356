/**
 * Seed 001, "Reads fail soft ... Authorization does not fail soft": with `--store`, a PostgreSQL
 * that stops under a running server gives empty answers flagged `scope-unreadable` to a reader
 * that reads per question, never an internal error; a workspace the server does not serve is
 * still refused; and the answers come back when the server does. A reader holding the store in
 * memory (the default of `mcp --store`) keeps answering from memory meanwhile. A real server of
 * the test's own (it is stopped and started again).
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_CACHE_DIR, WSCTX } from '../helpers/cli';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgresServer } from '../helpers/postgresServer';
import { wsctxAsync } from '../helpers/storeCliSuite';
import { copyExampleWorkspace, removeTempDirs } from '../helpers/tempWorkspace';

const unavailable = ownPostgresUnavailable();

describe('--store fails soft when PostgreSQL stops', function () {
  this.timeout(300_000);
  if (unavailable) {
    it(`skipped: ${unavailable}`, function () {
      this.skip();
    });
    return;
  }
  let server: OwnPostgresServer;
  let client: Client;
  let inMemory: Client;
  let ns: string;
  const callOn = async (on: Client, name: string, args: Record<string, unknown>) => {
    const result = await on.callTool({ name, arguments: args });
    return {
      isError: result.isError === true,
      text: (result.content as { text: string }[])[0]?.text ?? '',
      out: result.structuredContent as Record<string, unknown>,
    };
  };
  const call = (name: string, args: Record<string, unknown>) => callOn(client, name, args);
  const connect = async (mode: string) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [WSCTX, 'mcp', '--store', server.url, '--workspace', ns, '--store-mode', mode],
      env: { ...(process.env as Record<string, string>), WSCTX_CACHE_DIR: TEST_CACHE_DIR, WSCTX_EMBEDDINGS: 'off' },
      stderr: 'pipe',
    });
    const connected = new Client({ name: `wsctx-fail-soft-test-${mode}`, version: '1.0.0' });
    await connected.connect(transport);
    return connected;
  };
  before(async () => {
    server = startOwnPostgres();
    const fernhill = copyExampleWorkspace();
    ns = path.basename(fernhill);
    const index = await wsctxAsync(['index', '--store', server.url, '--workspace', fernhill, '--json']);
    assert.equal(index.code, 0, index.stderr);
    client = await connect('per-question');
    inMemory = await connect('memory');
  });
  after(async () => {
    await client?.close();
    await inMemory?.close();
    server?.stop();
    removeTempDirs();
  });

  const question = () => ({ workspace: ns, question: 'how do we roll back billing-worker?' });

  it('answers, then answers empty and flagged while the server is down (from memory: as before), then answers again', async () => {
    const up = await call('workspace_context', question());
    assert.equal(up.isError, false, up.text);
    assert.ok((up.out.passages as unknown[]).length > 0);
    const held = await callOn(inMemory, 'workspace_context', question());
    assert.deepEqual(held.out.passages, up.out.passages);

    server.pause();
    try {
      // The reader holding the namespace in memory needs no store to answer.
      const fromMemory = await callOn(inMemory, 'workspace_context', question());
      assert.equal(fromMemory.isError, false, fromMemory.text);
      assert.deepEqual([fromMemory.out.passages, fromMemory.out.degraded], [up.out.passages, []]);
      const memoryToc = await callOn(inMemory, 'get_toc', {});
      assert.deepEqual([memoryToc.isError, memoryToc.out.degraded], [false, []]);
      const down = await call('workspace_context', question());
      assert.equal(down.isError, false, down.text);
      assert.deepEqual(down.out.passages, []);
      assert.deepEqual(down.out.degraded, ['scope-unreadable']);
      assert.match(
        down.out.notice as string,
        /^The index store could not be read \(.*ECONNREFUSED.*\): this answer is empty, not a statement that nothing is written about it\./,
      );
      const expand = await call('workspace_expand', { workspace: ns, entityRef: 'billing-worker' });
      assert.equal(expand.isError, false, expand.text);
      assert.deepEqual([expand.out.edges, expand.out.degraded], [[], ['scope-unreadable']]);
      const context = await call('get_context', { task: 'roll back billing-worker after a failed deploy' });
      assert.equal(context.isError, false, context.text);
      assert.deepEqual([context.out.pages, context.out.degraded], [[], ['scope-unreadable']]);
      assert.match(context.text, /^The index store could not be read/);
      const toc = await call('get_toc', {});
      assert.deepEqual([toc.isError, toc.out.degraded], [false, ['scope-unreadable']]);
      // A refusal stays a refusal: a bad argument, a workspace not served.
      const deep = await call('workspace_expand', { workspace: ns, entityRef: 'billing-worker', depth: 4 });
      assert.equal(deep.isError, true);
      assert.match(deep.text, /depth: must be a whole number from 1 to 3/);
      const elsewhere = await call('workspace_context', { ...question(), workspace: 'elsewhere' });
      assert.equal(elsewhere.isError, true);
      assert.match(elsewhere.text, /does not serve a workspace named 'elsewhere'/);
    } finally {
      server.resume();
    }
    const back = await call('workspace_context', question());
    assert.equal(back.isError, false, back.text);
    assert.deepEqual(back.out.passages, up.out.passages);
    assert.deepEqual(back.out.degraded, []);
  });
});
