/**
 * The engine: one index over the served workspace folders, kept complete and fresh.
 *
 * - Passes run one at a time. File changes queue up while a pass runs and while more keep
 *   arriving (debounced), then apply as one pass: a storm of events costs one update.
 * - Readers always get the last complete state (`current()`), never a state being built.
 * - The first question on an empty index starts indexing and is answered at once, flagged cold
 *   (docs/ARCHITECTURE.md, workspace_context's contract); a question on a state older than `refreshAfterMs` starts a background refresh.
 */
import * as path from 'node:path';
import type { IndexState, WorkspaceFolder } from './indexState';
import type { AsOfState } from './indexing/asOfIndex';
import { Indexer, type PassProgress, type PassReport } from './indexing/indexer';
import type { EarlyStatuses } from './indexing/gitChanges';
import { readIndexSnapshot, snapshotFileFor, vectorIndexFileFor, writeIndexSnapshot } from './indexSnapshotFile';
import { FolderPresence } from './workspace/folderPresence';
import { findServedFolder } from './servedFolder';
import type { SourceGlobs } from './workspace/globs';
import { assertCacheOutside, prepareCacheFolder } from './persistence/snapshotFile';
import { stateMeaningSource, unembeddedMeaningSource, UNEMBEDDED_QUESTION } from './meaning/stateMeaning';
import { meaningRaw } from './ranking/contract';
import type { MeaningSource } from './ranking/workspaceContextRanker';
import { folderScopedState } from './ranking/folderScope';
import { statisticsOf, type QuestionStatistics } from './ranking/questionStatistics';
import {
  createEmbedder,
  DEFAULT_EMBEDDING_SETTINGS,
  type Embedder,
  type EmbeddingSettings,
} from './embeddings/embedder';
import { VectorCache } from './embeddings/vectorCache';
import type { VectorBackendChoice } from './vector/vectorIndex';
import { SectionVectors } from './meaning/sectionVectors';
import { TextSimilarity } from './meaning/textSimilarity';
import { resolveEngineSettings, type EngineSettings } from './settings';
import type { MeaningRows } from './meaning/meaningRows';
import type { AsOfAnswer, EngineStatus, StateListener, WorkspaceIndex } from './workspaceIndex';

export type { AsOfAnswer, EnginePhase, EngineStatus, StateListener } from './workspaceIndex';

export interface EngineOptions {
  folders: readonly WorkspaceFolder[];
  settings?: Partial<EngineSettings>;
  /**
   * Folder for the index snapshot (and, later, vectors). Undefined: no snapshot is read or
   * written. The CLI passes a cache folder, the language server the extension's storage folder.
   */
  cacheDir?: string;
  /**
   * Embeddings (engine/embeddings). Default off for a bare engine: hosts turn the local model on
   * (the CLI and the language server do, unless told otherwise). Vectors are cached on disk in
   * `cacheDir/vectors` when a cache folder is given.
   */
  embeddings?: Partial<EmbeddingSettings>;
  /**
   * Embed sections without vectors in the background after each pass. Default true. One-shot
   * commands pass false: they answer with the vectors the cache holds (on words where there are
   * none) and never wait for, or start, a long embedding job; `embedPendingMeaning` embeds.
   */
  embedInBackground?: boolean;
  /**
   * The section vectors' index: `auto` (default) and `hnsw` the built-in HNSW graph over the int8
   * store (the vectors held once); `hnswlib` hnswlib-node (its own float32 copy besides; fails to
   * build where the addon does not load); `exact` always scans (the reference a store's exact
   * path is compared with).
   */
  vectorBackend?: VectorBackendChoice;
  /** Diagnostics go here (stderr in the CLI and stdio MCP server, the output channel in the editor). */
  log?: (message: string) => void;
  /**
   * Points in a restore a test waits at, to change files at a known moment. `afterEarlyStatuses`
   * runs once git answered about the snapshot's repositories and before the snapshot is decoded.
   */
  restoreHooks?: { afterEarlyStatuses?: () => void | Promise<void> };
}

export type { MeaningRows } from './meaning/meaningRows';
export { snapshotFileFor } from './indexSnapshotFile';

/** `asOf` states kept in memory. */
const AS_OF_CACHE_SIZE = 3;

