/**
 * One namespace's write (pgStore.ts runs it in one transaction): readers see the old or the new
 * namespace, never a mix, and are told of the new generation on commit (NOTIFY).
 *
 * - An unchanged namespace costs a digest comparison: the digest of everything written (the
 *   documents' digests, catalog, commit facts, facts about the folder; the vectors' digests
 *   apart) is compared with the stored one, and nothing is written but the time it was checked.
 * - Otherwise only what changed: documents whose content digest differs are replaced (their
 *   sections take fresh ordinals), vanished ones removed, the catalog written when it changed,
 *   the term blocks (pgTermBlocks.ts) of the ordinals written or removed rebuilt and written when
 *   their digest changed, the vectors of sections whose text digest changed (pgVectors.ts).
 * - When fresh ordinals have spread the namespace over more than twice its sections, the write
 *   numbers its sections afresh (a new `epoch`: readers load it whole again).
 */
import {
  namespaceConflict,
  type RepositoryIdentity,
  sha256Hex,
  type CatalogEntity,
  type FileCommitInfo,
  type Relation,
  type NamespaceSizes,
  type StoredDoc,
  type StoredSectionTerms,
  type StoredWorkspace,
  type WriteReport,
  countedTermCount,
} from '../../engine';
import { BLOCK_SIZE, blockOf, buildBlocks, writeBlocks } from './pgTermBlocks';
import { keptSections, writeVectors, type PlacedSection, type PoolClient } from './pgVectors';
import { storableJson, unstorableCharacters } from './storableJson';

/** Rows per INSERT of sections (their texts make them large), and of commit facts. */
const SECTION_BATCH = 1000;
const COMMIT_BATCH = 20_000;
/** The channel every write announces its namespace's new generation on. */
export const GENERATION_CHANNEL = 'wsctx_generations';
/** Ordinals are numbered afresh when they spread past this multiple of the live sections (and past a floor: one block by default). */
const RENUMBER_FACTOR = 2;

/** What a write must know of the namespace's row (read and locked by the upsert). */
interface NamespaceRow {
  id: number;
  catalog_digest: string;
  next_ordinal: number;
  generation: number;
  epoch: number;
  content_digest: string;
  /** Digest of the vectors last written (null: none, or sections changed since without vectors). */
  vector_digest: string | null;
  vector_model: string | null;
  vector_dimension: number | null;
  vector_hnsw: boolean;
}

