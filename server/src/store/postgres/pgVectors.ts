/**
 * The vectors of a PostgreSQL store (schema.ts `windows`): written per section by the digest of
 * the text embedded and the embedder id, read by readers incrementally (by generation), and
 * searched by pgvector's HNSW where the extension exists.
 *
 * Every window is stored as the in-memory index's int8 codes and 1 / |codes| (bytea and real:
 * a float32 round-trips exactly through `real`), so a reader's cosines are bit for bit the
 * in-memory engine's. With pgvector, the window's unit vector (dequantized from those codes) is
 * stored besides for the HNSW index; it only proposes candidates, it never scores them.
 */
import type {
  StoredMeaningRows,
  StoredWindowRow,
  VectorCatchUp,
  StoredMeaning,
  StoredSectionTerms,
  StoredWorkspace,
} from '../../engine';

/**
 * What these functions need of a connection: pgStore.ts, the one module that imports the client
 * library (test/unit/importRules.test.ts), hands its pooled client in a transaction.
 */
export interface PoolClient {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** Windows per INSERT (with pgvector each carries a ~3 kB vector literal). */
const WINDOW_BATCH = 2000;
/** Windows read per query while a reader catches up (keyset pages inside one snapshot). */
const READ_BATCH = 50_000;
/** pgvector HNSW build parameters (its defaults) and the search list, above MEANING_CANDIDATES x 3. */
const HNSW_M = 16;
const HNSW_EF_CONSTRUCTION = 64;
const HNSW_EF_SEARCH = 400;

/** Tries to enable pgvector (needs the extension installed and the right to create it); false otherwise. */
export async function enablePgvector(client: PoolClient): Promise<boolean> {
  const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rows.length === 0) return false;
  await client.query('SAVEPOINT pgvector');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    await client.query('ALTER TABLE wsctx.windows ADD COLUMN IF NOT EXISTS embedding vector');
    await client.query('RELEASE SAVEPOINT pgvector');
    return true;
  } catch {
    // No right to create it: the exact scan serves, as on a server without the extension.
    await client.query('ROLLBACK TO SAVEPOINT pgvector');
    return false;
  }
}

/**
 * Whether pgvector serves a store already made, without changing anything: `ready` (the extension
 * and the column are there), `absent` (no extension to load, or the store was made without it),
 * or `missing-column` (the extension can be had now: the schema step adds the column).
 */
