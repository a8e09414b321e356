/**
 * The loopback HTTP endpoint's hygiene: a short token and a port in use are one-line errors from
 * the built `wsctx serve`; an idle session is closed and a new one must be initialized.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Engine } from '../../server/src/engine/engine';
import { startHttpMcpServer } from '../../server/src/mcp/http';
import { wsctx } from '../helpers/cli';
import { connectHttp } from '../helpers/mcpClients';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';
import { createServices } from '../../server/src/services/services';

describe('HTTP MCP hygiene', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it('refuses a token shorter than 32 characters, empty included, in one line', () => {
    const ws = tempDir('token');
    for (const token of ['a', '', 'x'.repeat(31)]) {
      const run = wsctx(['serve', '--workspace', ws, '--port', '0', '--token', token]);
      assert.equal(run.code, 1, token);
      assert.equal(run.stderr, `wsctx: --token must be at least 32 characters (got ${token.length}); leave it out to have a random one generated\n`);
    }
  });

  it('says in one line, without a stack, that the port is in use', async () => {
    const ws = tempDir('port');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const run = wsctx(['serve', '--workspace', ws, '--port', String(port)]);
      assert.equal(run.code, 1);
      assert.equal(run.stderr, `wsctx: port ${port} is already in use on 127.0.0.1; choose another with --port, or --port 0 for a free one\n`);
    } finally {
      blocker.close();
    }
  });

  it('closes a session idle past its timeout (no request, no open stream); it must be initialized again', async () => {
    const ws = tempDir('idle');
    write(ws, '.context/guide.md', '# Guide\n\nDeploy with care.\n');
    const engine = new Engine({ folders: [{ name: 'idle', absPath: ws }] });
    const logs: string[] = [];
    const server = await startHttpMcpServer({ services: createServices({ engine }), sessionIdleMs: 100, log: (m) => logs.push(m) });
    const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    try {
      // A client that initializes and goes away without closing its session (and opens no stream).
      const init = await fetch(server.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } }),
      });
      const sessionId = init.headers.get('mcp-session-id')!;
      await init.text();
      assert.match(sessionId, /^[0-9a-f-]{36}$/);
      assert.equal(server.sessionCount(), 1);
      for (let i = 0; i < 200 && server.sessionCount() > 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(server.sessionCount(), 0);
      assert.ok(logs.some((line) => line.startsWith(`[mcp-http] closed session ${sessionId.slice(0, 8)} after `)), logs.join('\n'));
      const late = await fetch(server.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': sessionId }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
      assert.equal(late.status, 404);
      assert.match(await late.text(), /Unknown MCP session \(closed, or idle too long\); initialize a new one/);
      // A client holding its event stream open is not idle, however long it waits.
      const live = await connectHttp(server.url, server.token);
      await new Promise((r) => setTimeout(r, 400));
      assert.ok((await live.listTools()).tools.length > 0);
      await live.close();
    } finally {
      await server.close();
      engine.dispose();
    }
  });
});
