/**
 * A namespace's postings as term blocks (schema.ts `term_blocks`): per term and block of
 * {@link BLOCK_SIZE} store ordinals, the ordinals of the block's sections holding the term,
 * ascending, then beside each the term's packed field counts (engine/lexical/fields.ts), both as
 * little-endian uint32 arrays in one bytea: `count` ordinals, then `count` packed counts.
 *
 * Why blocks: a row per posting made a first write tens of millions of rows (1,307 s at 1M
 * sections) and every read of a term as many rows; one row per term made a changed document
 * rewrite whole lists of common terms, a megabyte each in a large namespace. New sections take
 * fresh ordinals at the end of the namespace, so a write touches the last block or two of each of
 * its terms (and the blocks its removed sections were in), and leaves the rest alone: a block is
 * rewritten only when its digest changed.
 */
import { createHash } from 'node:crypto';
import type { PostingRow, StoredSectionTerms } from '../../engine';
import type { PoolClient } from './pgVectors';

/** Store ordinals per block: 65,536 (a common term's block is at most 512 KB). */
export const BLOCK_BITS = 16;
export const BLOCK_SIZE = 1 << BLOCK_BITS;

/** Rows per INSERT of term blocks (7 parameters each, well under PostgreSQL's 65,535). */
const BLOCK_BATCH = 2000;
/** Bytes of postings per INSERT, whatever the row count (a statement of common terms' blocks is large). */
const BATCH_BYTES = 32 << 20;

export function blockOf(ordinal: number): number {
  return ordinal >>> BLOCK_BITS;
}

/** One term's postings in one block, as stored. */
export interface TermBlock {
  term: string;
  block: number;
  count: number;
  /** `count` ordinals then `count` packed counts, uint32 little-endian. */
  postings: Buffer;
}

/** The ordinals and packed counts of a stored block, as views on its bytes when aligned. */
export function decodeBlock(postings: Buffer, count: number): { ordinals: Uint32Array; packed: Uint32Array } {
  if (postings.byteLength !== count * 8)
    throw new Error(`store: a term block of ${count} postings holds ${postings.byteLength} bytes`);
  const bytes = postings.byteOffset % 4 === 0 ? postings : Buffer.from(postings);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, count * 2);
  return { ordinals: words.subarray(0, count), packed: words.subarray(count) };
}

/** The posting rows of stored blocks (the per-question read), kept to `only` ordinals when given. */
export function blockPostingRows(blocks: readonly TermBlock[], only?: ReadonlySet<number>): PostingRow[] {
  const rows: PostingRow[] = [];
  for (const b of blocks) {
    const { ordinals, packed } = decodeBlock(b.postings, b.count);
    for (let k = 0; k < b.count; k++) {
      if (only && !only.has(ordinals[k])) continue;
      rows.push({ ordinal: ordinals[k], term: b.term, packed: packed[k] });
    }
  }
  return rows;
}

/**
 * Every term block of the sections `placed` (store ordinal and terms), for the blocks in
 * `blocks`: each term's ordinals ascending with their packed counts. Sections outside `blocks`
 * are skipped.
 */
export function buildBlocks(
  placed: readonly { ordinal: number; section: Pick<StoredSectionTerms, 'terms' | 'packed'> }[],
  blocks: ReadonlySet<number>,
): Map<string, TermBlock> {
  const lists = new Map<string, { term: string; block: number; ordinals: number[]; packed: number[] }>();
  for (const { ordinal, section } of placed) {
    const block = blockOf(ordinal);
    if (!blocks.has(block)) continue;
    for (let k = 0; k < section.terms.length; k++) {
      const key = `${block}\u0000${section.terms[k]}`;
      let list = lists.get(key);
      if (!list) lists.set(key, (list = { term: section.terms[k], block, ordinals: [], packed: [] }));
      list.ordinals.push(ordinal);
      list.packed.push(section.packed[k]);
    }
  }
  const out = new Map<string, TermBlock>();
  for (const [key, list] of lists) {
    const n = list.ordinals.length;
    const order = isAscending(list.ordinals)
      ? null
      : [...list.ordinals.keys()].sort((a, b) => list.ordinals[a] - list.ordinals[b]);
    const postings = Buffer.alloc(n * 8);
    for (let i = 0; i < n; i++) {
      const at = order ? order[i] : i;
      postings.writeUInt32LE(list.ordinals[at], i * 4);
      postings.writeUInt32LE(list.packed[at] >>> 0, (n + i) * 4);
    }
    out.set(key, { term: list.term, block: list.block, count: n, postings });
  }
  return out;
}

function isAscending(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] <= values[i - 1]) return false;
  return true;
}

/** A short digest of a block's bytes: equal digests, nothing to write. */
export function blockDigest(postings: Buffer): Buffer {
  return createHash('md5').update(postings).digest();
}