export class Engine implements WorkspaceIndex {
  readonly folders: readonly WorkspaceFolder[];
  readonly settings: EngineSettings;
  private readonly log: (message: string) => void;
  private readonly indexer: Indexer;
  private state: IndexState | undefined;
  private running: Promise<void> | undefined;
  private pendingPaths = new Set<string>();
  private pendingFull = false;
  private debounce: NodeJS.Timeout | undefined;
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private readonly listeners = new Set<StateListener>();
  private lastPass: PassReport | null = null;
  private lastError: string | null = null;
  private lastFullAt = 0;
  private readonly snapshotPath: string | undefined;
  private readonly presence: FolderPresence;
  private restoreTried = false;
  /**
   * The statuses git was asked for while the snapshot was decoded (indexing/gitChanges.ts
   * `startEarlyStatuses`), for the first pass after the restore and no other: a later pass would
   * miss the file events the passes between consumed.
   */
  private earlyStatuses: EarlyStatuses | undefined;
  private readonly restoreHooks: EngineOptions['restoreHooks'];
  /** A snapshot was restored and no pass has run since: the next full pass may ask git instead. */
  private warmPending = false;
  private fromSnapshot = false;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private readonly embedder: Embedder | null;
  private readonly vectors: SectionVectors | undefined;
  private oneShot = false;
  private meaningJob: Promise<void> = Promise.resolve();
  /** The short texts embedded beside the sections (get_context's phrasings); set by the services. */
  private phrasingSource: ((state: IndexState) => readonly string[]) | undefined;
  private readonly asOfCache = new Map<string, Promise<AsOfState>>();
  private disposed = false;

  constructor(options: EngineOptions) {
    if (options.folders.length === 0) throw new Error('Engine: at least one workspace folder is required');
    this.folders = options.folders.map((f) => ({ name: f.name, absPath: path.resolve(f.absPath) }));
    this.settings = resolveEngineSettings(options.settings);
    this.log = options.log ?? (() => undefined);
    this.restoreHooks = options.restoreHooks;
    this.indexer = new Indexer(this.folders, this.settings);
    // Past the source globs' budget (workspace/globBudget.ts): a file's were refused with their
    // line already (config/workspaceConfig.ts); what is left came from the host's settings.
    for (const refused of this.indexer.refusedGlobs)
      this.log(`[settings] sources.${refused.key}: ${JSON.stringify(refused.glob)} is not matched: ${refused.reason}`);
    this.presence = new FolderPresence(this.folders, this.settings.folderPollMs, () => {
      this.log('[index] every served folder is back; indexing again');
      this.requestFull(0);
    });
    this.indexer.onProgress = (progress) => {
      for (const listener of this.progressListeners) listener(progress);
    };
    if (options.cacheDir) {
      assertCacheOutside(options.cacheDir, this.folders);
      prepareCacheFolder(options.cacheDir);
    }
    this.snapshotPath = options.cacheDir ? snapshotFileFor(options.cacheDir, this.folders) : undefined;
    const embeddings: EmbeddingSettings = {
      ...DEFAULT_EMBEDDING_SETTINGS,
      provider: 'off',
      ...stripUndefined(options.embeddings ?? {}),
    };
    this.embedder = createEmbedder(embeddings, {
      log: this.log,
      modelCacheDir: options.cacheDir ? path.join(options.cacheDir, 'models') : undefined,
    });
    if (this.embedder) {
      const cache = options.cacheDir
        ? VectorCache.open({ dir: path.join(options.cacheDir, 'vectors'), modelId: this.embedder.id, log: this.log })
        : null;
      this.vectors = new SectionVectors(
        this.embedder,
        cache,
        this.log,
        options.embedInBackground ?? true,
        options.vectorBackend,
      );
      this.oneShot = options.embedInBackground === false;
      // get_context compares tasks with Good-for phrasings and section questions by meaning too.
      this.textMeaning = new TextSimilarity(this.embedder, cache, (text) => this.embedQueryWithModel(text), this.log);
    }
  }

  /**
   * Phrase similarity from the engine's embedder and vector cache (get_context's Good-for
   * phrasings and section questions); undefined when embeddings are off. The host hands it to
   * get_context through its services (services/services.ts).
   */
  readonly textMeaning: TextSimilarity | undefined;

  /**
   * Names the short texts to embed with the index beside the sections (services/services.ts gives
   * get_context's phrasings), so no request embeds them lazily; prepares them for the state in
   * service at once.
   */
  setPhrasingSource(source: (state: IndexState) => readonly string[]): void {
    this.phrasingSource = source;
    const state = this.state;
    const meaning = this.textMeaning;
    if (!state || !meaning || this.oneShot) return;
    this.meaningJob = this.meaningJob
      .then(() => meaning.prepare(source(state)))
      .catch((error) => this.log(`[meaning] ${(error as Error).message}`));
  }

