/**
 * Memoised parser calls, valid for as long as the files they read are unchanged.
 *
 * A producer (load the catalog, read one entity's TechDocs...) runs against a `TrackingSource`
 * that records every path it read or asked about, every directory it listed and whether it listed
 * the whole workspace. The next index pass reuses the result when each of those paths has the same
 * digest (or is still absent), each listed directory holds the same files and, for producers that
 * listed the workspace, the set of files is the same. That is what makes an edit of one file cost
 * one file's parsing, whatever the workspace's size.
 */
import { sha256Hex } from '../chunking/ids';
import type { FileSource } from '../workspace/fileSource';
import type { FileTable } from './fileTable';

/** A memo entry as plain data, for snapshots. */
export interface MemoRecord<V> {
  key: string;
  value: V;
  deps: [string, string | null][];
  listing: string | null;
  /** Directories listed with `listUnder`, each with the signature of the files it held. */
  dirs?: [string, string][];
}

interface MemoEntry<V> {
  value: V;
  /** Path -> digest when read (undefined: asked about but absent). */
  deps: Map<string, string | undefined>;
  /** Listing signature when the producer listed files, else null. */
  listing: string | null;
  /** Directory -> signature of the files under it, for producers that listed directories. */
  dirs: Map<string, string> | null;
  /**
   * The listing signature the directories were last checked against: while the workspace's file
   * set is unchanged (every update pass), no directory can have changed and none is listed again.
   */
  dirsCheckedAt: string | null;
  /** The last pass that asked for the entry (entries not asked for are dropped at its end). */
  pass: number;
}

/** Signature of a directory's files: equal signatures, equal file lists. */
export function directorySignature(paths: readonly string[]): string {
  return sha256Hex(paths.join('\n'));
}

export class TrackingSource implements FileSource {
  readonly deps = new Map<string, string | undefined>();
  readonly dirs = new Map<string, string>();
  listed = false;

  constructor(private readonly table: FileTable) {}

  list(): readonly string[] {
    this.listed = true;
    return this.table.list();
  }

