/**
 * Registers the language server's MCP tools with VS Code (`contributes.mcpServerDefinitionProviders`
 * + `lm.registerMcpServerDefinitionProvider`), so Copilot agent mode and agent chat list them with
 * no setup. mcpPlan.ts decides between the loopback HTTP endpoint and the stdio proxy; this file
 * probes the endpoint, keeps the proxy's endpoint file current, fills the token in at resolve time
 * (VS Code caches provided definitions; the token never lands in that cache) and tells VS Code
 * whenever the endpoint starts, moves or stops.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import {
  EventEmitter,
  lm,
  McpHttpServerDefinition,
  McpStdioServerDefinition,
  Uri,
  type Disposable,
  type ExtensionContext,
  type McpServerDefinition,
  type McpServerDefinitionProvider,
} from 'vscode';
import { McpEndpointRequest, type McpEndpointInfo } from '../../shared/protocol';
import { MCP_PROVIDER, MCP_PROXY_BUNDLE } from './contributions';
import { storagePath, type ServerConnection } from './languageClient';
import { endpointFileContent, planMcpDefinition, probeVerdict, readTransportOverride, type McpPlan } from './mcpPlan';

/** How long a probe of the endpoint may take. Default 2 s. */
const PROBE_TIMEOUT_MS = 2_000;
/** How long starting the server waits for the endpoint to run. Default 30 s. */
const START_WAIT_MS = 30_000;