  /** The in-memory index answers every question from the whole index (WorkspaceIndex). */
  readonly holdsWholeIndex: boolean = true;

  /** True when the engine embeds (sections and questions have vectors, or will). */
  get hasMeaning(): boolean {
    return this.vectors !== undefined;
  }

  /**
   * The meaning signal of the library tools: for each of `sectionIds` that has a vector, the
   * question's similarity to it on the ranking contract's 0..1 scale. Null when embeddings are
   * off, the question cannot be embedded, or there is no state yet; sections without a vector
   * are left out of the map.
   */
  async sectionMeaning(question: string, sectionIds: readonly string[]): Promise<Map<string, number> | null> {
    const vectors = this.vectors;
    if (!vectors) return null;
    const query = await this.embedQuery(question);
    const state = this.state;
    if (!query || !state) return null;
    // Asked before any section had a vector: none has one to compare.
    if (query === UNEMBEDDED_QUESTION) return new Map();
    const scores = new Map<string, number>();
    for (const id of sectionIds) {
      const ordinal = state.sectionOrdinalById.get(id);
      const entry = ordinal === undefined ? undefined : state.sections[ordinal];
      const cosine = entry ? vectors.cosine(entry, query) : null;
      if (cosine !== null) scores.set(id, meaningRaw(cosine, this.embedder!.similarity));
    }
    return scores;
  }

  /** The last complete state, or undefined before the first pass finished. */
  current(): IndexState | undefined {
    return this.state;
  }

  status(): EngineStatus {
    return {
      phase: this.state ? 'ready' : this.running || this.pendingFull ? 'indexing' : 'cold',
      indexedAt: this.state?.indexedAt ?? null,
      lastPass: this.lastPass,
      lastError: this.lastError,
      fromSnapshot: this.fromSnapshot,
      meaning: this.vectors?.status() ?? null,
      missingFolders: this.presence.missing,
    };
  }

  /**
   * The state a query should answer from. Starts the first pass when there is none (and returns
   * undefined: the caller answers cold), and a background refresh when the state is stale.
   */
  stateForQuery(): IndexState | undefined {
    if (!this.state) {
      this.requestFull();
      return undefined;
    }
    if (
      this.settings.refreshAfterMs > 0 &&
      Date.now() - this.lastFullAt > this.settings.refreshAfterMs &&
      !this.running
    ) {
      this.requestFull();
    }
    return this.state;
  }

  // A question's state (WorkspaceIndex): the one state in memory serves every folder and call.
  readonly keepsHistory = true;

  get sourceGlobs(): Partial<SourceGlobs> {
    return this.settings.globs;
  }
  readonly readsStore = false;

  async refreshFolders(): Promise<void> {}

  async questionState(): Promise<IndexState | undefined> {
    return this.stateForQuery();
  }

  async questionStatistics(
    workspace: WorkspaceFolder,
    terms: readonly string[],
  ): Promise<QuestionStatistics | undefined> {
    const state = this.stateForQuery();
    if (!state) return undefined;
    return statisticsOf(state.folders.length > 1 ? folderScopedState(state, workspace.name) : state, terms);
  }

  async libraryState(): Promise<{ state: IndexState | undefined; holders: string[] }> {
    return { state: this.stateForQuery(), holders: [] };
  }

  async wholeLibraryState(_workspace: WorkspaceFolder, state: IndexState): Promise<IndexState> {
    return state;
  }

  async excerptState(libraryState: IndexState): Promise<IndexState> {
    return libraryState;
  }

  async completeTexts(): Promise<void> {}

  async waitForLibrary(): Promise<void> {
    await this.waitForIndex();
  }

  /** The vector count is the whole index's (a folder's share is not kept apart), so at most `sections`. */
  meaningCoverage(
    states: readonly IndexState[],
    sections: number,
  ): { model: string; sectionsWithVectors: number } | null {
    const status = this.vectors?.status();
    if (!status) return null;
    return {
      model: status.model,
      sectionsWithVectors: Math.min(status.sectionsWithVectors, states.length > 0 ? sections : 0),
    };
  }

  /** Resolves with a complete state, running the first pass if needed (one-shot CLI commands). */
  async waitForIndex(): Promise<IndexState> {
    if (this.state && !this.running && !this.pendingFull && this.pendingPaths.size === 0) return this.state;
    if (!this.state && !this.running) this.requestFull(0);
    await this.settled();
    if (!this.state) throw new Error(this.lastError ?? 'Indexing did not complete');
    return this.state;
  }

