/**
 * Reads of a PostgreSQL store (pgStore.ts runs each in one read-only repeatable-read transaction,
 * so it sees one generation): the rows a question's candidates are made of (the per-question
 * read), and a namespace in bulk for a reader that answers from memory.
 */
import type {
  LoadedVersion,
  LoadSink,
  NamespaceLoad,
  CatalogEntity,
  FileCommitInfo,
  Relation,
  CandidateRows,
  CandidateSection,
  NamespaceSizes,
  NamespaceStats,
  StoredDoc,
  StoredWorkspaceInfo,
} from '../../engine';
import { decodeBlock, readBlocksSince } from './pgTermBlocks';
import { readMeaning, readWindows, type PoolClient } from './pgVectors';

/** Sections and documents per query of a bulk read (each query's rows are held at once by the client). */
const LOAD_PAGE = 20_000;

export interface SectionRow {
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
  text_digest: string;
}

const SECTION_COLUMNS =
  'ordinal, id, doc_id, position, heading_path, level, start_line, end_line, entity_refs, body_length, short_lengths, text_digest';

export function candidateSection(r: SectionRow & { text?: string }): CandidateSection {
  return {
    ordinal: r.ordinal,
    id: r.id,
    docId: r.doc_id,
    position: r.position,
    headingPath: r.heading_path,
    level: r.level,
    startLine: r.start_line,
    endLine: r.end_line,
    text: r.text ?? '',
    textDigest: r.text_digest,
    ...(r.entity_refs ? { entityRefs: r.entity_refs } : {}),
    bodyLength: r.body_length,
    shortLengths: r.short_lengths >>> 0,
  };
}

/** A namespace's row as readers need it. */
export interface NamespaceRead {
  id: number;
  generation: number;
  epoch: number;
  catalogGeneration: number;
  info: StoredWorkspaceInfo;
  stats: NamespaceStats;
  sizes: NamespaceSizes;
}

