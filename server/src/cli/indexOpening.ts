/**
 * How a command's index is opened, chosen once from the options: in this process's memory (the
 * workspace indexed here, warm from the snapshot in the cache folder) or over a PostgreSQL store
 * (`--store URL`: the namespaces `wsctx index --store` wrote). The command table
 * (commandTable.ts) writes each command once against {@link OpenIndex}, and only this file tells
 * the two apart; the few commands whose work itself differs (index, mcp, serve) ask
 * {@link IndexOpening}'s `kind`.
 */
import type { Engine } from '../engine';
import { createServices, type Services } from '../services/services';
import { UsageError, type CliOptions } from '../startup/args';
import { abandonModelWork, startServices, type MeaningUse } from '../startup/startup';
import { openStoreEngine, storeModeOf, type OpenStoreOptions, type StoreEngine } from './commands/storeCommand';
import { formatDuration } from './format';

/** What a command asks of its index when it is opened. */
export interface IndexUse {
  /** How the command uses meaning in memory (startup.ts); a store embeds questions its own way. */
  meaning: MeaningUse;
  /** Whether its tool calls go to the call log in the cache folder (`wsctx diagnostics` reads it); in memory only. */
  callLog: boolean;
}

/** One command's index, opened for it: the services its tools are called with, and what to do around a call. */
export interface OpenIndex {
  readonly services: Services;
  /** Resolves once a tool call answers from a complete index: in memory, after the index pass; a store answers at once. */
  ready(): Promise<void>;
  /**
   * The workspace a tool call asks when the command names none: the first folder served. A store
   * holding several namespaces refuses to guess, naming them (the user picks with --workspace).
   */
  defaultWorkspace(): string;
  /** Keeps what the index pass built for the next command (the snapshot in the cache folder); a store keeps its own. */
  saveSnapshot(): Promise<void>;
  /** After the answer is printed: gives up pending model work, says what meaning the answer lacked, and closes. */
  finish(): Promise<void>;
  /** After a failure: gives up what is pending and closes, saying nothing more. */
  abandon(): Promise<void>;
}

/** The index in this process's memory: each one-shot command builds its services (and engine) for itself. */
export interface MemoryOpening {
  readonly kind: 'memory';
  readonly options: CliOptions;
  open(use: IndexUse): Promise<OpenIndex>;
}

/** The index in a PostgreSQL store (`--store`): opened once per command, never indexed here. */
export interface StoreOpening {
  readonly kind: 'store';
  readonly options: CliOptions;
  open(use: IndexUse): Promise<OpenIndex>;
  /**
   * The store's engine itself, for the servers (`mcp`, `serve`), which keep it open and make
   * their own services; `log` and the namespace patterns of a server's config file as
   * openStoreEngine takes them. The caller closes it.
   */
  openEngine(open?: Omit<OpenStoreOptions, 'mode'>): Promise<StoreEngine>;
}

export type IndexOpening = MemoryOpening | StoreOpening;

/** The index in memory; `--store-mode` and `--max-memory` say how a store is read, so they are refused here. */
export function memoryOpening(options: CliOptions): MemoryOpening {
  if (options.storeMode !== undefined || options.maxMemory !== undefined)
    throw new UsageError(
      `${options.storeMode !== undefined ? '--store-mode' : '--max-memory'}: only with --store (how a PostgreSQL store is read)`,
    );
  return {
    kind: 'memory',
    options,
    async open(use) {
      const services = startServices(options, { meaning: use.meaning, callLog: use.callLog });
      const { engine } = services;
      return {
        services,
        ready: async () => {
          await engine.waitForIndex();
        },
        defaultWorkspace: () => engine.folders[0].name,
        saveSnapshot: async () => {
          await engine.saveSnapshot();
        },
        finish: async () => finishOneShot(services),
        abandon: async () => {
          abandonModelWork(services);
          engine.dispose();
        },
      };
    },
  };
}

/**
 * The index in the store at `--store`, read as `--store-mode` says (else as `command` reads by
 * default: servers in memory, one-shot commands per question).
 */
export function storeOpening(command: string, options: CliOptions): StoreOpening {
  const openEngine = async (open: Omit<OpenStoreOptions, 'mode'> = {}) => {
    if (options.asOf !== undefined)
      throw new UsageError('--as-of cannot be used with --store: a store holds each workspace as it was last indexed');
    return openStoreEngine(options, { ...open, mode: storeModeOf(options, command) });
  };
  return {
    kind: 'store',
    options,
    openEngine,
    async open() {
      const opened = await openEngine();
      return {
        services: createServices({ engine: opened.engine }),
        // Nothing to wait for: the store holds each namespace as it was last indexed.
        ready: async () => undefined,
        defaultWorkspace: () => {
          if (opened.namespaces.length > 1)
            throw new UsageError(
              `the store holds ${opened.namespaces.map((n) => n.name).join(', ')}: name the one to ask with --workspace`,
            );
          return opened.namespaces[0].name;
        },
        saveSnapshot: async () => undefined,
        finish: () => opened.close(),
        abandon: () => opened.close(),
      };
    },
  };
}

/**
 * Opens the index for one command, runs `body` on it, and finishes or abandons it however `body`
 * ends: a one-shot process must exit as soon as its answer is out.
 */
export async function withIndex<T>(
  opening: IndexOpening,
  use: IndexUse,
  body: (index: OpenIndex) => Promise<T>,
): Promise<T> {
  const index = await opening.open(use);
  let result: T;
  try {
    result = await body(index);
  } catch (error) {
    await index.abandon();
    throw error;
  }
  await index.finish();
  return result;
}

/**
 * After a one-shot answer in memory: abandons the model calls still pending (the background work,
 * a slow judge: nobody will read their answers), says on stderr when sections had no vectors with
 * how long `wsctx index` would take to embed them, and stops the engine so the process exits now.
 */
function finishOneShot(services: Services<Engine>): void {
  abandonModelWork(services);
  const { engine } = services;
  const meaning = engine.status().meaning;
  if (meaning && meaning.sectionsPending > 0) {
    const total = meaning.sectionsPending + meaning.sectionsWithVectors;
    process.stderr.write(
      `wsctx: ${meaning.sectionsPending} of ${total} sections have no vectors yet, so this answer ranked them on words alone; run 'wsctx index' to embed them (${embeddingEstimate(meaning.sectionsPending, meaning.expectedSectionsPerSecond)}).\n`,
    );
  }
  engine.dispose();
}

/** "about 2 min at ~50 sections/s here" at the rate the embedder expects, or says it cannot tell. */
function embeddingEstimate(sections: number, perSecond: number | null): string {
  if (!perSecond) return 'time unknown for this embedder';
  return `about ${formatDuration(sections / perSecond)} at ~${Math.round(perSecond)} sections/s here`;
}
