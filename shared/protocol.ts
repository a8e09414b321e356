/**
 * Every custom message between the extension (client) and the language server, in one place both
 * compile against. Standard LSP features (hover, definition, references, workspace symbols,
 * document links, completion, code lens, diagnostics, work-done progress) need nothing here.
 *
 * Conventions: methods are `workspaceContext/<verb>` (shared/ids.ts `LSP_METHOD_PREFIX`); payloads
 * are plain JSON; paths are workspace-relative (`/` separators) and lines 1-based, as the engine
 * prints them, while `uri`/`range` fields follow LSP (file URIs, 0-based positions) so the client
 * can hand them to VS Code unchanged. Requests that fail because of the caller's input answer a
 * JSON-RPC error with code -32602 (InvalidParams) and a message naming the field.
 *
 * Imports only `vscode-jsonrpc` (the import-rules test keeps `shared/` off the LSP packages).
 */
import { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';

// ---------------------------------------------------------------------------------------------
// Shared shapes

/** LSP's position and range (0-based line and UTF-16 character), structurally. */
export interface WirePosition {
  line: number;
  character: number;
}
export interface WireRange {
  start: WirePosition;
  end: WirePosition;
}

/** What the client passes in `initialize`'s `initializationOptions`. */
export interface InitializationOptions {
  /** A folder the server may write caches to (the extension's `storageUri`). */
  storagePath?: string;
  /** `workspace.getConfiguration('workspaceContext')` at start (shared/settings.ts normalises it). */
  settings?: unknown;
  /**
   * False in an untrusted workspace (restricted mode): the MCP endpoint is not started and the
   * index status says why. Default true.
   */
  workspaceTrusted?: boolean;
  /**
   * True when the client can answer {@link LanguageModelRequest} (VS Code's language model API
   * exists). get_context's planner and judge then use the user's chat model. Default false.
   */
  languageModels?: boolean;
}

/** Scheme of the read-only results documents the server renders (`workspace/textDocumentContent`). */
export const RESULTS_SCHEME = 'workspace-context-results';

/** One term of a passage's score (workspace_context's contract's (docs/ARCHITECTURE.md) `why[]`). */
export interface WhyTerm {
  signal: string;
  weight: number;
  raw: number;
  contribution: number;
  detail: string;
  /** For words and title: each question term's weight, share, saturation and fields; raw = sum of share x saturation. */
  terms?: { term: string; weight: number; share: number; saturation: number; fields: string[] }[];
}

// ---------------------------------------------------------------------------------------------
// Index status

export type IndexPhase = 'cold' | 'indexing' | 'ready';

export interface IndexStatusCounts {
  files: number;
  documents: number;
  sections: number;
  entities: number;
  edges: number;
  unresolvedEdges: number;
  problems: number;
  bySourceKind: Record<string, number>;
}

export interface IndexStatus {
  /** `cold` before anything was asked, `indexing` until the first pass is in service, then `ready`. */
  phase: IndexPhase;
  /** True while a pass runs over an index already in service (answers still come from the last one). */
  updating: boolean;
  /**
   * True while the pass in service has its diagnostics computed and published (the index already
   * answers; the status item says ready). Absent otherwise.
   */
  publishingDiagnostics?: boolean;
  indexedAt: string | null;
  /** Names of the workspace folders served. */
  folders: string[];
  counts: IndexStatusCounts | null;
  lastPass: {
    kind: 'full' | 'update';
    filesRead: number;
    filesChanged: number;
    filesRemoved: number;
    durationMs: number;
  } | null;
  lastError: string | null;
  /** What works less well than it could, and why (`scope-unreadable`, `index-failed`, `mcp-disabled`...). */
  degraded: { flag: string; reason: string }[];
  /**
   * Background embedding while it runs: sections done of total and the estimated seconds left,
   * measured from the rate since the model was loaded (null until known); `loadingModel` while the
   * job's first chunk is still waiting for the model to load.
   */
  embedding?: { done: number; total: number; secondsLeft: number | null; loadingModel?: boolean } | null;
  /**
   * Each served folder's documentation files as `wsctx doctor` says them: `summary` is "read N of
   * M documentation files (...); not read: ...", `warnings` the folders that read few of theirs.
   */
  coverage?: { folder: string; files: number; read: number; summary: string; warnings: string[] }[];
}

/** Client -> server: the current index status (the status bar asks once; changes are pushed). */
export namespace IndexStatusRequest {
  export const method = 'workspaceContext/indexStatus';
  export const type = new RequestType0<IndexStatus, void>(method);
}

/** Server -> client: the index status changed (a pass started or finished, a pass failed). */
export namespace IndexStatusNotification {
  export const method = 'workspaceContext/indexStatusChanged';
  export const type = new NotificationType<IndexStatus>(method);
}

/** Client -> server: run a full pass now ("Re-index"); answers when it is in service. */
export namespace ReindexRequest {
  export const method = 'workspaceContext/reindex';
  export const type = new RequestType0<IndexStatus, void>(method);
}

// ---------------------------------------------------------------------------------------------
// Search and results documents

export interface SearchParams {
  question: string;
  /** Passages, 1..50; default the `budgets.contextPassages` setting. */
  limit?: number;
  /** Only these source kinds (catalog_entity, catalog_doc, repo_overview, epic_doc, library). */
  sourceKinds?: string[];
  /** Each passage's whole text too (`SearchPassage.text`), for the results view. Default false. */
  withText?: boolean;
}

export interface SearchPassage {
  /** Printed section id (8 hex characters). */
  id: string;
  documentId: string;
  title: string;
  headingPath: string[];
  /** `Title › Heading › Sub-heading`, ready for a QuickPick label. */
  label: string;
  sourceKind: string;
  path: string;
  startLine: number;
  endLine: number;
  /** `file:` URI with `#Lstart-Lend`. */
  uri: string;
  score: number;
  /** Up to three terms with the largest contributions, largest first. */
  leadingWhy: WhyTerm[];
  why: WhyTerm[];
  /** The passage's first words, whitespace collapsed (at most 160 characters). */
  preview: string;
  /** Expired page, conflicts with other pages: one sentence each (the label starts with `[expired]` / `[conflict]`). */
  markers?: string[];
  /** The passage's whole text (Markdown as written in the workspace), when the request asked `withText`. */
  text?: string;
}

export interface SearchResult {
  question: string;
  passages: SearchPassage[];
  contractVersion: string;
  indexedAt: string | null;
  degraded: string[];
  notice?: string;
}

/** Client -> server: ranked passages for a question (the command palette's live search). */
export namespace SearchRequest {
  export const method = 'workspaceContext/search';
  export const type = new RequestType<SearchParams, SearchResult, void>(method);
}

export interface ResultsDocumentInfo {
  /** `workspace-context-results:` URI; its text comes from `workspace/textDocumentContent`. */
  uri: string;
  title: string;
  passages: number;
}

/**
 * Client -> server: render a `workspace_context` answer as a read-only document and return its
 * URI; the client opens it, and hovers on a passage in it show the passage's `why[]` table.
 */
export namespace OpenResultsRequest {
  export const method = 'workspaceContext/openResults';
  export const type = new RequestType<SearchParams, ResultsDocumentInfo, void>(method);
}

// ---------------------------------------------------------------------------------------------
// Context for a change

export interface ChangeContextParams {
  /** `workingTree`: staged and unstaged changes against HEAD, with untracked files; `staged`: the index against HEAD. */
  which: 'workingTree' | 'staged';
  /** A revision range instead (`main...HEAD`); `which` is then ignored. */
  range?: string;
  /** What the user is about to do with the change, searched beside it. */
  task?: string;
  /** The budget, 1,000..30,000; default the `budgets.getContextMaxTokens` setting. */
  maxTokens?: number;
}

export interface ChangeContextResult extends ResultsDocumentInfo {
  /** What git compared ("the working tree against HEAD"). */
  compared: string;
  /** Changed files. */
  files: number;
  /** Refs of the entities owning the change, most changed files first. */
  entities: string[];
  /** Changed paths no entity owns. */
  unowned: string[];
  /** Every item of the bundle with its reason (owns, depends-on-changed, runbook, doc, rule-applies, epic, expectation). */
  items: { reason: string; label: string; path?: string; sent: boolean }[];
  /** The bundle's Markdown (the results document's text). */
  markdown: string;
}

/**
 * Client -> server: `get_context` for the change git shows in the served repositories (the
 * Source Control view's "Context for my change", `@context /change`); the bundle is kept as a
 * results document the client opens. Answers InvalidParams when git shows no change.
 */
export namespace ChangeContextRequest {
  export const method = 'workspaceContext/changeContext';
  export const type = new RequestType<ChangeContextParams, ChangeContextResult, void>(method);
}

// ---------------------------------------------------------------------------------------------
// Diagnostics report

export type ReportSeverity = 'error' | 'warning' | 'info';

export interface DiagnosticsReportItem {
  uri: string;
  path: string;
  range: WireRange;
  severity: ReportSeverity;
  code: string;
  message: string;
  /** Which diagnostics source produced it (`problems`, `unresolved-refs`, `expired-pages`...). */
  source: string;
  related: { uri: string; path: string; range: WireRange; message: string }[];
}

export interface DiagnosticsReport {
  generatedAt: string;
  indexedAt: string | null;
  total: number;
  bySeverity: Record<ReportSeverity, number>;
  byCode: Record<string, number>;
  /** Sorted by path, line, code. */
  items: DiagnosticsReportItem[];
}

/** Client -> server: every diagnostic in the workspace at once ("Show diagnostics"). */
export namespace DiagnosticsReportRequest {
  export const method = 'workspaceContext/diagnosticsReport';
  export const type = new RequestType0<DiagnosticsReport, void>(method);
}

// ---------------------------------------------------------------------------------------------
// Tools

export interface CallToolParams {
  /** A tool of the shared table: workspace_context, workspace_expand, get_toc, get_section... */
  name: string;
  /** The tool's input; `workspace` defaults to the first folder served. */
  arguments?: Record<string, unknown>;
}

export interface CallToolResult {
  name: string;
  /** The tool's structured output (its MCP `structuredContent`). */
  output: Record<string, unknown>;
  /** Its readable rendering (its MCP text content). */
  text: string;
}

/** Client -> server: call a tool on the server's index (chat participant, expand, table of contents). */
export namespace CallToolRequest {
  export const method = 'workspaceContext/callTool';
  export const type = new RequestType<CallToolParams, CallToolResult, void>(method);
}

// ---------------------------------------------------------------------------------------------
// Language models

export interface LanguageModelParams {
  /** System text first, then the conversation (the client folds `system` into the first user turn). */
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  /** Most tokens the answer may take. */
  maxTokens: number;
  /** True when the prompt asks for a JSON object. */
  json?: boolean;
}

export interface LanguageModelResult {
  /** The answer's text. */
  text: string;
  /** The model that answered (`vendor/family`), for the activity log. */
  model: string;
}

/**
 * Server -> client: complete a chat with the user's language model (VS Code's `vscode.lm`), for
 * get_context's model-backed steps. Fails when no model is available or the user declined; the
 * step then uses its heuristic.
 */
export namespace LanguageModelRequest {
  export const method = 'workspaceContext/languageModel';
  export const type = new RequestType<LanguageModelParams, LanguageModelResult, void>(method);
}

// ---------------------------------------------------------------------------------------------
// MCP endpoint

export type McpEndpointState = 'starting' | 'running' | 'stopped' | 'disabled' | 'failed';

export interface McpEndpointInfo {
  state: McpEndpointState;
  /** `http://127.0.0.1:<port>/mcp` while running. */
  url: string | null;
  /** Bearer token for `Authorization: Bearer <token>` while running. */
  token: string | null;
  /** Why it is disabled, stopped or failed. */
  reason: string | null;
  /** Name the MCP server gives itself (`workspace-context`). */
  serverName: string;
}

/** Client -> server: where the MCP endpoint is (the MCP server definition provider asks). */
export namespace McpEndpointRequest {
  export const method = 'workspaceContext/mcpEndpoint';
  export const type = new RequestType0<McpEndpointInfo, void>(method);
}

/** Client -> server: stop and start the MCP endpoint (new port and token); answers the new state. */
export namespace RestartMcpEndpointRequest {
  export const method = 'workspaceContext/restartMcpEndpoint';
  export const type = new RequestType0<McpEndpointInfo, void>(method);
}

/** Server -> client: the MCP endpoint started, stopped, moved or failed; update the definition. */
export namespace McpEndpointNotification {
  export const method = 'workspaceContext/mcpEndpointChanged';
  export const type = new NotificationType<McpEndpointInfo>(method);
}

// ---------------------------------------------------------------------------------------------
// Commands the server puts in hovers and code lenses (`command:` links); the client registers them.

export interface ExpandEntityArgs {
  entityRef: string;
  direction: 'out' | 'in' | 'both';
  depth: number;
  /** Relation types to follow (Backstage's names); all when absent. */
  edgeTypes?: string[];
}

/**
 * An entity's documents, each by its workspace-relative path (never a URI: the command is
 * trusted, and opens only a path inside a served folder; client/src/commandArgs.ts checks).
 */
export interface ShowEntityDocsArgs {
  entityRef: string;
  docs: { title: string; path: string; sourceKind: string }[];
}

export namespace ClientCommands {
  /** Args `[ExpandEntityArgs]`: run `workspace_expand` (via CallToolRequest) and show the walk. */
  export const expandEntity = 'workspaceContext.expandEntity';
  /** Args `[ShowEntityDocsArgs]`: pick one of an entity's documents and open it. */
  export const showEntityDocs = 'workspaceContext.showEntityDocs';
}