export async function pgvectorReady(client: PoolClient): Promise<'ready' | 'absent' | 'missing-column'> {
  const row = (
    await client.query<{ installed: boolean; available: boolean; column: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
              EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
              EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = 'wsctx' AND table_name = 'windows' AND column_name = 'embedding') AS column`,
    )
  ).rows[0];
  if (row.installed && row.column) return 'ready';
  return row.available ? 'missing-column' : 'absent';
}

/** The namespace's vector columns as a write reads them. */
export interface NamespaceVectors {
  id: number;
  vector_model: string | null;
  vector_dimension: number | null;
  vector_hnsw: boolean;
}

/** A section written or kept by this write, at its store ordinal. */
export interface PlacedSection {
  ordinal: number;
  section: StoredSectionTerms;
}

/** The sections of the documents a write keeps (unchanged digests), at their store ordinals: their vectors may still change. */
export async function keptSections(
  client: PoolClient,
  ns: number,
  rows: StoredWorkspace,
  changed: ReadonlySet<string>,
): Promise<PlacedSection[]> {
  if (!rows.meaning) return [];
  const keptDocs = rows.docs.filter((d) => !changed.has(d.doc.id));
  if (keptDocs.length === 0) return [];
  const ordinals = new Map(
    (
      await client.query<{ id: string; ordinal: number }>(
        'SELECT id, ordinal FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[])',
        [ns, keptDocs.map((d) => d.doc.id)],
      )
    ).rows.map((r) => [r.id, r.ordinal]),
  );
  const placed: PlacedSection[] = [];
  for (const { sections } of keptDocs) {
    for (const section of sections) {
      const ordinal = ordinals.get(section.id);
      if (ordinal !== undefined) placed.push({ ordinal, section });
    }
  }
  return placed;
}

/**
 * Writes the vectors of one namespace write. `fresh` are the sections this write inserted (of
 * changed documents), `kept` those of unchanged documents; `removed` the ordinals whose windows
 * went with their sections. A section's windows are written when it has vectors and its stored
 * digest differs; a write with another model (or dimension) removes every stored vector first.
 * Returns how many sections and windows were written.
 */
export async function writeVectors(
  client: PoolClient,
  ns: NamespaceVectors,
  generation: number,
  meaning: StoredMeaning | undefined,
  fresh: readonly PlacedSection[],
  kept: readonly PlacedSection[],
  removed: readonly number[],
  pgvector: boolean,
): Promise<{ sections: number; windows: number }> {
  let reset = false;
  if (
    meaning &&
    meaning.dimension > 0 &&
    ns.vector_model !== null &&
    (ns.vector_model !== meaning.model || ns.vector_dimension !== meaning.dimension)
  ) {
    // Vectors of two models are never mixed: the old ones go, every section is written again.
    await client.query('DELETE FROM wsctx.windows WHERE ns = $1', [ns.id]);
    await client.query('UPDATE wsctx.sections SET vector_digest = NULL WHERE ns = $1 AND vector_digest IS NOT NULL', [
      ns.id,
    ]);
    if (ns.vector_hnsw) await client.query(`DROP INDEX IF EXISTS wsctx.${hnswIndexName(ns.id)}`);
    ns.vector_hnsw = false;
    reset = true;
  }
  const todo: PlacedSection[] = [];
  const replaced: number[] = [];
  if (meaning && meaning.dimension > 0) {
    for (const p of fresh) if (p.section.vectors) todo.push(p);
    if (kept.length) {
      const stored = new Map(
        (
          await client.query<{ ordinal: number; vector_digest: string | null }>(
            'SELECT ordinal, vector_digest FROM wsctx.sections WHERE ns = $1 AND ordinal = ANY($2::int[])',
            [ns.id, kept.map((p) => p.ordinal)],
          )
        ).rows.map((r) => [r.ordinal, reset ? null : r.vector_digest]),
      );
      for (const p of kept) {
        const have = stored.get(p.ordinal) ?? null;
        if (!p.section.vectors || have === p.section.vectors.digest) continue;
        if (have !== null) replaced.push(p.ordinal);
        todo.push(p);
      }
    }
  }
  if (replaced.length)
    await client.query('DELETE FROM wsctx.windows WHERE ns = $1 AND ordinal = ANY($2::int[])', [ns.id, replaced]);
  const gone = [...removed, ...replaced];
  if (reset || gone.length) {
    // A renumbering write (pgWrite.ts) has recorded that every vector moved: that stands.
    await client.query(
      `INSERT INTO wsctx.vector_removals (ns, generation, ordinals) VALUES ($1, $2, $3)
       ON CONFLICT (ns, generation) DO UPDATE SET ordinals = CASE WHEN wsctx.vector_removals.ordinals IS NULL OR EXCLUDED.ordinals IS NULL THEN NULL ELSE wsctx.vector_removals.ordinals || EXCLUDED.ordinals END`,
      [ns.id, generation, reset ? null : gone],
    );
  }

  let windows = 0;
  let batch: { ordinal: number; win: number; inverseNorm: number; codes: Int8Array }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const params: unknown[] = [
      ns.id,
      generation,
      batch.map((w) => w.ordinal),
      batch.map((w) => w.win),
      batch.map((w) => w.inverseNorm),
      batch.map((w) => Buffer.from(w.codes.buffer, w.codes.byteOffset, w.codes.length)),
    ];
    if (pgvector) {
      params.push(batch.map((w) => vectorLiteral(w.codes, w.inverseNorm)));
      await client.query(
        `INSERT INTO wsctx.windows (ns, generation, ordinal, win, inverse_norm, codes, embedding)
         SELECT $1, $2, o, w, n, c, e::vector FROM unnest($3::int[], $4::smallint[], $5::real[], $6::bytea[], $7::text[]) AS x(o, w, n, c, e)`,
        params,
      );
    } else {
      await client.query(
        'INSERT INTO wsctx.windows (ns, generation, ordinal, win, inverse_norm, codes) SELECT $1, $2, * FROM unnest($3::int[], $4::smallint[], $5::real[], $6::bytea[])',
        params,
      );
    }
    windows += batch.length;
    batch = [];
  };
  for (const { ordinal, section } of todo) {
    const v = section.vectors!;
    v.codes.forEach((codes, win) => batch.push({ ordinal, win, inverseNorm: v.inverseNorms[win], codes }));
    if (batch.length >= WINDOW_BATCH) await flush();
  }
  await flush();
  if (todo.length) {
    await client.query(
      'UPDATE wsctx.sections s SET vector_digest = x.d FROM unnest($2::int[], $3::text[]) AS x(o, d) WHERE s.ns = $1 AND s.ordinal = x.o',
      [ns.id, todo.map((p) => p.ordinal), todo.map((p) => p.section.vectors!.digest)],
    );
  }
  if (meaning && meaning.dimension > 0) {
    await client.query(
      'UPDATE wsctx.namespaces SET vector_model = $2, vector_dimension = $3, vector_anchors = $4::jsonb, vector_sample = $5 WHERE id = $1',
      [ns.id, meaning.model, meaning.dimension, JSON.stringify(meaning.anchors), meaning.sampleIds],
    );
    if (pgvector && !ns.vector_hnsw && windows > 0) {
      // Built after the rows are in (faster than growing it row by row); one per namespace, so a
      // search never wades through other namespaces' windows.
      await client.query(
        `CREATE INDEX IF NOT EXISTS ${hnswIndexName(ns.id)} ON wsctx.windows USING hnsw ((embedding::vector(${meaning.dimension | 0})) vector_cosine_ops)
           WITH (m = ${HNSW_M}, ef_construction = ${HNSW_EF_CONSTRUCTION}) WHERE ns = ${ns.id | 0}`,
      );
      await client.query('UPDATE wsctx.namespaces SET vector_hnsw = true WHERE id = $1', [ns.id]);
    }
  }
  return { sections: todo.length, windows };
}

function hnswIndexName(ns: number): string {
  return `windows_hnsw_${ns | 0}`;
}

/** The window's unit vector as pgvector's text form. */
function vectorLiteral(codes: Int8Array, inverseNorm: number): string {
  const parts = new Array<string>(codes.length);
  for (let i = 0; i < codes.length; i++) parts[i] = String(Math.fround(codes[i] * inverseNorm));
  return `[${parts.join(',')}]`;
}

/** The namespace's meaning facts, with the crowd sample's store ordinals; undefined without vectors. */
export async function readMeaning(client: PoolClient, ns: number): Promise<StoredMeaningRows | undefined> {
  const row = (
    await client.query<{
      vector_model: string | null;
      vector_dimension: number | null;
      vector_anchors: { unrelated: number; related: number } | null;
      vector_sample: string[] | null;
      vector_hnsw: boolean;
    }>(
      'SELECT vector_model, vector_dimension, vector_anchors, vector_sample, vector_hnsw FROM wsctx.namespaces WHERE id = $1',
      [ns],
    )
  ).rows[0];
  if (!row?.vector_model || !row.vector_dimension || !row.vector_anchors) return undefined;
  const sampleIds = row.vector_sample ?? [];
  const byId = new Map(
    (
      await client.query<{ id: string; ordinal: number }>(
        'SELECT id, ordinal FROM wsctx.sections WHERE ns = $1 AND id = ANY($2::text[])',
        [ns, sampleIds],
      )
    ).rows.map((r) => [r.id, r.ordinal]),
  );
  return {
    model: row.vector_model,
    dimension: row.vector_dimension,
    anchors: row.vector_anchors,
    sampleIds,
    sampleOrdinals: sampleIds.map((id) => byId.get(id)).filter((o): o is number => o !== undefined),
    hnsw: row.vector_hnsw,
  };
}

/**
 * What a reader at `afterGeneration` lacks (read inside the caller's snapshot): the ordinals
 * whose windows were removed since (or `all`), then every window added since, in (ordinal,
 * window) order, handed over in pages.
 */
export async function readWindows(
  client: PoolClient,
  ns: number,
  afterGeneration: number,
  onPage: (rows: StoredWindowRow[]) => void,
): Promise<VectorCatchUp['removed']> {
  let removed: VectorCatchUp['removed'] = [];
  let after = afterGeneration;
  if (afterGeneration > 0) {
    const removals = (
      await client.query<{ ordinals: number[] | null }>(
        'SELECT ordinals FROM wsctx.vector_removals WHERE ns = $1 AND generation > $2 ORDER BY generation',
        [ns, afterGeneration],
      )
    ).rows;
    if (removals.some((r) => r.ordinals === null)) {
      removed = 'all';
      after = 0;
    } else removed = removals.flatMap((r) => r.ordinals!);
  }
  let lastOrdinal = -1;
  let lastWin = -1;
  for (;;) {
    const rows = (
      await client.query<{ ordinal: number; win: number; inverse_norm: number; codes: Buffer }>(
        `SELECT ordinal, win, inverse_norm, codes FROM wsctx.windows
          WHERE ns = $1 AND generation > $2 AND (ordinal, win) > ($3, $4) ORDER BY ordinal, win LIMIT ${READ_BATCH}`,
        [ns, after, lastOrdinal, lastWin],
      )
    ).rows;
    if (rows.length === 0) break;
    onPage(
      rows.map((r) => ({
        ordinal: r.ordinal,
        window: r.win,
        inverseNorm: r.inverse_norm,
        codes: new Int8Array(r.codes.buffer, r.codes.byteOffset, r.codes.length),
      })),
    );
    const last = rows[rows.length - 1];
    lastOrdinal = last.ordinal;
    lastWin = last.win;
    if (rows.length < READ_BATCH) break;
  }
  return removed;
}

/**
 * The `k` windows nearest `query` by pgvector's HNSW index (approximate), nearest first, with
 * their cosines as pgvector computes them on the stored unit vectors.
 */
export async function nearestWindows(
  client: PoolClient,
  ns: number,
  dimension: number,
  query: Float32Array,
  k: number,
): Promise<{ ordinal: number; window: number; cosine: number }[]> {
  await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(HNSW_EF_SEARCH, k) | 0}`);
  const literal = `[${Array.from(query, (x) => String(x)).join(',')}]`;
  const rows = (
    await client.query<{ ordinal: number; win: number; distance: number }>(
      `SELECT ordinal, win, embedding::vector(${dimension | 0}) <=> $1::vector AS distance FROM wsctx.windows
        WHERE ns = ${ns | 0} ORDER BY embedding::vector(${dimension | 0}) <=> $1::vector LIMIT ${k | 0}`,
      [literal],
    )
  ).rows;
  return rows.map((r) => ({ ordinal: r.ordinal, window: r.win, cosine: 1 - r.distance }));
}
