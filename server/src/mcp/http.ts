/**
 * MCP over Streamable HTTP on the loopback interface only.
 *
 * Three gates before a request reaches the SDK: the Host header must name the loopback address we
 * bound (DNS rebinding), a browser's `Origin` header must be one we allow (by default none: MCP
 * clients are not web pages), and the bearer token must match. Each MCP session gets its own
 * transport and `McpServer` over the shared engine.
 *
 * Hygiene: a given token shorter than {@link MIN_TOKEN_LENGTH} characters is refused (a guessable
 * token is no gate); a session with no request for {@link DEFAULT_SESSION_IDLE_MS} and none in
 * flight is closed (clients re-initialize), so abandoned sessions do not pile up; a port in use is
 * an `InputError` with one line to say so.
 *
 * `GET /status`, behind the same gates and token, answers what the server holds and how it reads
 * it (a store read per question or held in memory, each namespace's generation), as JSON. Routes
 * a host adds (`routes`: the REST API) are answered behind the same gates, with the services of
 * the token that sent the request.
 *
 * Limits, so whoever can reach the port cannot exhaust the process, and one token cannot take
 * another's room (connectionLimits.ts): each token's share of {@link DEFAULT_MAX_SESSIONS} live
 * sessions (a new one closes that token's longest-idle session without a request in flight; when
 * every one of its sessions is busy it is a 503 that says so) and of
 * {@link DEFAULT_MAX_CONNECTIONS} open connections; a connection that has not shown a valid
 * token within {@link HEADERS_TIMEOUT_MS} is closed, and is the first closed when connections
 * run short; every refused request (no token, wrong Host or Origin, unknown path or session)
 * closes its connection.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InputError } from '../engine';
import type { Services } from '../services/services';
import {
  ConnectionSlots,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_SESSIONS,
  longestIdleOf,
  sessionsOf,
  shareOf,
  TOKEN_DEADLINE_MS,
} from './connectionLimits';
import { createMcpServer, type CreatedServer } from './createServer';

export { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS } from './connectionLimits';

export const MCP_HTTP_PATH = '/mcp';
/** `GET` with the same bearer token: what the server holds and how it reads it (JSON), for operators and probes. */
export const STATUS_HTTP_PATH = '/status';

/** Shortest bearer token accepted: 32 characters (the generated one is 64 hex characters). */
export const MIN_TOKEN_LENGTH = 32;

/** A session idle this long (no request, none in flight) is closed: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/** A connection must have shown a valid token (so sent a request's headers) within 5 s, or it is closed. */
export const HEADERS_TIMEOUT_MS = TOKEN_DEADLINE_MS;

/** Refuses a token that is too short to guard anything; throws InputError naming `--token`. */
export function checkToken(token: string): void {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new InputError(
      `--token must be at least ${MIN_TOKEN_LENGTH} characters (got ${token.length}); leave it out to have a random one generated`,
    );
  }
}

/** A bearer token and the services its sessions are served by (a store's engine over some folders). */
export interface HttpAccess {
  /** For logs: who the token is for. */
  name: string;
  token: string;
  services: Services;
  /** What `GET /status` answers this token (only what the token may read); none: 404. */
  status?: () => unknown;
}

/**
 * More routes on the same server, behind the same gates (Host, Origin, bearer token): the REST
 * API (server/src/rest/). Each request is answered with the services of the token that sent it.
 */
export interface HttpRoutes {
  serves(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, url: URL, services: Services): Promise<void>;
}

export interface HttpMcpOptions {
  /** The engine and the collaborators its tools use; every session shares them. */
  services: Services;
  /**
   * Several tokens, each with its own services (`wsctx serve --store --config`: a token limited
   * to some folders is served by an engine of those folders only). When given, `token` is not
   * used and every session stays with the token that opened it.
   */
  access?: readonly HttpAccess[];
  /** 0 (default) picks a free port. */
  port?: number;
  /** Generated (32 random bytes, hex) when not given. */
  token?: string;
  /** What `GET /status` answers the one token (without `access`); none: 404. */
  status?: () => unknown;
  /** Origins a browser-based client may call from; none by default. */
  allowedOrigins?: string[];
  /** More routes beside MCP and status, answered after the same gates (the REST API). */
  routes?: HttpRoutes;
  /** Milliseconds a session may stay idle before it is closed; default {@link DEFAULT_SESSION_IDLE_MS}, at least 50. */
  sessionIdleMs?: number;
  /** Live sessions kept, shared equally by the tokens; default {@link DEFAULT_MAX_SESSIONS}, at least 1 per token. */
  maxSessions?: number;
  /** Open connections accepted, shared equally by the tokens; default {@link DEFAULT_MAX_CONNECTIONS}, at least 2 per token. */
  maxConnections?: number;
  /** Milliseconds a connection may take to show a valid token; default {@link HEADERS_TIMEOUT_MS}. */
  headersTimeoutMs?: number;
  log: (message: string) => void;
}