  /** Runs a full pass now (the editor's "Re-index" command) and resolves when it is in service. */
  async reindex(): Promise<IndexState> {
    this.warmPending = false;
    this.requestFull(0);
    await this.settled();
    return this.state!;
  }

  /**
   * Queues changed files (absolute or workspace-relative paths); they are applied together after
   * `updateDebounceMs` of quiet. Resolves when they are in service.
   */
  async update(paths: readonly string[]): Promise<PassReport | null> {
    for (const p of paths) this.pendingPaths.add(p);
    this.schedule(this.settings.updateDebounceMs);
    await this.settled();
    return this.lastPass;
  }

  /**
   * The workspace as it was at `asOf` (ISO date-time or commit), with the honesty flag when some
   * passages could only be read as they are now. The last few answers are kept, keyed by the
   * commits they resolved to, so repeated questions about one date are cheap.
   */
  async stateAsOf(asOf: string): Promise<AsOfAnswer> {
    await this.waitForIndex();
    const key = asOf.trim();
    let built = this.asOfCache.get(key);
    if (!built) {
      built = this.indexer.asOf(key);
      this.asOfCache.set(key, built);
      built.catch(() => this.asOfCache.delete(key));
      while (this.asOfCache.size > AS_OF_CACHE_SIZE) this.asOfCache.delete(this.asOfCache.keys().next().value!);
    }
    const result = await built;
    const degraded: ('as-of-chunks-approximate' | 'as-of-before-history')[] = [];
    if (result.approximate) degraded.push('as-of-chunks-approximate');
    // A time before a repository's first commit reads it as empty: said, not left to guess.
    if (result.beforeHistory) degraded.push('as-of-before-history');
    return { state: result.state, degraded, commits: result.commits };
  }

  /**
   * The question's embedding, or null when embeddings are off or not ready. Callers embed first
   * and take the state afterwards, so the ranking that follows reads one state synchronously.
   */
  async embedQuery(question: string): Promise<Float32Array | null> {
    if (!this.embedder || !question.trim()) return null;
    // A one-shot command on a workspace with no vectors yet answers on words without loading a model.
    if (this.oneShot && this.vectors?.status().sectionsWithVectors === 0) return null;
    // No section has a vector yet (the first embedding job has attached none): the question's
    // vector would be compared with nothing, so the answer does not wait seconds for the model to
    // load for it. The placeholder ranks every section as "no embedding yet", as a real vector would.
    if (this.vectors?.status().sectionsWithVectors === 0) return UNEMBEDDED_QUESTION;
    return this.embedQueryWithModel(question);
  }

  /**
   * The question's embedding from the model, waiting for it to load; null when it cannot answer.
   * Unlike {@link embedQuery} it always asks the model: `wsctx doctor` times a real embedding.
   */
  async embedQueryWithModel(question: string): Promise<Float32Array | null> {
    if (!this.embedder || !question.trim()) return null;
    try {
      return await this.embedder.embedQuery(question);
    } catch (error) {
      this.log(`[meaning] the question could not be embedded (${(error as Error).message}); answering on words`);
      return null;
    }
  }

  /** The meaning half of the score for `state`, given the question's embedding (null: off). */
  meaningSource(state: IndexState, queryVector: Float32Array | null): MeaningSource | null {
    const vectors = this.vectors;
    if (!vectors || !queryVector) return null;
    if (queryVector === UNEMBEDDED_QUESTION) return unembeddedMeaningSource(this.embedder!.similarity, state);
    return stateMeaningSource(vectors, this.embedder!.similarity, state, queryVector);
  }

  /**
   * What a store writes of the meaning half of `state` (engine/store/storeRows.ts): the embedder
   * id, its cosine anchors, and each section's int8 windows as this engine's vector index holds
   * them (null for a section without a vector for its current text). Null when embeddings are off.
   */
  meaningRows(state: IndexState): MeaningRows | null {
    const vectors = this.vectors;
    const embedder = this.embedder;
    if (!vectors || !embedder) return null;
    return { model: embedder.id, anchors: embedder.similarity, windowsOf: (entry) => vectors.quantizedWindows(entry) };
  }

  /** Resolves when every section of the state in service has its vectors (or embedding stopped). */
  async waitForMeaning(): Promise<void> {
    let job: Promise<void>;
    do {
      job = this.meaningJob;
      await job;
    } while (job !== this.meaningJob);
  }

