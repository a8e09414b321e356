/**
 * One MCP server over the shared engine. Each connection (stdio, or one HTTP session) gets its own
 * `McpServer` so per-session behaviour (pinned documents at the top of a session's first answer)
 * stays per session, while every connection reads the same index.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../engine/engine';
import { TOOLS } from '../tools/registry';
import { registerTools } from './registerTools';

export const SERVER_NAME = 'workspace-context';
export const SERVER_VERSION = '0.1.0';

export interface CreatedServer {
  server: McpServer;
  dispose(): void;
}

export function createMcpServer(engine: Engine, options: { sessionId: () => string; log: (message: string) => void }): CreatedServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Workspace Context' },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: engine.serverInstructions(),
    },
  );
  const unsubscribe = registerTools(server, engine, TOOLS, options);
  return { server, dispose: unsubscribe };
}
