/**
 * Memoised parser calls, valid for as long as the files they read are unchanged.
 *
 * A producer (load the catalog, read one entity's TechDocs...) runs against a `TrackingSource`
 * that records every path it read or asked about and whether it listed the workspace. The next
 * index pass reuses the result when each of those paths has the same digest (or is still absent)
 * and, for producers that listed files, the set of files is the same. That is what makes an edit
 * of one file cost one file's parsing, whatever the workspace's size.
 */
import type { FileSource } from '../workspace/fileSource';
import type { FileTable } from './fileTable';

/** A memo entry as plain data, for snapshots. */
export interface MemoRecord<V> {
  key: string;
  value: V;
  deps: [string, string | null][];
  listing: string | null;
}

interface MemoEntry<V> {
  value: V;
  /** Path -> digest when read (undefined: asked about but absent). */
  deps: Map<string, string | undefined>;
  /** Listing signature when the producer listed files, else null. */
  listing: string | null;
}

export class TrackingSource implements FileSource {
  readonly deps = new Map<string, string | undefined>();
  listed = false;

  constructor(private readonly table: FileTable) {}

  list(): readonly string[] {
    this.listed = true;
    return this.table.list();
  }

  has(path: string): boolean {
    this.deps.set(path, this.table.digest(path));
    return this.table.has(path);
  }

  async readText(path: string): Promise<string | null> {
    this.deps.set(path, this.table.digest(path));
    return this.table.readText(path);
  }
}

export class ProducerMemo<V> {
  private entries = new Map<string, MemoEntry<V>>();
  private next = new Map<string, MemoEntry<V>>();
  hits = 0;
  misses = 0;

  /**
   * The value for `key`: the remembered one when its inputs are unchanged in `table`, else
   * `produce` runs against a tracking source. Entries not asked for in a pass are forgotten at
   * `endPass()`, so removed entities and files do not pile up.
   */
  async get(key: string, table: FileTable, listing: string, produce: (source: TrackingSource) => Promise<V> | V): Promise<V> {
    const entry = this.entries.get(key) ?? this.next.get(key);
    if (entry && isValid(entry, table, listing)) {
      this.hits++;
      this.next.set(key, entry);
      return entry.value;
    }
    this.misses++;
    const source = new TrackingSource(table);
    const value = await produce(source);
    this.next.set(key, { value, deps: source.deps, listing: source.listed ? listing : null });
    return value;
  }

  endPass(): void {
    this.entries = this.next;
    this.next = new Map();
  }

  /** The remembered entries as plain data (snapshot.ts writes them). */
  export(): MemoRecord<V>[] {
    return [...this.entries].map(([key, e]) => ({ key, value: e.value, deps: [...e.deps].map(([p, d]) => [p, d ?? null]), listing: e.listing }));
  }

  /** Restores entries written by `export`; they are checked against the next pass's files as usual. */
  import(records: readonly MemoRecord<V>[]): void {
    this.entries = new Map(records.map((r) => [r.key, { value: r.value, deps: new Map(r.deps.map(([p, d]) => [p, d ?? undefined])), listing: r.listing }]));
    this.next = new Map();
  }
}

function isValid<V>(entry: MemoEntry<V>, table: FileTable, listing: string): boolean {
  if (entry.listing !== null && entry.listing !== listing) return false;
  for (const [path, digest] of entry.deps) if (table.digest(path) !== digest) return false;
  return true;
}