  /**
   * Embeds every section of the state in service that has no vectors yet, also when background
   * embedding is off (`wsctx index`). Resolves when done; progress through `onDidChangeMeaning`.
   */
  async embedPendingMeaning(): Promise<void> {
    const state = await this.waitForIndex();
    if (!this.vectors) return;
    this.meaningJob = this.vectors
      .embedPending(state)
      .then(() => this.textMeaning?.prepare(this.phrasingSource?.(state) ?? []))
      .catch((error) => this.log(`[meaning] ${(error as Error).message}`));
    await this.waitForMeaning();
  }

  /** Stops background embedding until the next pass; sections without vectors keep ranking on words. */
  pauseMeaning(): void {
    this.vectors?.cancel();
  }

  /** Called when embedding progresses (status displays, progress bars). */
  onDidChangeMeaning(listener: () => void): () => void {
    return this.vectors?.onDidChange(listener) ?? (() => undefined);
  }

  onDidChangeState(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears where a full pass is (walking, files checked n of N, parsing): progress displays. */
  onDidProgress(listener: (progress: PassProgress) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }
  private readonly progressListeners = new Set<(progress: PassProgress) => void>();

  /** The folder a tool's `workspace` argument names: by name, absolute path, or path from the cwd. */
  findFolder(arg: string): WorkspaceFolder | undefined {
    return findServedFolder(this.folders, arg);
  }

  /**
   * Writes the index snapshot now (atomically). Resolves false when there is nothing to write or
   * no cache folder; a failure is logged, never thrown: a missing snapshot only costs a cold start.
   */
  async saveSnapshot(): Promise<boolean> {
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    const memory = this.indexer.memory();
    if (!this.snapshotPath || !memory) return false;
    const started = performance.now();
    try {
      const { id, bytes } = await writeIndexSnapshot(this.snapshotPath, memory);
      this.vectors?.save(vectorIndexFileFor(this.snapshotPath), { state: memory.state, id });
      this.log(
        `[snapshot] wrote ${this.snapshotPath} (${(bytes / 1048576).toFixed(1)} MB) in ${(performance.now() - started).toFixed(0)} ms`,
      );
      this.snapshotError = undefined;
      return true;
    } catch (error) {
      this.snapshotError = `could not write the index snapshot ${this.snapshotPath}: ${(error as Error).message}`;
      this.log(`[snapshot] ${this.snapshotError}`);
      return false;
    }
  }

  /** Why the last snapshot write failed (disk full, a folder that cannot be made); undefined after a success. */
  snapshotError: string | undefined;

  dispose(): void {
    this.disposed = true;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.listeners.clear();
    this.presence.dispose();
    this.vectors?.cancel();
    void this.embedder?.dispose();
  }

  /** Serves the snapshot's state, if a valid one exists; a bad one is discarded with a log line. */
  private async restoreSnapshot(): Promise<void> {
    this.restoreTried = true;
    if (!this.snapshotPath) return;
    const started = performance.now();
    // The saved vector index is read beside the snapshot's parse (hnswlib reads on the thread
    // pool); awaited on every path, so `sync` never runs before it is in.
    const vectorsLoaded = this.vectors?.load(vectorIndexFileFor(this.snapshotPath)) ?? Promise.resolve(false);
    try {
      await this.restoreSnapshotState(started, vectorsLoaded);
    } finally {
      await vectorsLoaded;
    }
  }

  private async restoreSnapshotState(started: number, vectorsLoaded: Promise<boolean>): Promise<void> {
    const snapshotPath = this.snapshotPath!;
    // Early git answers are checked beside the file events queued meanwhile (`pendingPaths`).
    const read = await readIndexSnapshot(snapshotPath, {
      folders: this.folders,
      reader: this.indexer.reader,
      useGit: this.settings.useGit,
      log: this.log,
      afterEarlyStatuses: this.restoreHooks?.afterEarlyStatuses,
    });
    if (read === null) return;
    if (!read.ok) {
      this.log(`[snapshot] discarded ${snapshotPath}: ${read.reason}; indexing from scratch`);
      return;
    }
    try {
      const state = this.indexer.restore(read.memory);
      await vectorsLoaded;
      this.state = state;
      this.fromSnapshot = true;
      this.warmPending = true;
      this.earlyStatuses = read.early;
      this.log(
        `[snapshot] restored ${state.counts.sections} sections from ${snapshotPath} in ${(performance.now() - started).toFixed(0)} ms`,
      );
      this.syncMeaning(state, read.memory.snapshotId);
      for (const listener of this.listeners) listener(state);
    } catch (error) {
      this.log(`[snapshot] discarded ${snapshotPath}: ${(error as Error).message}; indexing from scratch`);
    }
  }

  /** Brings the vectors in line with a new state; embedding continues in the background. */
  private syncMeaning(state: IndexState, restoredFrom?: string): void {
    if (!this.vectors) return;
    // The library's phrasings are embedded with the sections (never lazily by a first request);
    // a one-shot command embeds nothing and reads the vectors `wsctx index` cached.
    const phrasings = this.oneShot ? undefined : this.textMeaning;
    this.meaningJob = this.vectors
      .sync(state, restoredFrom)
      .then(() => phrasings?.prepare(this.phrasingSource?.(state) ?? []))
      .catch((error) => this.log(`[meaning] ${(error as Error).message}`));
  }

  private scheduleSnapshot(): void {
    if (!this.snapshotPath || this.disposed) return;
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => void this.saveSnapshot(), this.settings.snapshotDelayMs);
    // A pending snapshot never keeps a one-shot CLI process alive; the CLI saves explicitly.
    this.snapshotTimer.unref();
  }

