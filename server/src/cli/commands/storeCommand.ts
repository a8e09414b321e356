/**
 * `--store URL`: `wsctx index` writes each `--workspace` folder into a PostgreSQL store as its
 * own namespace; `ask`, `expand`, `mcp` and `serve` answer from the store through an engine whose
 * folders are the store's namespaces (engine/store/storeReader.ts does the reading).
 *
 * Each folder is indexed alone, in memory, exactly as `wsctx index --workspace DIR` indexes it
 * (same settings file, same snapshot in the cache folder), then written: a namespace holds the
 * paths and ids a one-folder engine gives, and answers as that engine does.
 */
import * as path from 'node:path';
import { createEmbedder, DEFAULT_EMBEDDING_SETTINGS, type Embedder, type EmbeddingSettings, Engine, InputError, type IndexState, type WorkspaceFolder, type MeaningSource, type StoredNamespace, type WriteReport, StoreReader, type StoreBacked, workspaceRows } from '../../engine';
import { openPostgresStore, type PostgresStore } from '../../store/postgres/pgStore';
import { engineGlobsFrom } from '../../config/workspaceConfig';
import type { CliOptions } from '../../startup/args';
import { cliSettings } from '../../startup/hostConfig';
import { embeddingSettings } from '../../startup/startup';

/** The commands that answer from a store. */
export const STORE_COMMANDS = ['index', 'ask', 'expand', 'toc', 'section', 'search', 'context', 'page', 'file', 'mcp', 'serve'] as const;

export interface StoreIndexSummary {
  store: string;
  namespaces: (WriteReport & { documents: number; sections: number; indexMs: number })[];
  /** Folders whose write failed (each rolled back), with the reason; the others were written. */
  failed: { namespace: string; error: string }[];
}

/**
 * Indexes every folder on its own and writes it to the store; one namespace per folder. With
 * embeddings on (the CLI's default, `--embeddings`), each folder's sections are embedded first
 * (the vector cache spares what was embedded before) and their vectors written beside them.
 */
export async function indexIntoStore(options: CliOptions, folders: readonly WorkspaceFolder[], cacheDir: string | undefined): Promise<StoreIndexSummary> {
  const store = await openPostgresStore(options.store!);
  try {
    const summary: StoreIndexSummary = { store: redactUrl(options.store!), namespaces: [], failed: [] };
    for (const folder of folders) {
      const started = performance.now();
      // The folder's own settings file, as `wsctx index --workspace <folder>` reads it.
      const own: CliOptions = { ...options, workspaces: [folder.absPath] };
      const engine = new Engine({ folders: [folder], cacheDir, settings: engineGlobsFrom(cliSettings(own)), embeddings: embeddingSettings(own), embedInBackground: false });
      try {
        const state = await engine.waitForIndex();
        await engine.embedPendingMeaning();
        await engine.saveSnapshot();
        const indexMs = performance.now() - started;
        // One folder's failed write (rolled back whole) is its own: the next folders are written.
        let report: WriteReport;
        try {
          report = await store.write(workspaceRows(state, engine.meaningRows(state)));
        } catch (error) {
          summary.failed.push({ namespace: folder.name, error: (error as Error).message });
          continue;
        }
        summary.namespaces.push({ ...report, documents: state.counts.documents, sections: state.counts.sections, indexMs });
      } finally {
        engine.dispose();
      }
    }
    return summary;
  } finally {
    await store.close();
  }
}

export function renderStoreIndexSummary(summary: StoreIndexSummary): string {
  const lines = [`store ${summary.store}`];
  for (const n of summary.namespaces) {
    lines.push(
      `${n.namespace}: ${n.documents} documents, ${n.sections} sections indexed in ${(n.indexMs / 1000).toFixed(1)} s; ` +
        `written: ${n.documentsWritten} documents (${n.documentsKept} unchanged, ${n.documentsRemoved} removed), ${n.sectionsWritten} sections, ${n.postingsWritten} postings, ` +
        `${n.catalogWritten ? 'catalog' : 'catalog unchanged'}, ${n.commitsWritten} commit facts, vectors of ${n.vectorSectionsWritten} sections (${n.windowsWritten} windows) ` +
        `in ${(n.durationMs / 1000).toFixed(1)} s (generation ${n.generation})`,
    );
    for (const c of n.cleaned ?? []) lines.push(`  ${c.path}: ${c.characters} ${c.characters === 1 ? 'character' : 'characters'} PostgreSQL cannot store (NUL or an unpaired surrogate) written as U+FFFD`);
  }
  for (const f of summary.failed) lines.push(`${f.namespace}: not written (rolled back): ${f.error}`);
  return lines.join('\n');
}

/** An engine whose tools answer from the store, over the namespaces `--workspace` names (all without it). */
export interface StoreEngine {
  engine: Engine;
  store: PostgresStore;
  reader: StoreReader;
  namespaces: StoredNamespace[];
  /** Embeds questions for every engine of the store; null when embeddings are off. */
  embedder: Embedder | null;
  close(): Promise<void>;
}

