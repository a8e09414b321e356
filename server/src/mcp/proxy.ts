/**
 * The stdio MCP fallback the extension registers when VS Code's MCP client cannot reach the
 * language server's loopback HTTP endpoint from where it runs: a plain Node process that speaks MCP
 * on stdio and forwards every message, unchanged, to that endpoint, so there is still one index.
 *
 *   node dist/mcpProxy.js --endpoint-file <path> [--wait-ms <ms>]
 *
 * The endpoint file is `{ state, url, token, writtenAt }`, written (mode 0600) by the extension
 * each time the language server reports its endpoint; the token never appears on a command line.
 * When the endpoint moves (the language server restarted it: new port, new token), the next
 * message fails upstream: the proxy re-reads the file, opens a new session, replays the client's
 * `initialize` and `notifications/initialized`, and sends the message again.
 *
 * Logs go to stderr only (stdout is the protocol).
 */
import { readFile } from 'node:fs/promises';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** How long the proxy waits for the endpoint file to say `running` (`--wait-ms`). Default 60 s. */
export const ENDPOINT_WAIT_MS = 60_000;
/** How often it re-reads the file while waiting. Default 250 ms. */
const ENDPOINT_POLL_MS = 250;

interface Endpoint {
  url: string;
  token: string;
}

const log = (message: string) => process.stderr.write(`[mcp-proxy] ${message}\n`);

async function readEndpoint(file: string, waitMs: number): Promise<Endpoint> {
  const deadline = Date.now() + waitMs;
  let last = 'the file does not exist yet';
  for (;;) {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as {
        state?: string;
        url?: string | null;
        token?: string | null;
      };
      if (parsed.state === 'running' && parsed.url && parsed.token) return { url: parsed.url, token: parsed.token };
      last = `the endpoint is ${parsed.state ?? 'unknown'}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() >= deadline)
      throw new Error(
        `Workspace Context's MCP endpoint is not running (${last}); check the Workspace Context status item.`,
      );
    await new Promise((resolve) => setTimeout(resolve, ENDPOINT_POLL_MS));
  }
}

class StdioProxy {
  private upstream: StreamableHTTPClientTransport | undefined;
  private initialize: JSONRPCRequest | undefined;
  private initialized: JSONRPCNotification | undefined;
  /** Requests the proxy itself sent upstream (a replayed initialize), by id. */
  private readonly internal = new Map<string, (message: JSONRPCMessage) => void>();
  private replays = 0;
  /** Messages wait here while a session is being (re)opened, so they keep their order. */
  private gate: Promise<void> = Promise.resolve();

  constructor(
    private readonly downstream: StdioServerTransport,
    private readonly endpointFile: string,
    private readonly waitMs: number,
  ) {}

  async start(): Promise<void> {
    this.downstream.onmessage = (message) => void this.fromClient(message);
    this.downstream.onerror = (error) => log(`stdio: ${error.message}`);
    await this.downstream.start();
  }

  async close(): Promise<void> {
    const upstream = this.upstream;
    this.upstream = undefined;
    if (upstream) {
      await upstream.terminateSession().catch(() => undefined);
      await upstream.close().catch(() => undefined);
    }
  }

  private async fromClient(message: JSONRPCMessage): Promise<void> {
    if (isInitializeRequest(message)) this.initialize = message as JSONRPCRequest;
    if (isJSONRPCNotification(message) && message.method === 'notifications/initialized') this.initialized = message;
    await this.gate;
    try {
      await this.send(message);
    } catch (first) {
      log(`upstream failed (${(first as Error).message}); reconnecting`);
      try {
        await this.reconnect(isInitializeRequest(message));
        await this.send(message);
      } catch (error) {
        log(`giving up on one message: ${(error as Error).message}`);
        if (isJSONRPCRequest(message)) {
          await this.downstream.send({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32000, message: (error as Error).message },
          });
        }
      }
    }
  }

  private async send(message: JSONRPCMessage): Promise<void> {
    if (!this.upstream) await this.guarded(() => this.connect());
    await this.upstream!.send(message);
  }

  /** Runs `task` with every other message held back until it is done. */
  private guarded<T>(task: () => Promise<T>): Promise<T> {
    const run = this.gate.then(task);
    this.gate = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async connect(): Promise<void> {
    const endpoint = await readEndpoint(this.endpointFile, this.waitMs);
    const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
      requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } },
    });
    transport.onmessage = (message) => void this.fromServer(transport, message);
    transport.onerror = (error) => log(`http: ${error.message}`);
    await transport.start();
    this.upstream = transport;
    log(`forwarding to ${endpoint.url}`);
  }

  /** A new session on the endpoint the file names now; replays the handshake unless `message` is it. */
  private reconnect(sendingInitialize: boolean): Promise<void> {
    return this.guarded(async () => {
      const old = this.upstream;
      this.upstream = undefined;
      await old?.close().catch(() => undefined);
      await this.connect();
      if (sendingInitialize || !this.initialize) return;
      const id = `wsctx-proxy-replay-${++this.replays}`;
      const answered = new Promise<JSONRPCMessage>((resolve) => this.internal.set(id, resolve));
      await this.upstream!.send({ ...this.initialize, id });
      const answer = await answered;
      if (isJSONRPCErrorResponse(answer)) throw new Error(`the endpoint refused initialize: ${answer.error.message}`);
      if (this.initialized) await this.upstream!.send(this.initialized);
    });
  }

  private async fromServer(transport: StreamableHTTPClientTransport, message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const waiting = this.internal.get(String(message.id));
      if (isJSONRPCResultResponse(message) && (waiting || message.id === this.initialize?.id)) {
        // The transport sends this header on every later request, as the SDK's Client does.
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === 'string') transport.setProtocolVersion(version);
      }
      if (waiting) {
        this.internal.delete(String(message.id));
        waiting(message);
        return;
      }
    }
    await this.downstream.send(message).catch((error: Error) => log(`stdio send: ${error.message}`));
  }
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const endpointFile = argValue('--endpoint-file');
  if (!endpointFile) {
    log('usage: mcpProxy --endpoint-file <path> [--wait-ms <ms>]');
    process.exit(2);
  }
  const waitMs = Number(argValue('--wait-ms') ?? ENDPOINT_WAIT_MS);
  const proxy = new StdioProxy(
    new StdioServerTransport(),
    endpointFile,
    Number.isFinite(waitMs) && waitMs >= 0 ? waitMs : ENDPOINT_WAIT_MS,
  );
  const shutdown = () => void proxy.close().finally(() => process.exit(0));
  process.stdin.once('end', shutdown);
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  await proxy.start();
}

main().catch((error) => {
  log((error as Error).stack ?? String(error));
  process.exit(1);
});
