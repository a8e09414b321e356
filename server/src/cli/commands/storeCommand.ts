/**
 * `--store URL`: `wsctx index` writes each `--workspace` folder into a PostgreSQL store as its
 * own namespace; `ask`, `expand`, `mcp` and `serve` answer from the store through an index whose
 * folders are the store's namespaces (store/storeIndex.ts).
 *
 * Each folder is indexed alone, in memory, exactly as `wsctx index --workspace DIR` indexes it
 * (same settings file, same snapshot in the cache folder), then written: a namespace holds the
 * paths and ids a one-folder engine gives, and answers as that engine does.
 */
import * as path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import {
  createEmbedder,
  DEFAULT_EMBEDDING_SETTINGS,
  type Embedder,
  type EmbeddingSettings,
  Engine,
  InputError,
  type WorkspaceFolder,
  type StoredNamespace,
  type WriteReport,
  StoreReader,
  globMatches,
  MemoryReader,
  type NamespaceChoice,
  formatBytes,
  parseByteSize,
  workspaceRows,
  readRepositoryIdentity,
} from '../../engine';
import { openPostgresStore, type PostgresStore } from '../../store/postgres/pgStore';
import { type ServedNamespaces, type StoreIndex, storeIndex } from '../../store/storeIndex';
import { engineGlobsFrom } from '../../config/workspaceConfig';
import { UsageError, type CliOptions } from '../../startup/args';
import { cliSettings } from '../../startup/hostConfig';
import { embeddingSettings } from '../../startup/startup';

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
export async function indexIntoStore(
  options: CliOptions,
  folders: readonly WorkspaceFolder[],
  cacheDir: string | undefined,
): Promise<StoreIndexSummary> {
  const store = await openPostgresStore(options.store!);
  try {
    const summary: StoreIndexSummary = { store: redactUrl(options.store!), namespaces: [], failed: [] };
    for (const folder of folders) {
      const started = performance.now();
      // The folder's own settings file, as `wsctx index --workspace <folder>` reads it.
      const own: CliOptions = { ...options, workspaces: [folder.absPath] };
      const engine = new Engine({
        folders: [folder],
        cacheDir,
        settings: engineGlobsFrom(cliSettings(own)),
        embeddings: embeddingSettings(own),
        embedInBackground: false,
      });
      try {
        const state = await engine.waitForIndex();
        await engine.embedPendingMeaning();
        await engine.saveSnapshot();
        const indexMs = performance.now() - started;
        // One folder's failed write (rolled back whole) is its own: the next folders are written.
        let report: WriteReport;
        try {
          // Which repository this is (a namespace is named by its folder, and holds one repository).
          const rows = workspaceRows(state, engine.meaningRows(state));
          rows.info.identity = await readRepositoryIdentity(folder.absPath);
          report = await store.write(rows);
        } catch (error) {
          summary.failed.push({ namespace: folder.name, error: (error as Error).message });
          continue;
        }
        summary.namespaces.push({
          ...report,
          documents: state.counts.documents,
          sections: state.counts.sections,
          indexMs,
        });
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
    if (n.unchanged) {
      lines.push(
        `${n.namespace}: ${n.documents} documents, ${n.sections} sections indexed in ${(n.indexMs / 1000).toFixed(1)} s; unchanged (its digest compared in ${(n.durationMs / 1000).toFixed(1)} s), nothing written (generation ${n.generation})`,
      );
      continue;
    }
    lines.push(
      `${n.namespace}: ${n.documents} documents, ${n.sections} sections indexed in ${(n.indexMs / 1000).toFixed(1)} s; ` +
        `written: ${n.documentsWritten} documents (${n.documentsKept} unchanged, ${n.documentsRemoved} removed), ${n.sectionsWritten} sections, ${n.postingsWritten} postings in ${n.blocksWritten} term blocks, ` +
        `${n.catalogWritten ? 'catalog' : 'catalog unchanged'}, ${n.commitsWritten} commit facts, vectors of ${n.vectorSectionsWritten} sections (${n.windowsWritten} windows) ` +
        `in ${(n.durationMs / 1000).toFixed(1)} s (generation ${n.generation})`,
    );
    for (const c of n.cleaned ?? [])
      lines.push(
        `  ${c.path}: ${c.characters} ${c.characters === 1 ? 'character' : 'characters'} PostgreSQL cannot store (NUL or an unpaired surrogate) written as U+FFFD`,
      );
  }
  for (const f of summary.failed) lines.push(`${f.namespace}: not written (rolled back): ${f.error}`);
  return lines.join('\n');
}

/** An index whose tools answer from the store, over the namespaces `--workspace` names (all without it). */
export interface StoreEngine {
  engine: StoreIndex;
  store: PostgresStore;
  /** How this process reads the store: `memory` (each namespace loaded, answers from memory) or `per-question`. */
  mode: StoreMode;
  /** The per-question reader (`per-question`), or undefined. */
  reader: StoreReader | undefined;
  /** The reader holding the namespaces in memory (`memory`), or undefined. */
  memory: MemoryReader | undefined;
  namespaces: StoredNamespace[];
  /** Embeds questions for every engine of the store; null when embeddings are off. */
  embedder: Embedder | null;
  close(): Promise<void>;
}

/**
 * How a process reads the store (`--store-mode`): `memory` loads each namespace it serves into
 * memory in bulk and answers every tool from there, following writes; `per-question` reads what
 * each question needs from the store (a reader too small to hold the index).
 */
export type StoreMode = 'memory' | 'per-question';

/** `--store-mode`, else the command's default: servers (`mcp`, `serve`) hold the index in memory, one-shot commands read per question. */
export function storeModeOf(options: CliOptions, command: string): StoreMode {
  const given = options.storeMode;
  if (given === undefined) return command === 'mcp' || command === 'serve' ? 'memory' : 'per-question';
  if (given !== 'memory' && given !== 'per-question')
    throw new UsageError(`--store-mode must be memory or per-question (got "${given}")`);
  return given;
}

/** $WSCTX_STORE_VECTOR_SEARCH: `exact` scans the vectors even where pgvector's HNSW index exists. */
function vectorSearchFromEnv(): 'auto' | 'exact' {
  const raw = process.env.WSCTX_STORE_VECTOR_SEARCH ?? 'auto';
  if (raw !== 'auto' && raw !== 'exact')
    throw new InputError(`WSCTX_STORE_VECTOR_SEARCH must be auto or exact (got "${raw}")`);
  return raw;
}

/** $WSCTX_STORE_POLL_MS: how often a reader holding the store in memory polls its generations (default 2,000). */
function pollMsFromEnv(): number | undefined {
  const raw = process.env.WSCTX_STORE_POLL_MS;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 50 || n > 3_600_000)
    throw new InputError(`WSCTX_STORE_POLL_MS must be a whole number of milliseconds 50..3600000 (got "${raw}")`);
  return n;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface OpenStoreOptions {
  mode: StoreMode;
  log?: (message: string) => void;
  /** Namespace patterns from the server's config file (`namespaces`): this reader serves those only. */
  namespacePatterns?: readonly string[];
  /** Where the patterns were read (`file:line`), for the error when none matches. */
  namespacePatternsAt?: string;
}

/**
 * Opens the store and the engine over it. In `memory` mode the namespaces served are planned
 * first: each one's estimated memory is said through `log` and more than `--max-memory` is
 * refused, naming them (nothing loaded); then they are loaded and followed.
 */
export async function openStoreEngine(options: CliOptions, open: OpenStoreOptions): Promise<StoreEngine> {
  const store = await openPostgresStore(options.store!);
  let memory: MemoryReader | undefined;
  try {
    const stored = await store.namespaces();
    let namespaces = selectNamespaces(stored, options);
    const patterns = open.namespacePatterns;
    if (patterns) {
      namespaces = namespaces.filter((n) => patterns.some((p) => globMatches(p, n.name)));
      // A server answers for at least one namespace: a list that matches none is a mistake to name, not an empty server.
      if (namespaces.length === 0) {
        throw new InputError(
          `${open.namespacePatternsAt ?? '--config'}: namespaces: none of the store's namespaces matches ${patterns.join(', ')}; it holds ${stored.map((n) => n.name).join(', ')}`,
        );
      }
    }
    const log = open.log;
    // One embedder for every engine of the store (serve --config makes one per token).
    const settings: EmbeddingSettings = {
      ...DEFAULT_EMBEDDING_SETTINGS,
      ...stripUndefined(embeddingSettings(options)),
    };
    const embedder = createEmbedder(settings, { log });
    const serves: ServedNamespaces = options.workspacesGiven ? 'these' : 'all';
    let reader: StoreReader | undefined;
    if (open.mode === 'memory') {
      const maxBytes = options.maxMemory === undefined ? undefined : parseByteSize(options.maxMemory);
      if (options.maxMemory !== undefined && maxBytes === undefined)
        throw new UsageError(
          `--max-memory must be a size such as 8GB, 512MB or 2000000000 (got "${options.maxMemory}")`,
        );
      const choice: NamespaceChoice = options.workspacesGiven
        ? { kind: 'these', names: namespaces.map((n) => n.name) }
        : patterns
          ? { kind: 'patterns', patterns }
          : { kind: 'all' };
      memory = new MemoryReader(store, choice, { maxBytes, pollMs: pollMsFromEnv(), log });
      const planned = memory.plan(namespaces);
      log?.(renderPlan(planned, maxBytes));
      // Past Node's heap limit the process would die loading, long after saying it would load.
      const total = planned.reduce((sum, p) => sum + p.estimatedBytes, 0);
      const heapLimit = getHeapStatistics().heap_size_limit;
      if (total > heapLimit * 0.9) {
        log?.(
          `[store] warning: about ${formatBytes(total)} is past 90% of Node's heap limit (${formatBytes(heapLimit)}); start the reader with NODE_OPTIONS=--max-old-space-size=${Math.ceil((total * 1.5) / 1024 ** 2)} or serve fewer namespaces`,
        );
      }
      const started = performance.now();
      await memory.start(planned);
      const status = memory.status();
      log?.(
        `[store] ${status.namespaces.length} namespaces in memory (${status.namespaces.reduce((n, l) => n + l.sections, 0)} sections) in ${((performance.now() - started) / 1000).toFixed(1)} s; following writes by ${status.following === 'notifications' ? `the store's notifications and a poll every ${status.pollMs} ms` : `a poll every ${status.pollMs} ms`}`,
      );
    } else {
      if (options.maxMemory !== undefined)
        throw new UsageError(
          '--max-memory: a reader that reads the store per question holds no namespace in memory (leave it out, or --store-mode memory)',
        );
      reader = new StoreReader(store, { vectorSearch: vectorSearchFromEnv() });
    }
    const engine = storeIndex(namespaces, { reader, memory }, log, embedder, serves);
    return {
      engine,
      store,
      mode: open.mode,
      reader,
      memory,
      namespaces,
      embedder,
      async close() {
        await memory?.close();
        await embedder?.dispose();
        await store.close();
      },
    };
  } catch (error) {
    await memory?.close();
    await store.close();
    throw error;
  }
}

/** What a reader holding the store in memory will load, before it loads: each namespace's estimate and the total. */
function renderPlan(
  planned: readonly { namespace: StoredNamespace; estimatedBytes: number }[],
  maxBytes: number | undefined,
): string {
  const total = planned.reduce((sum, p) => sum + p.estimatedBytes, 0);
  const lines = [
    `[store] loading ${planned.length} ${planned.length === 1 ? 'namespace' : 'namespaces'} into memory, about ${formatBytes(total)}${maxBytes === undefined ? '' : ` of --max-memory ${formatBytes(maxBytes)}`}:`,
  ];
  for (const { namespace: n, estimatedBytes } of planned) {
    lines.push(
      `  ${n.name}: ${n.sizes.sections} sections, ${n.sizes.postings} postings, ${n.sizes.windows} vector windows, generation ${n.generation}: about ${formatBytes(estimatedBytes)}`,
    );
  }
  return lines.join('\n');
}

/** The namespaces `--workspace` names (by folder name or by the path indexed), or all of them. */
export function selectNamespaces(stored: readonly StoredNamespace[], options: CliOptions): StoredNamespace[] {
  if (stored.length === 0)
    throw new InputError(
      `--store: the store holds no workspace yet; write one with wsctx index --store URL --workspace DIR`,
    );
  if (!options.workspacesGiven) return [...stored];
  const names = stored.map((n) => n.name).join(', ');
  return options.workspaces.map((wanted) => {
    const abs = path.resolve(wanted);
    const found =
      stored.find((n) => n.name === wanted) ??
      stored.find((n) => n.absPath === abs) ??
      stored.find((n) => n.name === path.basename(abs));
    if (!found) throw new InputError(`--workspace ${wanted}: the store holds no such workspace; it holds ${names}`);
    return found;
  });
}

/** The URL without its password. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