export async function writeNamespace(
  client: PoolClient,
  rows: StoredWorkspace,
  pgvector: boolean,
  renumberFloor = BLOCK_SIZE,
): Promise<WriteReport> {
  const started = performance.now();
  const name = rows.info.folder.name;
  // The upsert locks the namespace's row (two writers of one namespace go one after the other)
  // and leaves it as it was, so a write from another repository can be refused below.
  const ns = (
    await client.query<NamespaceRow & { abs_path: string; identity: RepositoryIdentity | null }>(
      `INSERT INTO wsctx.namespaces (name, abs_path) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET abs_path = wsctx.namespaces.abs_path
       RETURNING id, catalog_digest, next_ordinal, generation, epoch, content_digest, vector_digest, vector_model, vector_dimension, vector_hnsw, abs_path, info->'identity' AS identity`,
      [name, rows.info.folder.absPath],
    )
  ).rows[0];
  // A namespace is one repository: another of the same folder name is refused, never written over.
  if (ns.generation > 0) {
    const conflict = namespaceConflict(
      name,
      { absPath: ns.abs_path, ...(ns.identity ? { identity: ns.identity } : {}) },
      { absPath: rows.info.folder.absPath, ...(rows.info.identity ? { identity: rows.info.identity } : {}) },
    );
    if (conflict) throw new Error(conflict);
  }
  await client.query('UPDATE wsctx.namespaces SET abs_path = $2 WHERE id = $1', [ns.id, rows.info.folder.absPath]);
  const catalogDigest = sha256Hex(JSON.stringify([rows.entities, rows.relations]));
  const contentDigest = namespaceDigest(rows, catalogDigest);
  const vectorDigest = rows.meaning ? meaningDigest(rows) : null;
  const report = (fields: Partial<WriteReport>): WriteReport => ({
    namespace: name,
    documentsWritten: 0,
    documentsKept: rows.docs.length,
    documentsRemoved: 0,
    sectionsWritten: 0,
    postingsWritten: 0,
    blocksWritten: 0,
    catalogWritten: false,
    commitsWritten: 0,
    vectorSectionsWritten: 0,
    windowsWritten: 0,
    generation: ns.generation,
    unchanged: false,
    durationMs: performance.now() - started,
    cleaned: [],
    ...fields,
  });
  if (
    ns.generation > 0 &&
    contentDigest === ns.content_digest &&
    (vectorDigest === null || vectorDigest === ns.vector_digest)
  ) {
    await client.query('UPDATE wsctx.namespaces SET checked_at = $2 WHERE id = $1', [ns.id, rows.info.indexedAt]);
    return report({ unchanged: true, durationMs: performance.now() - started });
  }
  const generation = ns.generation + 1;

  const existing = new Map(
    (
      await client.query<{ id: string; content_digest: string }>(
        'SELECT id, content_digest FROM wsctx.docs WHERE ns = $1',
        [ns.id],
      )
    ).rows.map((r) => [r.id, r.content_digest]),
  );
  const incoming = new Set(rows.docs.map((d) => d.doc.id));
  const changed = rows.docs.filter((d) => existing.get(d.doc.id) !== d.doc.contentDigest);
  const changedIds = new Set(changed.map((d) => d.doc.id));
  const stale = [...existing.keys()].filter((id) => !incoming.has(id) || changedIds.has(id));
  let removedOrdinals: number[] = [];
  let vectorsRemoved: number[] = [];
  if (stale.length) {
    const gone = (
      await client.query<{ ordinal: number; vectors: boolean }>(
        'SELECT ordinal, vector_digest IS NOT NULL AS vectors FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[])',
        [ns.id, stale],
      )
    ).rows;
    removedOrdinals = gone.map((r) => r.ordinal);
    vectorsRemoved = gone.filter((r) => r.vectors).map((r) => r.ordinal);
    if (vectorsRemoved.length)
      await client.query('DELETE FROM wsctx.windows WHERE ns = $1 AND ordinal = ANY($2::int[])', [
        ns.id,
        vectorsRemoved,
      ]);
    await client.query('DELETE FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[])', [ns.id, stale]);
    await client.query('DELETE FROM wsctx.docs WHERE ns = $1 AND id = ANY($2::text[])', [ns.id, stale]);
  }

  const sectionTotal = rows.docs.reduce((n, d) => n + d.sections.length, 0);
  const freshCount = changed.reduce((n, d) => n + d.sections.length, 0);
  let nextOrdinal = ns.next_ordinal;
  let epoch = ns.epoch;
  // Every block is rebuilt on a first write and after a renumbering; else those a section came to or left.
  let everyBlock = ns.generation === 0;
  if (nextOrdinal + freshCount > Math.max(renumberFloor, RENUMBER_FACTOR * sectionTotal)) {
    nextOrdinal = await renumber(client, ns.id, generation);
    epoch++;
    everyBlock = true;
    vectorsRemoved = [];
  }

  // Text PostgreSQL cannot hold (NUL, unpaired surrogates) is written as U+FFFD, per document.
  const storable = new StorableWriter(new Map(rows.docs.map((d) => [d.doc.id, d.doc.path])));
  await insertDocs(
    client,
    ns.id,
    generation,
    changed.map((d) => d.doc),
    storable,
  );
  const fresh: PlacedSection[] = [];
  const sectionRows: Record<string, unknown>[] = [];
  let sectionsWritten = 0;
  for (const { sections } of changed) {
    for (const s of sections) {
      const ordinal = nextOrdinal++;
      fresh.push({ ordinal, section: s });
      sectionRows.push(sectionRow(ordinal, s));
      if (sectionRows.length >= SECTION_BATCH)
        sectionsWritten += await insertSections(client, ns.id, sectionRows.splice(0), storable);
    }
  }
  sectionsWritten += await insertSections(client, ns.id, sectionRows.splice(0), storable);

  const touched = new Set<number>();
  if (everyBlock) {
    for (let b = 0; b <= blockOf(Math.max(0, nextOrdinal - 1)); b++) touched.add(b);
  } else {
    for (const p of fresh) touched.add(blockOf(p.ordinal));
    for (const o of removedOrdinals) touched.add(blockOf(o));
  }
  const blocks = touched.size
    ? await writeTouchedBlocks(client, ns.id, generation, touched, rows, fresh, everyBlock)
    : { postings: 0, blocks: 0 };

  const catalogWritten = catalogDigest !== ns.catalog_digest;
  if (catalogWritten) await writeCatalog(client, ns.id, rows.entities, rows.relations, storable);
  const commitsWritten = await writeCommits(client, ns.id, rows.commits);

  const kept = await keptSections(client, ns.id, rows, changedIds);
  const vectors = await writeVectors(client, ns, generation, rows.meaning, fresh, kept, vectorsRemoved, pgvector);
  const sizes = await namespaceSizes(client, ns.id, rows);
  await client.query(
    `UPDATE wsctx.namespaces n SET
       generation = $2, indexed_at = $3, checked_at = $3, info = $4::jsonb, catalog_digest = $5, next_ordinal = $6,
       content_digest = $7, epoch = $8, sizes = $9::jsonb, vector_digest = $11,
       catalog_generation = CASE WHEN $10 THEN $2 ELSE n.catalog_generation END,
       section_count = s.count, body_length_sum = s.body, heading_length_sum = s.heading,
       title_length_sum = s.title, context_length_sum = s.context,
       doc_count = d.count, title_term_sum = d.title_terms,
       newest_commit_time = (SELECT max(last_commit_time) FROM wsctx.commits WHERE ns = $1)
     FROM (SELECT count(*)::int AS count, coalesce(sum(body_length), 0) AS body, coalesce(sum(heading_length), 0) AS heading,
                  coalesce(sum(title_length), 0) AS title, coalesce(sum(context_length), 0) AS context
             FROM wsctx.sections WHERE ns = $1) s,
          (SELECT count(*)::int AS count, coalesce(sum(title_term_count), 0) AS title_terms FROM wsctx.docs WHERE ns = $1) d
     WHERE n.id = $1`,
    [
      ns.id,
      generation,
      rows.info.indexedAt,
      storable.one(rows.info, `${name} (its problems and facts)`),
      catalogDigest,
      nextOrdinal,
      contentDigest,
      epoch,
      JSON.stringify(sizes),
      catalogWritten || everyBlock,
      vectorDigest,
    ],
  );
  // Delivered to every listening reader when (and only if) this transaction commits.
  await client.query('SELECT pg_notify($1, $2)', [
    GENERATION_CHANNEL,
    JSON.stringify({ namespace: name, generation, epoch }),
  ]);
  return report({
    documentsWritten: changed.length,
    documentsKept: rows.docs.length - changed.length,
    documentsRemoved: stale.length - changed.filter((d) => existing.has(d.doc.id)).length,
    sectionsWritten,
    postingsWritten: blocks.postings,
    blocksWritten: blocks.blocks,
    catalogWritten,
    commitsWritten,
    vectorSectionsWritten: vectors.sections,
    windowsWritten: vectors.windows,
    generation,
    durationMs: performance.now() - started,
    cleaned: [...storable.cleaned].map(([path, characters]) => ({ path, characters })),
  });
}