export class McpProvider implements McpServerDefinitionProvider, Disposable {
  private readonly changed = new EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subscriptions: Disposable[] = [];
  private readonly endpointFile: string;
  private readonly proxyPath: string;
  private readonly version: string;
  private lastPlan: string | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    context: ExtensionContext,
    private readonly connection: ServerConnection,
  ) {
    this.endpointFile = path.join(storagePath(context), 'mcp-endpoint.json');
    this.proxyPath = context.asAbsolutePath(MCP_PROXY_BUNDLE);
    this.version = String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0');
    this.subscriptions.push(
      connection.onMcpEndpoint((info) => void this.endpointChanged(info)),
      lm.registerMcpServerDefinitionProvider(MCP_PROVIDER.id, this),
      this.changed,
    );
  }

  async provideMcpServerDefinitions(): Promise<McpServerDefinition[]> {
    const endpoint = await this.endpoint();
    const plan = await this.plan(endpoint);
    this.logPlan(plan);
    switch (plan.kind) {
      case 'none':
        return [];
      case 'stdio':
        return [this.stdioDefinition()];
      case 'http':
        // The URL is what the endpoint says now; the token goes in at resolve time.
        return [
          new McpHttpServerDefinition(
            MCP_PROVIDER.label,
            Uri.parse(plan.url ?? 'http://127.0.0.1/mcp'),
            {},
            this.version,
          ),
        ];
    }
  }

  async resolveMcpServerDefinition(server: McpServerDefinition): Promise<McpServerDefinition | undefined> {
    if (server instanceof McpStdioServerDefinition) {
      // The proxy reads the endpoint file itself and waits for a running endpoint.
      return server;
    }
    const endpoint = await this.waitForRunning();
    if (endpoint.state !== 'running' || !endpoint.url || !endpoint.token) {
      throw new Error(`Workspace Context's MCP endpoint is ${endpoint.state}: ${endpoint.reason ?? 'no reason given'}`);
    }
    server.uri = Uri.parse(endpoint.url);
    server.headers = { ...server.headers, Authorization: `Bearer ${endpoint.token}` };
    return server;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    void rm(this.endpointFile, { force: true });
  }

  private stdioDefinition(): McpStdioServerDefinition {
    // In desktop VS Code `process.execPath` is the editor's Electron binary: run it as Node.
    const definition = new McpStdioServerDefinition(
      MCP_PROVIDER.label,
      process.execPath,
      [this.proxyPath, '--endpoint-file', this.endpointFile],
      { ELECTRON_RUN_AS_NODE: '1' },
      this.version,
    );
    definition.cwd = Uri.file(path.dirname(this.proxyPath));
    return definition;
  }

  private async endpoint(): Promise<McpEndpointInfo | undefined> {
    if (this.connection.latestEndpoint) return this.connection.latestEndpoint;
    if (this.connection.state !== 'running') return undefined;
    return this.refreshEndpoint();
  }

  private async plan(endpoint: McpEndpointInfo | undefined): Promise<McpPlan> {
    const override = readTransportOverride(process.env);
    if (override.problem) this.connection.output.warn(`[mcp] ${override.problem}`);
    let reachable: boolean | undefined;
    if (endpoint?.state === 'running' && override.value === 'auto') {
      const verdict = await this.probe(endpoint);
      reachable = verdict.reachable;
      // A token the endpoint refuses means it moved since we heard: ask again.
      if (verdict.staleToken) endpoint = (await this.refreshEndpoint()) ?? endpoint;
    }
    return planMcpDefinition({
      endpoint,
      reachable,
      override: override.value,
      proxyAvailable: existsSync(this.proxyPath),
    });
  }

  /** A GET without a session: our endpoint answers it (with a 4xx); a blocked path does not. */
  private async probe(endpoint: McpEndpointInfo): Promise<ReturnType<typeof probeVerdict>> {
    try {
      const response = await fetch(endpoint.url!, {
        headers: { Authorization: `Bearer ${endpoint.token}` },
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return probeVerdict(response.status);
    } catch (error) {
      this.connection.output.warn(
        `[mcp] ${endpoint.url} does not answer from the extension host: ${(error as Error).message}`,
      );
      return probeVerdict('network-error');
    }
  }

  private async refreshEndpoint(): Promise<McpEndpointInfo | undefined> {
    try {
      const info = await this.connection.client.sendRequest(McpEndpointRequest.type);
      this.connection.latestEndpoint = info;
      await this.writeEndpointFile(info);
      return info;
    } catch (error) {
      this.connection.output.warn(`[mcp] could not ask for the MCP endpoint: ${(error as Error).message}`);
      return undefined;
    }
  }

  private waitForRunning(): Promise<McpEndpointInfo> {
    const now = this.connection.latestEndpoint;
    if (now && now.state !== 'starting') return Promise.resolve(now);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        listener.dispose();
        resolve(
          this.connection.latestEndpoint ?? {
            state: 'stopped',
            url: null,
            token: null,
            reason: 'The language server did not report an endpoint in time.',
            serverName: '',
          },
        );
      }, START_WAIT_MS);
      const listener = this.connection.onMcpEndpoint((info) => {
        if (info.state === 'starting') return;
        clearTimeout(timer);
        listener.dispose();
        resolve(info);
      });
    });
  }

  private async endpointChanged(info: McpEndpointInfo): Promise<void> {
    await this.writeEndpointFile(info);
    // 'starting' is followed by 'running' or 'failed' within moments; tell VS Code once it settles.
    if (info.state !== 'starting') this.changed.fire();
  }

  /**
   * The proxy's view of the endpoint: the token on disk for this user only, never on a command
   * line. Writes run one after another and land by rename, so a reader never sees half a file.
   */
  private writeEndpointFile(info: McpEndpointInfo): Promise<void> {
    const write = async () => {
      const temporary = `${this.endpointFile}.${process.pid}.tmp`;
      try {
        await mkdir(path.dirname(this.endpointFile), { recursive: true });
        await writeFile(temporary, `${JSON.stringify(endpointFileContent(info, new Date()))}\n`, { mode: 0o600 });
        await chmod(temporary, 0o600);
        await rename(temporary, this.endpointFile);
      } catch (error) {
        this.connection.output.warn(`[mcp] could not write ${this.endpointFile}: ${(error as Error).message}`);
      }
    };
    this.writing = this.writing.then(write);
    return this.writing;
  }

  private logPlan(plan: McpPlan): void {
    const line = `[mcp] ${plan.kind === 'none' ? 'no MCP server definition' : `${plan.kind} definition`}: ${plan.reason}`;
    if (line === this.lastPlan) return;
    this.lastPlan = line;
    this.connection.output.info(line);
  }
}
