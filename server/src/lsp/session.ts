/**
 * One language-server session: the editor's only engine and everything that lives as long as it
 * (mention index, results documents, MCP endpoint, published diagnostics), plus the index passes
 * the server starts (on start, on file events, on "Re-index") with their progress and status.
 *
 * The session never touches the connection: main.ts hands it a `SessionHost` of plain callbacks.
 */
import { mkdir } from 'node:fs/promises';
import type { Diagnostic, FileEvent } from 'vscode-languageserver';
import type { DiagnosticsReport, IndexStatus, McpEndpointInfo } from '../../../shared/protocol';
import { normalizeSettings, type WorkspaceContextSettings } from '../../../shared/settings';
import { withoutUserOnlySettings } from '../config/trust';
import { overUserConfig, readUserConfig, userConfigPath } from '../config/userConfig';
import { formatConfigProblem, layerSettings, readWorkspaceConfig } from '../config/workspaceConfig';
import { Engine, type IndexState, type WorkspaceFolder, MentionIndex, syntaxStatus } from '../engine';
import { checkNotesFolder, PrivateNotes } from '../library/context/privateNotes';
import { prepareLibraryOnChange } from '../library/context/preparedLibrary';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FlagSource } from '../library/view/conflicts';
import type { FeatureContext } from './features/context';
import { collectDiagnostics, diagnosticInput, diagnosticsReport, type DiagnosticInput } from './features/diagnostics';
import { DiagnosticsPublisher } from './features/diagnosticsPublisher';
import { expectationDiagnostics } from './features/expectationDiagnostics';
import { DocumentStore, type OpenDocuments } from './features/documents';
import { routeFileEvents } from './features/fileEvents';
import { indexStatus } from './features/indexStatus';
import { McpEndpoint } from './features/mcpEndpoint';
import {
  describePassProgress,
  describeState,
  EmbeddingProgress,
  IndexProgress,
  type ProgressChannel,
} from './features/progress';
import { ResultsStore } from './features/resultsDocument';
import { DelegatingModelProvider } from '../library/models/delegatingProvider';
import type { CompletionRequest } from '../library/models/modelProvider';
import { embeddingSettingsFrom, engineSettingsFrom, needsNewEngine } from './settingsReader';
import { createServices, type Services } from '../services/services';

export interface SessionHost {
  log(message: string): void;
  /** Work-done progress, when the client can show it. */
  progress?: ProgressChannel;
  sendIndexStatus(status: IndexStatus): void;
  publishDiagnostics(uri: string, diagnostics: Diagnostic[]): void;
  sendMcpEndpoint(info: McpEndpointInfo): void;
  /**
   * Completes a chat with the user's language model through the client; undefined when the
   * client has none to offer (get_context's model steps then use their heuristics).
   */
  languageModel?: (request: CompletionRequest) => Promise<string>;
}

export interface SessionOptions {
  folders: WorkspaceFolder[];
  open: OpenDocuments;
  /** Settings as the client sent them (normalised here). */
  settings?: unknown;
  /** A folder for caches (the extension's storage); created when missing. */
  storagePath?: string;
  /** False in an untrusted workspace: no MCP endpoint. */
  trusted: boolean;
}

export const RESTRICTED_REASON = 'The workspace is not trusted (restricted mode), so the MCP endpoint is not started.';
export const MCP_SETTING_OFF_REASON = 'Turned off by the workspaceContext.mcp.http.enabled setting.';
/** Saves come in bursts: a new state's per-state structures are built once the index is quiet this long (ms). */
const PREPARE_AFTER_QUIET_MS = 2_000;