export async function namespaceRow(client: PoolClient, name: string): Promise<NamespaceRead | undefined> {
  const result = await client.query<{
    id: number;
    generation: number;
    epoch: number;
    catalog_generation: number;
    info: StoredWorkspaceInfo;
    sizes: NamespaceSizes;
    section_count: number;
    body: number;
    heading: number;
    title: number;
    context: number;
    doc_count: number;
    title_terms: number;
    newest_commit_time: number | null;
  }>(
    `SELECT id, generation, epoch, catalog_generation, info, sizes, section_count, body_length_sum::float8 AS body, heading_length_sum::float8 AS heading,
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
    epoch: r.epoch,
    catalogGeneration: r.catalog_generation,
    info: r.info,
    sizes: r.sizes,
    stats: {
      sectionCount: r.section_count,
      lengthSums: { body: r.body, heading: r.heading, title: r.title, context: r.context },
      docCount: r.doc_count,
      titleTermSum: r.title_terms,
      newestCommitTime: r.newest_commit_time,
    },
  };
}

/** The candidate rows but the postings: the sections at `ordinals`, their documents and git facts, the named entities' share. */
export async function candidateRows(
  client: PoolClient,
  ns: NamespaceRead,
  ordinals: readonly number[],
  namedEntities: readonly string[],
): Promise<Omit<CandidateRows, 'postings'>> {
  const sections = (
    await client.query<SectionRow>(
      `SELECT ${SECTION_COLUMNS} FROM wsctx.sections WHERE ns = $1 AND ordinal = ANY($2::int[])`,
      [ns.id, ordinals],
    )
  ).rows.map(candidateSection);
  const docIds = [...new Set(sections.map((s) => s.docId))];
  const docs = (
    await client.query<{ doc: StoredDoc }>('SELECT doc FROM wsctx.docs WHERE ns = $1 AND id = ANY($2::text[])', [
      ns.id,
      docIds,
    ])
  ).rows.map((r) => r.doc);
  const commits = await commitsOf(
    client,
    ns.id,
    docs.map((d) => d.path),
  );
  let namedEntitySections = 0;
  if (namedEntities.length) {
    const named = await client.query<{ n: number }>(
      'SELECT coalesce(sum(section_count), 0)::int AS n FROM wsctx.docs WHERE ns = $1 AND entity_refs && $2::text[]',
      [ns.id, namedEntities],
    );
    namedEntitySections = named.rows[0].n;
  }
  return { sections, docs, commits, namedEntitySections, generation: ns.generation, stats: ns.stats };
}

/** The git facts of the documents at `paths`. */
export async function commitsOf(
  client: PoolClient,
  ns: number,
  paths: readonly string[],
): Promise<Map<string, FileCommitInfo>> {
  const rows = await client.query<{
    path: string;
    commit: string | null;
    dirty: boolean;
    last_commit_time: number | null;
  }>('SELECT path, commit, dirty, last_commit_time FROM wsctx.commits WHERE ns = $1 AND path = ANY($2::text[])', [
    ns,
    paths,
  ]);
  return new Map(
    rows.rows.map((r) => [r.path, { commit: r.commit, dirty: r.dirty, lastCommitTime: r.last_commit_time }]),
  );
}

/** The library's sections, texts included. */
export async function librarySections(
  client: PoolClient,
  ns: number,
  docIds: readonly string[],
): Promise<CandidateSection[]> {
  return (
    await client.query<SectionRow & { text: string }>(
      `SELECT ${SECTION_COLUMNS}, text FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[])`,
      [ns, docIds],
    )
  ).rows.map(candidateSection);
}

/**
 * Namespace `name` in bulk, or what changed since `since` (IndexStore.loadNamespace), inside the
 * caller's snapshot. A different epoch (the store renumbered) reads everything.
 */
export async function loadNamespace(
  client: PoolClient,
  name: string,
  since: LoadedVersion | undefined,
  sink: LoadSink,
): Promise<NamespaceLoad | undefined> {
  const ns = await namespaceRow(client, name);
  if (!ns) return undefined;
  const full = !since || since.epoch !== ns.epoch;
  const after = full ? 0 : since.generation;
  const catalog = full || ns.catalogGeneration > after ? await readCatalog(client, ns.id) : undefined;
  const commits = (
    await client.query<{ path: string; commit: string | null; dirty: boolean; last_commit_time: number | null }>(
      'SELECT path, commit, dirty, last_commit_time FROM wsctx.commits WHERE ns = $1',
      [ns.id],
    )
  ).rows.map((r): [string, FileCommitInfo] => [
    r.path,
    { commit: r.commit, dirty: r.dirty, lastCommitTime: r.last_commit_time },
  ]);
  const docIds = full
    ? []
    : (await client.query<{ id: string }>('SELECT id FROM wsctx.docs WHERE ns = $1', [ns.id])).rows.map((r) => r.id);
  const docs = await readDocsSince(client, ns.id, after);
  if (full) for (const d of docs) docIds.push(d.doc.id);
  await readBlocksSince(client, ns.id, after, (page) =>
    sink.blocks(page.map((b) => ({ term: b.term, ...decodeBlock(b.postings, b.count) }))),
  );
  const meaning = await readMeaning(client, ns.id);
  if (meaning) {
    // Another model's vectors (or none held): read them all afresh.
    const vectorsAfter = !full && since.vectorModel === meaning.model ? since.vectorGeneration : 0;
    if (vectorsAfter === 0) {
      // Read whole: the windows go straight into the reader's fresh copy.
      sink.vectors(meaning, { generation: ns.generation, removed: 'all' });
      await readWindows(client, ns.id, 0, (page) => sink.windows(page));
    } else {
      // The removals come first, so the added windows wait for them.
      const pages: Parameters<LoadSink['windows']>[0][] = [];
      const removed = await readWindows(client, ns.id, vectorsAfter, (page) => pages.push(page));
      sink.vectors(meaning, { generation: ns.generation, removed });
      for (const page of pages) sink.windows(page);
    }
  }
  return {
    generation: ns.generation,
    epoch: ns.epoch,
    full,
    info: ns.info,
    stats: ns.stats,
    sizes: ns.sizes,
    ...(catalog ? { catalog } : {}),
    commits,
    docIds,
    docs,
    ...(meaning ? { meaning } : {}),
  };
}

async function readCatalog(
  client: PoolClient,
  ns: number,
): Promise<{ entities: CatalogEntity[]; relations: Relation[] }> {
  const entities = (
    await client.query<{ entity: CatalogEntity }>('SELECT entity FROM wsctx.entities WHERE ns = $1 ORDER BY position', [
      ns,
    ])
  ).rows.map((r) => r.entity);
  const relations = (
    await client.query<{ relation: Relation }>('SELECT relation FROM wsctx.edges WHERE ns = $1 ORDER BY position', [ns])
  ).rows.map((r) => r.relation);
  return { entities, relations };
}

/**
 * The documents written after `after` (0: all) in the order they were written (generation, then
 * their place in the write), each with its sections (texts included) in position order, read
 * page by page.
 */
async function readDocsSince(
  client: PoolClient,
  ns: number,
  after: number,
): Promise<{ doc: StoredDoc; sections: CandidateSection[] }[]> {
  const docs = new Map<string, { doc: StoredDoc; sections: CandidateSection[] }>();
  let last = [after, -1];
  for (;;) {
    const page = (
      await client.query<{ id: string; generation: number; seq: number; doc: StoredDoc }>(
        'SELECT id, generation, seq, doc FROM wsctx.docs WHERE ns = $1 AND generation > $2 AND (generation, seq) > ($3, $4) ORDER BY generation, seq LIMIT $5',
        [ns, after, last[0], last[1], LOAD_PAGE],
      )
    ).rows;
    for (const r of page) docs.set(r.id, { doc: r.doc, sections: [] });
    if (page.length < LOAD_PAGE) break;
    last = [page[page.length - 1].generation, page[page.length - 1].seq];
  }
  if (docs.size === 0) return [];
  // On a full read every section; else those of the documents written since (sections go with their documents).
  const byOrdinal = after === 0;
  let lastOrdinal = -1;
  const ids = byOrdinal ? [] : [...docs.keys()];
  for (let i = 0; byOrdinal || i < ids.length; i += LOAD_PAGE) {
    const rows = byOrdinal
      ? (
          await client.query<SectionRow & { text: string }>(
            `SELECT ${SECTION_COLUMNS}, text FROM wsctx.sections WHERE ns = $1 AND ordinal > $2 ORDER BY ordinal LIMIT $3`,
            [ns, lastOrdinal, LOAD_PAGE],
          )
        ).rows
      : (
          await client.query<SectionRow & { text: string }>(
            `SELECT ${SECTION_COLUMNS}, text FROM wsctx.sections WHERE ns = $1 AND doc_id = ANY($2::text[])`,
            [ns, ids.slice(i, i + LOAD_PAGE)],
          )
        ).rows;
    for (const r of rows) {
      const holder = docs.get(r.doc_id);
      if (!holder) throw new Error(`store: section ${r.id} of document ${r.doc_id}, which the store does not hold`);
      holder.sections.push(candidateSection(r));
    }
    if (byOrdinal) {
      if (rows.length < LOAD_PAGE) break;
      lastOrdinal = rows[rows.length - 1].ordinal;
    }
  }
  const out = [...docs.values()];
  for (const d of out) d.sections.sort((a, b) => a.position - b.position);
  return out;
}
