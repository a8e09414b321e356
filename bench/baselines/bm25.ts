/**
 * The physical-limit reference: a plain inverted index in typed arrays, scored with BM25
 * (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009), top-k
 * by a small sorted buffer. No positions, no fields, no compression: about as little work per
 * posting as JavaScript allows. Terms come from the engine's own analyzer (text/analyzer.ts), so
 * it reads exactly the terms our postings index reads.
 */
import { analyzeQuery, termCounts } from '../../server/src/engine/text/analyzer';

/** Term-frequency saturation. 0.9 with b 0.4 are Anserini's BEIR settings. */
export const BM25_K1 = 0.9;
/** Length normalisation, 0 (none) to 1 (full). */
export const BM25_B = 0.4;

export class Bm25Index {
  private readonly scores: Float64Array;
  private readonly touched: Uint32Array;

  private constructor(
    private readonly dict: Map<string, number>,
    private readonly offsets: Uint32Array,
    private readonly postings: Uint32Array,
    private readonly tfs: Uint16Array,
    /** Per document: k1 * (1 - b + b * length / average length), precomputed. */
    private readonly norms: Float32Array,
    /** Caller's id of each document. */
    private readonly ids: Uint32Array,
  ) {
    this.scores = new Float64Array(ids.length);
    this.touched = new Uint32Array(ids.length);
  }

  /** Indexes `docs` (caller's id and text) with the engine's analyzer. */
  static build(docs: readonly { id: number; text: string }[]): Bm25Index {
    const dict = new Map<string, number>();
    const termDocs: number[][] = [];
    const termTfs: number[][] = [];
    const lengths = new Float64Array(docs.length);
    let total = 0;
    for (let d = 0; d < docs.length; d++) {
      for (const [term, tf] of termCounts(docs[d].text)) {
        let id = dict.get(term);
        if (id === undefined) {
          id = termDocs.length;
          dict.set(term, id);
          termDocs.push([]);
          termTfs.push([]);
        }
        termDocs[id].push(d);
        termTfs[id].push(Math.min(tf, 65_535));
        lengths[d] += tf;
        total++;
      }
    }
    const offsets = new Uint32Array(termDocs.length + 1);
    const postings = new Uint32Array(total);
    const tfs = new Uint16Array(total);
    let w = 0;
    for (let t = 0; t < termDocs.length; t++) {
      offsets[t] = w;
      postings.set(termDocs[t], w);
      tfs.set(termTfs[t], w);
      w += termDocs[t].length;
    }
    offsets[termDocs.length] = w;
    const average = lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
    const norms = new Float32Array(docs.length);
    for (let d = 0; d < docs.length; d++) norms[d] = BM25_K1 * (1 - BM25_B + (BM25_B * lengths[d]) / average);
    return new Bm25Index(dict, offsets, postings, tfs, norms, Uint32Array.from(docs, (doc) => doc.id));
  }

  /** Caller's ids of the `k` best documents for `query`, best first (ties: earlier document first). */
  search(query: string, k: number): number[] {
    const n = this.ids.length;
    const { scores, touched, offsets, postings, tfs, norms } = this;
    let count = 0;
    for (const unit of analyzeQuery(query)) {
      const t = this.dict.get(unit.key);
      if (t === undefined) continue;
      const df = offsets[t + 1] - offsets[t];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let p = offsets[t]; p < offsets[t + 1]; p++) {
        const d = postings[p];
        const tf = tfs[p];
        if (scores[d] === 0) touched[count++] = d;
        scores[d] += (idf * tf * (BM25_K1 + 1)) / (tf + norms[d]);
      }
    }
    // Top k in a sorted buffer: k is small, so insertion beats a heap.
    const best: number[] = [];
    for (let i = 0; i < count; i++) {
      const d = touched[i];
      const s = scores[d];
      if (best.length === k && (s < scores[best[k - 1]] || (s === scores[best[k - 1]] && d > best[k - 1]))) continue;
      let j = best.length < k ? best.length : k - 1;
      while (j > 0 && (scores[best[j - 1]] < s || (scores[best[j - 1]] === s && best[j - 1] > d))) {
        best[j] = best[j - 1];
        j--;
      }
      best[j] = d;
    }
    const result = best.map((d) => this.ids[d]);
    for (let i = 0; i < count; i++) scores[touched[i]] = 0;
    return result;
  }

  /** Bytes of the typed arrays (the dictionary's heap is measured by the bench, not estimated). */
  byteSize(): number {
    return this.offsets.byteLength + this.postings.byteLength + this.tfs.byteLength + this.norms.byteLength + this.ids.byteLength + this.scores.byteLength + this.touched.byteLength;
  }
}