export interface HttpMcpServer {
  url: string;
  port: number;
  token: string;
  /** Open MCP sessions. */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session {
  access: HttpAccess;
  transport: StreamableHTTPServerTransport;
  created: CreatedServer;
  /** When the last request arrived (Date.now()). */
  lastSeen: number;
  /** Requests being answered (an open event stream counts until it closes). */
  inFlight: number;
}

export async function startHttpMcpServer(options: HttpMcpOptions): Promise<HttpMcpServer> {
  if (options.token !== undefined) checkToken(options.token);
  for (const a of options.access ?? []) checkToken(a.token);
  const token = options.token ?? randomBytes(32).toString('hex');
  const access: readonly HttpAccess[] = options.access?.length
    ? options.access
    : [{ name: 'default', token, services: options.services, ...(options.status ? { status: options.status } : {}) }];
  const sessions = new Map<string, Session>();
  const idleMs = Math.max(50, options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS);
  // Each token's share of the sessions (connectionLimits.ts): no token closes or starves another's.
  const maxSessions = shareOf(options.maxSessions ?? DEFAULT_MAX_SESSIONS, access.length);
  const headersTimeout = Math.max(100, options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS);
  let port = 0;

  const server: Server = createServer(
    {
      headersTimeout,
      // The whole request (headers and body) within a minute; an event stream's request is complete
      // at once, so streams are not cut.
      requestTimeout: 60_000,
      // How often the two timeouts above are checked.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 2))),
    },
    (req, res) => {
      handle(req, res).catch((error) => {
        options.log(`[mcp-http] ${req.method} ${req.url}: ${(error as Error).stack ?? error}`);
        if (!res.headersSent) reply(res, 500, 'Internal error');
      });
    },
  );
  const slots = new ConnectionSlots(server, {
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    tokens: access.length,
    deadlineMs: headersTimeout,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = options.routes?.serves(url.pathname) ? options.routes : undefined;
    if (url.pathname !== MCP_HTTP_PATH && url.pathname !== STATUS_HTTP_PATH && !route)
      return refuse(res, 404, `Not found; the MCP endpoint is ${MCP_HTTP_PATH}`);
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
      return refuse(res, 403, 'Forbidden: unexpected Host header');
    const origin = req.headers.origin;
    if (origin && !(options.allowedOrigins ?? []).includes(origin))
      return refuse(res, 403, `Forbidden: origin ${origin} is not allowed`);
    const caller = access.find((a) => bearerMatches(req.headers.authorization, a.token));
    if (!caller) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="workspace-context"');
      return refuse(res, 401, 'Unauthorized: send Authorization: Bearer <token>');
    }
    if (!slots.admit(req.socket, caller)) {
      res.setHeader('Retry-After', '5');
      return refuse(
        res,
        503,
        `Too many connections for this token: it holds its ${slots.perToken}; close some, or try again shortly`,
      );
    }
    if (route) return route.handle(req, res, url, caller.services);
    if (url.pathname === STATUS_HTTP_PATH) {
      // A token's own: a token limited to some folders hears of no other (serveCommand.ts).
      const status = caller.status;
      if (req.method !== 'GET') return refuse(res, 405, `Method not allowed: GET ${STATUS_HTTP_PATH}`);
      if (!status) return refuse(res, 404, `Not found; this server gives no ${STATUS_HTTP_PATH}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status()));
      return;
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      // Another token's session is as unknown as a closed one: nothing says it exists.
      if (!session || session.access !== caller)
        return refuse(res, 404, 'Unknown MCP session (closed, or idle too long); initialize a new one');
      session.lastSeen = Date.now();
      session.inFlight++;
      res.once('close', () => {
        session.inFlight--;
        session.lastSeen = Date.now();
      });
      await session.transport.handleRequest(req, res);
      return;
    }
    // No session yet: only an initialize request may start one (the transport answers 400 otherwise).
    const held = sessionsOf(sessions, caller);
    if (held >= maxSessions && !closeLongestIdle(caller)) {
      res.setHeader('Retry-After', '5');
      return refuse(
        res,
        503,
        `Too many MCP sessions: all ${held} are answering a request or holding a stream open; close one, or try again shortly`,
      );
    }
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
    const created = createMcpServer(caller.services, {
      sessionId: () => transport.sessionId ?? 'http',
      log: options.log,
    });
    current = { access: caller, transport, created, lastSeen: Date.now(), inFlight: 0 };
    await created.server.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) {
      created.dispose();
      await created.server.close();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new InputError(
            `port ${options.port} is already in use on 127.0.0.1; choose another with --port, or --port 0 for a free one`,
          ),
        );
      else if (error.code === 'EACCES')
        reject(
          new InputError(
            `port ${options.port} cannot be opened on 127.0.0.1 (EACCES); choose a port above 1023, or --port 0 for a free one`,
          ),
        );
      else reject(error);
    });
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  /** Makes room for one of `caller`'s sessions: closes its own idle longest (none in flight); false when all are busy. */
  function closeLongestIdle(caller: HttpAccess): boolean {
    const oldest = longestIdleOf(sessions, caller);
    if (!oldest) return false;
    const [id, session] = oldest;
    sessions.delete(id);
    options.log(
      `[mcp-http] closed session ${id.slice(0, 8)} (idle ${Math.round((Date.now() - session.lastSeen) / 1000)} s) to make room: ${maxSessions} sessions at most${access.length > 1 ? ` for ${caller.name}` : ''}`,
    );
    void session.transport.close().catch(() => undefined);
    return true;
  }

  // Closes sessions idle past the timeout; checks a few times per timeout, never keeping the process up.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (session.inFlight > 0 || now - session.lastSeen < idleMs) continue;
        sessions.delete(id);
        options.log(
          `[mcp-http] closed session ${id.slice(0, 8)} after ${Math.round((now - session.lastSeen) / 1000)} s idle`,
        );
        void session.transport.close().catch(() => undefined);
      }
    },
    Math.max(25, Math.min(60_000, Math.floor(idleMs / 4))),
  );
  sweep.unref();

  return {
    url: `http://127.0.0.1:${port}${MCP_HTTP_PATH}`,
    port,
    token,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
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

/** A refusal: the answer, then the connection closed (a refused caller keeps no socket). */
function refuse(res: ServerResponse, status: number, message: string): void {
  res.setHeader('Connection', 'close');
  reply(res, status, message);
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
