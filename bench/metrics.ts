/**
 * Retrieval metrics for `npm run eval`, as BEIR reports them (through pytrec_eval, i.e. trec_eval).
 *
 * Inputs: a ranked list of document ids, best first (a document listed twice counts at its first
 * position only), and the judgments of one query: document id -> relevance grade. A grade above 0
 * is relevant; 0 or below, or no judgment, is not.
 *
 * - **nDCG@k** (Jarvelin and Kekalainen 2002): DCG@k = sum over ranks i = 1..k of
 *   grade(d_i) / log2(i + 1) (linear gain, trec_eval's `ndcg_cut`); nDCG@k = DCG@k / IDCG@k, where
 *   IDCG@k is the DCG of the judged documents sorted by grade, best first (equal grades are
 *   interchangeable there, so ties do not matter). In [0, 1].
 * - **recall@k**: relevant documents in the top k / all relevant documents. In [0, 1].
 * - **MRR@k**: 1 / rank of the first relevant document if it is in the top k, else 0 (the mean of
 *   this over queries is the mean reciprocal rank).
 *
 * A query with no relevant document has no defined value (IDCG and the recall denominator are 0):
 * the functions return `null`, and {@link meanMetrics} leaves such queries out of the means and
 * counts them as `unjudged`, as BEIR does for queries absent from its qrels.
 *
 * Ties in a system's scores are the ranking's business, not the metric's: {@link rankByScore} sorts
 * by score, highest first, and breaks ties by id (ascending, code-unit order), so equal scores
 * always give the same list. trec_eval breaks them by document id descending; BEIR's tables come
 * from scores with few exact ties, so the difference does not show there.
 */

/** Relevance grades of one query's judged documents. */
export type Judgments = ReadonlyMap<string, number>;

export interface QueryMetrics {
  ndcg10: number;
  recall5: number;
  recall10: number;
  mrr10: number;
}

export interface MeanMetrics extends QueryMetrics {
  /** Queries with at least one relevant document (the means are over these). */
  queries: number;
  /** Queries left out because nothing was relevant. */
  unjudged: number;
}

/** `ranked` without repeats, first occurrence kept, cut at `k`. */
function topK(ranked: readonly string[], k: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ranked) {
    if (out.length >= k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

function relevantCount(judgments: Judgments): number {
  let n = 0;
  for (const grade of judgments.values()) if (grade > 0) n++;
  return n;
}

/** nDCG@k with linear gain and log2(rank + 1) discount; null when nothing is relevant. */
export function ndcgAt(ranked: readonly string[], judgments: Judgments, k = 10): number | null {
  const grades = [...judgments.values()].filter((g) => g > 0).sort((a, b) => b - a);
  if (grades.length === 0) return null;
  let ideal = 0;
  for (let i = 0; i < Math.min(k, grades.length); i++) ideal += grades[i] / Math.log2(i + 2);
  let dcg = 0;
  topK(ranked, k).forEach((id, i) => {
    const grade = judgments.get(id) ?? 0;
    if (grade > 0) dcg += grade / Math.log2(i + 2);
  });
  return dcg / ideal;
}

/** Share of the relevant documents found in the top k; null when nothing is relevant. */
export function recallAt(ranked: readonly string[], judgments: Judgments, k: number): number | null {
  const relevant = relevantCount(judgments);
  if (relevant === 0) return null;
  const found = topK(ranked, k).filter((id) => (judgments.get(id) ?? 0) > 0).length;
  return found / relevant;
}

/** 1 / rank of the first relevant document within the top k, else 0; null when nothing is relevant. */
export function reciprocalRankAt(ranked: readonly string[], judgments: Judgments, k = 10): number | null {
  if (relevantCount(judgments) === 0) return null;
  const i = topK(ranked, k).findIndex((id) => (judgments.get(id) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** 1-based rank of the first relevant document anywhere in `ranked`, or null when absent. */
export function firstRelevantRank(ranked: readonly string[], judgments: Judgments): number | null {
  const i = topK(ranked, Infinity).findIndex((id) => (judgments.get(id) ?? 0) > 0);
  return i < 0 ? null : i + 1;
}

/** All four metrics of one query; null when nothing is relevant. */
export function evaluateQuery(ranked: readonly string[], judgments: Judgments): QueryMetrics | null {
  const ndcg10 = ndcgAt(ranked, judgments, 10);
  if (ndcg10 === null) return null;
  return {
    ndcg10,
    recall5: recallAt(ranked, judgments, 5)!,
    recall10: recallAt(ranked, judgments, 10)!,
    mrr10: reciprocalRankAt(ranked, judgments, 10)!,
  };
}

/** Means over the judged queries (all zero when there are none). */
export function meanMetrics(perQuery: readonly (QueryMetrics | null)[]): MeanMetrics {
  const judged = perQuery.filter((m): m is QueryMetrics => m !== null);
  const mean = (pick: (m: QueryMetrics) => number) =>
    judged.length === 0 ? 0 : judged.reduce((sum, m) => sum + pick(m), 0) / judged.length;
  return {
    ndcg10: mean((m) => m.ndcg10),
    recall5: mean((m) => m.recall5),
    recall10: mean((m) => m.recall10),
    mrr10: mean((m) => m.mrr10),
    queries: judged.length,
    unjudged: perQuery.length - judged.length,
  };
}

/** Ids sorted by score, highest first; equal scores by id ascending (deterministic). */
export function rankByScore(scores: ReadonlyMap<string, number>): string[] {
  return [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([id]) => id);
}