/**
 * The digest of everything a write stores of the namespace but its vectors and the time it was
 * indexed: equal digests, nothing to write.
 */
function namespaceDigest(rows: StoredWorkspace, catalogDigest: string): string {
  const { indexedAt: _at, ...facts } = rows.info;
  return sha256Hex(
    JSON.stringify([facts, catalogDigest, rows.commits, rows.docs.map((d) => [d.doc.id, d.doc.contentDigest])]),
  );
}

/** The digest of the vectors a write carries: model, anchors, crowd sample and each section's text digest. */
function meaningDigest(rows: StoredWorkspace): string {
  const m = rows.meaning!;
  return sha256Hex(
    JSON.stringify([
      m.model,
      m.dimension,
      m.anchors,
      m.sampleIds,
      rows.docs.map((d) => d.sections.map((s) => s.vectors?.digest ?? null)),
    ]),
  );
}

/**
 * Numbers the namespace's sections 0..n-1 in their order (sections and windows), drops its term
 * blocks (the write rebuilds them all) and records that every vector moved; returns the next
 * ordinal. Runs after the write's removals, before its inserts.
 */
async function renumber(client: PoolClient, ns: number, generation: number): Promise<number> {
  await client.query(
    'CREATE TEMP TABLE wsctx_renumber ON COMMIT DROP AS SELECT ordinal AS old, (row_number() OVER (ORDER BY ordinal) - 1)::int AS new FROM wsctx.sections WHERE ns = $1',
    [ns],
  );
  // Through negative ordinals: the primary keys hold at every row, whatever the order of the update.
  for (const table of ['sections', 'windows']) {
    await client.query(
      `UPDATE wsctx.${table} t SET ordinal = -1 - r.new FROM wsctx_renumber r WHERE t.ns = $1 AND t.ordinal = r.old`,
      [ns],
    );
    await client.query(`UPDATE wsctx.${table} SET ordinal = -1 - ordinal WHERE ns = $1 AND ordinal < 0`, [ns]);
  }
  await client.query('DELETE FROM wsctx.term_blocks WHERE ns = $1', [ns]);
  await client.query('DELETE FROM wsctx.vector_removals WHERE ns = $1', [ns]);
  await client.query('INSERT INTO wsctx.vector_removals (ns, generation, ordinals) VALUES ($1, $2, NULL)', [
    ns,
    generation,
  ]);
  const count = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM wsctx_renumber')).rows[0].n;
  await client.query('DROP TABLE wsctx_renumber');
  return count;
}

