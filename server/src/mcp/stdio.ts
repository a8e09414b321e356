/**
 * MCP over stdio. stdout carries the protocol, so everything else (logs, progress) goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Services } from '../services/services';
import { createMcpServer } from './createServer';

export async function serveStdio(services: Services, log: (message: string) => void): Promise<void> {
  const created = createMcpServer(services, { sessionId: () => 'stdio', log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    created.server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await created.server.connect(transport);
  await closed;
  created.dispose();
}
