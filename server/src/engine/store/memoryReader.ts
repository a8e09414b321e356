/**
 * A reader that answers from memory, fed by a store: each namespace it serves is loaded in bulk
 * into the index state the in-memory engine would hold for that folder alone (loadedNamespace.ts),
 * every tool answers from those states exactly as from the in-memory engine, and each write is
 * followed by reading only what it changed.
 *
 * - Memory is known before anything loads: each namespace's estimate (memoryEstimate.ts) from the
 *   sizes its last write recorded; past the limit, loading is refused, naming the namespaces.
 * - Following writes: the store's notifications (LISTEN/NOTIFY) start a catch-up at once; a poll
 *   of every namespace's generation (every `pollMs`) catches what a lost notification missed and
 *   finds namespaces written later (loaded when the reader serves them and they fit) and dropped.
 * - Each catch-up reads one generation in one snapshot and is applied at once, synchronously: a
 *   question sees the old or the new generation of a namespace, never a mix; one catch-up at a
 *   time per namespace. A catch-up that fails (the store is down) leaves the namespace as it was,
 *   still answering, and is tried again at the next poll.
 */
import { InputError } from '../errors';
import type { IndexState } from '../indexState';
import type { MeaningSource } from '../ranking/workspaceContextRanker';
import type { IndexStore, StoredNamespace } from './indexStore';
import { LoadedNamespace, LoadReceiver } from './loadedNamespace';
import { estimateNamespaceBytes, formatBytes } from './memoryEstimate';

/** Which namespaces a reader serves: a fixed list (`--workspace`), name patterns (`*` any run of characters) or every one. */
export type NamespaceChoice =
  | { kind: 'these'; names: readonly string[] }
  | { kind: 'patterns'; patterns: readonly string[] }
  | { kind: 'all' };

export interface MemoryReaderOptions {
  /** Refuse to hold more than this many bytes (estimated); undefined: no limit. */
  maxBytes?: number;
  /** Milliseconds between polls of the namespaces' generations (default 2,000). */
  pollMs?: number;
  /** Diagnostics (loads, catch-ups, refusals, failures). */
  log?: (message: string) => void;
}

/** One served namespace's figures, for status displays. */
export interface LoadedStatus {
  name: string;
  generation: number;
  sections: number;
  estimatedBytes: number;
  loadedAt: string;
  lastLoadMs: number;
  lastLoadDocuments: number;
}

export interface MemoryReaderStatus {
  mode: 'memory';
  /** `notifications` while the store's LISTEN/NOTIFY reaches the reader; `polling` otherwise. */
  following: 'notifications' | 'polling';
  pollMs: number;
  estimatedBytes: number;
  maxBytes: number | null;
  namespaces: LoadedStatus[];
}

/** A namespace this reader will not hold, and why (past the memory limit). */
export interface Refused {
  name: string;
  estimatedBytes: number;
}

