/**
 * Every tool, in the order agents should meet them. Hosts (MCP, LSP, CLI) register from this
 * table and nothing else, so a tool added here is served everywhere.
 */
import type { AnyToolDefinition } from './toolDefinition';
import { workspaceExpandTool } from './workspaceExpand';

export const TOOLS: readonly AnyToolDefinition[] = [workspaceExpandTool];

export function findTool(name: string): AnyToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}