export class LanguageSession implements FeatureContext {
  readonly documents: DocumentStore;
  readonly results = new ResultsStore();
  readonly mcp: McpEndpoint;
  readonly storagePath: string | undefined;
  private folders: WorkspaceFolder[];
  private current: WorkspaceContextSettings;
  private readonly trusted: boolean;
  private engineRef: Engine | undefined;
  /** The engine's services, built with it (createEngine). */
  private servicesRef: Services | undefined;
  private mentionIndex: MentionIndex | undefined;
  private unsubscribe: (() => void) | undefined;
  private busy = 0;
  /** Passes in service whose diagnostics are still being computed and published. */
  private diagnosticsPending = 0;
  private started = false;
  private afterState: Promise<void> = Promise.resolve();
  private readonly diagnostics: DiagnosticsPublisher;
  private readonly progress: IndexProgress;
  private readonly embeddingProgress: EmbeddingProgress;

  constructor(
    private readonly host: SessionHost,
    options: SessionOptions,
  ) {
    this.folders = options.folders;
    this.trusted = options.trusted;
    this.storagePath = options.storagePath;
    this.current = this.layered(options.settings, (m) => host.log(m));
    this.documents = new DocumentStore(options.open, () => this.folders);
    this.diagnostics = new DiagnosticsPublisher(
      (uri, diagnostics) => host.publishDiagnostics(uri, diagnostics),
      this.documents,
      (m) => host.log(m),
    );
    this.progress = new IndexProgress(host.progress);
    this.embeddingProgress = new EmbeddingProgress(this.progress);
    this.mcp = new McpEndpoint({
      log: (m) => host.log(m),
      onChange: (info) => {
        host.sendMcpEndpoint(info);
        this.sendStatus();
      },
    });
    this.createEngine();
  }

  /**
   * The editor's settings over the workspace's `.wsctx.yaml` (server/src/config/workspaceConfig.ts)
   * over the user's own configuration file (config/userConfig.ts): a VS Code setting left at its
   * default lets the files decide. What the workspace's file may not choose (config/trust.ts:
   * embeddings endpoints, the private notes folder) is left out, in restricted mode or not, with
   * a warning. Problems of each are logged.
   */
  private layered(raw: unknown, log: (message: string) => void): WorkspaceContextSettings {
    const normalized = normalizeSettings(raw);
    for (const problem of normalized.problems) log(`[settings] ${problem}`);
    const root = this.folders[0]?.absPath;
    const user = readUserConfig();
    const { config, refused } = withoutUserOnlySettings(
      root ? readWorkspaceConfig(root) : { path: null, values: {}, problems: [] },
      userConfigPath(),
    );
    for (const problem of [...user.problems, ...config.problems]) log(`[settings] ${formatConfigProblem(problem)}`);
    for (const warning of refused) log(`[settings] warning: ${formatConfigProblem(warning)}`);
    return layerSettings(overUserConfig(user, config), normalized.settings);
  }

  // FeatureContext --------------------------------------------------------------------------

  engine(): Engine | undefined {
    return this.engineRef;
  }

  services(): Services | undefined {
    return this.servicesRef;
  }

  state(): IndexState | undefined {
    return this.engineRef?.current();
  }

  settings(): WorkspaceContextSettings {
    return this.current;
  }

  mentions(): MentionIndex | undefined {
    return this.mentionIndex;
  }

  log(message: string): void {
    this.host.log(message);
  }

  // Lifecycle -------------------------------------------------------------------------------

  /** Starts the MCP endpoint and the first index pass; resolves when the index is in service. */
  async start(): Promise<void> {
    this.started = true;
    if (this.storagePath)
      await mkdir(this.storagePath, { recursive: true }).catch((e) =>
        this.log(`[storage] ${this.storagePath}: ${(e as Error).message}`),
      );
    void this.startMcp();
    await this.indexAll(`Indexing ${this.folderNames()}`);
  }

