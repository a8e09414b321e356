/**
 * The PostgreSQL schema of a store: everything lives in the `wsctx` schema, every row belongs to
 * one namespace (an indexed workspace folder).
 *
 * - `term_blocks` holds the postings, the term table the candidates come from: one row per term
 *   and block of 65,536 section ordinals, holding the ordinals of the block's sections that hold
 *   the term (ascending) and beside each the term's packed field counts (engine/lexical/fields.ts),
 *   as little-endian uint32 arrays (pgTermBlocks.ts). Terms are our analyzer's stems, so
 *   `term = ANY(...)` is the same set test as the in-memory postings index; no Postgres text
 *   search configuration is involved. A row per term and block, not per posting: a first write
 *   sends the postings as a few hundred thousand rows of bytes rather than tens of millions of
 *   rows, a reader loads them in bulk into its in-memory postings index, and a write rewrites
 *   only the blocks its sections changed (their `digest` tells which).
 * - `sections` and `docs` hold what ranking and rendering read; `sections.text_digest` (SHA-256
 *   of the text as indexed, '' for an empty one) is read with each candidate, whose text is read
 *   only once it is kept: the copy rule compares it (engine/ranking/scoredCandidates.ts
 *   liftOneCopy). `docs.content_digest` decides
 *   what a write replaces, and `docs.generation` is the write that wrote it (what a reader
 *   following the store reads again) and `seq` its place in that write: in (generation, seq)
 *   order a reader holds the documents in the order the in-memory engine does.
 * - `namespaces` holds the corpus sums (section count, field length sums, title terms) a
 *   question's candidates are scored with, a generation that every write bumps (and announces:
 *   NOTIFY on channel `wsctx_generations`), a digest of everything written (an unchanged write
 *   compares it and writes nothing), and the sizes a reader's memory is estimated from before it
 *   loads the namespace (engine/store/memoryEstimate.ts). `epoch` changes when a write renumbers
 *   the namespace's ordinals: a reader then loads it afresh.
 *
 * - `windows` holds each section's vectors in the in-memory index's int8 layout (one row per
 *   window: `dimension` codes and 1 / |codes|), so a reader's cosines are the in-memory engine's.
 *   Where the pgvector extension exists it also holds each window's unit vector (`embedding`,
 *   added by the store when the extension loads) under one HNSW index per namespace
 *   (pgStore.ts), which proposes the nearest windows; otherwise readers scan the int8 codes.
 *   `generation` is the write that added a row, and `vector_removals` the section ordinals
 *   whose windows each write removed (null: all of them), so a reader catches up incrementally.
 *
 * uint32 values (packed counts and lengths) are stored as int4 bit patterns (`x | 0`), read back
 * with `>>> 0`.
 */

/** Bump when a table changes shape; a store of another version is refused with a message. */
export const STORE_SCHEMA_VERSION = 6;

