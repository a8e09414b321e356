/**
 * A fitted constant, leave-one-corpus-out: `npm run eval -- --dataset docs --grid NAME=v1,v2,...`
 * ranks every documentation corpus of the dev suite (words only; hybrid with `--embeddings local`,
 * over the eval's cached vectors) once per value of one of the
 * contract's fitted constants (contract.ts TUNABLE_CONSTANTS), through the tool layer as
 * `workspace_context` answers, and reports:
 *
 * - each corpus's nDCG@10 at each value;
 * - for each corpus, the value fitted WITHOUT it (the best mean nDCG@10 over the other corpora;
 *   a tie goes to the published value, then to the smaller), and the corpus's own nDCG@10 at that
 *   value beside the published value's: what the constant is worth on a corpus it was not fitted
 *   to. A constant whose fitted values differ from corpus to corpus, or that costs the held-out
 *   corpus, is fitting, not a finding.
 *
 * Each corpus is indexed once; every value ranks the same index (the constants are ranking-time
 * only). The measurement's values reach the ranker through the services (Services.rankingTuning),
 * which no host that answers users sets.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { publishedValue, TUNABLE_CONSTANTS, type TunableConstant } from '../server/src/engine/ranking/contract';
import { createServices } from '../server/src/services/services';
import { callTool } from '../server/src/tools/callTool';
import { findTool } from '../server/src/tools/registry';
import { ndcgAt10 } from './baselines/docsReference';
import { loadDocsQuestions, writeDocsFolders, type DocsCorpus } from './evalDocs';
import { startEvalEngine, type EvalEmbeddings } from './evalEngine';
import { table } from './report';

export interface GridSpec {
  name: TunableConstant;
  values: number[];
}

export interface GridResult {
  name: TunableConstant;
  published: number;
  values: number[];
  /** Corpus key -> label. */
  labels: Record<string, string>;
  /** Corpus key -> nDCG@10 (all questions) at each value, in `values` order. */
  ndcg: Record<string, number[]>;
  /** Words only (`off`) or hybrid (`local`). */
  embeddings?: EvalEmbeddings;
}

/** `NAME=v1,v2,...` as a grid; the published value is added when missing. */
export function parseGrid(arg: string): GridSpec {
  const eq = arg.indexOf('=');
  const name = arg.slice(0, eq) as TunableConstant;
  if (eq < 0 || !(TUNABLE_CONSTANTS as readonly string[]).includes(name))
    throw new Error(`eval: --grid NAME=v1,v2,... where NAME is one of ${TUNABLE_CONSTANTS.join(', ')}; got "${arg}"`);
  const values = arg
    .slice(eq + 1)
    .split(',')
    .map((v) => Number(v.trim()));
  if (values.length === 0 || values.some((v) => !Number.isFinite(v)))
    throw new Error(`eval: --grid ${name}: the values must be numbers, got "${arg.slice(eq + 1)}"`);
  const published = publishedValue(name);
  if (!values.includes(published)) values.push(published);
  return { name, values: [...new Set(values)].sort((a, b) => a - b) };
}

/**
 * Ranks every corpus with each value of every grid, words only or hybrid; one index per corpus.
 * Hybrid reads the vectors the eval cached for the corpus (the same digests), so it embeds only
 * the questions.
 */
export async function runGrids(
  corpora: readonly DocsCorpus[],
  grids: readonly GridSpec[],
  log: (m: string) => void,
  embeddings: EvalEmbeddings = 'off',
): Promise<GridResult[]> {
  const results: GridResult[] = grids.map((g) => ({
    name: g.name,
    published: publishedValue(g.name),
    values: g.values,
    labels: {},
    ndcg: {},
    embeddings,
  }));
  const tool = findTool('workspace_context');
  if (!tool) throw new Error('eval: workspace_context is not in TOOLS');
  for (const corpus of corpora) {
    const folders = writeDocsFolders(corpus, path.join(os.tmpdir(), 'wsctx-eval-grid'));
    const dataset = embeddings === 'local' ? `docs-${corpus.key}` : `grid-${corpus.key}`;
    const { engine, state } = await startEvalEngine(dataset, folders, embeddings, log, corpus.globs);
    try {
      if (state.counts.sections === 0) continue;
      const questions = loadDocsQuestions(corpus.dir);
      for (const result of results) {
        result.labels[corpus.key] = corpus.label;
        result.ndcg[corpus.key] = [];
      }
      for (let g = 0; g < grids.length; g++) {
        for (const value of grids[g].values) {
          const services = createServices({ engine, rankingTuning: { [grids[g].name]: value } });
          let sum = 0;
          for (const q of questions) {
            const out = (await callTool(
              services,
              tool,
              { ...(corpus.folders ? {} : { workspace: corpus.key }), question: q.question, limit: 10 },
              { sessionId: 'grid' },
            )) as { passages?: { sourceRef?: { path?: string } }[] };
            const files: string[] = [];
            for (const p of out.passages ?? []) {
              const file = p.sourceRef?.path ?? '';
              if (!files.includes(file)) files.push(file);
            }
            sum += ndcgAt10(files, q.gold);
          }
          results[g].ndcg[corpus.key].push(sum / questions.length);
          log(`grid ${corpus.key} ${grids[g].name}=${value}: nDCG@10 ${(sum / questions.length).toFixed(3)}`);
        }
      }
    } finally {
      engine.dispose();
    }
  }
  return results;
}

/** The value fitted on `corpora` (best mean nDCG@10; ties: the published value, then the smaller). */
function fitted(grid: GridResult, corpora: readonly string[]): number {
  let best = -1;
  let bestMean = -Infinity;
  grid.values.forEach((value, i) => {
    const mean = corpora.reduce((s, c) => s + grid.ndcg[c][i], 0) / Math.max(1, corpora.length);
    const better =
      mean > bestMean + 1e-9 || (Math.abs(mean - bestMean) <= 1e-9 && (value === grid.published || best < 0));
    if (better) {
      best = i;
      bestMean = mean;
    }
  });
  return grid.values[best];
}

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => (x >= 0 ? '+' : '') + x.toFixed(3);

/** Each grid's tables: nDCG@10 per corpus and value, then leave-one-corpus-out. */
export function renderGrids(grids: readonly GridResult[]): string[] {
  const out: string[] = [];
  for (const grid of grids) {
    const corpora = Object.keys(grid.ndcg);
    out.push(
      `## Fitted constant ${grid.name} (published ${grid.published}): nDCG@10 ${grid.embeddings === 'local' ? 'hybrid' : 'words only'}, leave-one-corpus-out`,
      '',
    );
    out.push(
      ...table(
        ['corpus', ...grid.values.map((v) => (v === grid.published ? `**${v}**` : String(v)))],
        corpora.map((c) => [grid.labels[c], ...grid.ndcg[c].map(f3)]),
      ),
      '',
    );
    const rows = corpora.map((c) => {
      const value = fitted(
        grid,
        corpora.filter((o) => o !== c),
      );
      const at = grid.ndcg[c][grid.values.indexOf(value)];
      const base = grid.ndcg[c][grid.values.indexOf(grid.published)];
      return [grid.labels[c], String(value), f3(at), f3(base), signed(at - base)];
    });
    const all = fitted(grid, corpora);
    out.push(
      ...table(
        ['held-out corpus', 'value fitted on the others', 'its nDCG@10 there', 'at the published value', 'change'],
        rows,
      ),
      '',
      `Fitted on every corpus: ${all}${all === grid.published ? ' (the published value)' : ''}.`,
      '',
    );
  }
  return out;
}
