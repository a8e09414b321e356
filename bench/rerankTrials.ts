/**
 * A ranking signal measured before it is built (issue 39): `npx tsx bench/rerankTrials.ts
 * --signal proximity|coverage|page [--weights 0,0.05,0.1] [--pairs all|consecutive] [--window 4]
 * [--page-length-normalisation 0] [--embeddings off|local] [--moved] [corpus,...]`.
 *
 * For every labelled question of the dev suite (bench/evalDocs.ts) it asks `workspace_context`
 * for its first 30 passages (the per-document rule applied), adds weight x the signal to each
 * passage's score, orders them again and scores the first 10 as their distinct files, as the
 * suite does (nDCG@10). Weight 0 is the tool's own order, so each row compares like with like in
 * one run. It prints each corpus and style at every weight, then the leave-one-corpus-out table:
 * each corpus at the weight fitted on the six others (highest mean overall nDCG@10 there), its
 * change and its worst style's, the two numbers the suite's keep rule reads. `--moved` also lists
 * each question whose nDCG@10 moves.
 *
 * A re-ranking of 30 is not the engine's answer: a passage below the 30th could rise with the
 * signal. It says whether a signal is worth building; a signal that fails here is not built
 * (bench/RESULTS.md, "Signals simulated before building"). The signals, each 0..1:
 *
 * - `proximity`: the share, weighted by the rarer term's idf, of the question's term pairs (every
 *   pair, or consecutive ones in the question's order) found within `--window` index terms of each
 *   other in the passage's heading line and text: the sequential-dependence idea.
 * - `coverage`: the idf-weighted share of the question's terms the passage's title, heading line
 *   and text hold, less its graded words value: presence blended into saturation (the seed's
 *   "fraction of your query's terms").
 * - `page`: the passage's page's own words value for the question, every section of the page read
 *   as one text: BM25's saturation (k1 1.2) with `--page-length-normalisation` b (0.75 is BM25's
 *   own), idf over pages, divided by the question's idf as ours is: evidence that the whole page
 *   is about the question.
 *
 * idf here is over the reference split's sections (or pages), which is close to but not the
 * engine's: the signal's shape is measured, not its published constants.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeQuery, forEachTerm, type QueryTerm } from '../server/src/engine/text/analyzer';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import type { ContextOutput } from '../server/src/tools/workspaceContext';
import { ndcgAt10 } from './baselines/docsReference';
import { docsCorpora, loadDocsQuestions, referenceSplit, writeDocsFolders, type DocsCorpus } from './evalDocs';
import { startEvalEngine, type EvalEmbeddings } from './evalEngine';

type Passage = NonNullable<ContextOutput['passages']>[number];
type Signal = 'proximity' | 'coverage' | 'page';

interface Options {
  signal: Signal;
  weights: number[];
  allPairs: boolean;
  window: number;
  pageB: number;
  embeddings: EvalEmbeddings;
  /** Also list each question whose nDCG@10 moves, at each weight. */
  moved: boolean;
  corpora?: string[];
}

/** nDCG@10 per question at each weight (same order as `weights`), with its style. */
interface QuestionResult {
  id: string;
  style: string;
  ndcg: number[];
}

const K1 = 1.2;
const ASKED = 30;

function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const signal = (value('--signal') ?? 'proximity') as Signal;
  if (!['proximity', 'coverage', 'page'].includes(signal))
    throw new Error(`rerankTrials: --signal is proximity, coverage or page, not "${signal}"`);
  const weights = (value('--weights') ?? '0,0.03,0.06,0.1').split(',').map(Number);
  if (weights.some((w) => !Number.isFinite(w)))
    throw new Error('rerankTrials: --weights takes numbers, comma-separated');
  if (!weights.includes(0)) weights.unshift(0);
  const flags = new Set([
    '--signal',
    '--weights',
    '--pairs',
    '--window',
    '--page-length-normalisation',
    '--embeddings',
  ]);
  const corpora = argv.find((a, i) => !a.startsWith('--') && !flags.has(argv[i - 1]))?.split(',');
  return {
    signal,
    weights,
    allPairs: (value('--pairs') ?? 'all') === 'all',
    window: Number(value('--window') ?? 4),
    pageB: Number(value('--page-length-normalisation') ?? 0.75),
    embeddings: (value('--embeddings') ?? 'off') as EvalEmbeddings,
    moved: argv.includes('--moved'),
    ...(corpora ? { corpora } : {}),
  };
}

/** Each index term of `text` -> its positions, counting every term occurrence in order. */
function termPositions(text: string): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  let at = 0;
  forEachTerm(text, (term) => {
    const list = positions.get(term);
    if (list) list.push(at);
    else positions.set(term, [at]);
    at++;
  });
  return positions;
}

