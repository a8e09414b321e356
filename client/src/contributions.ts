/**
 * The names package.json contributes and the client registers: command ids and titles, the chat
 * participant, the MCP server definition provider, the status items. One list, so the manifest
 * test (test/unit/manifest.test.ts) can hold package.json to it.
 *
 * Imports no `vscode` (unit tests load it).
 */
import { ClientCommands } from '../../shared/protocol';

/** The category every command is listed under in the command palette. */
export const COMMAND_CATEGORY = 'Workspace Context';

export const Commands = {
  search: 'workspaceContext.search',
  openResults: 'workspaceContext.openResults',
  whyNot: 'workspaceContext.whyNot',
  expandEntity: ClientCommands.expandEntity,
  showEntityDocs: ClientCommands.showEntityDocs,
  showToc: 'workspaceContext.showToc',
  reindex: 'workspaceContext.reindex',
  showDiagnostics: 'workspaceContext.showDiagnostics',
  showStatus: 'workspaceContext.showStatus',
  restartMcpEndpoint: 'workspaceContext.restartMcpEndpoint',
  showOutput: 'workspaceContext.showOutput',
  contextForChange: 'workspaceContext.contextForChange',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

export interface CommandContribution {
  command: CommandId;
  title: string;
  /** Shown in the command palette (false for commands that only make sense with arguments). */
  palette: boolean;
  /** A codicon (`$(question)`): the command then shows as a button where a menu puts it on a title bar. */
  icon?: string;
}

/** Every command, in the order package.json lists them. */
export const COMMANDS: readonly CommandContribution[] = [
  { command: Commands.search, title: 'Search workspace context', palette: true },
  { command: Commands.openResults, title: 'Open search results', palette: true },
  { command: Commands.whyNot, title: 'Why not this page?', palette: true, icon: '$(question)' },
  { command: Commands.expandEntity, title: 'Expand entity', palette: true },
  { command: Commands.showToc, title: 'Show table of contents', palette: true },
  { command: Commands.reindex, title: 'Re-index', palette: true },
  { command: Commands.showDiagnostics, title: 'Show diagnostics', palette: true },
  { command: Commands.showStatus, title: 'Show index status', palette: true },
  { command: Commands.restartMcpEndpoint, title: 'Restart MCP endpoint', palette: true },
  { command: Commands.showOutput, title: 'Show output', palette: true },
  { command: Commands.contextForChange, title: 'Context for my change', palette: true, icon: '$(sparkle)' },
  // The code lens passes the entity's documents; without them there is nothing to pick from.
  { command: Commands.showEntityDocs, title: 'Show entity docs', palette: false },
];

/** The results view's webview panels (client/src/views/resultsView.ts); its title bar carries "Why not this page?". */
export const RESULTS_VIEW_TYPE = 'workspaceContext.results';

/** The `@context` chat participant. */
export const CHAT_PARTICIPANT = {
  id: 'workspace-context.context',
  name: 'context',
  fullName: 'Workspace Context',
  commands: ['expand', 'toc', 'why', 'change'] as const,
};

export type ChatCommand = (typeof CHAT_PARTICIPANT.commands)[number];

/** Where "Context for my change" sits besides the palette: the Source Control view's title bar, for git repositories. */
export const SCM_TITLE_MENU = { command: Commands.contextForChange, when: 'scmProvider == git', group: 'navigation' };

/** The MCP server definition provider (`contributes.mcpServerDefinitionProviders`). */
export const MCP_PROVIDER = {
  id: 'workspaceContext.mcp',
  /** The server's label in "MCP: List Servers"; its output channel is "MCP: <label>". */
  label: 'Workspace Context',
};

/** Status bar item id (the workbench shows it as `<extension id>.<this>`) and language status item id. */
export const STATUS_BAR_ITEM_ID = 'workspaceContext.status';
export const LANGUAGE_STATUS_ITEM_ID = 'workspaceContext.index';

/** The bundle the stdio MCP fallback runs (server/src/mcp/proxy.ts), relative to the extension. */
export const MCP_PROXY_BUNDLE = 'dist/mcpProxy.js';