/**
 * Makes namespace `ns`'s blocks in `touched` hold exactly `built` (every block of those numbers,
 * keyed `block\0term`): writes the blocks whose digest changed or that are new, removes the ones
 * no section holds any more. Returns the postings and blocks written.
 */
export async function writeBlocks(
  client: PoolClient,
  ns: number,
  generation: number,
  touched: ReadonlySet<number>,
  built: ReadonlyMap<string, TermBlock>,
  firstWrite: boolean,
): Promise<{ postings: number; blocks: number }> {
  const stored = new Map<string, Buffer>();
  if (!firstWrite && touched.size > 0) {
    const rows = await client.query<{ term: string; block: number; digest: Buffer }>(
      'SELECT term, block, digest FROM wsctx.term_blocks WHERE ns = $1 AND block = ANY($2::int[])',
      [ns, [...touched]],
    );
    for (const r of rows.rows) stored.set(`${r.block}\u0000${r.term}`, r.digest);
  }
  const gone = [...stored.keys()].filter((key) => !built.has(key));
  for (let i = 0; i < gone.length; i += 10_000) {
    const batch = gone.slice(i, i + 10_000).map((key) => key.split('\u0000'));
    await client.query(
      'DELETE FROM wsctx.term_blocks t USING unnest($2::int[], $3::text[]) AS x(b, term) WHERE t.ns = $1 AND t.block = x.b AND t.term = x.term',
      [ns, batch.map(([b]) => Number(b)), batch.map(([, term]) => term)],
    );
  }
  let postings = 0;
  let blocks = 0;
  let rows: { block: TermBlock; digest: Buffer }[] = [];
  let bytes = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    const values: unknown[] = [ns, generation];
    const tuples = rows.map(({ block, digest }, i) => {
      values.push(block.term, block.block, block.count, block.postings, digest);
      const p = 3 + i * 5;
      return `($1, $${p}, $${p + 1}, $2, $${p + 2}, $${p + 3}, $${p + 4})`;
    });
    await client.query(
      `INSERT INTO wsctx.term_blocks (ns, term, block, generation, count, postings, digest) VALUES ${tuples.join(', ')}
       ON CONFLICT (ns, term, block) DO UPDATE SET generation = EXCLUDED.generation, count = EXCLUDED.count, postings = EXCLUDED.postings, digest = EXCLUDED.digest`,
      values,
    );
    rows = [];
    bytes = 0;
  };
  for (const [key, block] of built) {
    const digest = blockDigest(block.postings);
    const had = stored.get(key);
    if (had?.equals(digest)) continue;
    rows.push({ block, digest });
    bytes += block.postings.byteLength;
    postings += block.count;
    blocks++;
    if (rows.length >= BLOCK_BATCH || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return { postings, blocks };
}

/**
 * Stored blocks of `terms` (all their blocks, or those numbered `blocks`). The bytes come as hex
 * text, decoded natively by the client: its parser reads every field as UTF-8 text, so asking
 * for PostgreSQL's binary format would mangle every byte past 0x7f.
 */
export async function readTermBlocks(
  client: PoolClient,
  ns: number,
  terms: readonly string[],
  blocks?: readonly number[],
): Promise<TermBlock[]> {
  if (terms.length === 0) return [];
  const found = blocks
    ? await client.query<TermBlock>(
        'SELECT term, block, count, postings FROM wsctx.term_blocks WHERE ns = $1 AND term = ANY($2::text[]) AND block = ANY($3::int[])',
        [ns, terms, blocks],
      )
    : await client.query<TermBlock>(
        'SELECT term, block, count, postings FROM wsctx.term_blocks WHERE ns = $1 AND term = ANY($2::text[])',
        [ns, terms],
      );
  return found.rows;
}

/** Every block of namespace `ns` written after `afterGeneration` (0: all of them), handed over in pages. */
export async function readBlocksSince(
  client: PoolClient,
  ns: number,
  afterGeneration: number,
  onPage: (blocks: TermBlock[]) => void,
): Promise<void> {
  let lastTerm = '';
  let lastBlock = -1;
  for (;;) {
    const page = (
      await client.query<TermBlock>(
        `SELECT term, block, count, postings FROM wsctx.term_blocks
          WHERE ns = $1 AND generation > $2 AND (term, block) > ($3, $4)
          ORDER BY term, block LIMIT $5`,
        [ns, afterGeneration, lastTerm, lastBlock, PAGE_ROWS],
      )
    ).rows;
    if (page.length === 0) return;
    onPage(page);
    const last = page[page.length - 1];
    lastTerm = last.term;
    lastBlock = last.block;
    if (page.length < PAGE_ROWS) return;
  }
}

/** Blocks per page of a bulk read (a few MB on average: most terms are rare). */
const PAGE_ROWS = 4000;