  private requestFull(delayMs = 0): void {
    this.pendingFull = true;
    this.schedule(delayMs);
  }

  private schedule(delayMs: number): void {
    if (this.disposed) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.drain();
    }, delayMs);
  }

  /** Resolves when no pass is running or queued. */
  private settled(): Promise<void> {
    if (!this.running && !this.debounce && !this.pendingFull && this.pendingPaths.size === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private async drain(): Promise<void> {
    if (this.running) return; // the running pass drains again when it ends
    this.running = (async () => {
      if (!this.state && !this.restoreTried) await this.restoreSnapshot();
      while (!this.disposed && (this.pendingFull || this.pendingPaths.size > 0)) {
        // The first pass after a restore is the warm check whatever asked for it: it is the one
        // that looks at what changed while no process watched (and hands on the early statuses).
        const full = this.pendingFull || !this.state || this.warmPending;
        const paths = [...this.pendingPaths];
        this.pendingFull = false;
        this.pendingPaths.clear();
        // Git's early answer serves this iteration or none: the paths just taken are the events
        // since git looked, and an iteration that stops (a folder missing) drops them.
        const early = this.earlyStatuses;
        this.earlyStatuses = undefined;
        // A folder that is gone is not indexed as empty: the last state stays in service, flagged,
        // and the pass runs again when the folder is back (FolderPresence).
        const missingBefore = this.presence.missing.length;
        if ((await this.presence.check()).length > 0 && this.state) {
          if (missingBefore === 0) {
            this.log(
              `[index] served folder(s) missing: ${this.presence.missing.join(', ')}; answering from the last index until they are back`,
            );
            for (const listener of this.listeners) listener(this.state);
          }
          break;
        }
        try {
          // The first pass after a restore asks git what changed (Indexer.warmCheck); later ones walk.
          const warm = full && this.warmPending;
          this.warmPending = false;
          const { state, report } = warm
            ? await this.indexer.warmCheck(paths, early)
            : full
              ? await this.indexer.full()
              : await this.indexer.update(paths);
          if (this.state && (await this.presence.check()).length > 0) {
            this.log(
              `[index] served folder(s) went missing during a pass: ${this.presence.missing.join(', ')}; keeping the last index`,
            );
            for (const listener of this.listeners) listener(this.state);
            break;
          }
          if (report.kind === 'full' || warm) this.lastFullAt = Date.now();
          this.state = state;
          this.fromSnapshot = false;
          this.lastPass = report;
          this.lastError = null;
          this.scheduleSnapshot();
          this.syncMeaning(state);
          this.log(
            `[index] ${report.kind} pass: ${report.filesRead} files read, ${report.sections.addedSections} sections added, ${report.sections.removedSections} removed, ${report.durationMs.toFixed(0)} ms`,
          );
          for (const listener of this.listeners) listener(state);
        } catch (error) {
          this.lastError = (error as Error).message;
          this.log(`[index] pass failed: ${(error as Error).stack ?? error}`);
        }
      }
    })();
    await this.running;
    this.running = undefined;
    if (this.debounce || this.pendingFull || this.pendingPaths.size > 0) return;
    const waiters = this.waiters.splice(0);
    for (const waiter of waiters) waiter.resolve();
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