  status(): IndexStatus {
    const degraded: { flag: string; reason: string }[] = [];
    if (!this.trusted) degraded.push({ flag: 'restricted-mode', reason: RESTRICTED_REASON });
    const mcp = this.mcp.current();
    if (mcp.state === 'failed') degraded.push({ flag: 'mcp-failed', reason: mcp.reason ?? 'The MCP endpoint failed.' });
    else if (mcp.state === 'disabled' && this.trusted)
      degraded.push({ flag: 'mcp-disabled', reason: mcp.reason ?? 'The MCP endpoint is off.' });
    const syntax = syntaxStatus();
    if (syntax.backend === 'plain' && syntax.reason)
      degraded.push({
        flag: 'syntax-plain',
        reason: `Comments and strings in source files are found by a plain scanner: ${syntax.reason}`,
      });
    if (this.engineRef?.status().fromSnapshot)
      degraded.push({
        flag: 'index-stale',
        reason: 'Answers come from the index saved at the last run while the first pass checks what changed since.',
      });
    const missing = this.engineRef?.status().missingFolders ?? [];
    if (missing.length > 0)
      degraded.push({
        flag: 'workspace-missing',
        reason: `Folder(s) ${missing.join(', ')} are gone; answers come from the last index until they are back.`,
      });
    return indexStatus(this.engineRef, {
      updating: this.busy > 0,
      publishingDiagnostics: this.diagnosticsPending > 0,
      degraded,
    });
  }

  /** A full pass now ("Re-index"); answers the status once it is in service. */
  async reindex(): Promise<IndexStatus> {
    const engine = this.engineRef;
    this.mentionIndex?.invalidate();
    if (engine) await this.runPass(`Re-indexing ${this.folderNames()}`, () => engine.reindex());
    return this.status();
  }

  /** `workspace/didChangeWatchedFiles`: the engine updates what it indexes; mentions are re-read. */
  async fileEvents(changes: readonly FileEvent[]): Promise<void> {
    const engine = this.engineRef;
    if (!engine) return;
    const routed = routeFileEvents(changes, this.documents, engine.current());
    if (routed.inWorkspace) this.mentionIndex?.invalidate();
    if (routed.enginePaths.length === 0) return;
    const n = routed.enginePaths.length;
    await this.runPass(`Updating ${n} changed ${n === 1 ? 'file' : 'files'}`, () => engine.update(routed.enginePaths));
  }

  /** New settings (`workspace/configuration`): a new engine when sources changed; the endpoint follows its switch. */
  async applySettings(raw: unknown): Promise<void> {
    const before = this.current;
    this.current = this.layered(raw, (m) => this.log(m));
    // Before start() the new settings only shape what start() will run.
    if (!this.started) {
      if (needsNewEngine(before, this.current)) this.createEngine();
      else if (this.engineRef) this.servicesRef = this.servicesFor(this.engineRef);
      return;
    }
    if (needsNewEngine(before, this.current)) {
      this.log('[settings] source globs changed; re-indexing with a new engine');
      await this.replaceEngine();
      return;
    }
    const engine = this.engineRef;
    const userChanged =
      before.privateNotes.folder !== this.current.privateNotes.folder ||
      before.organization !== this.current.organization;
    // The same engine with new services: the MCP endpoint is restarted so it serves them.
    if (engine && userChanged) this.servicesRef = this.servicesFor(engine);
    if (userChanged || before.mcp.http.enabled !== this.current.mcp.http.enabled) await this.startMcp();
  }

  /** Workspace folders added or removed: a new engine over the new set. */
  async setFolders(folders: WorkspaceFolder[]): Promise<void> {
    this.folders = folders;
    await this.replaceEngine();
  }

  restartMcp(): Promise<McpEndpointInfo> {
    return this.startMcp();
  }

  async diagnosticsReport(): Promise<DiagnosticsReport> {
    const state = this.state();
    if (!state) {
      return {
        generatedAt: new Date().toISOString(),
        indexedAt: null,
        total: 0,
        bySeverity: { error: 0, warning: 0, info: 0 },
        byCode: {},
        items: [],
      };
    }
    const input = this.diagnosticInputOf(state);
    return diagnosticsReport(state, await collectDiagnostics(input), input, this.documents);
  }

