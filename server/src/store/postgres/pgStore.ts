/**
 * The PostgreSQL store (engine/store/indexStore.ts) over the `pg` client: the only module that
 * imports `pg`. The engine never does; hosts open a store with {@link openPostgresStore} when
 * given `--store postgresql://...`.
 *
 * Writes run in one transaction per namespace; reads of one question run in one read-only
 * repeatable-read transaction, so a question never sees half a write.
 */
import { Pool, type PoolClient } from 'pg';
import { sha256Hex, InputError, type IndexStore, type NamespaceBaseRows, type NearestWindows, type StoredNamespace, type StoredWindowRow, type VectorCatchUp, type CandidateRows, type CandidateSection, type LibraryRows, type NamespaceStats, type PostingRow, type StoredDoc, type StoredWorkspace, type StoredWorkspaceInfo, type WriteReport, type CatalogEntity, type FileCommitInfo, type Relation } from '../../engine';
import { enablePgvector, keptSections, nearestWindows, readMeaning, readWindows, writeVectors, type PlacedSection } from './pgVectors';
import { dropPostings, PostingsWriter } from './pgPostings';
import { SCHEMA_SQL, STORE_SCHEMA_VERSION } from './schema';
import { storableJson, unstorableCharacters } from './storableJson';

/** Rows per INSERT of sections (their texts make them large), and of commit facts. */
const SECTION_BATCH = 1000;
const COMMIT_BATCH = 20_000;

/** True when `url` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url.trim());
}

export interface PostgresStoreOptions {
  /** Connections kept open for concurrent readers (default $WSCTX_STORE_CONNECTIONS, else 10). */
  maxConnections?: number;
}

/**
 * Connects to the database at `url`, creates the schema when it is not there and checks its
 * version. Throws an {@link InputError} naming `--store` when the URL is not PostgreSQL's or the
 * server cannot be reached.
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
    throw new InputError(`--store: cannot use the PostgreSQL database at ${redact(url)}: ${(error as Error).message}`);
  }
  return new PostgresStore(pool, pgvector);
}

/**
 * $WSCTX_STORE_CONNECTIONS: the pool size, for a server that takes fewer connections than the
 * default 10 (PGlite's socket server answers one transaction at a time: 1).
 */
function connectionsFromEnv(): number | undefined {
  const raw = process.env.WSCTX_STORE_CONNECTIONS;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InputError(`WSCTX_STORE_CONNECTIONS must be a whole number 1..1000 (got "${raw}")`);
  return n;
}