/** Rebuilds the term blocks numbered `touched` from every live section in them and writes those that changed. */
async function writeTouchedBlocks(
  client: PoolClient,
  ns: number,
  generation: number,
  touched: ReadonlySet<number>,
  rows: StoredWorkspace,
  fresh: readonly PlacedSection[],
  firstWrite: boolean,
): Promise<{ postings: number; blocks: number }> {
  const byId = new Map<string, StoredSectionTerms>();
  for (const { sections } of rows.docs) for (const s of sections) byId.set(s.id, s);
  const freshOrdinals = new Set(fresh.map((p) => p.ordinal));
  const placed: PlacedSection[] = [...fresh];
  const blocks = [...touched];
  const inBlocks = await client.query<{ id: string; ordinal: number }>(
    `SELECT s.id, s.ordinal FROM unnest($2::int[]) AS b(n) JOIN wsctx.sections s ON s.ns = $1 AND s.ordinal >= b.n * ${BLOCK_SIZE} AND s.ordinal < (b.n + 1) * ${BLOCK_SIZE}`,
    [ns, blocks],
  );
  for (const r of inBlocks.rows) {
    if (freshOrdinals.has(r.ordinal)) continue;
    const section = byId.get(r.id);
    if (!section) throw new Error(`store: section ${r.id} is stored but not in the write`);
    placed.push({ ordinal: r.ordinal, section });
  }
  return writeBlocks(client, ns, generation, touched, buildBlocks(placed, touched), firstWrite);
}

/** The namespace's sizes after this write, for readers' memory estimates. */
async function namespaceSizes(client: PoolClient, ns: number, rows: StoredWorkspace): Promise<NamespaceSizes> {
  let sections = 0;
  let textChars = 0;
  let postings = 0;
  for (const { sections: list } of rows.docs) {
    for (const s of list) {
      sections++;
      textChars += s.text.length;
      postings += s.terms.length;
    }
  }
  const counted = (
    await client.query<{ terms: number; doc_bytes: number; windows: number; dimension: number | null }>(
      `SELECT (SELECT count(DISTINCT term)::int FROM wsctx.term_blocks WHERE ns = $1) AS terms,
              (SELECT coalesce(sum(pg_column_size(doc)), 0)::float8 FROM wsctx.docs WHERE ns = $1) AS doc_bytes,
              (SELECT count(*)::int FROM wsctx.windows WHERE ns = $1) AS windows,
              (SELECT vector_dimension FROM wsctx.namespaces WHERE id = $1) AS dimension`,
      [ns],
    )
  ).rows[0];
  return {
    sections,
    textChars,
    docs: rows.docs.length,
    docBytes: counted.doc_bytes,
    postings,
    terms: counted.terms,
    entities: rows.entities.length,
    relations: rows.relations.length,
    commits: rows.commits.length,
    windows: counted.windows,
    dimension: counted.dimension ?? 0,
  };
}

