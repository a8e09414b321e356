/**
 * An index opened on a PostgreSQL store (`--store`): the `WorkspaceIndex` the tools read, with
 * the store's namespaces as its folders. It never indexes: `wsctx index --store` writes the
 * namespaces (cli/commands/storeCommand.ts), and this answers from what was written, through one
 * of two readers: a `MemoryReader` holding each namespace in memory and following writes, or a
 * `StoreReader` reading each question's candidates from the store.
 *
 * Opening the index is the host's only choice: the tools call the same methods on this as on the
 * in-memory engine, and never ask which one they hold.
 */
import {
  type AsOfAnswer,
  type Embedder,
  type EngineStatus,
  findServedFolder,
  type IndexState,
  InputError,
  type MeaningSource,
  type MemoryReader,
  type QuestionScope,
  type QuestionStatistics,
  type SectionEntry,
  statisticsOf,
  type StateListener,
  StoreReader,
  type WorkspaceFolder,
  type WorkspaceIndex,
} from '../engine';

/**
 * Which namespaces an index serves as the store changes: `these` (the ones it started with:
 * `--workspace` named them), `all` (every namespace, also those written later), or a list of
 * names (a token limited to folders: those of them the store holds, now or later).
 */
export type ServedNamespaces = 'these' | 'all' | readonly string[];

/** The readers a store index answers from: one of them (the other undefined). */
export interface StoreReaders {
  reader: StoreReader | undefined;
  memory: MemoryReader | undefined;
}

/**
 * An index serving `namespaces` from `readers`: its folders are the namespaces (by name, with the
 * path they were indexed from, so passages keep their file URIs).
 */
export function storeIndex(
  namespaces: readonly { name: string; absPath: string }[],
  readers: StoreReader | StoreReaders,
  log?: (message: string) => void,
  embedder: Embedder | null = null,
  serves: ServedNamespaces = 'these',
): StoreIndex {
  const both = readers instanceof StoreReader ? { reader: readers, memory: undefined } : readers;
  return new StoreIndex(namespaces.map(folderOf), both, embedder, serves, log);
}

function folderOf(n: { name: string; absPath: string }): WorkspaceFolder {
  return { name: n.name, absPath: n.absPath };
}

export class StoreIndex implements WorkspaceIndex {
  /** The embedder id questions are embedded with, or null when embeddings are off. */
  private readonly queryModel: string | null;
  private served: readonly WorkspaceFolder[];

  constructor(
    folders: readonly WorkspaceFolder[],
    private readonly readers: StoreReaders,
    private readonly queryEmbedder: Embedder | null,
    private readonly serves: ServedNamespaces,
    private readonly log?: (message: string) => void,
  ) {
    this.served = folders;
    this.queryModel = queryEmbedder?.id ?? null;
  }

  get folders(): readonly WorkspaceFolder[] {
    return this.served;
  }

  findFolder(arg: string): WorkspaceFolder | undefined {
    return findServedFolder(this.served, arg);
  }

  /** Always ready: what the store holds is what was written; a namespace not written answers cold. */
  status(): EngineStatus {
    return {
      phase: 'ready',
      indexedAt: null,
      lastPass: null,
      lastError: null,
      fromSnapshot: false,
      meaning: null,
      missingFolders: [],
    };
  }

  /** No state covers every namespace: each call reads the one it names. */
  current(): IndexState | undefined {
    return undefined;
  }

  /**
   * A question's state holds its candidates only (or one namespace's, in memory), not the whole
   * index: explain_result, which scores the expected page's sections wherever they rank, is not
   * listed (tools/availability.ts).
   */
  readonly holdsWholeIndex = false;

  /** The store's namespaces change by writes, not by states of this index: nobody is told. */
  onDidChangeState(_listener: StateListener): () => void {
    return () => {};
  }

  stateForQuery(): IndexState | undefined {
    return undefined;
  }

  /** One-shot commands that read the workspace itself are refused with `--store` before they get here. */
  waitForIndex(): Promise<IndexState> {
    return Promise.reject(new InputError('a store is not indexed by its readers: wsctx index --store URL writes it'));
  }

  readonly keepsHistory = false;
  readonly sourceGlobs = undefined;
  readonly readsStore = true;

  stateAsOf(_asOf: string): Promise<AsOfAnswer> {
    return Promise.reject(
      new InputError('asOf: a store answers from the workspace as it was last indexed, not from its history'),
    );
  }

  /**
   * Re-reads the store's namespaces (called when a question names a workspace not served yet, or
   * asks them all). An index limited to some folders never reads for a name outside them: its
   * refusal does not depend on the store being reachable (authorization does not fail soft). In
   * memory, the namespaces held are the list (a name not held yet makes the reader look).
   */
  async refreshFolders(wanted?: string): Promise<void> {
    if (this.serves === 'these') return;
    const allowed = this.serves === 'all' ? undefined : new Set(this.serves);
    if (allowed && wanted !== undefined && !allowed.has(wanted)) return;
    let folders: WorkspaceFolder[];
    const memory = this.readers.memory;
    if (memory) {
      if (wanted !== undefined && !this.findFolder(wanted) && memory.serves(wanted) && !memory.stateOf(wanted))
        await memory.refresh();
      folders = memory
        .names()
        .filter((name) => !allowed || allowed.has(name))
        .map((name) => memory.stateOf(name)!.folders[0]);
    } else {
      folders = (await this.perQuestion().store.namespaces())
        .filter((n) => !allowed || allowed.has(n.name))
        .map(folderOf);
    }
    // Never fewer than at start: a namespace dropped meanwhile answers cold (`index-cold`), as before.
    const known = new Set(folders.map((f) => f.name));
    this.served = [...this.served.filter((f) => !known.has(f.name)), ...folders];
  }

