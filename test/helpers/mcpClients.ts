/**
 * Real MCP clients (the SDK's own) against the BUILT server: stdio spawns `node dist/wsctx.js
 * mcp`, HTTP spawns `node dist/wsctx.js serve` and reads the URL and token it prints on stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { TEST_CACHE_DIR, TEST_CONFIG_HOME, WSCTX } from './cli';

export interface StdioSession {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

export async function connectStdio(workspace: string, extraArgs: string[] = []): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [WSCTX, 'mcp', '--workspace', workspace, ...extraArgs],
    env: {
      ...(process.env as Record<string, string>),
      WSCTX_CACHE_DIR: TEST_CACHE_DIR,
      XDG_CONFIG_HOME: TEST_CONFIG_HOME,
      WSCTX_EMBEDDINGS: 'off',
      WSCTX_VALIDATE_OUTPUT: '1',
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = await strictClient(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface HttpServerProcess {
  url: string;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startHttpServer(workspace: string, token?: string): Promise<HttpServerProcess> {
  const child = spawn(
    process.execPath,
    [WSCTX, 'serve', '--workspace', workspace, '--port', '0', ...(token ? ['--token', token] : [])],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        WSCTX_CACHE_DIR: TEST_CACHE_DIR,
        XDG_CONFIG_HOME: TEST_CONFIG_HOME,
        WSCTX_EMBEDDINGS: 'off',
        WSCTX_VALIDATE_OUTPUT: '1',
      },
    },
  );
  let stderr = '';
  const ready = new Promise<{ url: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /url:\s+(\S+)/.exec(stderr)?.[1];
      const tok = /token:\s+(\S+)/.exec(stderr)?.[1];
      if (url && tok) {
        clearTimeout(timer);
        resolve({ url, token: tok });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const { url, token: actual } = await ready;
  return {
    url,
    token: actual,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function connectHttp(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  return strictClient(transport);
}

/**
 * Connects as strict clients do: the SDK's Client checks a tool's structured answers against its
 * published output schema only once it has listed the tools (it caches their validators then), so
 * every test client lists them first and every answer a test reads has passed that check.
 */
async function strictClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'wsctx-test', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

/**
 * Calls a tool until the answer is neither `index-cold` (the server indexes in the background) nor
 * `index-stale` (it answers from a snapshot another test left in the shared cache folder while its
 * first pass checks what changed since).
 */
export async function callWhenWarm(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Awaited<ReturnType<Client['callTool']>>> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const result = await client.callTool({ name, arguments: args });
    const degraded = (result.structuredContent as { degraded?: string[] } | undefined)?.degraded ?? [];
    if (!degraded.includes('index-cold') && !degraded.includes('index-stale')) return result;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} stayed cold`);
}