export class MemoryReader {
  private readonly loaded = new Map<
    string,
    { ns: LoadedNamespace; estimate: number; loadedAt: string; lastLoadMs: number; lastLoadDocuments: number }
  >();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly refused = new Set<string>();
  private watching: { close(): Promise<void> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private closed = false;
  /** True while polls fail (the store is down or unreachable). */
  private unreachable = false;
  private readonly pollMs: number;
  private readonly log: (message: string) => void;

  constructor(
    readonly store: IndexStore,
    private readonly choice: NamespaceChoice,
    private readonly options: MemoryReaderOptions = {},
  ) {
    this.pollMs = Math.max(50, options.pollMs ?? 2000);
    this.log = options.log ?? (() => undefined);
  }

  /** True when this reader serves namespace `name` (whether or not the store holds it). */
  serves(name: string): boolean {
    const c = this.choice;
    if (c.kind === 'all') return true;
    if (c.kind === 'these') return c.names.includes(name);
    return c.patterns.some((p) => globMatches(p, name));
  }

  /**
   * The namespaces of `stored` this reader serves, each with its estimate; throws an InputError
   * naming them all when together they pass the memory limit (nothing is loaded then).
   */
  plan(stored: readonly StoredNamespace[]): { namespace: StoredNamespace; estimatedBytes: number }[] {
    const planned = stored
      .filter((n) => this.serves(n.name))
      .map((namespace) => ({ namespace, estimatedBytes: estimateNamespaceBytes(namespace.sizes) }));
    const total = planned.reduce((sum, p) => sum + p.estimatedBytes, 0);
    const max = this.options.maxBytes;
    if (max !== undefined && total > max) {
      const list = planned.map((p) => `${p.namespace.name} (${formatBytes(p.estimatedBytes)})`).join(', ');
      throw new InputError(
        `--max-memory ${formatBytes(max)}: the ${planned.length} namespaces to serve would take about ${formatBytes(total)} in memory: ${list}. ` +
          'Serve fewer per reader (a `namespaces` list in the --config file, or --workspace), raise --max-memory, or read the store per question (--store-mode per-question)',
      );
    }
    return planned;
  }

  /**
   * Loads `planned` (from {@link plan}), two at a time, then follows the store's writes. A
   * namespace that cannot be read is said through the log and tried again at each poll.
   */
  async start(planned: readonly { namespace: StoredNamespace }[]): Promise<void> {
    const queue = [...planned];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift())
        await this.catchUp(next.namespace.name, next.namespace.sizes.postings).catch(() => undefined);
    };
    await Promise.all([worker(), worker()]);
    if (this.closed) return;
    this.watching = await this.store
      .watch(
        (change) => void this.onChange(change.namespace, change.generation),
        (error) => {
          this.log(
            `[store] notifications stopped (${error.message}); following writes by polling every ${this.pollMs} ms`,
          );
          this.watching = undefined;
        },
      )
      .catch(() => undefined);
    this.schedulePoll();
  }

  /** The state namespace `name` answers from, or undefined when it is not held. */
  stateOf(name: string): IndexState | undefined {
    return this.loaded.get(name)?.ns.state;
  }

  /**
   * The library tools' state over the served `namespaces`, as StoreReader.libraryStateOf gives it:
   * the one that holds library pages (the first when none does), and every one holding some
   * (`holders`: two or more cannot be weighed as one library).
   */
  libraryStateOf(namespaces: readonly string[]): { state: IndexState | undefined; holders: string[] } {
    const held = namespaces.map((name) => ({ name, state: this.stateOf(name) }));
    const holders = held.filter((h) => (h.state?.counts.bySourceKind.library ?? 0) > 0);
    return { state: (holders[0] ?? held[0])?.state, holders: holders.map((h) => h.name) };
  }

  /** Names of the namespaces held, sorted. */
  names(): string[] {
    return [...this.loaded.keys()].sort();
  }

  /** Reads the store's namespaces now and loads those it serves and does not hold yet (a question named one). */
  async refresh(): Promise<void> {
    await this.pollOnce();
  }

  /** The loaded namespace whose state `state` is (undefined for any other state). */
  private namespaceOf(state: IndexState): LoadedNamespace | undefined {
    const held = this.loaded.get(state.folders[0]?.name ?? '');
    return held?.ns.state && held.ns.state.lexical === state.lexical ? held.ns : undefined;
  }

  /**
   * The meaning half of a question on `state` embedded as `query` by `model`: the namespace's
   * vectors, the nearest sections by an exact scan of them, and the crowd the writer sampled.
   * Null when the namespace has no vectors of that model.
   */
  meaningSource(state: IndexState, query: Float32Array, model: string): MeaningSource | null {
    const vectors = this.namespaceOf(state)?.vectors;
    if (!vectors || vectors.meaning.model !== model || vectors.meaning.dimension !== query.length) return null;
    const nearest = vectors.nearestExact(query);
    return {
      cosine: (ordinal) => vectors.cosine(ordinal, query),
      hasVector: (ordinal) => vectors.has(ordinal),
      anchors: vectors.anchors(query),
      nearest: nearest.ordinals,
      outsideCosine: nearest.outside,
    };
  }

  /** The model and how many of the namespace's sections have vectors of it, for a state answered with meaning. */
  meaningSummaryOf(
    state: IndexState,
    model: string | null,
  ): { model: string; sectionsWithVectors: number } | undefined {
    const vectors = this.namespaceOf(state)?.vectors;
    if (!vectors || model === null || vectors.meaning.model !== model) return undefined;
    return { model, sectionsWithVectors: vectors.sections };
  }

  /** True when a held namespace has vectors of `model` (else questions need no embedding). */
  holdsVectorsOf(model: string): boolean {
    for (const { ns } of this.loaded.values()) if (ns.vectors?.meaning.model === model) return true;
    return false;
  }

  status(): MemoryReaderStatus {
    const namespaces = [...this.loaded.values()]
      .map(({ ns, estimate, loadedAt, lastLoadMs, lastLoadDocuments }) => ({
        name: ns.name,
        generation: ns.generation,
        sections: ns.sectionCount,
        estimatedBytes: estimate,
        loadedAt,
        lastLoadMs,
        lastLoadDocuments,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return {
      mode: 'memory',
      following: this.watching ? 'notifications' : 'polling',
      pollMs: this.pollMs,
      estimatedBytes: namespaces.reduce((sum, n) => sum + n.estimatedBytes, 0),
      maxBytes: this.options.maxBytes ?? null,
      namespaces,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.watching?.close();
    this.watching = undefined;
    await Promise.allSettled([...this.chains.values()]);
    await this.polling?.catch(() => undefined);
  }

  private onChange(name: string, generation: number): void {
    if (this.closed || !this.serves(name)) return;
    const held = this.loaded.get(name);
    if (generation === 0) {
      // Dropped: polled below, which unloads it.
      void this.pollOnce();
      return;
    }
    if (held && held.ns.generation >= generation) return;
    void this.catchUp(name).catch(() => undefined);
  }

  private schedulePoll(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.pollOnce().finally(() => this.schedulePoll());
    }, this.pollMs);
    this.timer.unref();
  }

  /** One poll: every served namespace the store holds is brought to its generation; new ones load (if they fit); dropped ones go. */
  private pollOnce(): Promise<void> {
    this.polling ??= (async () => {
      let stored: StoredNamespace[];
      try {
        stored = await this.store.namespaces();
      } catch (error) {
        // Said once per outage: a poll every few seconds would fill the log.
        if (!this.unreachable)
          this.log(
            `[store] cannot be read (${(error as Error).message}); answering from memory as loaded until it can`,
          );
        this.unreachable = true;
        return;
      }
      if (this.unreachable) this.log('[store] can be read again; following its writes');
      this.unreachable = false;
      const present = new Set(stored.map((n) => n.name));
      for (const name of [...this.loaded.keys()]) {
        if (!present.has(name)) {
          this.loaded.delete(name);
          this.log(`[store] ${name}: dropped from the store; no longer served`);
        }
      }
      const work: Promise<unknown>[] = [];
      for (const n of stored) {
        if (!this.serves(n.name)) continue;
        const held = this.loaded.get(n.name);
        if (held && held.ns.generation === n.generation && held.ns.epoch === n.epoch) continue;
        if (!held && !this.fits(n)) continue;
        work.push(this.catchUp(n.name, n.sizes.postings).catch(() => undefined));
      }
      await Promise.all(work);
    })().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  /** True when a namespace not held yet fits under the limit beside those held (said once when not). */
  private fits(n: StoredNamespace): boolean {
    const max = this.options.maxBytes;
    if (max === undefined) return true;
    const estimate = estimateNamespaceBytes(n.sizes);
    const held = [...this.loaded.values()].reduce((sum, l) => sum + l.estimate, 0);
    if (held + estimate <= max) {
      this.refused.delete(n.name);
      return true;
    }
    if (!this.refused.has(n.name)) {
      this.refused.add(n.name);
      this.log(
        `[store] ${n.name}: not loaded: it would take about ${formatBytes(estimate)} beside the ${formatBytes(held)} held, past --max-memory ${formatBytes(max)}`,
      );
    }
    return false;
  }

  /** Brings namespace `name` to the store's current generation (one catch-up at a time per namespace). */
  private catchUp(name: string, expectedPostings = 0): Promise<void> {
    const previous = this.chains.get(name) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.load(name, expectedPostings));
    const chain = run.catch((error) =>
      this.log(`[store] ${name}: could not be read (${(error as Error).message}); answering from what is held`),
    );
    this.chains.set(name, chain);
    void chain.finally(() => {
      if (this.chains.get(name) === chain) this.chains.delete(name);
    });
    return run;
  }

  private async load(name: string, expectedPostings: number): Promise<void> {
    if (this.closed) return;
    const held = this.loaded.get(name);
    const started = performance.now();
    const ns = held?.ns ?? new LoadedNamespace(name);
    const since = ns.version();
    const receiver = new LoadReceiver(since === undefined, expectedPostings);
    const load = await this.store.loadNamespace(name, since, receiver);
    if (this.closed) return;
    if (!load) {
      if (held) this.loaded.delete(name);
      return;
    }
    if (since && load.generation === since.generation && load.epoch === since.epoch) return;
    const applied = ns.apply(load, receiver);
    const lastLoadMs = performance.now() - started;
    const estimate = estimateNamespaceBytes(load.sizes);
    this.loaded.set(name, {
      ns,
      estimate,
      loadedAt: new Date().toISOString(),
      lastLoadMs,
      lastLoadDocuments: applied.written + applied.removed,
    });
    if (since)
      this.log(
        `[store] ${name}: generation ${load.generation} loaded in ${lastLoadMs.toFixed(0)} ms (${load.full ? 'whole' : `${applied.written} documents written, ${applied.removed} removed`})`,
      );
  }
}

/** `name` matches `pattern`, where `*` is any run of characters and `?` one. */
export function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name);
}