  /**
   * In memory, the namespace's whole index. Per question, its candidates (engine/store/
   * scopedState.ts), the nearest sections by meaning among them when the question was embedded by
   * the stored vectors' model; with `scope`, only those that can be among its passages; without a
   * question, the namespace's base.
   */
  async questionState(
    workspace: WorkspaceFolder,
    question?: string,
    queryVector?: Float32Array | null,
    scope?: QuestionScope,
  ): Promise<IndexState | undefined> {
    const memory = this.readers.memory;
    if (memory) return memory.stateOf(workspace.name);
    const reader = this.perQuestion();
    if (question === undefined) return reader.baseState(workspace.name);
    return reader.questionState(workspace.name, question, this.queryOf(queryVector), scope);
  }

  async questionStatistics(
    workspace: WorkspaceFolder,
    terms: readonly string[],
  ): Promise<QuestionStatistics | undefined> {
    const memory = this.readers.memory;
    if (memory) {
      const state = memory.stateOf(workspace.name);
      return state ? statisticsOf(state, terms) : undefined;
    }
    return this.perQuestion().questionStatistics(workspace.name, terms);
  }

  /** One namespace's library: the served one that holds library pages (the first served when none does). */
  async libraryState(texts: readonly string[]): Promise<{ state: IndexState | undefined; holders: string[] }> {
    return this.libraryOf(
      this.served.map((f) => f.name),
      texts,
    );
  }

  /** A question's state holds only some library pages and no texts: the namespace's library is read whole. */
  async wholeLibraryState(workspace: WorkspaceFolder, state: IndexState): Promise<IndexState> {
    return (await this.libraryOf([workspace.name], [])).state ?? state;
  }

  /** Per question, the task's candidates (texts filled by {@link completeTexts} once ranked); in memory, the library's state. */
  async excerptState(libraryState: IndexState, task: string, queryVector: Float32Array | null): Promise<IndexState> {
    const reader = this.readers.reader;
    if (!reader) return libraryState;
    return (await reader.questionState(libraryState.folders[0].name, task, this.queryOf(queryVector))) ?? libraryState;
  }

  async completeTexts(workspace: WorkspaceFolder, entries: readonly SectionEntry[]): Promise<void> {
    await this.readers.reader?.completeTexts(workspace.name, entries);
  }

  async waitForLibrary(): Promise<void> {}

  /**
   * The question embedded by the store's shared embedder, or null (words only) when embeddings
   * are off or no stored namespace has vectors of this model: no model is loaded for nothing.
   */
  async embedQuery(question: string): Promise<Float32Array | null> {
    const embedder = this.queryEmbedder;
    if (!embedder || !question.trim()) return null;
    const holds = this.readers.memory
      ? this.readers.memory.holdsVectorsOf(embedder.id)
      : await this.perQuestion().holdsVectorsOf(embedder.id);
    if (!holds) return null;
    try {
      return await embedder.embedQuery(question);
    } catch (error) {
      this.log?.(`[meaning] the question could not be embedded (${(error as Error).message}); answering on words`);
      return null;
    }
  }

  /** The meaning half of a question on a namespace's state: from its vectors in memory, or the per-question state's own. */
  meaningSource(state: IndexState, queryVector: Float32Array | null): MeaningSource | null {
    if (!queryVector) return null;
    const memory = this.readers.memory;
    if (memory) return this.queryModel ? memory.meaningSource(state, queryVector, this.queryModel) : null;
    return this.perQuestion().meaningOf(state) ?? null;
  }

  /** The namespaces' stored vectors behind `states` (this index holds none itself). */
  meaningCoverage(states: readonly IndexState[]): { model: string; sectionsWithVectors: number } | null {
    const memory = this.readers.memory;
    const stored = states
      .map((s) => (memory ? memory.meaningSummaryOf(s, this.queryModel) : this.perQuestion().meaningSummaryOf(s)))
      .filter((m) => m !== undefined);
    if (stored.length === 0) return null;
    return { model: stored[0].model, sectionsWithVectors: stored.reduce((sum, m) => sum + m.sectionsWithVectors, 0) };
  }

  /**
   * The library tools' meaning signal and get_context's phrase meaning come from an engine's own
   * embedder and vectors; the store's vectors serve workspace_context's ranking only.
   */
  readonly hasMeaning = false;
  readonly textMeaning = undefined;

  async sectionMeaning(): Promise<Map<string, number> | null> {
    return null;
  }

  setPhrasingSource(): void {}

  /** The library of `namespaces` from whichever reader this index has (both answer alike). */
  private async libraryOf(
    namespaces: readonly string[],
    texts: readonly string[],
  ): Promise<{ state: IndexState | undefined; holders: string[] }> {
    const memory = this.readers.memory;
    return memory ? memory.libraryStateOf(namespaces) : this.perQuestion().libraryStateOf(namespaces, texts);
  }

  /** The per-question reader (in memory mode every method above returns before asking for it). */
  private perQuestion(): StoreReader {
    return this.readers.reader!;
  }

  private queryOf(queryVector: Float32Array | null | undefined): { vector: Float32Array; model: string } | undefined {
    return queryVector && this.queryModel ? { vector: queryVector, model: this.queryModel } : undefined;
  }
}
