/**
 * One MCP server over the shared engine. Each connection (stdio, or one HTTP session) gets its own
 * `McpServer` so per-session behaviour (pinned documents at the top of a session's first answer)
 * stays per session, while every connection reads the same index.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Services } from '../services/services';
import { TOOLS } from '../tools/registry';
import { serverInstructions } from '../tools/serverInstructions';
import { registerTools } from './registerTools';

export const SERVER_NAME = 'workspace-context';
export const SERVER_VERSION = '0.1.0';

export interface CreatedServer {
  server: McpServer;
  dispose(): void;
}

export function createMcpServer(
  services: Services,
  options: { sessionId: () => string; log: (message: string) => void },
): CreatedServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Workspace Context' },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: serverInstructions(services.engine),
    },
  );
  const unsubscribe = registerTools(server, services, TOOLS, options);
  return { server, dispose: unsubscribe };
}
