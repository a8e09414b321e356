/**
 * A real LSP client for the BUILT language server: spawns `node dist/server.js --stdio` and talks
 * JSON-RPC over the child's stdio with vscode-languageserver-protocol's own connection. It answers
 * what a client must (progress tokens, configuration, capability registration) and records what the
 * server pushes (diagnostics, progress, index status, MCP endpoint), so tests can wait for a
 * notification instead of sleeping.
 *
 * `buildServer()` runs `node esbuild.mjs` once per test process, so `npx mocha test/lsp/...` always
 * tests the current sources; under `npm test`, which builds first, it does not build again.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  type Diagnostic,
  type FileEvent,
  type InitializeResult,
  type ProtocolConnection,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';
import { TEST_CONFIG_HOME } from './cli';
import { copyExampleWorkspace } from './tempWorkspace';
import {
  IndexStatusNotification,
  McpEndpointNotification,
  type IndexStatus,
  type InitializationOptions,
  type McpEndpointInfo,
} from '../../shared/protocol';

const ROOT = path.resolve(__dirname, '../..');
export const SERVER = path.join(ROOT, 'dist', 'server.js');

/** Longest wait for a pushed message before a test fails with what it was waiting for. */
const WAIT_LIMIT_MS = 90_000;

// `npm test` builds before the suites and says so (test/npmTest.mjs): building again here, in
// one of two mocha workers, would rewrite dist/ under a program the other one starts.
let built = process.env.WSCTX_TEST_DIST_BUILT === '1';
export function buildServer(): void {
  if (built) return;
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  built = true;
}

export function fileUri(absPath: string): string {
  return pathToFileURL(absPath).href;
}

export type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

export interface LspOptions {
  initializationOptions?: InitializationOptions;
  /** What the client answers to `workspace/configuration` for `workspaceContext`. */
  settings?: Record<string, unknown>;
  /** Extra environment for the server process (`WSCTX_EMBEDDINGS` is `off` unless set here or outside). */
  env?: Record<string, string>;
}

export class LspClient {
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly statuses: IndexStatus[] = [];
  readonly endpoints: McpEndpointInfo[] = [];
  readonly progress: { token: string | number; value: ProgressValue }[] = [];
  readonly logs: string[] = [];
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  initializeResult: InitializeResult | undefined;
  /** What the client answers to `workspace/configuration`; change it, then send didChangeConfiguration. */
  settings: Record<string, unknown> | undefined;
  private readonly waiters = new Set<() => void>();
  private stderr = '';
  private exitCode: number | null | undefined;

  private constructor(
    readonly connection: ProtocolConnection,
    readonly child: ChildProcess,
    readonly workspace: string,
    options: LspOptions,
  ) {
    this.settings = options.settings;
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.once('exit', (code) => {
      this.exitCode = code;
      for (const probe of [...this.waiters]) probe();
    });
    // Progress arrives by token: listen on each token the server asks us to create.
    connection.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      connection.onProgress(WorkDoneProgress.type, token, (value) =>
        this.record(() => this.progress.push({ token, value })),
      );
    });
    connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => this.settings ?? null));
    connection.onRequest(RegistrationRequest.type, (params) => {
      this.registrations.push(
        ...params.registrations.map((r) => ({ method: r.method, registerOptions: r.registerOptions })),
      );
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) =>
      this.record(() => this.diagnostics.set(params.uri, params.diagnostics)),
    );
    connection.onNotification(LogMessageNotification.type, (params) =>
      this.record(() => this.logs.push(params.message)),
    );
    connection.onNotification(IndexStatusNotification.type, (status) => this.record(() => this.statuses.push(status)));
    connection.onNotification(McpEndpointNotification.type, (info) => this.record(() => this.endpoints.push(info)));
    connection.listen();
  }

  /** Spawns the built server on `workspace` (one folder named after its directory) and initializes it. */
  static async start(workspace: string, options: LspOptions = {}): Promise<LspClient> {
    buildServer();
    // Words only unless a test asks otherwise: the model has suites of its own.
    const child = spawn(process.execPath, [SERVER, '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        XDG_CONFIG_HOME: TEST_CONFIG_HOME,
        WSCTX_EMBEDDINGS: process.env.WSCTX_EMBEDDINGS ?? 'off',
        ...options.env,
      },
    });
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    const client = new LspClient(connection, child, workspace, options);
    const exited = client
      .waitFor('the server to exit', () => client.exitCode !== undefined)
      .then(() => {
        throw new Error(`the server exited during initialize:\n${client.stderr}`);
      });
    exited.catch(() => undefined);
    client.initializeResult = await Promise.race([
      exited,
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: fileUri(workspace),
        workspaceFolders: [{ uri: fileUri(workspace), name: path.basename(workspace) }],
        capabilities: {
          window: { workDoneProgress: true },
          workspace: {
            configuration: true,
            didChangeWatchedFiles: { dynamicRegistration: true },
            didChangeConfiguration: { dynamicRegistration: true },
            workspaceFolders: true,
          },
          textDocument: {
            hover: { contentFormat: ['markdown', 'plaintext'] },
            completion: { completionItem: { snippetSupport: false } },
            publishDiagnostics: { relatedInformation: true },
          },
        },
        initializationOptions: options.initializationOptions ?? null,
      }),
    ]);
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Resolves with the first truthy `check()` result, re-checked after every pushed message. */
  waitFor<T>(what: string, check: () => T | undefined | null | false): Promise<T> {
    const first = check();
    if (first) return Promise.resolve(first);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(probe);
        reject(
          new Error(
            `gave up waiting for ${what}; server stderr:\n${this.stderr}\nlogs:\n${this.logs.slice(-20).join('\n')}`,
          ),
        );
      }, WAIT_LIMIT_MS);
      const probe = () => {
        if (this.exitCode !== undefined && what !== 'the server to exit') {
          clearTimeout(timer);
          this.waiters.delete(probe);
          reject(new Error(`the server exited (${this.exitCode}) while waiting for ${what}:\n${this.stderr}`));
          return;
        }
        const value = check();
        if (!value) return;
        clearTimeout(timer);
        this.waiters.delete(probe);
        resolve(value);
      };
      this.waiters.add(probe);
    });
  }

  /** Waits until the index status says ready with no pass running, after `since` statuses. */
  /** The first status since `since` that is ready with the pass's diagnostics published. */
  waitForReady(since = 0): Promise<IndexStatus> {
    return this.waitFor('the index status to say ready', () =>
      this.statuses.slice(since).find((s) => s.phase === 'ready' && !s.updating && !s.publishingDiagnostics),
    );
  }

  uri(rel: string): string {
    return fileUri(path.join(this.workspace, ...rel.split('/')));
  }

  async open(
    rel: string,
    text: string,
    languageId = rel.endsWith('.md') ? 'markdown' : rel.match(/\.ya?ml$/) ? 'yaml' : 'plaintext',
  ): Promise<string> {
    const uri = this.uri(rel);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return uri;
  }

  async fileEvents(changes: FileEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
    try {
      await this.connection.sendRequest(ShutdownRequest.type);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      this.child.kill();
    }
    await exited;
    this.connection.dispose();
  }

  private record(apply: () => void): void {
    apply();
    for (const probe of [...this.waiters]) probe();
  }
}

/**
 * The built server on a fresh copy of examples/fernhill (no git), initialized and indexed: the
 * index status has said ready. Stop it with `stop()`; the copy goes with `removeTempDirs()`.
 */
export async function startOnExample(options: LspOptions = {}): Promise<LspClient> {
  const client = await LspClient.start(copyExampleWorkspace(), options);
  await client.waitForReady();
  return client;
}