function sectionRow(ordinal: number, s: StoredSectionTerms): Record<string, unknown> {
  return {
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
    text_digest: s.textDigest,
  };
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

/** The documents a write replaces, in the write's order (`seq`): readers hold them in (generation, seq) order, as the engine does. */
async function insertDocs(
  client: PoolClient,
  ns: number,
  generation: number,
  docs: readonly StoredDoc[],
  storable: StorableWriter,
): Promise<void> {
  for (let i = 0; i < docs.length; i += SECTION_BATCH) {
    const batch = docs.slice(i, i + SECTION_BATCH).map((d, k) => ({
      seq: i + k,
      id: d.id,
      path: d.path,
      entity_refs: d.entityRefs,
      section_count: d.sectionCount,
      title_term_count: countedTermCount(d.titleTerms),
      content_digest: d.contentDigest,
      doc: d,
    }));
    await client.query(
      `INSERT INTO wsctx.docs (ns, generation, seq, id, path, entity_refs, section_count, title_term_count, content_digest, doc)
       SELECT $1, $2, x.seq, x.id, x.path, ARRAY(SELECT jsonb_array_elements_text(x.entity_refs)), x.section_count, x.title_term_count, x.content_digest, x.doc
         FROM jsonb_to_recordset($3::jsonb) AS x(seq int, id text, path text, entity_refs jsonb, section_count int, title_term_count int, content_digest text, doc jsonb)`,
      [ns, generation, storable.json(batch, (d) => d.path)],
    );
  }
}

async function insertSections(
  client: PoolClient,
  ns: number,
  rows: readonly Record<string, unknown>[],
  storable: StorableWriter,
): Promise<number> {
  if (rows.length === 0) return 0;
  await client.query(
    `INSERT INTO wsctx.sections (ns, ordinal, id, doc_id, position, heading_path, level, start_line, end_line, entity_refs,
                                 body_length, short_lengths, heading_length, title_length, context_length, text, text_digest)
     SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(ordinal int, id text, doc_id text, position int, heading_path jsonb, level smallint,
       start_line int, end_line int, entity_refs jsonb, body_length int, short_lengths int, heading_length int, title_length int, context_length int, text text, text_digest text)`,
    [ns, storable.json(rows, (row) => storable.pathOfDoc(row.doc_id))],
  );
  return rows.length;
}

async function writeCatalog(
  client: PoolClient,
  ns: number,
  entities: readonly CatalogEntity[],
  relations: readonly Relation[],
  storable: StorableWriter,
): Promise<void> {
  await client.query('DELETE FROM wsctx.entities WHERE ns = $1', [ns]);
  await client.query('DELETE FROM wsctx.edges WHERE ns = $1', [ns]);
  for (let i = 0; i < entities.length; i += SECTION_BATCH) {
    const batch = entities
      .slice(i, i + SECTION_BATCH)
      .map((entity, k) => ({ position: i + k, key: entity.key, entity }));
    await client.query(
      'INSERT INTO wsctx.entities (ns, position, key, entity) SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(position int, key text, entity jsonb)',
      [ns, storable.json(batch, (row) => row.entity.location.path)],
    );
  }
  for (let i = 0; i < relations.length; i += SECTION_BATCH) {
    const batch = relations.slice(i, i + SECTION_BATCH).map((relation, k) => ({
      position: i + k,
      source: relation.source,
      type: relation.type,
      target: relation.target,
      relation,
    }));
    await client.query(
      'INSERT INTO wsctx.edges (ns, position, source, type, target, relation) SELECT $1, x.* FROM jsonb_to_recordset($2::jsonb) AS x(position int, source text, type text, target text, relation jsonb)',
      [ns, storable.json(batch, (row) => row.relation.origin.path)],
    );
  }
}

/** Writes the commit facts that changed and removes those of files no longer indexed; returns how many were written. */
async function writeCommits(
  client: PoolClient,
  ns: number,
  commits: readonly [string, FileCommitInfo][],
): Promise<number> {
  const existing = new Map(
    (
      await client.query<{ path: string; commit: string | null; dirty: boolean; last_commit_time: number | null }>(
        'SELECT path, commit, dirty, last_commit_time FROM wsctx.commits WHERE ns = $1',
        [ns],
      )
    ).rows.map((r) => [r.path, `${r.commit}\u0000${r.dirty}\u0000${r.last_commit_time}`]),
  );
  const incoming = new Set(commits.map(([p]) => p));
  const gone = [...existing.keys()].filter((p) => !incoming.has(p));
  if (gone.length) await client.query('DELETE FROM wsctx.commits WHERE ns = $1 AND path = ANY($2::text[])', [ns, gone]);
  const changed = commits.filter(
    ([p, c]) => existing.get(p) !== `${c.commit}\u0000${c.dirty}\u0000${c.lastCommitTime}`,
  );
  for (let i = 0; i < changed.length; i += COMMIT_BATCH) {
    const batch = changed.slice(i, i + COMMIT_BATCH);
    await client.query(
      `INSERT INTO wsctx.commits (ns, path, commit, dirty, last_commit_time)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::boolean[], $5::float8[])
       ON CONFLICT (ns, path) DO UPDATE SET commit = EXCLUDED.commit, dirty = EXCLUDED.dirty, last_commit_time = EXCLUDED.last_commit_time`,
      [
        ns,
        batch.map(([p]) => p),
        batch.map(([, c]) => c.commit),
        batch.map(([, c]) => c.dirty),
        batch.map(([, c]) => c.lastCommitTime),
      ],
    );
  }
  return changed.length;
}