/** Creates or checks the schema; true when pgvector is enabled (its HNSW proposes meaning candidates). */
async function migrate(pool: Pool): Promise<boolean> {
  const client = await pool.connect();
  try {
    // Two processes creating the schema at once would race: one at a time.
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(7461726)');
    await client.query(SCHEMA_SQL);
    const found = await client.query<{ value: string }>("SELECT value FROM wsctx.meta WHERE key = 'schema_version'");
    if (found.rows.length === 0) await client.query("INSERT INTO wsctx.meta (key, value) VALUES ('schema_version', $1)", [String(STORE_SCHEMA_VERSION)]);
    else if (found.rows[0].value !== String(STORE_SCHEMA_VERSION)) {
      throw new InputError(`--store: the database holds a store of schema version ${found.rows[0].value}; this wsctx writes version ${STORE_SCHEMA_VERSION} (drop the wsctx schema to index again)`);
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

/** The URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

export class PostgresStore implements IndexStore {
  /** `pgvector`: the extension is enabled, so vectors get an HNSW index (else readers scan). */
  constructor(
    private readonly pool: Pool,
    readonly pgvector: boolean,
  ) {}

  async namespaces(): Promise<StoredNamespace[]> {
    const result = await this.pool.query<{ name: string; abs_path: string; generation: number; indexed_at: string; vector_model: string | null }>(
      'SELECT name, abs_path, generation, indexed_at, vector_model FROM wsctx.namespaces WHERE generation > 0 ORDER BY name',
    );
    return result.rows.map((r) => ({ name: r.name, absPath: r.abs_path, generation: r.generation, indexedAt: r.indexed_at, vectorModel: r.vector_model }));
  }

  async generation(namespace: string): Promise<number | undefined> {
    const result = await this.pool.query<{ generation: number }>('SELECT generation FROM wsctx.namespaces WHERE name = $1 AND generation > 0', [namespace]);
    return result.rows[0]?.generation;
  }

  async write(rows: StoredWorkspace): Promise<WriteReport> {
    const started = performance.now();
    return this.transaction('READ COMMITTED', false, async (client) => {
      const name = rows.info.folder.name;
      // The upsert locks the namespace's row: two writers of one namespace go one after the other.
      const ns = (
        await client.query<{ id: number; catalog_digest: string; next_ordinal: number; generation: number; vector_model: string | null; vector_dimension: number | null; vector_hnsw: boolean }>(
          `INSERT INTO wsctx.namespaces (name, abs_path) VALUES ($1, $2)
           ON CONFLICT (name) DO UPDATE SET abs_path = EXCLUDED.abs_path
           RETURNING id, catalog_digest, next_ordinal, generation, vector_model, vector_dimension, vector_hnsw`,
          [name, rows.info.folder.absPath],
        )
      ).rows[0];
      const existing = new Map((await client.query<{ id: string; content_digest: string }>('SELECT id, content_digest FROM wsctx.docs WHERE ns = $1', [ns.id])).rows.map((r) => [r.id, r.content_digest]));
      const incoming = new Set(rows.docs.map((d) => d.doc.id));
      const changed = rows.docs.filter((d) => existing.get(d.doc.id) !== d.doc.contentDigest);
      const stale = [...existing.keys()].filter((id) => !incoming.has(id) || changed.some((d) => d.doc.id === id));
      let vectorsRemoved: number[] = [];
      if (stale.length) {
        vectorsRemoved = (
          await client.query<{ ordinal: number }>('SELECT ordinal FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[]) AND vector_digest IS NOT NULL', [ns.id, stale])
        ).rows.map((r) => r.ordinal);
        if (vectorsRemoved.length) await client.query('DELETE FROM wsctx.windows WHERE ns = $1 AND ordinal = ANY($2::int[])', [ns.id, vectorsRemoved]);
        await client.query('DELETE FROM wsctx.postings WHERE ns = $1 AND ordinal IN (SELECT ordinal FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[]))', [ns.id, stale]);
        await client.query('DELETE FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[])', [ns.id, stale]);
        await client.query('DELETE FROM wsctx.docs WHERE ns = $1 AND id = ANY($2::text[])', [ns.id, stale]);
      }
      let nextOrdinal = ns.next_ordinal;
      let sectionsWritten = 0;
      // Text PostgreSQL cannot hold (NUL, unpaired surrogates) is written as U+FFFD, per document.
      const storable = new StorableWriter(new Map(rows.docs.map((d) => [d.doc.id, d.doc.path])));
      await insertDocs(client, ns.id, changed.map((d) => d.doc), storable);
      const sectionRows: (Record<string, unknown> & { ordinal: number })[] = [];
      const postings = await PostingsWriter.open(client, ns.id);
      const fresh: PlacedSection[] = [];
      for (const { sections } of changed) {
        for (const s of sections) {
          const ordinal = nextOrdinal++;
          fresh.push({ ordinal, section: s });
          sectionRows.push({
            ordinal,
            id: s.id,
            doc_id: s.docId,
            position: s.position,
            heading_path: s.headingPath,
            level: s.level,
            start_line: s.startLine,
            end_line: s.endLine,
            entity_refs: s.entityRefs ?? null,
            body_length: s.bodyLength,
            short_lengths: s.shortLengths | 0,
            heading_length: s.headingLength,
            title_length: s.titleLength,
            context_length: s.contextLength,
            text: s.text,
          });
          await postings.add(ordinal, s.terms, s.packed);
          if (sectionRows.length >= SECTION_BATCH) sectionsWritten += await insertSections(client, ns.id, sectionRows.splice(0), storable);
        }
      }
      sectionsWritten += await insertSections(client, ns.id, sectionRows.splice(0), storable);
      await postings.finish();
      const postingsWritten = postings.written;

      const catalogDigest = sha256Hex(JSON.stringify([rows.entities, rows.relations]));
      const catalogWritten = catalogDigest !== ns.catalog_digest;
      if (catalogWritten) await writeCatalog(client, ns.id, rows.entities, rows.relations, storable);
      const commitsWritten = await writeCommits(client, ns.id, rows.commits);

      const generation = ns.generation + 1;
      const kept = await keptSections(client, ns.id, rows, new Set(changed.map((d) => d.doc.id)));
      const vectors = await writeVectors(client, ns, generation, rows.meaning, fresh, kept, vectorsRemoved, this.pgvector);
      await client.query(
        `UPDATE wsctx.namespaces n SET
           generation = $2, indexed_at = $3, info = $4::jsonb, catalog_digest = $5, next_ordinal = $6,
           section_count = s.count, body_length_sum = s.body, heading_length_sum = s.heading,
           title_length_sum = s.title, context_length_sum = s.context,
           doc_count = d.count, title_term_sum = d.title_terms,
           newest_commit_time = (SELECT max(last_commit_time) FROM wsctx.commits WHERE ns = $1)
         FROM (SELECT count(*)::int AS count, coalesce(sum(body_length), 0) AS body, coalesce(sum(heading_length), 0) AS heading,
                      coalesce(sum(title_length), 0) AS title, coalesce(sum(context_length), 0) AS context
                 FROM wsctx.sections WHERE ns = $1) s,
              (SELECT count(*)::int AS count, coalesce(sum(title_term_count), 0) AS title_terms FROM wsctx.docs WHERE ns = $1) d
         WHERE n.id = $1`,
        [ns.id, generation, rows.info.indexedAt, storable.one(rows.info, `${name} (its problems and facts)`), catalogDigest, nextOrdinal],
      );
      return {
        namespace: name,
        documentsWritten: changed.length,
        documentsKept: rows.docs.length - changed.length,
        documentsRemoved: stale.length - changed.filter((d) => existing.has(d.doc.id)).length,
        sectionsWritten,
        postingsWritten,
        catalogWritten,
        commitsWritten,
        vectorSectionsWritten: vectors.sections,
        windowsWritten: vectors.windows,
        generation,
        durationMs: performance.now() - started,
        cleaned: [...storable.cleaned].map(([path, characters]) => ({ path, characters })),
      };
    });
  }

  async readBase(namespace: string): Promise<NamespaceBaseRows | undefined> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) return undefined;
      const entities = (await client.query<{ entity: CatalogEntity }>('SELECT entity FROM wsctx.entities WHERE ns = $1 ORDER BY position', [ns.id])).rows.map((r) => r.entity);
      const relations = (await client.query<{ relation: Relation }>('SELECT relation FROM wsctx.edges WHERE ns = $1 ORDER BY position', [ns.id])).rows.map((r) => r.relation);
      const meaning = await readMeaning(client, ns.id);
      return { info: ns.info, generation: ns.generation, entities, relations, stats: ns.stats, ...(meaning ? { meaning } : {}) };
    });
  }

  async candidates(namespace: string, terms: readonly string[], namedEntities: readonly string[], alsoOrdinals: readonly number[] = []): Promise<CandidateRows> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      const postings = await termPostings(client, ns.id, terms);
      const ordinals = [...new Set([...postings.map((p) => p.ordinal), ...alsoOrdinals])];
      return { postings, ...(await candidateRows(client, ns, ordinals, namedEntities)) };
    });
  }

  async termPostings(namespace: string, terms: readonly string[]): Promise<{ generation: number; postings: PostingRow[] }> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      return { generation: ns.generation, postings: await termPostings(client, ns.id, terms) };
    });
  }

  async sectionCandidates(namespace: string, ordinals: readonly number[], terms: readonly string[], namedEntities: readonly string[]): Promise<CandidateRows> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) throw new Error(`store: namespace ${namespace} is not stored`);
      // Looked up section by section through the primary key (ns, term, ordinal): the terms' lists can be long.
      const postings: PostingRow[] = [];
      if (terms.length > 0 && ordinals.length > 0) {
        const found = await client.query<PostingRow>(
          `SELECT p.ordinal, p.term, p.packed FROM unnest($2::int[]) AS o(ordinal)
             JOIN wsctx.postings p ON p.ns = $1 AND p.term = ANY($3::text[]) AND p.ordinal = o.ordinal`,
          [ns.id, ordinals, terms],
        );
        for (const r of found.rows) postings.push({ ordinal: r.ordinal, term: r.term, packed: r.packed >>> 0 });
      }
      return { postings, ...(await candidateRows(client, ns, ordinals, namedEntities)) };
    });
  }

  async libraryRows(namespace: string): Promise<LibraryRows | undefined> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns) return undefined;
      const docs = (await client.query<{ doc: StoredDoc }>("SELECT doc FROM wsctx.docs WHERE ns = $1 AND doc->>'sourceKind' = 'library'", [ns.id])).rows.map((r) => r.doc);
      const docIds = docs.map((d) => d.id);
      const sections = (
        await client.query<SectionRow & { text: string }>(
          `SELECT ordinal, id, doc_id, position, heading_path, level, start_line, end_line, entity_refs, body_length, short_lengths, text
             FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[])`,
          [ns.id, docIds],
        )
      ).rows.map((r) => ({ ...candidateSection(r), text: r.text }));
      const postings = (
        await client.query<{ ordinal: number; term: string; packed: number }>(
          'SELECT p.ordinal, p.term, p.packed FROM wsctx.postings p JOIN wsctx.sections s ON s.ns = p.ns AND s.ordinal = p.ordinal WHERE p.ns = $1 AND s.doc_id = ANY($2::text[])',
          [ns.id, docIds],
        )
      ).rows.map((r) => ({ ordinal: r.ordinal, term: r.term, packed: r.packed >>> 0 }));
      const commits = await commitsOf(client, ns.id, docs.map((d) => d.path));
      return { postings, sections, docs, commits, generation: ns.generation, stats: ns.stats };
    });
  }

  async documentFrequencies(namespace: string, terms: readonly string[], generation: number): Promise<Map<string, number> | undefined> {
    return this.transaction('REPEATABLE READ', true, async (client) => {
      const ns = await namespaceRow(client, namespace);
      if (!ns || ns.generation !== generation) return undefined;
      const found = new Map<string, number>(terms.map((t) => [t, 0]));
      if (terms.length === 0) return found;
      const counts = await client.query<{ term: string; n: number }>('SELECT term, count(*)::int AS n FROM wsctx.postings WHERE ns = $1 AND term = ANY($2::text[]) GROUP BY term', [ns.id, terms]);
      for (const r of counts.rows) found.set(r.term, r.n);
      return found;
    });
  }

  async readWindows(namespace: string, afterGeneration: number, onPage: (rows: StoredWindowRow[]) => void): Promise<VectorCatchUp> {
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
      const meaning = await client.query<{ vector_hnsw: boolean; vector_dimension: number | null }>('SELECT vector_hnsw, vector_dimension FROM wsctx.namespaces WHERE id = $1', [ns.id]);
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

  /** Removes a namespace and everything written for it. */
  async drop(namespace: string): Promise<boolean> {
    return this.transaction('READ COMMITTED', false, async (client) => {
      const gone = await client.query<{ id: number }>('DELETE FROM wsctx.namespaces WHERE name = $1 RETURNING id', [namespace]);
      if (gone.rows.length === 0) return false;
      // The namespace's postings are its own partition (pgPostings.ts), not a cascade of the row.
      await dropPostings(client, gone.rows[0].id);
      return true;
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async transaction<T>(isolation: 'READ COMMITTED' | 'REPEATABLE READ', readOnly: boolean, body: (client: PoolClient) => Promise<T>): Promise<T> {
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

interface SectionRow {
  ordinal: number;
  id: string;
  doc_id: string;
  position: number;
  heading_path: string[];
  level: number;
  start_line: number;
  end_line: number;
  entity_refs: string[] | null;
  body_length: number;
  short_lengths: number;
}

function candidateSection(r: SectionRow): CandidateSection {
  return {
    ordinal: r.ordinal,
    id: r.id,
    docId: r.doc_id,
    position: r.position,
    headingPath: r.heading_path,
    level: r.level,
    startLine: r.start_line,
    endLine: r.end_line,
    text: '',
    ...(r.entity_refs ? { entityRefs: r.entity_refs } : {}),
    bodyLength: r.body_length,
    shortLengths: r.short_lengths >>> 0,
  };
}

async function namespaceRow(client: PoolClient, name: string): Promise<{ id: number; generation: number; info: StoredWorkspaceInfo; stats: NamespaceStats } | undefined> {
  const result = await client.query<{
    id: number;
    generation: number;
    info: StoredWorkspaceInfo;
    section_count: number;
    body: number;
    heading: number;
    title: number;
    context: number;
    doc_count: number;
    title_terms: number;
    newest_commit_time: number | null;
  }>(
    `SELECT id, generation, info, section_count, body_length_sum::float8 AS body, heading_length_sum::float8 AS heading,
            title_length_sum::float8 AS title, context_length_sum::float8 AS context, doc_count, title_term_sum::float8 AS title_terms,
            newest_commit_time
       FROM wsctx.namespaces WHERE name = $1 AND generation > 0`,
    [name],
  );
  const r = result.rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    generation: r.generation,
    info: r.info,
    stats: { sectionCount: r.section_count, lengthSums: { body: r.body, heading: r.heading, title: r.title, context: r.context }, docCount: r.doc_count, titleTermSum: r.title_terms, newestCommitTime: r.newest_commit_time },
  };
}

/** Every posting of `terms` in namespace `ns` (their whole lists). */
async function termPostings(client: PoolClient, ns: number, terms: readonly string[]): Promise<PostingRow[]> {
  if (terms.length === 0) return [];
  const rows = await client.query<PostingRow>('SELECT ordinal, term, packed FROM wsctx.postings WHERE ns = $1 AND term = ANY($2::text[])', [ns, terms]);
  return rows.rows.map((r) => ({ ordinal: r.ordinal, term: r.term, packed: r.packed >>> 0 }));
}

/** The candidate rows but the postings: the sections at `ordinals`, their documents and git facts, the named entities' share. */
async function candidateRows(client: PoolClient, ns: { id: number; generation: number; stats: NamespaceStats }, ordinals: readonly number[], namedEntities: readonly string[]): Promise<Omit<CandidateRows, 'postings'>> {
  const sections = (
    await client.query<SectionRow>(
      `SELECT ordinal, id, doc_id, position, heading_path, level, start_line, end_line, entity_refs, body_length, short_lengths
         FROM wsctx.sections WHERE ns = $1 AND ordinal = ANY($2::int[])`,
      [ns.id, ordinals],
    )
  ).rows.map(candidateSection);
  const docIds = [...new Set(sections.map((s) => s.docId))];
  const docs = (await client.query<{ doc: StoredDoc }>('SELECT doc FROM wsctx.docs WHERE ns = $1 AND id = ANY($2::text[])', [ns.id, docIds])).rows.map((r) => r.doc);
  const commits = await commitsOf(client, ns.id, docs.map((d) => d.path));
  let namedEntitySections = 0;
  if (namedEntities.length) {
    const named = await client.query<{ n: number }>('SELECT coalesce(sum(section_count), 0)::int AS n FROM wsctx.docs WHERE ns = $1 AND entity_refs && $2::text[]', [ns.id, namedEntities]);
    namedEntitySections = named.rows[0].n;
  }
  return { sections, docs, commits, namedEntitySections, generation: ns.generation, stats: ns.stats };
}

/** The git facts of the documents at `paths`. */
async function commitsOf(client: PoolClient, ns: number, paths: readonly string[]): Promise<Map<string, FileCommitInfo>> {
  const rows = await client.query<{ path: string; commit: string | null; dirty: boolean; last_commit_time: number | null }>(
    'SELECT path, commit, dirty, last_commit_time FROM wsctx.commits WHERE ns = $1 AND path = ANY($2::text[])',
    [ns, paths],
  );
  return new Map(rows.rows.map((r) => [r.path, { commit: r.commit, dirty: r.dirty, lastCommitTime: r.last_commit_time }]));
}

/**
 * The JSON of each batch a write sends, made storable (storableJson.ts); when a batch held text
 * PostgreSQL refuses, each of its items is checked to name the documents that held it.
 */
class StorableWriter {
  readonly cleaned = new Map<string, number>();
  constructor(private readonly pathByDocId: ReadonlyMap<string, string>) {}

  json<T>(batch: readonly T[], pathOf: (item: T) => string): string {
    const out = storableJson(batch);
    if (out.replaced > 0) {
      for (const item of batch) {
        const replaced = unstorableCharacters(item);
        if (replaced > 0) this.cleaned.set(pathOf(item), (this.cleaned.get(pathOf(item)) ?? 0) + replaced);
      }
    }
    return out.json;
  }

  one(value: unknown, path: string): string {
    const out = storableJson(value);
    if (out.replaced > 0) this.cleaned.set(path, (this.cleaned.get(path) ?? 0) + out.replaced);
    return out.json;
  }

  pathOfDoc(id: unknown): string {
    return this.pathByDocId.get(String(id)) ?? String(id);
  }
}

async function insertDocs(client: PoolClient, ns: number, docs: readonly StoredDoc[], storable: StorableWriter): Promise<void> {
  for (let i = 0; i < docs.length; i += SECTION_BATCH) {
    const batch = docs.slice(i, i + SECTION_BATCH).map((d) => ({ id: d.id, path: d.path, entity_refs: d.entityRefs, section_count: d.sectionCount, title_term_count: d.titleTerms.length, content_digest: d.contentDigest, doc: d }));
    await client.query(
      `INSERT INTO wsctx.docs (ns, id, path, entity_refs, section_count, title_term_count, content_digest, doc)
       SELECT $1, x.id, x.path, ARRAY(SELECT jsonb_array_elements_text(x.entity_refs)), x.section_count, x.title_term_count, x.content_digest, x.doc
         FROM jsonb_to_recordset($2::jsonb) AS x(id text, path text, entity_refs jsonb, section_count int, title_term_count int, content_digest text, doc jsonb)`,
      [ns, storable.json(batch, (d) => d.path)],
    );
  }
}

async function insertSections(client: PoolClient, ns: number, rows: readonly Record<string, unknown>[], storable: StorableWriter): Promise<number> {
  if (rows.length === 0) return 0;
  await client.query(
    `INSERT INTO wsctx.sections (ns, ordinal, id, doc_id, position, heading_path, level, start_line, end_line, entity_refs,
                                 body_length, short_lengths, heading_length, title_length, context_length, text)
     SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(ordinal int, id text, doc_id text, position int, heading_path jsonb, level smallint,
       start_line int, end_line int, entity_refs jsonb, body_length int, short_lengths int, heading_length int, title_length int, context_length int, text text)`,
    [ns, storable.json(rows, (row) => storable.pathOfDoc(row.doc_id))],
  );
  return rows.length;
}

async function writeCatalog(client: PoolClient, ns: number, entities: readonly CatalogEntity[], relations: readonly Relation[], storable: StorableWriter): Promise<void> {
  await client.query('DELETE FROM wsctx.entities WHERE ns = $1', [ns]);
  await client.query('DELETE FROM wsctx.edges WHERE ns = $1', [ns]);
  for (let i = 0; i < entities.length; i += SECTION_BATCH) {
    const batch = entities.slice(i, i + SECTION_BATCH).map((entity, k) => ({ position: i + k, key: entity.key, entity }));
    await client.query('INSERT INTO wsctx.entities (ns, position, key, entity) SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(position int, key text, entity jsonb)', [ns, storable.json(batch, (row) => row.entity.location.path)]);
  }
  for (let i = 0; i < relations.length; i += SECTION_BATCH) {
    const batch = relations.slice(i, i + SECTION_BATCH).map((relation, k) => ({ position: i + k, source: relation.source, type: relation.type, target: relation.target, relation }));
    await client.query(
      'INSERT INTO wsctx.edges (ns, position, source, type, target, relation) SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(position int, source text, type text, target text, relation jsonb)',
      [ns, storable.json(batch, (row) => row.relation.origin.path)],
    );
  }
}

/** Writes the commit facts that changed and removes those of files no longer indexed; returns how many were written. */
async function writeCommits(client: PoolClient, ns: number, commits: readonly [string, FileCommitInfo][]): Promise<number> {
  const existing = new Map(
    (await client.query<{ path: string; commit: string | null; dirty: boolean; last_commit_time: number | null }>('SELECT path, commit, dirty, last_commit_time FROM wsctx.commits WHERE ns = $1', [ns])).rows.map((r) => [
      r.path,
      `${r.commit}\u0000${r.dirty}\u0000${r.last_commit_time}`,
    ]),
  );
  const incoming = new Set(commits.map(([p]) => p));
  const gone = [...existing.keys()].filter((p) => !incoming.has(p));
  if (gone.length) await client.query('DELETE FROM wsctx.commits WHERE ns = $1 AND path = ANY($2::text[])', [ns, gone]);
  const changed = commits.filter(([p, c]) => existing.get(p) !== `${c.commit}\u0000${c.dirty}\u0000${c.lastCommitTime}`);
  for (let i = 0; i < changed.length; i += COMMIT_BATCH) {
    const batch = changed.slice(i, i + COMMIT_BATCH);
    await client.query(
      `INSERT INTO wsctx.commits (ns, path, commit, dirty, last_commit_time)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::boolean[], $5::float8[])
       ON CONFLICT (ns, path) DO UPDATE SET commit = EXCLUDED.commit, dirty = EXCLUDED.dirty, last_commit_time = EXCLUDED.last_commit_time`,
      [ns, batch.map(([p]) => p), batch.map(([, c]) => c.commit), batch.map(([, c]) => c.dirty), batch.map(([, c]) => c.lastCommitTime)],
    );
  }
  return changed.length;
}
