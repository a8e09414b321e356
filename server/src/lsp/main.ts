/**
 * Language server entry point: the connection, the open documents and one `LanguageSession` (the
 * editor's only engine), wired to the features under features/, one file each. Handlers here only
 * adapt: they call a feature and catch at the edge, logging what failed, so one bad document never
 * takes the server down.
 *
 * Transport comes from the command line (`--stdio`, `--node-ipc`, `--socket=<port>`), as
 * vscode-languageserver reads it.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CancellationTokenSource,
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  ProposedFeatures,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  type InitializeParams,
  type InitializeResult,
  type WorkspaceFoldersChangeEvent,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CallToolRequest,
  ChangeContextRequest,
  DiagnosticsReportRequest,
  IndexStatusNotification,
  IndexStatusRequest,
  LanguageModelRequest,
  McpEndpointNotification,
  McpEndpointRequest,
  OpenResultsRequest,
  ReindexRequest,
  RestartMcpEndpointRequest,
  RESULTS_SCHEME,
  SearchRequest,
  type InitializationOptions,
} from '../../../shared/protocol';
import { SETTINGS_PREFIX } from '../../../shared/ids';
import { type WorkspaceFolder, setSyntaxLog } from '../engine';
import { codeLenses } from './features/codeLens';
import { completion } from './features/completion';
import { changeContext } from './features/changeContext';
import { callToolRequest, openResults, search } from './features/customRequests';
import { definition } from './features/definition';
import { documentLinks } from './features/documentLinks';
import { hover } from './features/hover';
import { references } from './features/references';
import { workspaceSymbols } from './features/workspaceSymbols';
import { LanguageSession } from './session';

const SERVER_VERSION = '0.1.0';

// The server writes only its caches (the extension's storage): folders 0700, files 0600.
process.umask(0o077);
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let session: LanguageSession | undefined;
let canPullConfiguration = false;
let canFollowFolders = false;

const log = (message: string) => connection.console.log(message);
// web-tree-sitter's load failures (a grammar that does not load) reach the output channel.
setSyntaxLog((message) => connection.console.warn(message));

connection.onInitialize((params: InitializeParams): InitializeResult => {
  const options = (params.initializationOptions ?? {}) as InitializationOptions;
  const capabilities = params.capabilities;
  canPullConfiguration = !!capabilities.workspace?.configuration;
  canFollowFolders = !!capabilities.workspace?.workspaceFolders;
  session = new LanguageSession(
    {
      log,
      progress: capabilities.window?.workDoneProgress
        ? {
            create: async (token) => {
              await connection.sendRequest(WorkDoneProgressCreateRequest.type, { token });
              return true;
            },
            send: (token, value) => connection.sendProgress(WorkDoneProgress.type, token, value),
          }
        : undefined,
      sendIndexStatus: (status) => void connection.sendNotification(IndexStatusNotification.type, status),
      publishDiagnostics: (uri, diagnostics) => void connection.sendDiagnostics({ uri, diagnostics }),
      sendMcpEndpoint: (info) => void connection.sendNotification(McpEndpointNotification.type, info),
      ...(options.languageModels
        ? {
            languageModel: async (request) => {
              const source = new CancellationTokenSource();
              request.signal?.addEventListener('abort', () => source.cancel());
              const result = await connection.sendRequest(
                LanguageModelRequest.type,
                { messages: request.messages, maxTokens: request.maxTokens, ...(request.json ? { json: true } : {}) },
                source.token,
              );
              return result.text;
            },
          }
        : {}),
    },
    {
      folders: foldersOf(params),
      open: documents,
      settings: options.settings,
      storagePath: options.storagePath,
      trusted: options.workspaceTrusted !== false,
    },
  );
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      workspaceSymbolProvider: true,
      documentLinkProvider: { resolveProvider: false },
      completionProvider: { triggerCharacters: [':', '/'], resolveProvider: false },
      codeLensProvider: { resolveProvider: false },
      workspace: {
        workspaceFolders: { supported: true, changeNotifications: true },
        textDocumentContent: { schemes: [RESULTS_SCHEME] },
      },
    },
    serverInfo: { name: 'workspace-context', version: SERVER_VERSION },
  };
});

connection.onInitialized(async () => {
  const s = session!;
  const capabilities = connection.client;
  await capabilities
    .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*' }] })
    .catch((error: Error) => log(`[watch] the client cannot watch files for us: ${error.message}`));
  // vscode-languageserver refuses this handler before it knows the client sends the events.
  if (canFollowFolders) connection.workspace.onDidChangeWorkspaceFolders((event) => void followFolders(event));
  if (canPullConfiguration) {
    await capabilities
      .register(DidChangeConfigurationNotification.type, { section: SETTINGS_PREFIX })
      .catch(() => undefined);
    await pullSettings();
  }
  await s.start();
});

async function followFolders(event: WorkspaceFoldersChangeEvent): Promise<void> {
  const s = session;
  if (!s) return;
  const current = s.engine()?.folders ?? [];
  const removed = new Set(event.removed.map((f) => path.resolve(fileURLToPath(f.uri))));
  const folders = [
    ...current.filter((f) => !removed.has(f.absPath)),
    ...event.added.map((f) => ({ name: f.name, absPath: fileURLToPath(f.uri) })),
  ];
  await guard('workspace folders', () => s.setFolders(folders), undefined);
}

async function pullSettings(): Promise<void> {
  try {
    const [settings] = await connection.workspace.getConfiguration([{ section: SETTINGS_PREFIX }]);
    await session?.applySettings(settings ?? {});
  } catch (error) {
    log(`[settings] could not read the client's settings: ${(error as Error).message}`);
  }
}

connection.onDidChangeConfiguration(async (params) => {
  if (canPullConfiguration) return pullSettings();
  const pushed = (params.settings as Record<string, unknown> | undefined)?.[SETTINGS_PREFIX];
  if (pushed !== undefined) await session?.applySettings(pushed);
});

connection.onDidChangeWatchedFiles((params) =>
  guard('file events', () => session?.fileEvents(params.changes), undefined),
);

connection.onHover((params) => guard('hover', () => hover(session!, params), null));
connection.onDefinition((params) => guard('definition', () => definition(session!, params), null));
connection.onReferences((params) => guard('references', () => references(session!, params), null));
connection.onWorkspaceSymbol((params) => guard('workspace symbols', () => workspaceSymbols(session!, params), []));
connection.onDocumentLinks((params) => guard('document links', () => documentLinks(session!, params), []));
connection.onCompletion((params) => guard('completion', () => completion(session!, params), null));
connection.onCodeLens((params) => guard('code lens', () => codeLenses(session!, params), []));

connection.workspace.textDocumentContent.on((params) => {
  const text = session?.results.content(params.uri);
  if (text === null || text === undefined)
    throw new ResponseError(ErrorCodes.InvalidParams, `uri: no results document ${params.uri}; run the search again.`);
  return { text };
});

connection.onRequest(IndexStatusRequest.type, () => session!.status());
connection.onRequest(ReindexRequest.type, () => request('re-index', () => session!.reindex()));
connection.onRequest(SearchRequest.type, (params) => request('search', () => search(session!, params)));
connection.onRequest(OpenResultsRequest.type, (params) =>
  request('results document', () => openResults(session!, params)),
);
connection.onRequest(ChangeContextRequest.type, (params) =>
  request('context for a change', () => changeContext(session!, params)),
);
connection.onRequest(DiagnosticsReportRequest.type, () =>
  request('diagnostics report', () => session!.diagnosticsReport()),
);
connection.onRequest(CallToolRequest.type, (params) => request('call tool', () => callToolRequest(session!, params)));
connection.onRequest(McpEndpointRequest.type, () => session!.mcp.current());
connection.onRequest(RestartMcpEndpointRequest.type, () =>
  request('restart MCP endpoint', () => session!.restartMcp()),
);

connection.onShutdown(async () => {
  await session?.dispose();
});

/** A standard feature's handler: failures are logged and answered with the empty result. */
async function guard<T>(name: string, run: () => Promise<T> | T, fallback: T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    log(`[${name}] ${(error as Error).stack ?? error}`);
    return fallback;
  }
}

/** A custom request's handler: the caller's mistakes pass through; our faults become internal errors. */
async function request<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ResponseError) throw error;
    log(`[${name}] ${(error as Error).stack ?? error}`);
    throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${(error as Error).message}`);
  }
}

/** Workspace folders from `initialize` (the folders, or the root of an old client). */
function foldersOf(params: InitializeParams): WorkspaceFolder[] {
  if (params.workspaceFolders?.length) {
    return params.workspaceFolders.map((f) => ({ name: f.name, absPath: fileURLToPath(f.uri) }));
  }
  if (params.rootUri) {
    const absPath = fileURLToPath(params.rootUri);
    return [{ name: path.basename(absPath), absPath }];
  }
  return [];
}

documents.listen(connection);
connection.listen();
