/**
 * The PostgreSQL store (engine/store/indexStore.ts) over the `pg` client: the only module that
 * imports `pg`. The engine never does; hosts open a store with {@link openPostgresStore} when
 * given `--store postgresql://...`.
 *
 * Writes run in one transaction per namespace (pgWrite.ts) and announce the namespace's new
 * generation on commit (NOTIFY; {@link PostgresStore.watch} listens); reads of one question, and a
 * reader's bulk read of a namespace (pgRead.ts), run in one read-only repeatable-read
 * transaction, so neither ever sees half a write.
 */
import { Client, Pool, type PoolClient } from 'pg';
import {
  InputError,
  isStoreUnavailable,
  UnavailableError,
  type IndexStore,
  type LoadedVersion,
  type LoadSink,
  type NamespaceBaseRows,
  type NamespaceLoad,
  type NearestWindows,
  type StoredNamespace,
  type StoredWindowRow,
  type VectorCatchUp,
  type CandidateRows,
  type LibraryRows,
  type NamespaceSizes,
  type PostingRow,
  type StoredDoc,
  type StoredWorkspace,
  type WriteReport,
  type CatalogEntity,
  type Relation,
} from '../../engine';
import { enablePgvector, nearestWindows, pgvectorReady, readMeaning, readWindows } from './pgVectors';
import { candidateRows, commitsOf, librarySections, loadNamespace, namespaceRow } from './pgRead';
import { blockOf, blockPostingRows, readTermBlocks } from './pgTermBlocks';
import { GENERATION_CHANNEL, writeNamespace } from './pgWrite';
import { SCHEMA_SQL, STORE_SCHEMA_VERSION } from './schema';

/** True when `url` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url.trim());
}

export interface PostgresStoreOptions {
  /** Connections kept open for concurrent readers (default $WSCTX_STORE_CONNECTIONS, else 10). */
  maxConnections?: number;
  /**
   * A write numbers a namespace's sections afresh once its ordinals pass twice its live sections
   * and this many (default 65,536, one term block: a small namespace is not renumbered every few writes).
   */
  renumberFloor?: number;
}

/**
 * Connects to the database at `url`, creates the schema when it is not there and checks its
 * version. Throws an {@link InputError} naming `--store` when the URL is not PostgreSQL's or the
 * server refuses it, an {@link UnavailableError} when the server cannot be reached.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  if (!isPostgresUrl(url)) throw new InputError(`--store: expected a postgresql:// connection string, got "${url}"`);
  const pool = new Pool({ connectionString: url, max: options.maxConnections ?? connectionsFromEnv() ?? 10 });
  // An idle connection the server drops must not bring the process down.
  pool.on('error', () => undefined);
  let pgvector: boolean;
  try {
    pgvector = await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof InputError) throw error;
    // Not reachable (down, restarting, no such host): try again later, exit 2. Anything else
    // (a refused password, a missing privilege, not a PostgreSQL server) is the URL's to fix.
    if (isStoreUnavailable(error))
      throw new UnavailableError(
        `--store: cannot reach the PostgreSQL database at ${redact(url)}: ${(error as Error).message}`,
      );
    throw new InputError(`--store: cannot use the PostgreSQL database at ${redact(url)}: ${(error as Error).message}`);
  }
  return new PostgresStore(pool, pgvector, url, options.renumberFloor);
}

/**
 * $WSCTX_STORE_CONNECTIONS: the pool size, for a server that takes fewer connections than the
 * default 10 (PGlite's socket server answers one transaction at a time: 1).
 */
function connectionsFromEnv(): number | undefined {
  const raw = process.env.WSCTX_STORE_CONNECTIONS;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new InputError(`WSCTX_STORE_CONNECTIONS must be a whole number 1..1000 (got "${raw}")`);
  return n;
}

/**
 * Creates or checks the schema; true when pgvector is enabled (its HNSW proposes meaning
 * candidates). A store already at this version is only read here: no statement that locks a
 * table, so a reader starting while a long write runs is not made to wait for it.
 */
async function migrate(pool: Pool): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const current = await schemaVersion(client);
    if (current === String(STORE_SCHEMA_VERSION)) {
      const ready = await pgvectorReady(client);
      if (ready !== 'missing-column') {
        await client.query('COMMIT');
        return ready === 'ready';
      }
    } else if (current !== undefined) {
      throw new InputError(
        `--store: the database holds a store of schema version ${current}; this wsctx writes version ${STORE_SCHEMA_VERSION} (drop the wsctx schema to index again)`,
      );
    }
    // Two processes creating the schema at once would race: one at a time.
    await client.query('SELECT pg_advisory_xact_lock(7461726)');
    await client.query(SCHEMA_SQL);
    const found = await client.query<{ value: string }>("SELECT value FROM wsctx.meta WHERE key = 'schema_version'");
    if (found.rows.length === 0)
      await client.query("INSERT INTO wsctx.meta (key, value) VALUES ('schema_version', $1)", [
        String(STORE_SCHEMA_VERSION),
      ]);
    else if (found.rows[0].value !== String(STORE_SCHEMA_VERSION)) {
      throw new InputError(
        `--store: the database holds a store of schema version ${found.rows[0].value}; this wsctx writes version ${STORE_SCHEMA_VERSION} (drop the wsctx schema to index again)`,
      );
    }
    const pgvector = await enablePgvector(client);
    await client.query('COMMIT');
    return pgvector;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The store's schema version, or undefined when there is no store in this database yet. */
