/** Build and search parameters shared by both HNSW backends (hnswGraph.ts and hnswlib-node). */
export interface HnswOptions {
  /** Graph degree (links per point on upper levels, 2M on level 0). Default 16; range 2..100 (higher: better recall, more memory, slower build). */
  m?: number;
  /** Candidate list while building. Default 200; range 10..1000. */
  efConstruction?: number;
  /**
   * Candidate list while searching, raised to `k` when smaller. Default 64: recall@10 1.00 on
   * clustered 100k x 384 vectors at 0.3 ms per query (notes/performance.md); 10 drops it to 0.91.
   * Range 10..1000.
   */
  efSearch?: number;
  /** Slots allocated up front; the index doubles when full. Default 1,024. */
  initialCapacity?: number;
  /** Seed for level assignment, so builds are reproducible. Default 100 (hnswlib's). */
  randomSeed?: number;
}

export const HNSW_DEFAULTS: Required<HnswOptions> = {
  m: 16,
  efConstruction: 200,
  efSearch: 64,
  initialCapacity: 1024,
  randomSeed: 100,
};
