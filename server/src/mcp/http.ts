/**
 * MCP over Streamable HTTP on the loopback interface only.
 *
 * Three gates before a request reaches the SDK: the Host header must name the loopback address we
 * bound (DNS rebinding), a browser's `Origin` header must be one we allow (by default none: MCP
 * clients are not web pages), and the bearer token must match. Each MCP session gets its own
 * transport and `McpServer` over the shared engine.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Engine } from '../engine/engine';
import { createMcpServer, type CreatedServer } from './createServer';

export const MCP_HTTP_PATH = '/mcp';

export interface HttpMcpOptions {
  engine: Engine;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Generated (32 random bytes, hex) when not given. */
  token?: string;
  /** Origins a browser-based client may call from; none by default. */
  allowedOrigins?: string[];
  log: (message: string) => void;
}

export interface HttpMcpServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  created: CreatedServer;
}

export async function startHttpMcpServer(options: HttpMcpOptions): Promise<HttpMcpServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const sessions = new Map<string, Session>();
  let port = 0;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      options.log(`[mcp-http] ${req.method} ${req.url}: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) reply(res, 500, 'Internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== MCP_HTTP_PATH) return reply(res, 404, `Not found; the MCP endpoint is ${MCP_HTTP_PATH}`);
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return reply(res, 403, 'Forbidden: unexpected Host header');
    const origin = req.headers.origin;
    if (origin && !(options.allowedOrigins ?? []).includes(origin)) return reply(res, 403, `Forbidden: origin ${origin} is not allowed`);
    if (!bearerMatches(req.headers.authorization, token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="workspace-context"');
      return reply(res, 401, 'Unauthorized: send Authorization: Bearer <token>');
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Unknown MCP session; initialize a new one');
      await session.transport.handleRequest(req, res);
      return;
    }
    // No session yet: only an initialize request may start one (the transport answers 400 otherwise).
    let current: Session | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (current) sessions.set(id, current);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      current?.created.dispose();
    };
    const created = createMcpServer(options.engine, { sessionId: () => transport.sessionId ?? 'http', log: options.log });
    current = { transport, created };
    await created.server.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) {
      created.dispose();
      await created.server.close();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${MCP_HTTP_PATH}`,
    port,
    token,
    async close() {
      for (const session of sessions.values()) await session.transport.close().catch(() => undefined);
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