  /** Records the directory and what it holds, so adding or removing a file in it invalidates. */
  listUnder(dir: string): readonly string[] {
    const paths = this.table.listUnder(dir);
    if (!this.dirs.has(dir)) this.dirs.set(dir, directorySignature(paths));
    return paths;
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

/**
 * One producer's memo.
 *
 * Checking every entry's inputs on every pass costs O(entries x inputs), which at 100k sections
 * is most of a one-file update. So the memo keeps, per input path, the keys of the entries that
 * read it, and a table made from the one the memo was last valid for (`FileTable.delta`) names the
 * paths whose digest changed: only entries depending on those (and, when files were added or
 * removed, entries that listed files) are checked; the others are valid as they are. Any other
 * table (the first pass, a restored snapshot, a pass that did not finish) checks every entry.
 */
export class ProducerMemo<V> {
  private entries = new Map<string, MemoEntry<V>>();
  /** Number of the pass in progress (or last ended). */
  private passNumber = 0;
  /** Id of the table every entry is valid for at the end of a pass; 0 when none is known. */
  private validFor = 0;
  /**
   * Input path -> keys of entries that read it or asked about it. May also name keys that no
   * longer depend on the path (dropped or re-produced entries): those are checked in full, which
   * is only slower. Rebuilt whenever a pass checks everything, and when stale keys pile up.
   */
  private dependents = new Map<string, Set<string>>();
  /** Keys of entries that listed the workspace or a directory. */
  private listers = new Set<string>();
  /** Entries tracked since `dependents` was last rebuilt (bounds its stale keys). */
  private tracked = 0;
  /** The pass in progress: its table and the keys to check (null: check every key). */
  private pass: { table: FileTable; suspects: Set<string> | null } | undefined;
  hits = 0;
  misses = 0;
  /** Entries checked against their inputs (the rest were known valid from the table's delta). */
  checks = 0;

  /**
   * The value for `key`: the remembered one when its inputs are unchanged in `table`, else
   * `produce` runs against a tracking source. Entries not asked for in a pass are forgotten at
   * `endPass()`, so removed entities and files do not pile up.
   */
  async get(
    key: string,
    table: FileTable,
    listing: string,
    produce: (source: TrackingSource) => Promise<V> | V,
  ): Promise<V> {
    const hit = this.lookup(key, table, listing);
    if (hit) return hit.value;
    this.misses++;
    const source = new TrackingSource(table);
    const value = await produce(source);
    const dirs = source.dirs.size > 0 ? source.dirs : null;
    const entry: MemoEntry<V> = {
      value,
      deps: source.deps,
      listing: source.listed ? listing : null,
      dirs,
      dirsCheckedAt: dirs ? listing : null,
      pass: this.passNumber,
    };
    this.entries.set(key, entry);
    this.track(key, entry);
    return value;
  }

  /**
   * The remembered value for `key` when still valid (kept for this pass, as `get` keeps it), else
   * undefined; synchronous, for loops over every file where awaiting each hit would cost more
   * than the check itself.
   */
  lookup(key: string, table: FileTable, listing: string): { value: V } | undefined {
    const pass = this.begin(table);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.pass !== this.passNumber) {
      if (pass.suspects === null || pass.suspects.has(key)) {
        this.checks++;
        if (!isValid(entry, table, listing)) return undefined;
      }
      entry.pass = this.passNumber;
    }
    this.hits++;
    return entry;
  }

  /**
   * For an entry `lookup` found stale: its value and the paths it read whose digest changed, so
   * a producer can patch the value instead of producing it again (`refresh` stores the patch).
   * Undefined when there is no entry, or when what it listed changed (a file added or removed).
   */
  staleInputs(key: string, table: FileTable, listing: string): { value: V; paths: string[] } | undefined {
    const entry = this.entries.get(key);
    if (!entry || (entry.listing !== null && entry.listing !== listing)) return undefined;
    if (entry.dirs && entry.dirsCheckedAt !== listing) return undefined;
    const paths: string[] = [];
    // In a pass made from the table the memo was valid for, only the delta's paths can differ.
    const pass = this.begin(table);
    const candidates = pass.suspects !== null && table.delta ? table.delta.paths : entry.deps.keys();
    for (const path of candidates) {
      const digest = entry.deps.get(path);
      if ((digest !== undefined || entry.deps.has(path)) && table.digest(path) !== digest) paths.push(path);
    }
    return { value: entry.value, paths };
  }

  /**
   * Replaces the value of `key` with one patched for `paths` (from `staleInputs`): it read the
   * same files, those at their digest in `table`, and is kept for this pass.
   */
  refresh(key: string, value: V, table: FileTable, paths: readonly string[]): void {
    this.begin(table);
    const entry = this.entries.get(key)!;
    this.misses++;
    entry.value = value;
    for (const path of paths) entry.deps.set(path, table.digest(path));
    entry.pass = this.passNumber;
  }

  /** Ends the pass: entries it did not ask for are dropped. */
  endPass(): void {
    const checkedAll = this.pass?.suspects === null;
    if (!this.pass) this.entries.clear();
    for (const [key, entry] of this.entries) if (entry.pass !== this.passNumber) this.entries.delete(key);
    this.validFor = this.pass?.table.id ?? 0;
    this.pass = undefined;
    if (checkedAll || this.tracked > 2 * this.entries.size + 1024) {
      this.dependents = new Map();
      this.listers = new Set();
      this.tracked = 0;
      for (const [key, entry] of this.entries) this.track(key, entry);
    }
  }

  /** The remembered entries as plain data (snapshot.ts writes them). */
  export(): MemoRecord<V>[] {
    return [...this.entries].map(([key, e]) => {
      const record: MemoRecord<V> = {
        key,
        value: e.value,
        deps: [...e.deps].map(([p, d]) => [p, d ?? null]),
        listing: e.listing,
      };
      if (e.dirs) record.dirs = [...e.dirs];
      return record;
    });
  }

  /** Restores entries written by `export`; they are checked against the next pass's files as usual. */
  import(records: readonly MemoRecord<V>[]): void {
    this.passNumber++;
    this.entries = new Map(
      records.map((r) => [
        r.key,
        {
          value: r.value,
          deps: new Map(r.deps.map(([p, d]) => [p, d ?? undefined])),
          listing: r.listing,
          dirs: r.dirs ? new Map(r.dirs) : null,
          // Unknown: the first pass after a restore lists each directory once.
          dirsCheckedAt: null,
          pass: 0,
        },
      ]),
    );
    this.validFor = 0;
    this.pass = undefined;
  }

  /** Starts a pass on the first call with a new table. */
  private begin(table: FileTable): { table: FileTable; suspects: Set<string> | null } {
    if (this.pass?.table === table) return this.pass;
    // A pass that never ended (it threw) cannot vouch for anything: check everything.
    const ended = this.pass === undefined;
    this.passNumber++;
    const delta = table.delta;
    let suspects: Set<string> | null = null;
    if (ended && this.validFor !== 0 && delta?.from === this.validFor) {
      suspects = new Set();
      for (const path of delta.paths) for (const key of this.dependents.get(path) ?? []) suspects.add(key);
      if (delta.listingChanged) for (const key of this.listers) suspects.add(key);
    }
    this.pass = { table, suspects };
    return this.pass;
  }

  private track(key: string, entry: MemoEntry<V>): void {
    this.tracked++;
    for (const path of entry.deps.keys()) {
      const keys = this.dependents.get(path);
      if (keys) keys.add(key);
      else this.dependents.set(path, new Set([key]));
    }
    if (entry.listing !== null || entry.dirs) this.listers.add(key);
  }
}

function isValid<V>(entry: MemoEntry<V>, table: FileTable, listing: string): boolean {
  if (entry.listing !== null && entry.listing !== listing) return false;
  for (const [path, digest] of entry.deps) if (table.digest(path) !== digest) return false;
  if (entry.dirs && entry.dirsCheckedAt !== listing) {
    for (const [dir, signature] of entry.dirs) if (directorySignature(table.listUnder(dir)) !== signature) return false;
    entry.dirsCheckedAt = listing;
  }
  return true;
}
