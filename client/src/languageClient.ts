/**
 * The connection to the language server (dist/server.js over IPC, the only engine in the editor):
 * starts it with the settings and the workspace's trust in `initializationOptions`, restarts it when
 * the workspace becomes trusted, and turns the server's custom notifications and index progress
 * into events the status item and the MCP provider follow.
 *
 * Hovers and code lenses carry `command:` links to the expand and entity-docs commands: those two
 * (and only those) are trusted in the server's Markdown.
 */
import * as path from 'node:path';
import { EventEmitter, lm, workspace, type Disposable, type ExtensionContext, type LogOutputChannel } from 'vscode';
import {
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageclient/node';
import { LANGUAGE_CLIENT_ID, LANGUAGE_CLIENT_NAME, SETTINGS_PREFIX } from '../../shared/ids';
import {
  ClientCommands,
  IndexStatusNotification,
  LanguageModelRequest,
  McpEndpointNotification,
  RESULTS_SCHEME,
  type IndexStatus,
  type InitializationOptions,
  type McpEndpointInfo,
} from '../../shared/protocol';
import { SETTING_KEYS } from '../../shared/settings';
import { answerLanguageModelRequest } from './languageModel';
import { parseProgressCount, type ClientState, type PassProgress } from './statusText';

/**
 * Tokens of the server's pass progress (server/src/lsp/features/progress.ts). The embedding job's
 * progress (`workspace-context/embedding/N`) is left to VS Code: the status item words embedding
 * from the index status, and an embedding count must not read as "indexing n of N".
 */
const INDEX_PROGRESS_TOKEN = /^workspace-context\/index\//;

export class ServerConnection implements Disposable {
  readonly client: LanguageClient;
  private readonly indexStatus = new EventEmitter<IndexStatus>();
  private readonly mcpEndpoint = new EventEmitter<McpEndpointInfo>();
  private readonly progress = new EventEmitter<PassProgress | undefined>();
  private readonly stateChange = new EventEmitter<ClientState>();
  private readonly disposables: Disposable[] = [];
  private clientState: ClientState = 'starting';
  private lastError: string | undefined;
  latestStatus: IndexStatus | undefined;
  latestEndpoint: McpEndpointInfo | undefined;

  /** Fires with every index status the server pushes. */
  readonly onIndexStatus = this.indexStatus.event;
  /** Fires when the MCP endpoint starts, stops, moves or fails. */
  readonly onMcpEndpoint = this.mcpEndpoint.event;
  /** Fires with the running pass's progress, and undefined when it ends. */
  readonly onProgress = this.progress.event;
  readonly onState = this.stateChange.event;

  constructor(
    context: ExtensionContext,
    readonly output: LogOutputChannel,
  ) {
    const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
    const serverOptions: ServerOptions = {
      run: { module: serverModule, transport: TransportKind.ipc },
      debug: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { execArgv: ['--nolazy', '--inspect=6011'] },
      },
    };
    const clientOptions: LanguageClientOptions = {
      // Entity refs are hovered anywhere (catalog files, Markdown, code comments), and results
      // documents live under their own scheme.
      documentSelector: [{ scheme: 'file' }, { scheme: RESULTS_SCHEME }],
      outputChannel: output,
      // Evaluated at each (re)start, so a restart after trust is granted sends the new state.
      initializationOptions: (): InitializationOptions => ({
        storagePath: storagePath(context),
        settings: currentSettings(),
        workspaceTrusted: workspace.isTrusted,
        languageModels: typeof lm?.selectChatModels === 'function',
      }),
      markdown: {
        isTrusted: { enabledCommands: [ClientCommands.expandEntity, ClientCommands.showEntityDocs] },
        supportHtml: false,
      },
      middleware: {
        handleWorkDoneProgress: (token, params, next) => {
          next(token, params);
          if (INDEX_PROGRESS_TOKEN.test(String(token))) this.onServerProgress(params);
        },
      },
    };
    this.client = new LanguageClient(LANGUAGE_CLIENT_ID, LANGUAGE_CLIENT_NAME, serverOptions, clientOptions);
    this.disposables.push(
      this.client.onNotification(IndexStatusNotification.type, (status) => {
        this.latestStatus = status;
        this.indexStatus.fire(status);
      }),
      this.client.onRequest(LanguageModelRequest.type, (params, token) => answerLanguageModelRequest(params, token)),
      this.client.onNotification(McpEndpointNotification.type, (info) => {
        this.latestEndpoint = info;
        this.mcpEndpoint.fire(info);
      }),
      this.client.onDidChangeState((event) => {
        if (event.newState === State.Running) this.setState('running');
        else if (event.newState === State.Starting) this.setState('starting');
        else if (this.clientState !== 'failed') this.setState('stopped');
      }),
      // Restricted mode ends when the user trusts the workspace: start again with the endpoint.
      workspace.onDidGrantWorkspaceTrust(() => {
        this.output.info('The workspace is trusted now; restarting the language server out of restricted mode.');
        void this.restart();
      }),
      this.indexStatus,
      this.mcpEndpoint,
      this.progress,
      this.stateChange,
    );
  }

  get state(): ClientState {
    return this.clientState;
  }

  get error(): string | undefined {
    return this.lastError;
  }

  async start(): Promise<void> {
    this.setState('starting');
    try {
      await this.client.start();
    } catch (error) {
      this.lastError = (error as Error).message;
      this.output.error(`The language server did not start: ${this.lastError}`);
      this.setState('failed');
      throw error;
    }
  }

  async restart(): Promise<void> {
    this.latestStatus = undefined;
    this.latestEndpoint = undefined;
    this.setState('starting');
    try {
      await this.client.restart();
    } catch (error) {
      this.lastError = (error as Error).message;
      this.output.error(`The language server did not restart: ${this.lastError}`);
      this.setState('failed');
    }
  }

  async stop(): Promise<void> {
    if (this.client.isRunning()) await this.client.stop();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private setState(state: ClientState): void {
    if (state === this.clientState) return;
    this.clientState = state;
    if (state === 'running') this.lastError = undefined;
    this.stateChange.fire(state);
  }

  private current: PassProgress | undefined;

  private onServerProgress(params: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void {
    if (params.kind === 'end') {
      this.current = undefined;
      this.progress.fire(undefined);
      return;
    }
    const message = params.message ?? this.current?.message;
    this.current = {
      message,
      ...parseProgressCount(message),
      ...(params.percentage !== undefined ? { percentage: params.percentage } : {}),
    };
    this.progress.fire(this.current);
  }
}

/** Where the server may keep caches: this workspace's storage, else the extension's global storage. */
export function storagePath(context: ExtensionContext): string {
  return (context.storageUri ?? context.globalStorageUri).fsPath;
}

/** The settings as dotted keys, as shared/settings.ts's normaliser reads them. */
function currentSettings(): Record<string, unknown> {
  const config = workspace.getConfiguration(SETTINGS_PREFIX);
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, config.get(key)]));
}