  async dispose(): Promise<void> {
    this.unsubscribe?.();
    this.engineRef?.dispose();
    await this.mcp.stop('The language server is shutting down.');
  }

  // Internals -------------------------------------------------------------------------------

  private createEngine(): void {
    this.unsubscribe?.();
    this.engineRef?.dispose();
    this.engineRef = undefined;
    this.servicesRef = undefined;
    this.mentionIndex = undefined;
    if (this.folders.length === 0) return;
    const settings = engineSettingsFrom(this.current);
    // Restricted mode: nothing from the workspace runs, git included (a repository's own config
    // can make git execute programs), so git facts are left out.
    const create = (cacheDir: string | undefined) =>
      new Engine({
        folders: this.folders,
        settings: { ...settings, useGit: this.trusted },
        cacheDir,
        embeddings: embeddingSettingsFrom(this.current),
        vectorBackend: this.current.vectorIndex,
        log: (m) => this.log(m),
      });
    let engine: Engine;
    try {
      engine = create(this.storagePath);
    } catch (error) {
      // A storage folder that cannot be trusted (another user's) costs the warm start, not the server.
      this.log(`[storage] ${(error as Error).message}; running without a cache`);
      engine = create(undefined);
    }
    this.engineRef = engine;
    this.servicesRef = this.servicesFor(engine);
    this.mentionIndex = new MentionIndex(engine.folders, {
      sourceGlobs: settings.globs,
      maxFileSize: engine.settings.maxFileSize,
    });
    const unsubscribeState = engine.onDidChangeState((state) => {
      if (engine !== this.engineRef) return;
      this.mentionIndex?.invalidate();
      this.afterState = this.afterState.then(() => this.publishDiagnostics(state)).then(() => this.sendStatus());
    });
    let lastMeaningStatus = 0;
    let lastPhase: string | undefined;
    const unsubscribeMeaning = engine.onDidChangeMeaning(() => {
      if (engine !== this.engineRef) return;
      const meaning = engine.status().meaning;
      this.embeddingProgress.update(meaning);
      // The status item's "Embedding n of N": at most every 2 s, and always when the phase
      // changes (loading the model, embedding, done).
      const phase = !meaning?.embedding ? 'done' : meaning.embedding.loadingModel ? 'loading' : 'embedding';
      if (phase !== lastPhase || Date.now() - lastMeaningStatus > 2000) {
        lastPhase = phase;
        lastMeaningStatus = Date.now();
        this.sendStatus();
      }
    });
    // Each new state's library view, flags, context index and ranking tables, built before a call needs them.
    const stopPreparing = prepareLibraryOnChange(engine, () => this.servicesRef?.now() ?? new Date(), {
      log: (m) => this.log(m),
      quietMs: PREPARE_AFTER_QUIET_MS,
    });
    this.unsubscribe = () => {
      unsubscribeState();
      unsubscribeMeaning();
      stopPreparing();
      this.embeddingProgress.update(null);
    };
  }

  /**
   * get_context's model steps (the planner and the judge, one call each per request) use the
   * user's chat model through the client when it offers one, with the judge mode from the
   * settings; otherwise their heuristics. The background enrichment is not run on the user's chat
   * model: it would spend their quota on hundreds of calls nobody asked for (the CLI runs it
   * against an endpoint configured for it).
   */
  private servicesFor(engine: Engine): Services {
    const send = this.host.languageModel;
    const notes = this.privateNotesFor(engine);
    return createServices({
      engine,
      judgeMode: this.current.judge.mode,
      ...(send && this.trusted ? { models: new DelegatingModelProvider('vscode-lm', send) } : {}),
      ...(this.current.organization !== '' ? { organization: this.current.organization } : {}),
      ...(notes ? { privateNotes: notes } : {}),
    });
  }

