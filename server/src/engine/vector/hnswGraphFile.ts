/**
 * The HNSW graph's links on disk (hnswGraph.ts), the part of the graph index's file after the int8
 * store (graphIndex.ts writes the header: entry point, top level, generator state, upper-level
 * u32s in use). Layout for the store's first `n` slots, little-endian, 4-aligned: count0 u8 x n
 * (padded to 4) | levels u8 x n (padded) | upperAt i32 x n | links0 u32 x n x 2M | upper u32 x
 * upperUsed.
 */
import { HnswGraph, type HnswGraphParams } from './hnswGraph';
import { pad4, type Int8VectorStore } from './vectorStore';

/** The header fields the links need back. */
export interface SavedGraphHeader {
  entry: number;
  maxLevel: number;
  rngState: number;
  upperUsed: number;
}

/** Bytes `writeGraphLinks` writes for the first `n` slots. */
export function graphLinksBytes(graph: HnswGraph, n: number): number {
  return 2 * pad4(n) + 4 * n + 4 * n * graph.m0 + 4 * graph.upperUsed;
}

/** Writes the links of the first `n` slots (the store's count) at `offset` (4-aligned); returns the offset after them. */
export function writeGraphLinks(graph: HnswGraph, buf: Buffer, offset: number, n: number): number {
  let at = offset;
  buf.set(graph.count0.subarray(0, n), at);
  at += pad4(n);
  buf.set(graph.levels.subarray(0, n), at);
  at += pad4(n);
  new Int32Array(buf.buffer, buf.byteOffset + at, n).set(graph.upperAt.subarray(0, n));
  at += 4 * n;
  new Uint32Array(buf.buffer, buf.byteOffset + at, n * graph.m0).set(graph.links0.subarray(0, n * graph.m0));
  at += 4 * n * graph.m0;
  new Uint32Array(buf.buffer, buf.byteOffset + at, graph.upperUsed).set(graph.upper.subarray(0, graph.upperUsed));
  return at + 4 * graph.upperUsed;
}

/**
 * Reads what `writeGraphLinks` wrote for the store's `count` slots into a graph over `store`, and
 * checks every link points at a slot that exists, every count fits its list and the entry point
 * is at the top level (a damaged file would otherwise send a search out of bounds). `what` names
 * the file in errors.
 */
export function readGraphLinks(
  store: Int8VectorStore,
  params: HnswGraphParams,
  saved: SavedGraphHeader,
  buf: Buffer,
  offset: number,
  what: string,
): { graph: HnswGraph; end: number } {
  const bad = () => new Error(`vector index: ${what} is truncated or damaged`);
  const n = store.count;
  const graph = new HnswGraph(store, params, store.capacity);
  graph.upperUsed = saved.upperUsed;
  const end = offset + graphLinksBytes(graph, n);
  if (end > buf.length) throw bad();
  let at = offset;
  graph.count0.set(buf.subarray(at, at + n));
  at += pad4(n);
  graph.levels.set(buf.subarray(at, at + n));
  at += pad4(n);
  graph.upperAt.set(new Int32Array(buf.buffer, buf.byteOffset + at, n));
  at += 4 * n;
  graph.links0.set(new Uint32Array(buf.buffer, buf.byteOffset + at, n * graph.m0));
  at += 4 * n * graph.m0;
  if (saved.upperUsed > graph.upper.length) graph.upper = new Uint32Array(saved.upperUsed);
  graph.upper.set(new Uint32Array(buf.buffer, buf.byteOffset + at, saved.upperUsed));
  graph.entry = saved.entry;
  graph.maxLevel = saved.maxLevel;
  graph.rngState = saved.rngState >>> 0;
  if (
    n === 0 ? saved.entry !== -1 : saved.entry < 0 || saved.entry >= n || graph.levels[saved.entry] !== saved.maxLevel
  )
    throw bad();
  const width = 1 + graph.m;
  for (let slot = 0; slot < n; slot++) {
    const count = graph.count0[slot];
    if (count > graph.m0) throw bad();
    for (let i = 0; i < count; i++) if (graph.links0[slot * graph.m0 + i] >= n) throw bad();
    const level = graph.levels[slot];
    const startAt = graph.upperAt[slot];
    if (level > saved.maxLevel || (level === 0) !== (startAt === -1)) throw bad();
    if (level === 0) continue;
    if (startAt < 0 || startAt + level * width > saved.upperUsed) throw bad();
    for (let l = 0; l < level; l++) {
      const block = startAt + l * width;
      if (graph.upper[block] > graph.m) throw bad();
      for (let i = 1; i <= graph.upper[block]; i++) if (graph.upper[block + i] >= n) throw bad();
    }
  }
  return { graph, end };
}