export const SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS wsctx;
CREATE TABLE IF NOT EXISTS wsctx.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS wsctx.namespaces (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  abs_path text NOT NULL,
  generation integer NOT NULL DEFAULT 0,
  indexed_at text NOT NULL DEFAULT '',
  info jsonb NOT NULL DEFAULT '{}',
  catalog_digest text NOT NULL DEFAULT '',
  next_ordinal integer NOT NULL DEFAULT 0,
  section_count integer NOT NULL DEFAULT 0,
  body_length_sum bigint NOT NULL DEFAULT 0,
  heading_length_sum bigint NOT NULL DEFAULT 0,
  title_length_sum bigint NOT NULL DEFAULT 0,
  context_length_sum bigint NOT NULL DEFAULT 0,
  doc_count integer NOT NULL DEFAULT 0,
  title_term_sum bigint NOT NULL DEFAULT 0,
  newest_commit_time double precision,
  vector_model text,
  vector_dimension integer,
  vector_anchors jsonb,
  vector_sample text[],
  vector_hnsw boolean NOT NULL DEFAULT false,
  content_digest text NOT NULL DEFAULT '',
  vector_digest text,
  checked_at text NOT NULL DEFAULT '',
  epoch integer NOT NULL DEFAULT 0,
  catalog_generation integer NOT NULL DEFAULT 0,
  sizes jsonb NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS wsctx.entities (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  position integer NOT NULL,
  key text NOT NULL,
  entity jsonb NOT NULL,
  PRIMARY KEY (ns, position)
);
CREATE TABLE IF NOT EXISTS wsctx.edges (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  position integer NOT NULL,
  source text NOT NULL,
  type text NOT NULL,
  target text NOT NULL,
  relation jsonb NOT NULL,
  PRIMARY KEY (ns, position)
);
CREATE TABLE IF NOT EXISTS wsctx.commits (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  path text NOT NULL,
  commit text,
  dirty boolean NOT NULL,
  last_commit_time double precision,
  PRIMARY KEY (ns, path)
);
CREATE TABLE IF NOT EXISTS wsctx.docs (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  path text NOT NULL,
  entity_refs text[] NOT NULL,
  section_count integer NOT NULL,
  title_term_count integer NOT NULL,
  content_digest text NOT NULL,
  generation integer NOT NULL,
  seq integer NOT NULL,
  doc jsonb NOT NULL,
  PRIMARY KEY (ns, id)
);
CREATE INDEX IF NOT EXISTS docs_generation ON wsctx.docs (ns, generation, seq);
CREATE INDEX IF NOT EXISTS docs_entity_refs ON wsctx.docs USING gin (entity_refs);
CREATE TABLE IF NOT EXISTS wsctx.sections (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  ordinal integer NOT NULL,
  id text NOT NULL,
  doc_id text NOT NULL,
  position integer NOT NULL,
  heading_path jsonb NOT NULL,
  level smallint NOT NULL,
  start_line integer NOT NULL,
  end_line integer NOT NULL,
  entity_refs jsonb,
  body_length integer NOT NULL,
  short_lengths integer NOT NULL,
  heading_length integer NOT NULL,
  title_length integer NOT NULL,
  context_length integer NOT NULL,
  text text NOT NULL,
  text_digest text NOT NULL,
  vector_digest text,
  PRIMARY KEY (ns, ordinal)
);
CREATE UNIQUE INDEX IF NOT EXISTS sections_id ON wsctx.sections (ns, id);
CREATE INDEX IF NOT EXISTS sections_doc ON wsctx.sections (ns, doc_id);
CREATE TABLE IF NOT EXISTS wsctx.term_blocks (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  term text NOT NULL,
  block integer NOT NULL,
  generation integer NOT NULL,
  count integer NOT NULL,
  postings bytea NOT NULL,
  digest bytea NOT NULL,
  PRIMARY KEY (ns, term, block)
);
CREATE INDEX IF NOT EXISTS term_blocks_generation ON wsctx.term_blocks (ns, generation);
-- Stored as they are: ascending ordinals compress little, and every reader reads them whole.
ALTER TABLE wsctx.term_blocks ALTER COLUMN postings SET STORAGE EXTERNAL;
CREATE TABLE IF NOT EXISTS wsctx.windows (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  ordinal integer NOT NULL,
  win smallint NOT NULL,
  generation integer NOT NULL,
  inverse_norm real NOT NULL,
  codes bytea NOT NULL,
  PRIMARY KEY (ns, ordinal, win)
);
CREATE INDEX IF NOT EXISTS windows_generation ON wsctx.windows (ns, generation);
CREATE TABLE IF NOT EXISTS wsctx.vector_removals (
  ns integer NOT NULL REFERENCES wsctx.namespaces(id) ON DELETE CASCADE,
  generation integer NOT NULL,
  ordinals integer[],
  PRIMARY KEY (ns, generation)
);
`;
