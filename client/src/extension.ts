/**
 * Extension entry point: wires the parts together and holds no logic of its own.
 *
 * The language server (languageClient.ts) owns the only index; the status items (status.ts), the
 * commands (commands.ts) and the results view they open (views/), the MCP server definition
 * (mcpProvider.ts) and the `@context` chat participant (chatParticipant.ts) all ask it.
 */
import { window, type ExtensionContext } from 'vscode';
import { LANGUAGE_CLIENT_NAME } from '../../shared/ids';
import { registerChatParticipant } from './chatParticipant';
import { registerCommands } from './commands';
import { ServerConnection } from './languageClient';
import { McpProvider } from './mcpProvider';
import { StatusItems } from './status';
import { ResultsViews } from './views/resultsView';
import { LastFile } from './views/whyNot';

let connection: ServerConnection | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const output = window.createOutputChannel(LANGUAGE_CLIENT_NAME, { log: true });
  connection = new ServerConnection(context, output);
  const status = new StatusItems(connection);
  const views = new ResultsViews(connection);
  const lastFile = new LastFile();
  context.subscriptions.push(
    output,
    connection,
    status,
    views,
    lastFile,
    ...registerCommands(connection, status, views, lastFile),
    new McpProvider(context, connection),
    registerChatParticipant(context, connection),
  );
  // A server that fails to start is reported by the status item and the output channel; the
  // commands and the chat participant say so instead of failing silently.
  await connection.start().catch(() => undefined);
}

export async function deactivate(): Promise<void> {
  await connection?.stop();
  connection = undefined;
}
