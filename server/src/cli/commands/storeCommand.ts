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
import { Engine } from '../../engine/engine';
import { InputError } from '../../engine/errors';
import type { WorkspaceFolder } from '../../engine/indexState';
import type { StoredNamespace } from '../../engine/store/indexStore';
import type { WriteReport } from '../../engine/store/rows';
import { StoreReader, type StoreBacked } from '../../engine/store/storeReader';
import { workspaceRows } from '../../engine/store/storeRows';
import { openPostgresStore, type PostgresStore } from '../../store/postgres/pgStore';
import { engineGlobsFrom } from '../../config/workspaceConfig';
import type { CliOptions } from '../../startup/args';
import { cliSettings } from '../../startup/hostConfig';

/** The commands that answer from a store. */
export const STORE_COMMANDS = ['index', 'ask', 'expand', 'toc', 'section', 'search', 'context', 'page', 'file', 'mcp', 'serve'] as const;

export interface StoreIndexSummary {
  store: string;
  namespaces: (WriteReport & { documents: number; sections: number; indexMs: number })[];
}

/** Indexes every folder on its own and writes it to the store; one namespace per folder. */
export async function indexIntoStore(options: CliOptions, folders: readonly WorkspaceFolder[], cacheDir: string | undefined): Promise<StoreIndexSummary> {
  const store = await openPostgresStore(options.store!);
  try {
    const summary: StoreIndexSummary = { store: redactUrl(options.store!), namespaces: [] };
    for (const folder of folders) {
      const started = performance.now();
      // The folder's own settings file, as `wsctx index --workspace <folder>` reads it.
      const own: CliOptions = { ...options, workspaces: [folder.absPath] };
      const engine = new Engine({ folders: [folder], cacheDir, settings: engineGlobsFrom(cliSettings(own)), embeddings: { provider: 'off' }, embedInBackground: false });
      try {
        const state = await engine.waitForIndex();
        await engine.saveSnapshot();
        const indexMs = performance.now() - started;
        const report = await store.write(workspaceRows(state));
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
        `${n.catalogWritten ? 'catalog' : 'catalog unchanged'}, ${n.commitsWritten} commit facts in ${(n.durationMs / 1000).toFixed(1)} s (generation ${n.generation})`,
    );
  }
  lines.push('Vectors are not stored yet: answers from the store rank on words (embeddings off).');
  return lines.join('\n');
}

/** An engine whose tools answer from the store, over the namespaces `--workspace` names (all without it). */
export interface StoreEngine {
  engine: Engine;
  store: PostgresStore;
  reader: StoreReader;
  namespaces: StoredNamespace[];
  close(): Promise<void>;
}

export async function openStoreEngine(options: CliOptions, log?: (message: string) => void): Promise<StoreEngine> {
  const store = await openPostgresStore(options.store!);
  try {
    const namespaces = selectNamespaces(await store.namespaces(), options);
    const reader = new StoreReader(store);
    const engine = storeEngine(namespaces, reader, log);
    return {
      engine,
      store,
      reader,
      namespaces,
      async close() {
        engine.dispose();
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
export function storeEngine(namespaces: readonly StoredNamespace[], reader: StoreReader, log?: (message: string) => void): Engine {
  return new StoreBackedEngine(reader, { folders: namespaces.map((n) => ({ name: n.name, absPath: n.absPath })), embeddings: { provider: 'off' }, log });
}

/** Answers from `storeReader` (tools/queryState.ts reads it off the engine) and offers the tools a store answers. */
class StoreBackedEngine extends Engine implements StoreBacked {
  constructor(
    readonly storeReader: StoreReader,
    options: ConstructorParameters<typeof Engine>[0],
  ) {
    super(options);
  }

  /**
   * Every tool answers from a store (the library tools from the one namespace holding a library,
   * tools/queryState.ts); the in-memory rule (a tool is listed once its sources are indexed) reads
   * a state a store engine never has.
   */
  override canAnswer(): boolean {
    return true;
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