/** Whether two sorted position lists hold a pair of distinct positions at most `window` apart. */
function within(a: readonly number[] | undefined, b: readonly number[] | undefined, window: number): boolean {
  if (!a || !b) return false;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] !== b[j] && Math.abs(a[i] - b[j]) <= window) return true;
    if (a[i] < b[j]) i++;
    else j++;
  }
  return false;
}

/** idf (BM25's, never negative) over a list of texts' term sets. */
function idfOver(texts: Iterable<string>): (term: string) => number {
  const df = new Map<string, number>();
  let n = 0;
  for (const text of texts) {
    n++;
    const seen = new Set<string>();
    forEachTerm(text, (t) => seen.add(t));
    for (const t of seen) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return (term) => {
    const f = df.get(term) ?? 0;
    return Math.log(1 + (n - f + 0.5) / (f + 0.5));
  };
}

/** The page signal's table: each page's term counts and length, and idf over pages. */
function pageWords(corpus: DocsCorpus, b: number): (file: string, terms: readonly QueryTerm[]) => number {
  const { sections } = referenceSplit(corpus);
  const pages = new Map<string, string>();
  for (const s of sections) pages.set(s.file, `${pages.get(s.file) ?? s.title}\n${s.heading}\n${s.body}`);
  const counts = new Map<string, { terms: Map<string, number>; length: number }>();
  let total = 0;
  for (const [file, text] of pages) {
    const terms = new Map<string, number>();
    let length = 0;
    forEachTerm(text, (t) => {
      terms.set(t, (terms.get(t) ?? 0) + 1);
      length++;
    });
    counts.set(file, { terms, length });
    total += length;
  }
  const average = total / Math.max(1, pages.size);
  const idf = idfOver(pages.values());
  return (file, terms) => {
    const page = counts.get(file);
    if (!page) return 0;
    const norm = 1 - b + (b * page.length) / average;
    let sum = 0;
    let weight = 0;
    for (const t of terms) {
      const tf = page.terms.get(t.key) ?? 0;
      sum += (idf(t.key) * tf) / (tf + K1 * norm);
      weight += idf(t.key);
    }
    return weight > 0 ? sum / weight : 0;
  };
}

/** The chosen signal of one passage for one question, 0..1 (coverage: a difference, -1..1). */
function signalOf(
  options: Options,
  passage: Passage,
  terms: readonly QueryTerm[],
  idf: (term: string) => number,
  page: ((file: string, terms: readonly QueryTerm[]) => number) | undefined,
): number {
  const headingLine = (passage.headingPath ?? []).join(' ');
  if (options.signal === 'page') return page?.(passage.sourceRef?.path ?? '', terms) ?? 0;
  if (options.signal === 'coverage') {
    const held = new Set<string>();
    forEachTerm(`${passage.title ?? ''}\n${headingLine}\n${passage.text ?? ''}`, (t) => held.add(t));
    const holds = (t: QueryTerm) => held.has(t.key) || (t.parts.length > 0 && t.parts.every((p) => held.has(p)));
    const total = terms.reduce((s, t) => s + idf(t.key), 0);
    const share = total > 0 ? terms.reduce((s, t) => s + (holds(t) ? idf(t.key) : 0), 0) / total : 0;
    const words = passage.why?.find((w) => w.signal === 'words')?.contribution ?? 0;
    return share - words;
  }
  const keys = terms.map((t) => t.key);
  const pairs: [string, string][] = [];
  for (let i = 0; i < keys.length; i++)
    for (let j = i + 1; j < (options.allPairs ? keys.length : Math.min(keys.length, i + 2)); j++)
      pairs.push([keys[i], keys[j]]);
  const positions = termPositions(`${headingLine}\n${passage.text ?? ''}`);
  let found = 0;
  let total = 0;
  for (const [a, b] of pairs) {
    const w = Math.min(idf(a), idf(b));
    total += w;
    if (within(positions.get(a), positions.get(b), options.window)) found += w;
  }
  return total > 0 ? found / total : 0;
}

async function trialCorpus(options: Options, corpus: DocsCorpus): Promise<QuestionResult[]> {
  const tool = findTool('workspace_context');
  if (!tool) throw new Error('rerankTrials: workspace_context is not in TOOLS');
  const folders = writeDocsFolders(corpus, path.join(os.tmpdir(), 'wsctx-eval-docs'));
  const { engine } = await startEvalEngine(`docs-${corpus.key}`, folders, options.embeddings, () => {}, corpus.globs);
  const idf = idfOver(referenceSplit(corpus).texts);
  const page = options.signal === 'page' ? pageWords(corpus, options.pageB) : undefined;
  const services = createServices({ engine });
  const results: QuestionResult[] = [];
  try {
    for (const q of loadDocsQuestions(corpus.dir)) {
      const args = { ...(folders.length > 1 ? {} : { workspace: corpus.key }), question: q.question, limit: ASKED };
      const out = (await callTool(services, tool, args, { sessionId: 'rerank-trials' })) as ContextOutput;
      const terms = analyzeQuery(q.question);
      const passages = (out.passages ?? []).map((p, at) => ({
        file: p.sourceRef?.path ?? '',
        score: p.score,
        at,
        signal: signalOf(options, p, terms, idf, page),
      }));
      const ndcg = options.weights.map((w) => {
        const ordered = [...passages].sort((x, y) => y.score + w * y.signal - (x.score + w * x.signal) || x.at - y.at);
        return ndcgAt10([...new Set(ordered.slice(0, 10).map((p) => p.file))], q.gold);
      });
      results.push({ id: q.id, style: q.style, ndcg });
    }
  } finally {
    engine.dispose();
  }
  return results;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const at = (rows: readonly QuestionResult[], w: number) => mean(rows.map((r) => r.ndcg[w]));

function printCorpus(options: Options, label: string, rows: readonly QuestionResult[]): void {
  const header = options.weights.map((w) => String(w)).join(' | ');
  console.log(
    `\n### ${label}\n\n| style | n | ${header} |\n| --- | --- | ${options.weights.map(() => '---').join(' | ')} |`,
  );
  const styles = [...new Set(rows.map((r) => r.style))];
  for (const style of [...styles, 'all']) {
    const subset = style === 'all' ? rows : rows.filter((r) => r.style === style);
    const cells = options.weights.map((_, w) => at(subset, w).toFixed(3)).join(' | ');
    console.log(`| ${style === 'all' ? '**all**' : style} | ${subset.length} | ${cells} |`);
  }
  if (!options.moved) return;
  for (const r of rows) {
    const moves = options.weights
      .map((w, i) => (Math.abs(r.ndcg[i] - r.ndcg[0]) > 1e-9 ? `${w}: ${r.ndcg[i].toFixed(2)}` : ''))
      .filter(Boolean);
    if (moves.length) console.log(`- ${r.id} (${r.style}) ${r.ndcg[0].toFixed(2)} -> ${moves.join(', ')}`);
  }
}

/** Each corpus at the weight fitted on the others, and its worst style's change there. */
function printLeaveOneOut(options: Options, byCorpus: ReadonlyMap<string, QuestionResult[]>): void {
  console.log(
    '\n| held-out corpus | weight fitted on the others | nDCG@10 at 0 | at the fitted weight | change | worst style there |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [label, rows] of byCorpus) {
    const others = [...byCorpus].filter(([l]) => l !== label).map(([, r]) => r);
    let best = 0;
    options.weights.forEach((_, w) => {
      const score = (i: number) => others.reduce((s, r) => s + at(r, i), 0);
      if (score(w) > score(best) + 1e-12) best = w;
    });
    const styles = [...new Set(rows.map((r) => r.style))];
    const worst = styles
      .map((style) => {
        const subset = rows.filter((r) => r.style === style);
        return { style, change: at(subset, best) - at(subset, 0) };
      })
      .sort((x, y) => x.change - y.change)[0];
    const change = at(rows, best) - at(rows, 0);
    console.log(
      `| ${label} | ${options.weights[best]} | ${at(rows, 0).toFixed(3)} | ${at(rows, best).toFixed(3)} | ${change >= 0 ? '+' : ''}${change.toFixed(3)} | ${worst.style} ${worst.change >= 0 ? '+' : ''}${worst.change.toFixed(3)} |`,
    );
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const corpora = docsCorpora(path.resolve(__dirname, '..', 'test', 'fixtures', 'argocd-docs')).filter(
    (c) => !options.corpora || options.corpora.includes(c.key),
  );
  const shape =
    options.signal === 'proximity'
      ? `, ${options.allPairs ? 'every pair' : 'consecutive pairs'} within ${options.window} terms`
      : options.signal === 'page'
        ? `, page length normalisation ${options.pageB}`
        : '';
  console.log(
    `## Re-ranking trial: ${options.signal}${shape}, ${options.embeddings === 'off' ? 'words only' : 'hybrid'}, nDCG@10 of the first ${ASKED} passages re-ordered`,
  );
  const byCorpus = new Map<string, QuestionResult[]>();
  for (const corpus of corpora) {
    const rows = await trialCorpus(options, corpus);
    byCorpus.set(corpus.label, rows);
    printCorpus(options, corpus.label, rows);
  }
  if (byCorpus.size > 1) printLeaveOneOut(options, byCorpus);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