async function schemaVersion(client: PoolClient): Promise<string | undefined> {
  const exists = await client.query<{ found: boolean }>("SELECT to_regclass('wsctx.meta') IS NOT NULL AS found");
  if (!exists.rows[0].found) return undefined;
  return (await client.query<{ value: string }>("SELECT value FROM wsctx.meta WHERE key = 'schema_version'")).rows[0]
    ?.value;
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

export class PostgresStore implements IndexStore {
  /** `pgvector`: the extension is enabled, so vectors get an HNSW index (else readers scan). */
  constructor(
    private readonly pool: Pool,
    readonly pgvector: boolean,
    private readonly url: string,
    private readonly renumberFloor?: number,
  ) {}

  async namespaces(): Promise<StoredNamespace[]> {
    const result = await this.pool.query<{
      name: string;
      abs_path: string;
      generation: number;
      indexed_at: string;
      vector_model: string | null;
      epoch: number;
      sizes: NamespaceSizes;
    }>(
      'SELECT name, abs_path, generation, indexed_at, vector_model, epoch, sizes FROM wsctx.namespaces WHERE generation > 0 ORDER BY name',
    );
    return result.rows.map((r) => ({
      name: r.name,
      absPath: r.abs_path,
      generation: r.generation,
      indexedAt: r.indexed_at,
      vectorModel: r.vector_model,
      epoch: r.epoch,
      sizes: r.sizes,
    }));
  }

  async generation(namespace: string): Promise<number | undefined> {
    const result = await this.pool.query<{ generation: number }>(
      'SELECT generation FROM wsctx.namespaces WHERE name = $1 AND generation > 0',
      [namespace],
    );
    return result.rows[0]?.generation;
  }

  async write(rows: StoredWorkspace): Promise<WriteReport> {
    return this.transaction('READ COMMITTED', false, (client) =>
      writeNamespace(client, rows, this.pgvector, this.renumberFloor),
    );
  }

  async readBase(namespace: string): Promise<NamespaceBaseRows | undefined> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) return undefined;
      const entities = (
        await client.query<{ entity: CatalogEntity }>(
          'SELECT entity FROM wsctx.entities WHERE ns = $1 ORDER BY position',
          [ns.id],
        )
      ).rows.map((r) => r.entity);
      const relations = (
        await client.query<{ relation: Relation }>('SELECT relation FROM wsctx.edges WHERE ns = $1 ORDER BY position', [
          ns.id,
        ])
      ).rows.map((r) => r.relation);
      const meaning = await readMeaning(client, ns.id);
      return {
        info: ns.info,
        generation: ns.generation,
        entities,
        relations,
        stats: ns.stats,
        ...(meaning ? { meaning } : {}),
      };
    });
  }

  async candidates(
    namespace: string,
    terms: readonly string[],
    namedEntities: readonly string[],
    alsoOrdinals: readonly number[] = [],
  ): Promise<CandidateRows> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      const postings = blockPostingRows(await readTermBlocks(client, ns.id, terms));
      const ordinals = [...new Set([...postings.map((p) => p.ordinal), ...alsoOrdinals])];
      return { postings, ...(await candidateRows(client, ns, ordinals, namedEntities)) };
    });
  }

  async termPostings(
    namespace: string,
    terms: readonly string[],
  ): Promise<{ generation: number; postings: PostingRow[] }> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      return { generation: ns.generation, postings: blockPostingRows(await readTermBlocks(client, ns.id, terms)) };
    });
  }

  async sectionCandidates(
    namespace: string,
    ordinals: readonly number[],
    terms: readonly string[],
    namedEntities: readonly string[],
  ): Promise<CandidateRows> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      // Only the terms' blocks that hold these sections' ordinals, kept to those sections.
      const blocks = [...new Set(ordinals.map(blockOf))];
      const postings =
        ordinals.length > 0
          ? blockPostingRows(await readTermBlocks(client, ns.id, terms, blocks), new Set(ordinals))
          : [];
      return { postings, ...(await candidateRows(client, ns, ordinals, namedEntities)) };
    });
  }

  async libraryRows(namespace: string): Promise<LibraryRows | undefined> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) return undefined;
      const docs = (
        await client.query<{ doc: StoredDoc }>(
          "SELECT doc FROM wsctx.docs WHERE ns = $1 AND doc->>'sourceKind' = 'library'",
          [ns.id],
        )
      ).rows.map((r) => r.doc);
      const sections = docs.length
        ? await librarySections(
            client,
            ns.id,
            docs.map((d) => d.id),
          )
        : [];
      // The library's postings: every term's blocks that hold a library section, kept to them.
      const ordinals = new Set(sections.map((s) => s.ordinal));
      const postings: PostingRow[] = [];
      if (ordinals.size) {
        const blocks = [...new Set([...ordinals].map(blockOf))];
        const terms = (
          await client.query<{ term: string }>(
            'SELECT DISTINCT term FROM wsctx.term_blocks WHERE ns = $1 AND block = ANY($2::int[])',
            [ns.id, blocks],
          )
        ).rows.map((r) => r.term);
        for (let i = 0; i < terms.length; i += 5000)
          for (const row of blockPostingRows(
            await readTermBlocks(client, ns.id, terms.slice(i, i + 5000), blocks),
            ordinals,
          ))
            postings.push(row);
      }
      const commits = await commitsOf(
        client,
        ns.id,
        docs.map((d) => d.path),
      );
      return { postings, sections, docs, commits, generation: ns.generation, stats: ns.stats };
    });
  }

  async documentFrequencies(
    namespace: string,
    terms: readonly string[],
    generation: number,
  ): Promise<Map<string, number> | undefined> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns || ns.generation !== generation) return undefined;
      const found = new Map<string, number>(terms.map((t) => [t, 0]));
      if (terms.length === 0) return found;
      const counts = await client.query<{ term: string; n: number }>(
        'SELECT term, sum(count)::int AS n FROM wsctx.term_blocks WHERE ns = $1 AND term = ANY($2::text[]) GROUP BY term',
        [ns.id, terms],
      );
      for (const r of counts.rows) found.set(r.term, r.n);
      return found;
    });
  }

  async readWindows(
    namespace: string,
    afterGeneration: number,
    onPage: (rows: StoredWindowRow[]) => void,
  ): Promise<VectorCatchUp> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      const removed = await readWindows(client, ns.id, afterGeneration, onPage);
      return { generation: ns.generation, removed };
    });
  }

  async nearestWindows(namespace: string, query: Float32Array, k: number): Promise<NearestWindows | undefined> {
    if (!this.pgvector) return undefined;
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      const meaning = await client.query<{ vector_hnsw: boolean; vector_dimension: number | null }>(
        'SELECT vector_hnsw, vector_dimension FROM wsctx.namespaces WHERE id = $1',
        [ns.id],
      );
      const row = meaning.rows[0];
      if (!row?.vector_hnsw || !row.vector_dimension) return undefined;
      return { generation: ns.generation, hits: await nearestWindows(client, ns.id, row.vector_dimension, query, k) };
    });
  }

  async sectionTexts(namespace: string, sectionIds: readonly string[]): Promise<Map<string, string>> {
    const result = await this.pool.query<{ id: string; text: string }>(
      'SELECT s.id, s.text FROM wsctx.sections s JOIN wsctx.namespaces n ON n.id = s.ns WHERE n.name = $1 AND s.id = ANY($2::text[])',
      [namespace, sectionIds],
    );
    return new Map(result.rows.map((r) => [r.id, r.text]));
  }

  async loadNamespace(
    namespace: string,
    since: LoadedVersion | undefined,
    sink: LoadSink,
  ): Promise<NamespaceLoad | undefined> {
    return this.transaction('REPEATABLE READ', true, (client) => loadNamespace(client, namespace, since, sink));
  }

  /**
   * Listens on the store's channel on a connection of its own (LISTEN/NOTIFY): each write's
   * commit calls `onChange`; `onLost` once when the connection fails or ends.
   */
  async watch(
    onChange: (change: { namespace: string; generation: number }) => void,
    onLost: (error: Error) => void,
  ): Promise<{ close(): Promise<void> } | undefined> {
    const client = new Client({ connectionString: this.url });
    let closing = false;
    let lost = false;
    const lose = (error: Error) => {
      if (closing || lost) return;
      lost = true;
      onLost(error);
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('the notification connection closed')));
    client.on('notification', (message) => {
      if (message.channel !== GENERATION_CHANNEL || !message.payload) return;
      try {
        const change = JSON.parse(message.payload) as { namespace?: unknown; generation?: unknown };
        if (typeof change.namespace === 'string' && typeof change.generation === 'number')
          onChange({ namespace: change.namespace, generation: change.generation });
      } catch {
        // Not ours: the channel is named for wsctx, but anyone may notify on it.
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${GENERATION_CHANNEL}`);
    } catch {
      closing = true;
      await client.end().catch(() => undefined);
      return undefined;
    }
    return {
      async close() {
        closing = true;
        await client.end().catch(() => undefined);
      },
    };
  }

  /** Removes a namespace and everything written for it. */
  async drop(namespace: string): Promise<boolean> {
    return this.transaction('READ COMMITTED', false, async (client) => {
      const gone = await client.query<{ id: number }>('DELETE FROM wsctx.namespaces WHERE name = $1 RETURNING id', [
        namespace,
      ]);
      if (gone.rows.length === 0) return false;
      await client.query('SELECT pg_notify($1, $2)', [
        GENERATION_CHANNEL,
        JSON.stringify({ namespace, generation: 0 }),
      ]);
      return true;
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async transaction<T>(
    isolation: 'READ COMMITTED' | 'REPEATABLE READ',
    readOnly: boolean,
    body: (client: PoolClient) => Promise<T>,
  ): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}${readOnly ? ' READ ONLY' : ''}`);
      const result = await body(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
