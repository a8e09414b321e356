/**
 * The MCP endpoint the language server serves for Copilot and agent chat: Streamable HTTP on
 * 127.0.0.1 with a random port and bearer token (mcp/http.ts), over the editor's one engine.
 *
 * Started after the server initialises unless the `mcp.http.enabled` setting is off or the
 * workspace is untrusted; restartable (new port, new token); every change is reported to the
 * client, which updates the MCP server definition it registered. Operations run one at a time, so
 * a restart during a settings change cannot leave two servers listening.
 */
import type { McpEndpointInfo } from '../../../../shared/protocol';
import { SERVER_NAME } from '../../mcp/createServer';
import { startHttpMcpServer, type HttpMcpServer } from '../../mcp/http';
import type { Services } from '../../services/services';

export interface McpEndpointOptions {
  log(message: string): void;
  /** Called after every change of state, URL or token. */
  onChange(info: McpEndpointInfo): void;
}

export class McpEndpoint {
  private server: HttpMcpServer | undefined;
  private info: McpEndpointInfo = {
    state: 'stopped',
    url: null,
    token: null,
    reason: 'Not started yet.',
    serverName: SERVER_NAME,
  };
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: McpEndpointOptions) {}

  current(): McpEndpointInfo {
    return { ...this.info };
  }

  /** Starts the endpoint over `services` (stopping a running one first); `disabledReason` keeps it off. */
  start(services: Services | undefined, disabledReason: string | null): Promise<McpEndpointInfo> {
    return this.serial(async () => {
      await this.close();
      if (disabledReason !== null)
        return this.set({ state: 'disabled', url: null, token: null, reason: disabledReason });
      if (!services)
        return this.set({ state: 'stopped', url: null, token: null, reason: 'No workspace folder is open.' });
      this.set({ state: 'starting', url: null, token: null, reason: null });
      try {
        this.server = await startHttpMcpServer({ services, log: this.options.log });
        this.options.log(`[mcp-http] serving ${this.server.url}`);
        return this.set({ state: 'running', url: this.server.url, token: this.server.token, reason: null });
      } catch (error) {
        this.options.log(`[mcp-http] could not start: ${(error as Error).stack ?? error}`);
        return this.set({
          state: 'failed',
          url: null,
          token: null,
          reason: `The MCP endpoint could not start: ${(error as Error).message}`,
        });
      }
    });
  }

  stop(reason: string): Promise<McpEndpointInfo> {
    return this.serial(async () => {
      await this.close();
      return this.set({ state: 'stopped', url: null, token: null, reason });
    });
  }

  private async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server)
      await server.close().catch((error) => this.options.log(`[mcp-http] close failed: ${(error as Error).message}`));
  }

  private set(info: Omit<McpEndpointInfo, 'serverName'>): McpEndpointInfo {
    this.info = { ...info, serverName: SERVER_NAME };
    this.options.onChange(this.current());
    return this.current();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
