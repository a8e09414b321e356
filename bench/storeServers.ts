/**
 * The servers the store bench (benchStore.ts) measures, as a user runs them: `wsctx serve` (the
 * built CLI, dist/wsctx.js) over HTTP, answering the real MCP client; their start-up time, their
 * resident memory (Linux /proc), and a tool call's whole time as the client sees it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const WSCTX = path.resolve(__dirname, '../dist/wsctx.js');
const TOKEN = 'b'.repeat(48);

export interface BenchServer {
  label: string;
  endpoint: string;
  /** Replaced by {@link BenchServer.reconnect}. */
  client: Client;
  child: ChildProcess;
  /** Milliseconds from spawn to serving (a store reader: every namespace loaded). */
  startMs: number;
  stderr(): string;
  /** Resident and peak resident bytes now (0 where /proc is not there). */
  rss(): { rss: number; peak: number };
  /** `GET /status`. */
  status(): Promise<Record<string, unknown>>;
  /** A new MCP session (after a request failed: a server busy indexing may close a connection). */
  reconnect(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `wsctx serve ARGS` and connects an MCP client; resolves once it prints its URL. */
export async function startServe(label: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<BenchServer> {
  if (!existsSync(WSCTX)) throw new Error(`${WSCTX} is missing: run \`npm run build\` first`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=16000', WSCTX, 'serve', '--port', '0', '--token', TOKEN, ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  let stderr = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.length > 1_000_000) stderr = stderr.slice(-500_000);
      const m = /url:\s+(\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${label}: serve exited with ${code}: ${stderr.slice(-4000)}`)));
  });
  const startMs = performance.now() - started;
  const connect = async () => {
    const client = new Client({ name: 'wsctx-bench', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return client;
  };
  const server: BenchServer = {
    label,
    endpoint,
    client: await connect(),
    child,
    startMs,
    stderr: () => stderr,
    rss: () => residentBytes(child.pid!),
    async status() {
      const response = await fetch(endpoint.replace(/\/mcp$/, '/status'), {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      return (await response.json()) as Record<string, unknown>;
    },
    async reconnect() {
      await server.client.close().catch(() => undefined);
      server.client = await connect();
    },
    async stop() {
      await server.client.close().catch(() => undefined);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return server;
}

/** VmRSS and VmHWM of process `pid`, in bytes. */
export function residentBytes(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** One tool call as the client sees it: its answer (structured content) and its whole time. */
export async function timedCall(
  server: BenchServer,
  name: string,
  args: Record<string, unknown>,
): Promise<{ answer: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 3_600_000 });
  const ms = performance.now() - started;
  if (result.isError)
    throw new Error(`${server.label}: ${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
  return { answer: result.structuredContent as Record<string, unknown>, ms };
}

/**
 * Calls `workspace_context` until the answer is not `index-cold` (an in-memory server indexes in
 * the background; busy indexing, it may let a connection time out: the call is made again).
 */
export async function untilWarm(server: BenchServer, workspace: string): Promise<void> {
  for (;;) {
    try {
      const { answer } = await timedCall(server, 'workspace_context', { workspace, question: 'warm up' });
      if (!(answer.degraded as string[]).includes('index-cold')) return;
    } catch {
      await server.reconnect().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
