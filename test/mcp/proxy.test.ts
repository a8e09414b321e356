/**
 * The stdio MCP proxy (server/src/mcp/proxy.ts, the extension's fallback when VS Code cannot reach
 * the loopback endpoint): the SDK's stdio client talks to the proxy, the proxy forwards to a real
 * HTTP MCP server (`wsctx serve`) named by an endpoint file, follows the file when the endpoint
 * moves to a new port and token, and answers a clear error when no endpoint is running.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TOOLS } from '../../server/src/tools/registry';
import { callWhenWarm, startHttpServer, type HttpServerProcess } from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

const PROXY = path.resolve(__dirname, '../../server/src/mcp/proxy.ts');

interface ProxySession {
  client: Client;
  stderr: () => string;
}

async function connectProxy(endpointFile: string, waitMs = 10_000): Promise<ProxySession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', PROXY, '--endpoint-file', endpointFile, '--wait-ms', String(waitMs)],
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

function writeEndpoint(file: string, state: string, server?: HttpServerProcess): void {
  writeFileSync(
    file,
    JSON.stringify({
      state,
      url: server?.url ?? null,
      token: server?.token ?? null,
      writtenAt: new Date().toISOString(),
    }),
    { mode: 0o600 },
  );
}

const textOf = (result: unknown): string => (result as { content?: { text: string }[] }).content?.[0]?.text ?? '';

describe('stdio MCP proxy -> loopback HTTP endpoint', () => {
  let first: HttpServerProcess | undefined;
  let second: HttpServerProcess | undefined;
  let session: ProxySession | undefined;
  let endpointFile: string;

  before(async () => {
    endpointFile = path.join(tempDir('proxy'), 'mcp-endpoint.json');
    first = await startHttpServer(EXAMPLE_WORKSPACE, 'a'.repeat(64));
    writeEndpoint(endpointFile, 'running', first);
    session = await connectProxy(endpointFile);
  });

  after(async () => {
    await session?.client.close();
    await first?.stop();
    await second?.stop();
    removeTempDirs();
  });

  it('lists every tool of the shared table through the proxy', async () => {
    const { tools } = await session!.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOLS.map((t) => t.name),
    );
  });

  it('forwards tool calls and their structured answers unchanged', async () => {
    const expand = await callWhenWarm(session!.client, 'workspace_expand', {
      workspace: 'fernhill',
      entityRef: 'component:billing-worker',
      direction: 'out',
      edgeTypes: ['ownedBy'],
    });
    assert.deepEqual(
      (expand.structuredContent as { edges: { target: string }[] }).edges.map((e) => e.target),
      ['group:default/payments-team'],
    );
    const refused = await session!.client.callTool({
      name: 'workspace_expand',
      arguments: { workspace: 'fernhill', entityRef: 'billing-worker', depth: 4 },
    });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^Invalid input for workspace_expand: depth: must be a whole number from 1 to 3/);
  });

  it('follows the endpoint file to a new port and token, replaying the handshake', async () => {
    await first!.stop();
    first = undefined;
    second = await startHttpServer(EXAMPLE_WORKSPACE, 'b'.repeat(64));
    writeEndpoint(endpointFile, 'running', second);
    const expand = await callWhenWarm(session!.client, 'workspace_expand', {
      workspace: 'fernhill',
      entityRef: 'component:billing-worker',
      direction: 'out',
      edgeTypes: ['ownedBy'],
    });
    assert.deepEqual(
      (expand.structuredContent as { edges: { target: string }[] }).edges.map((e) => e.target),
      ['group:default/payments-team'],
    );
    assert.match(
      session!.stderr(),
      new RegExp(`reconnecting[\\s\\S]*forwarding to ${second.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it('answers a request with an error naming the state when no endpoint is running', async () => {
    const file = path.join(tempDir('proxy-off'), 'mcp-endpoint.json');
    writeFileSync(
      file,
      JSON.stringify({ state: 'disabled', url: null, token: null, writtenAt: new Date().toISOString() }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', PROXY, '--endpoint-file', file, '--wait-ms', '300'],
      env: process.env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'proxy-test', version: '1.0.0' });
    await assert.rejects(client.connect(transport), /MCP endpoint is not running \(the endpoint is disabled\)/);
    await client.close().catch(() => undefined);
  });
});
