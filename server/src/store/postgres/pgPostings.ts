/**
 * Writing a namespace's postings (schema.ts `postings`, one row per (term, section)).
 *
 * `wsctx.postings` is partitioned by namespace, one table per namespace (`wsctx.postings_<id>`),
 * so the first write of a namespace can load its postings into a table with no index yet and
 * build the indexes once, sorted, at the end: keeping the primary key up to date row by row
 * made index maintenance most of a first write (at 10k generated sections, 800k rows: 5.6 s
 * with the indexes in place against 1.2 s to insert and 1.2 s to build them afterwards). The
 * table is attached as the namespace's partition only when it is complete, inside the write's
 * transaction, so readers never see it half loaded. Later writes of the namespace insert through
 * the parent into the indexed partition, as before.
 *
 * Why not COPY: rows go in through `INSERT ... SELECT FROM unnest(...)` with large arrays at
 * about 650k rows a second here once no index is kept, the same order as the index build that
 * follows, so COPY (a dependency, and a path PGlite's socket server does not take) would shorten
 * the smaller half of the write only.
 */
import type { PoolClient } from './pgVectors';

/** Postings per INSERT: the three arrays of one statement. */
const POSTING_BATCH = 50_000;
/** Sort memory for building a freshly loaded partition's indexes (PostgreSQL's default is 64MB). */
const INDEX_BUILD_MEMORY = '512MB';

/** The qualified name of namespace `ns`'s postings table. */
export function postingsTable(ns: number): string {
  return `wsctx.postings_${ns | 0}`;
}

/** Drops namespace `ns`'s postings table (its partition), if there is one. */
export async function dropPostings(client: PoolClient, ns: number): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${postingsTable(ns)}`);
}

/**
 * Collects one write's postings and sends them in batches. Open it with {@link PostingsWriter.open}, add
 * each section's postings, then {@link PostingsWriter.finish} before the transaction commits.
 */
export class PostingsWriter {
  /** Postings sent so far. */
  written = 0;
  private terms: string[] = [];
  private ordinals: number[] = [];
  private packed: number[] = [];

  private constructor(
    private readonly client: PoolClient,
    private readonly ns: number,
    /** True when loading a new, unindexed table that {@link finish} indexes and attaches. */
    readonly bulk: boolean,
  ) {}

  /** A writer for namespace `ns`: a bulk load when the namespace has no postings table yet. */
  static async open(client: PoolClient, ns: number): Promise<PostingsWriter> {
    const found = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [postingsTable(ns)]);
    const bulk = !found.rows[0].exists;
    if (bulk) {
      // The CHECK implies the partition's bound, so attaching it needs no scan of the rows.
      await client.query(
        `CREATE TABLE ${postingsTable(ns)} (ns integer NOT NULL CHECK (ns = ${ns | 0}), term text NOT NULL, ordinal integer NOT NULL, packed integer NOT NULL)`,
      );
    }
    return new PostingsWriter(client, ns, bulk);
  }

  /** Adds one section's postings (`packed`: uint32 field counts, stored as their int4 bit pattern). */
  async add(ordinal: number, terms: readonly string[], packed: readonly number[]): Promise<void> {
    for (let k = 0; k < terms.length; k++) {
      this.terms.push(terms[k]);
      this.ordinals.push(ordinal);
      this.packed.push(packed[k] | 0);
    }
    if (this.terms.length >= POSTING_BATCH) await this.flush();
  }

  /** Sends what is left; on a bulk load, builds the table's indexes and attaches it as the namespace's partition. */
  async finish(): Promise<void> {
    await this.flush();
    if (!this.bulk) return;
    const table = postingsTable(this.ns);
    await this.client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    // The same columns as the parent's indexes: attaching adopts them instead of building new ones.
    await this.client.query(`ALTER TABLE ${table} ADD PRIMARY KEY (ns, term, ordinal)`);
    await this.client.query(`CREATE INDEX ON ${table} (ns, ordinal)`);
    await this.client.query(`ALTER TABLE wsctx.postings ATTACH PARTITION ${table} FOR VALUES IN (${this.ns | 0})`);
  }

  private async flush(): Promise<void> {
    if (this.terms.length === 0) return;
    // A bulk load goes straight into its table (not attached yet); later writes through the parent.
    const target = this.bulk ? postingsTable(this.ns) : 'wsctx.postings';
    await this.client.query(`INSERT INTO ${target} (ns, term, ordinal, packed) SELECT $1, * FROM unnest($2::text[], $3::int[], $4::int[])`, [this.ns, this.terms, this.ordinals, this.packed]);
    this.written += this.terms.length;
    this.terms = [];
    this.ordinals = [];
    this.packed = [];
  }
}