  /**
   * The user's private notes (`privateNotes.folder`): `~/` is the home folder, a relative path is
   * read from the first workspace folder; refused (and logged) inside the workspace. Every
   * connection of this server is the user's own (the editor and its loopback MCP endpoint, whose
   * token only this editor holds). Never in an untrusted workspace: the setting could come from it.
   */
  private privateNotesFor(engine: Engine): PrivateNotes | undefined {
    const configured = this.current.privateNotes.folder;
    if (configured === '') return undefined;
    if (!this.trusted) {
      this.log('[settings] workspaceContext.privateNotes.folder is ignored in an untrusted workspace');
      return undefined;
    }
    const expanded =
      configured === '~'
        ? os.homedir()
        : configured.startsWith('~/')
          ? path.join(os.homedir(), configured.slice(2))
          : configured;
    try {
      const dir = checkNotesFolder(
        path.resolve(engine.folders[0].absPath, expanded),
        engine.folders.map((f) => f.absPath),
        'workspaceContext.privateNotes.folder',
      );
      return new PrivateNotes({ dir, isOwnConnection: () => true });
    } catch (error) {
      this.log(`[settings] ${(error as Error).message}; private notes are off`);
      return undefined;
    }
  }

  private async replaceEngine(): Promise<void> {
    this.createEngine();
    void this.startMcp();
    await this.indexAll(`Indexing ${this.folderNames()}`);
  }

  private startMcp(): Promise<McpEndpointInfo> {
    const reason = !this.trusted ? RESTRICTED_REASON : !this.current.mcp.http.enabled ? MCP_SETTING_OFF_REASON : null;
    return this.mcp.start(this.servicesRef, reason);
  }

  private async indexAll(message: string): Promise<void> {
    const engine = this.engineRef;
    if (!engine) {
      this.sendStatus();
      return;
    }
    await this.runPass(message, () => engine.waitForIndex());
  }

  /**
   * Runs a pass with progress. Status goes out before; then, as soon as the pass is in service
   * (hovers and answers already come from it), ready with `publishingDiagnostics`; then ready
   * once its diagnostics are published. The status item says ready at the first: computing the
   * diagnostics (every file's refs) takes seconds on a loaded machine, and it is not indexing.
   */
  private async runPass(message: string, pass: () => Promise<unknown>): Promise<void> {
    this.busy++;
    this.sendStatus();
    const handle = await this.progress.begin(message);
    const unsubscribe = this.engineRef?.onDidProgress((progress) => handle.report(describePassProgress(progress)));
    try {
      await pass();
    } catch (error) {
      this.log(`[index] ${message} failed: ${(error as Error).message}`);
    } finally {
      unsubscribe?.();
      this.busy--;
      this.diagnosticsPending++;
      const state = this.state();
      const failed = this.engineRef?.status().lastError;
      handle.end(failed ? `Indexing failed: ${failed}` : state ? `Indexed ${describeState(state)}` : undefined);
      this.sendStatus();
      await this.afterState;
      this.diagnosticsPending--;
      this.sendStatus();
    }
  }

  private sendStatus(): void {
    this.host.sendIndexStatus(this.status());
  }

  /** What the diagnostic sources read: the state, the saved files, and the services that run the expectations. */
  private diagnosticInputOf(state: IndexState): DiagnosticInput {
    const input = diagnosticInput(state, this.documents, new Date(), this.flagSources());
    const services = this.servicesRef;
    if (services) input.expectations = () => expectationDiagnostics(services, state);
    return input;
  }

  /** The pass's diagnostics now; the expectations' when their questions are answered (diagnosticsPublisher.ts). */
  private async publishDiagnostics(state: IndexState): Promise<void> {
    try {
      await this.diagnostics.publishPass(this.diagnosticInputOf(state));
    } catch (error) {
      this.log(`[diagnostics] ${(error as Error).stack ?? error}`);
    }
  }

  /** The model's conflict flags, when the services run the check. */
  private flagSources(): FlagSource[] {
    const check = this.servicesRef?.conflictCheck;
    return check ? [check] : [];
  }

  private folderNames(): string {
    return this.folders.map((f) => f.name).join(', ');
  }
}
