/**
 * A ranking signal measured before it is built (issue 39): `npx tsx bench/rerankTrials.ts
 * --signal proximity|coverage|page|feedback|heading|surface [--weights 0,0.05,0.1]
 * [--pairs all|consecutive] [--window 4] [--page-length-normalisation 0] [--feedback-passages 3]
 * [--feedback-terms 10] [--embeddings off|local] [--moved] [corpus,...]`.
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
 * - `feedback`: pseudo-relevance feedback, measured on the answer itself: the words the first
 *   `--feedback-passages` passages hold most, beyond the question's own (`--feedback-terms` of
 *   them), and each passage's share of them: a passage like the best ones rises.
 * - `heading`: the idf-weighted share of the passage's own heading that the question holds: a
 *   section whose heading the question nearly repeats.
 * - `surface`: the passage's BM25 for the question's words as written, no stems (the reference's
 *   analyzer): credit for the asker's own word rather than another word of its stem's family.
 *
 * idf here is over the reference split's sections (or pages), which is close to but not the
 * engine's: the signal's shape is measured, not its published constants.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import type { ContextOutput } from '../server/src/tools/workspaceContext';
import { ndcgAt10 } from './baselines/docsReference';
import { docsCorpora, loadDocsQuestions, writeDocsFolders, type DocsCorpus } from './evalDocs';
import { startEvalEngine, type EvalEmbeddings } from './evalEngine';
import { answerSignals, SIGNALS, type Signal, type SignalOptions } from './rerankSignals';

interface Options extends SignalOptions {
  weights: number[];
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

const ASKED = 30;

function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const signal = (value('--signal') ?? 'proximity') as Signal;
  if (!SIGNALS.includes(signal))
    throw new Error(`rerankTrials: --signal is one of ${SIGNALS.join(', ')}, not "${signal}"`);
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
    '--feedback-passages',
    '--feedback-terms',
    '--embeddings',
  ]);
  const corpora = argv.find((a, i) => !a.startsWith('--') && !flags.has(argv[i - 1]))?.split(',');
  return {
    signal,
    weights,
    allPairs: (value('--pairs') ?? 'all') === 'all',
    window: Number(value('--window') ?? 4),
    pageB: Number(value('--page-length-normalisation') ?? 0.75),
    feedbackPassages: Number(value('--feedback-passages') ?? 3),
    feedbackTerms: Number(value('--feedback-terms') ?? 10),
    embeddings: (value('--embeddings') ?? 'off') as EvalEmbeddings,
    moved: argv.includes('--moved'),
    ...(corpora ? { corpora } : {}),
  };
}

async function trialCorpus(options: Options, corpus: DocsCorpus): Promise<QuestionResult[]> {
  const tool = findTool('workspace_context');
  if (!tool) throw new Error('rerankTrials: workspace_context is not in TOOLS');
  const folders = writeDocsFolders(corpus, path.join(os.tmpdir(), 'wsctx-eval-docs'));
  const { engine } = await startEvalEngine(`docs-${corpus.key}`, folders, options.embeddings, () => {}, corpus.globs);
  const signalsOf = answerSignals(options, corpus);
  const services = createServices({ engine });
  const results: QuestionResult[] = [];
  try {
    for (const q of loadDocsQuestions(corpus.dir)) {
      const args = { ...(folders.length > 1 ? {} : { workspace: corpus.key }), question: q.question, limit: ASKED };
      const out = (await callTool(services, tool, args, { sessionId: 'rerank-trials' })) as ContextOutput;
      const answer = out.passages ?? [];
      const signals = signalsOf(answer, q.question);
      const passages = answer.map((p, at) => ({
        file: p.sourceRef?.path ?? '',
        score: p.score,
        at,
        signal: signals[at],
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
        : options.signal === 'feedback'
          ? `, ${options.feedbackTerms} words of the first ${options.feedbackPassages} passages`
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
