/**
 * The loopback HTTP endpoint's hygiene: a short token and a port in use are one-line errors from
 * the built `wsctx serve`; an idle session is closed and a new one must be initialized.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Engine } from '../../server/src/engine/engine';
import { startHttpMcpServer } from '../../server/src/mcp/http';
import { wsctx } from '../helpers/cli';
import { connectHttp, startHttpServer } from '../helpers/mcpClients';
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
      assert.equal(
        run.stderr,
        `wsctx: --token must be at least 32 characters (got ${token.length}); leave it out to have a random one generated\n`,
      );
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
      assert.equal(
        run.stderr,
        `wsctx: port ${port} is already in use on 127.0.0.1; choose another with --port, or --port 0 for a free one\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('closes a session idle past its timeout (no request, no open stream); it must be initialized again', async () => {
    const ws = tempDir('idle');
    write(ws, '.context/guide.md', '# Guide\n\nDeploy with care.\n');
    const engine = new Engine({ folders: [{ name: 'idle', absPath: ws }] });
    const logs: string[] = [];
    const server = await startHttpMcpServer({
      services: createServices({ engine }),
      sessionIdleMs: 1000,
      log: (m) => logs.push(m),
    });
    const headers = {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    try {
      // A client that initializes and goes away without closing its session (and opens no stream).
      const init = await fetch(server.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
        }),
      });
      const sessionId = init.headers.get('mcp-session-id')!;
      await init.text();
      assert.match(sessionId, /^[0-9a-f-]{36}$/);
      assert.equal(server.sessionCount(), 1);
      for (let i = 0; i < 200 && server.sessionCount() > 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(server.sessionCount(), 0);
      assert.ok(
        logs.some((line) => line.startsWith(`[mcp-http] closed session ${sessionId.slice(0, 8)} after `)),
        logs.join('\n'),
      );
      const late = await fetch(server.url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      assert.equal(late.status, 404);
      assert.match(await late.text(), /Unknown MCP session \(closed, or idle too long\); initialize a new one/);
      // A client holding its event stream open is not idle, however long it waits.
      const live = await connectHttp(server.url, server.token);
      await new Promise((r) => setTimeout(r, 2500));
      assert.ok((await live.listTools()).tools.length > 0);
      await live.close();
    } finally {
      await server.close();
      engine.dispose();
    }
  });

  describe('limits of `wsctx serve` (built CLI, raw sockets and the SDK client)', () => {
    let served: Awaited<ReturnType<typeof startHttpServer>>;
    before(async () => {
      const ws = tempDir('limits');
      write(ws, '.context/guide.md', '# Guide\n\nDeploy with care.\n');
      served = await startHttpServer(ws);
    });
    after(async () => {
      await served?.stop();
    });

    const port = () => Number(new URL(served.url).port);
    const initialize = (token = served.token) =>
      fetch(served.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'many', version: '1' } },
        }),
      });

    it('closes connections that send nothing within seconds, and those past the cap at once; a real client still gets in', async () => {
      const sockets = await Promise.all(
        Array.from(
          { length: 300 },
          () =>
            new Promise<net.Socket>((resolve) => {
              const socket = net.connect(port(), '127.0.0.1', () => resolve(socket));
              socket.on('error', () => undefined);
            }),
        ),
      );
      // Every one is closed by the server: the 44 past the cap of 256 at once, the rest when their
      // 5 s to send headers are up (before, they stayed for a minute or more).
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) =>
              socket.destroyed || socket.readyState === 'closed' ? resolve() : socket.once('close', () => resolve()),
            ),
        ),
      );
      const client = await connectHttp(served.url, served.token);
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
    });

    it('answers a request without the token with 401 and closes its connection', async () => {
      const reply = await new Promise<string>((resolve) => {
        const socket = net.connect(port(), '127.0.0.1', () =>
          socket.write(
            `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
          ),
        );
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
      assert.match(reply, /^HTTP\/1\.1 401 Unauthorized\r\n/);
      assert.match(reply, /\r\nConnection: close\r\n/i);
    });

    it('keeps at most 100 sessions: a new one closes the longest idle', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 105; i++) {
        const response = await initialize();
        assert.equal(response.status, 200);
        ids.push(response.headers.get('mcp-session-id')!);
        await response.text();
      }
      const ask = async (id: string) => {
        const response = await fetch(served.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${served.token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': id,
            'mcp-protocol-version': '2025-03-26',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        });
        await response.text();
        return response.status;
      };
      assert.deepEqual(
        [await ask(ids[0]), await ask(ids[4]), await ask(ids[5]), await ask(ids[104])],
        [404, 404, 200, 200],
      );
    });
  });

  it('answers 503 when every session is busy (holding its stream open), and lets the next one in once one is free', async () => {
    const ws = tempDir('busy');
    write(ws, '.context/guide.md', '# Guide\n\nDeploy with care.\n');
    const engine = new Engine({ folders: [{ name: 'busy', absPath: ws }] });
    const logs: string[] = [];
    const server = await startHttpMcpServer({
      services: createServices({ engine }),
      maxSessions: 2,
      log: (m) => logs.push(m),
    });
    try {
      const first = await connectHttp(server.url, server.token);
      const second = await connectHttp(server.url, server.token);
      // Each client holds its event stream open: both sessions are busy.
      await first.listTools();
      await second.listTools();
      const third = await fetch(server.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'third', version: '1' } },
        }),
      });
      assert.equal(third.status, 503);
      assert.equal(third.headers.get('retry-after'), '5');
      assert.match(await third.text(), /Too many MCP sessions: all 2 are answering a request or holding a stream open/);
      await first.close();
      for (let i = 0; i < 100 && server.sessionCount() > 1; i++) await new Promise((r) => setTimeout(r, 20));
      const fourth = await connectHttp(server.url, server.token);
      assert.ok((await fourth.listTools()).tools.length > 0);
      await fourth.close();
      await second.close();
    } finally {
      await server.close();
      engine.dispose();
    }
  });

  describe('sessions and connections per token (`serve --config`: two tokens)', () => {
    const first = 'a'.repeat(40);
    const second = 'b'.repeat(40);
    let engine: Engine;
    before(() => {
      const ws = tempDir('tokens');
      write(ws, '.context/guide.md', '# Guide\n\nDeploy with care.\n');
      engine = new Engine({ folders: [{ name: 'tokens', absPath: ws }] });
    });
    after(() => engine.dispose());

    const headers = (token: string, session?: string) => ({
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' } : {}),
    });
    const initialize = async (url: string, token: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: headers(token),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'tok', version: '1' } },
        }),
      });
      await response.text();
      return { status: response.status, session: response.headers.get('mcp-session-id') ?? '' };
    };
    const listTools = async (url: string, token: string, session: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: headers(token, session),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      await response.text();
      return response.status;
    };

    it("one token's 150 sessions and its streams close none of the other's, nor keep it out", async () => {
      const services = createServices({ engine });
      const server = await startHttpMcpServer({
        services,
        access: [
          { name: 'first', token: first, services },
          { name: 'second', token: second, services },
        ],
        log: () => undefined,
      });
      const streams = new AbortController();
      try {
        const mine = await initialize(server.url, first);
        assert.equal(mine.status, 200);
        // The second token opens 150 sessions: past its 50, each closes its own longest idle.
        const theirs: string[] = [];
        for (let i = 0; i < 150; i++) {
          const opened = await initialize(server.url, second);
          assert.equal(opened.status, 200);
          theirs.push(opened.session);
        }
        assert.equal(await listTools(server.url, first, mine.session), 200, 'the first token keeps its session');
        // Then holds an event stream open on each of its live sessions: every one is busy.
        const live = theirs.slice(-50);
        await Promise.all(
          live.map(async (session) => {
            const response = await fetch(server.url, {
              method: 'GET',
              headers: { ...headers(second, session), accept: 'text/event-stream' },
              signal: streams.signal,
            });
            assert.equal(response.status, 200);
          }),
        );
        assert.equal((await initialize(server.url, second)).status, 503);
        // The first token still opens sessions and is answered on its own.
        const another = await initialize(server.url, first);
        assert.equal(another.status, 200);
        assert.equal(await listTools(server.url, first, another.session), 200);
        assert.equal(await listTools(server.url, first, mine.session), 200);
      } finally {
        streams.abort();
        await server.close();
      }
    });

    it('connections that never show a token hold no slot: 300 of them, and every one of 49 requests gets in', async () => {
      const services = createServices({ engine });
      // The deadline is long here, so the 300 are still open while the real client asks.
      const server = await startHttpMcpServer({ services, headersTimeoutMs: 60_000, log: () => undefined });
      const port = Number(new URL(server.url).port);
      const sockets: net.Socket[] = [];
      try {
        await Promise.all(
          Array.from(
            { length: 300 },
            () =>
              new Promise<void>((resolve) => {
                const socket = net.connect(port, '127.0.0.1', () => {
                  // Headers started, never finished, never a token.
                  socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
                  resolve();
                });
                socket.on('error', () => resolve());
                sockets.push(socket);
              }),
          ),
        );
        // Each request on a connection of its own, as a client that does not keep them does.
        const ask = () =>
          new Promise<string>((resolve) => {
            const request = http.request(
              {
                host: '127.0.0.1',
                port,
                path: '/status',
                agent: false,
                headers: { authorization: `Bearer ${server.token}` },
              },
              (response) => {
                response.resume();
                response.on('end', () => resolve(String(response.statusCode)));
              },
            );
            request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
            request.end();
          });
        const answers: string[] = [];
        for (let i = 0; i < 49; i++) answers.push(await ask());
        // 404: this server gives no status, which is an answer; before, 23 of 49 were ECONNRESET.
        assert.deepEqual([...new Set(answers)], ['404']);
      } finally {
        for (const socket of sockets) socket.destroy();
        await server.close();
      }
    });
  });
});