/** $WSCTX_STORE_VECTOR_SEARCH: `exact` scans the vectors even where pgvector's HNSW index exists. */
function vectorSearchFromEnv(): 'auto' | 'exact' {
  const raw = process.env.WSCTX_STORE_VECTOR_SEARCH ?? 'auto';
  if (raw !== 'auto' && raw !== 'exact') throw new InputError(`WSCTX_STORE_VECTOR_SEARCH must be auto or exact (got "${raw}")`);
  return raw;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function openStoreEngine(options: CliOptions, log?: (message: string) => void): Promise<StoreEngine> {
  const store = await openPostgresStore(options.store!);
  try {
    const namespaces = selectNamespaces(await store.namespaces(), options);
    const reader = new StoreReader(store, { vectorSearch: vectorSearchFromEnv() });
    // One embedder for every engine of the store (serve --config makes one per token).
    const settings: EmbeddingSettings = { ...DEFAULT_EMBEDDING_SETTINGS, ...stripUndefined(embeddingSettings(options)) };
    const embedder = createEmbedder(settings, { log });
    const engine = storeEngine(namespaces, reader, log, embedder, options.workspacesGiven ? 'these' : 'all');
    return {
      engine,
      store,
      reader,
      namespaces,
      embedder,
      async close() {
        engine.dispose();
        await embedder?.dispose();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * An engine serving `namespaces` from `reader`: its folders are the namespaces (by name, with the
 * path they were indexed from, so passages keep their file URIs); it never indexes.
 */
export function storeEngine(namespaces: readonly StoredNamespace[], reader: StoreReader, log?: (message: string) => void, embedder: Embedder | null = null, serves: ServedNamespaces = 'these'): Engine {
  return new StoreBackedEngine(reader, embedder, serves, { folders: namespaces.map(folderOf), embeddings: { provider: 'off' }, log });
}

/**
 * Which namespaces an engine serves as the store changes: `these` (the ones it started with:
 * `--workspace` named them), `all` (every namespace, also those written later), or a list of
 * names (a token limited to folders: those of them the store holds, now or later).
 */
export type ServedNamespaces = 'these' | 'all' | readonly string[];

function folderOf(n: StoredNamespace): WorkspaceFolder {
  return { name: n.name, absPath: n.absPath };
}

/** Answers from `storeReader` (tools/queryState.ts reads it off the engine) and offers the tools a store answers. */
class StoreBackedEngine extends Engine implements StoreBacked {
  readonly queryModel: string | null;

  constructor(
    readonly storeReader: StoreReader,
    private readonly queryEmbedder: Embedder | null,
    private readonly serves: ServedNamespaces,
    private readonly options: ConstructorParameters<typeof Engine>[0],
  ) {
    super(options);
    this.queryModel = queryEmbedder?.id ?? null;
  }

  /**
   * Re-reads the store's namespaces (called when a question names a workspace not served yet).
   * A connection limited to some folders never reads for a name outside them: its refusal does
   * not depend on the store being reachable (authorization does not fail soft).
   */
  async refreshFolders(wanted?: string): Promise<void> {
    if (this.serves === 'these') return;
    const allowed = this.serves === 'all' ? undefined : new Set(this.serves);
    if (allowed && wanted !== undefined && !allowed.has(wanted)) return;
    const folders = (await this.storeReader.store.namespaces()).filter((n) => !allowed || allowed.has(n.name)).map(folderOf);
    // Never fewer than at start: a namespace dropped meanwhile answers cold (`index-cold`), as before.
    const known = new Set(folders.map((f) => f.name));
    const kept = this.folders.filter((f) => !known.has(f.name));
    // The folders are the engine's own list; a store engine never indexes them (see storeEngine).
    (this as { folders: readonly WorkspaceFolder[] }).folders = [...kept, ...folders];
  }

  /**
   * The question embedded by the store's shared embedder, or null (words only) when embeddings
   * are off or no stored namespace has vectors of this model: no model is loaded for nothing.
   */
  override async embedQuery(question: string): Promise<Float32Array | null> {
    const embedder = this.queryEmbedder;
    if (!embedder || !question.trim()) return null;
    if (!(await this.storeReader.holdsVectorsOf(embedder.id))) return null;
    try {
      return await embedder.embedQuery(question);
    } catch (error) {
      this.options.log?.(`[meaning] the question could not be embedded (${(error as Error).message}); answering on words`);
      return null;
    }
  }

  /** The meaning half the store's question state carries (StoreReader.questionState with the query vector). */
  override meaningSource(state: IndexState, queryVector: Float32Array | null): MeaningSource | null {
    return queryVector ? (this.storeReader.meaningOf(state) ?? null) : null;
  }
}

/** The namespaces `--workspace` names (by folder name or by the path indexed), or all of them. */
export function selectNamespaces(stored: readonly StoredNamespace[], options: CliOptions): StoredNamespace[] {
  if (stored.length === 0) throw new InputError(`--store: the store holds no workspace yet; write one with wsctx index --store URL --workspace DIR`);
  if (!options.workspacesGiven) return [...stored];
  const names = stored.map((n) => n.name).join(', ');
  return options.workspaces.map((wanted) => {
    const abs = path.resolve(wanted);
    const found = stored.find((n) => n.name === wanted) ?? stored.find((n) => n.absPath === abs) ?? stored.find((n) => n.name === path.basename(abs));
    if (!found) throw new InputError(`--workspace ${wanted}: the store holds no such workspace; it holds ${names}`);
    return found;
  });
}

/** The URL without its password. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
