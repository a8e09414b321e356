/**
 * Every tool, in the order agents should meet them. Hosts (MCP, LSP, CLI) register from this
 * table and nothing else, so a tool added here is served everywhere.
 */
import { explainResultTool } from './explainResult';
import { getContextTool } from './getContext';
import { getFileTool } from './getFile';
import { getSectionTool } from './getSection';
import { getTocTool } from './getToc';
import { readPageTool } from './readPage';
import { searchInstructionsTool } from './searchInstructions';
import type { AnyToolDefinition } from './toolDefinition';
import { workspaceContextTool } from './workspaceContext';
import { workspaceExpandTool } from './workspaceExpand';

export const TOOLS: readonly AnyToolDefinition[] = [
  workspaceContextTool,
  workspaceExpandTool,
  getContextTool,
  readPageTool,
  getFileTool,
  getTocTool,
  getSectionTool,
  searchInstructionsTool,
  explainResultTool,
];

export function findTool(name: string): AnyToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}
