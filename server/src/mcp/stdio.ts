/**
 * MCP over stdio. stdout carries the protocol, so everything else (logs, progress) goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine/engine';
import { createMcpServer } from './createServer';

export async function serveStdio(engine: Engine, log: (message: string) => void): Promise<void> {
  const created = createMcpServer(engine, { sessionId: () => 'stdio', log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    created.server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await created.server.connect(transport);
  await closed;
  created.dispose();
}
