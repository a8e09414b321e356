/**
 * `npm run eval`: retrieval quality.
 *
 *   npm run eval [-- --dataset fernhill|scifact|<a docs corpus key>|docs|context|change|all]
 *                [--embeddings off|local] [--record-main] [--grid NAME=v1,v2,...] [--tune NAME=value]
 *                [--scifact-dir DIR] [--argocd-dir DIR] [--out FILE] [--context-set SET[,SET]] [--model-url URL] [--model NAME]
 *
 * - `fernhill` (evalFernhill.ts): the example workspace's labelled questions, through
 *   `workspace_context` and the baselines; metrics overall, by kind and by source kind, and the
 *   failing cases with the rank each expected passage got.
 * - `scifact` (evalScifact.ts): BEIR SciFact's test claims over its abstracts (default folder
 *   ../shared/data/beir-scifact), nDCG@10 next to the published figures and the baselines.
 * - `argocd`, `cert-manager`, `goreleaser`, `rclone`, `babel`, `secrets`, `scrapy` (evalDocs.ts;
 *   `docs` is all of them, the dev suite): real documentation with labelled questions in five
 *   styles, beside the reference BM25 and Lunr; Argo CD's from test/fixtures/argocd-docs, the
 *   others from bench/corpora. The suite table (docsSuite.ts) puts each corpus and style beside
 *   main's recorded figures.
 * - `context` (evalContext.ts): labelled get_context tasks on three real public libraries of agent
 *   instructions in three formats (`--context-set` awesome-copilot, instructa-ai-prompts,
 *   windsurf-agent-rules-kit; comma-separated, default all) and on the example (fernhill); page precision, recall,
 *   nothing-found, tokens per bundle. Without `--embeddings` it runs both words only and hybrid;
 *   the judge is the heuristic one unless `--model-url` (an OpenAI-compatible endpoint) is given.
 * - `change` (evalChange.ts): get_context given a change (a diff or changed paths, no task) on 56
 *   labelled changes (bench/corpora/changes: real commits of two public Backstage plugin
 *   monorepos and changes made on the example); item precision and recall per corpus and per kind
 *   (owning entities, owners, dependents, pages, rules, epics, expectations), every miss listed.
 *   Words only (the change's items do not rank by meaning).
 * `--grid NAME=v1,v2,...` (repeatable) ranks the documentation corpora words only (hybrid with
 * `--embeddings local`) with each value
 * of one of the contract's fitted constants and reports the value fitted without each corpus
 * (docsGrid.ts); the run then scores nothing else.
 * `--tune NAME=value` (repeatable) ranks the documentation corpora with that value of a fitted
 * constant instead of the published one, to measure a candidate.
 * `--record-main` writes the documentation corpora's per-question figures to
 * bench/baselines/mainRanking.json as main's ranking, the "before" of the suite table.
 * Without `--embeddings`, `scifact`, the documentation corpora and `context` score
 * `workspace_context` both words only and hybrid (words and meaning, every section embedded first
 * with the packaged model; vectors are cached under the temp folder, so only the first run
 * embeds), and the summary table puts them side by side; `--embeddings off` or `local` runs one.
 * `fernhill` runs words only unless `--embeddings local`.
 * Metrics are bench/metrics.ts's. Prints Markdown and writes JSON to eval-results/ (or `--out`),
 * both naming the machine, the Node version and the git commit.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evalFernhill, type FernhillEval, type SystemResult } from './evalFernhill';
import { ourSystemLabel, type EvalEmbeddings, type MeaningFigures } from './evalEngine';
import { evalScifact, type ScifactEval } from './evalScifact';
import { docsCorpora, evalDocs, stylesOf, type DocsEval, type DocsSystemKey } from './evalDocs';
import { evalExplain, type ExplainEval } from './evalExplain';
import { CONTEXT_SETS, evalContext, type ContextEval, type ContextSet } from './evalContext';
import { evalChange, renderChangeEval, type ChangeEval } from './evalChange';
import type { MeanMetrics } from './metrics';
import { environmentLine, ms, runEnvironment, table, type RunEnvironment } from './report';
import { loadRecordedRanking, recordRanking, renderSuite } from './docsSuite';
import { parseGrid, renderGrids, runGrids, type GridResult, type GridSpec } from './docsGrid';
import type { RankingTuning } from '../server/src/engine/ranking/contract';
import { CONTRACT_VERSION } from '../server/src/engine/ranking/contract';

const REPO_ROOT = path.resolve(__dirname, '..');
/** The documentation corpora's keys, as evalDocs.ts lists them (the directory plays no part in a key). */
const DOC_DATASETS = docsCorpora('').map((c) => c.key);
const DATASETS = ['fernhill', 'scifact', ...DOC_DATASETS, 'context', 'change'];

export interface EvalResult {
  environment: RunEnvironment;
  /** The example workspace's mode (words only unless `--embeddings local`). */
  embeddings: EvalEmbeddings;
  /** The modes SciFact, the documentation corpora and `context` ran. */
  modes: EvalEmbeddings[];
  fernhill?: FernhillEval;
  scifact?: ScifactEval;
  /** The documentation corpora, in DOC_DATASETS order. */
  docs?: DocsEval[];
  context?: ContextEval;
  /** get_context given a change (evalChange.ts). */
  change?: ChangeEval;
  /** explain_result on each documentation corpus's misses (words only), each cause checked. */
  explain?: ExplainEval[];
  /** Fitted constants, leave-one-corpus-out (`--grid`). */
  grids?: GridResult[];
}

interface EvalOptions {
  datasets: string[];
  /** The modes SciFact, the documentation corpora and `context` run: both unless `--embeddings` names one. */
  modes: EvalEmbeddings[];
  scifactDir: string;
  argocdDir: string;
  contextSets: ContextSet[];
  modelUrl?: string;
  model?: string;
  out: string;
  /** Record the documentation corpora's figures as main's ranking (docsSuite.ts). */
  recordMain: boolean;
  /** Fitted constants to grid (docsGrid.ts); when given, the run does only that. */
  grids: GridSpec[];
  /** Values of fitted constants the documentation corpora are ranked with (`--tune NAME=value`). */
  tuning?: RankingTuning;
}

function parseArgs(argv: readonly string[]): EvalOptions {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dataset = value('--dataset') ?? 'all';
  const datasets =
    dataset === 'all' ? [...DATASETS] : dataset.split(',').flatMap((d) => (d === 'docs' ? [...DOC_DATASETS] : [d]));
  for (const d of datasets) {
    if (!DATASETS.includes(d))
      throw new Error(`eval: --dataset must be ${DATASETS.join(', ')}, docs or all, got "${d}"`);
  }
  const embeddingsArg = value('--embeddings');
  if (embeddingsArg !== undefined && embeddingsArg !== 'off' && embeddingsArg !== 'local')
    throw new Error(`eval: --embeddings must be off or local, got "${embeddingsArg}"`);
  const modes: EvalEmbeddings[] = embeddingsArg === undefined ? ['off', 'local'] : [embeddingsArg];
  const contextSets = (value('--context-set') ?? CONTEXT_SETS.join(',')).split(',') as ContextSet[];
  for (const c of contextSets)
    if (!(CONTEXT_SETS as readonly string[]).includes(c))
      throw new Error(`eval: --context-set must be ${CONTEXT_SETS.join(' or ')}, got "${c}"`);
  const modelUrl = value('--model-url');
  const model = value('--model');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    datasets,
    modes,
    contextSets,
    ...(modelUrl ? { modelUrl } : {}),
    ...(model ? { model } : {}),
    scifactDir: value('--scifact-dir') ?? path.resolve(REPO_ROOT, '..', 'shared', 'data', 'beir-scifact'),
    argocdDir: value('--argocd-dir') ?? path.resolve(REPO_ROOT, 'test', 'fixtures', 'argocd-docs'),
    out: value('--out') ?? path.join(REPO_ROOT, 'eval-results', `eval-${stamp}.json`),
    recordMain: argv.includes('--record-main'),
    grids: argv.flatMap((a, i) => (a === '--grid' && argv[i + 1] ? [parseGrid(argv[i + 1])] : [])),
    ...tuningOf(argv),
  };
}

const f3 = (x: number) => x.toFixed(3);

/** `--tune NAME=value` (repeatable): the documentation corpora ranked with these values (a measurement). */
function tuningOf(argv: readonly string[]): { tuning?: RankingTuning } {
  const pairs = argv.flatMap((a, i) => (a === '--tune' && argv[i + 1] ? [argv[i + 1]] : []));
  if (pairs.length === 0) return {};
  const tuning: RankingTuning = {};
  for (const pair of pairs) {
    const grid = parseGrid(pair);
    const value = Number(pair.slice(pair.indexOf('=') + 1));
    tuning[grid.name] = value;
  }
  return { tuning };
}

function meaningLine(m: MeaningFigures): string {
  const error = m.error ? `; last error: ${m.error}` : '';
  return `Embeddings: ${m.model ?? 'none'}, ${m.sectionsWithVectors} of ${m.sections} sections with vectors, embedded in ${(m.embedMs / 1000).toFixed(1)} s this run (cached vectors are reused)${error}.`;
}
const metricCells = (m: MeanMetrics) => [f3(m.ndcg10), f3(m.recall5), f3(m.recall10), f3(m.mrr10)];

export function renderEval(result: EvalResult): string {
  const out: string[] = ['# Workspace Context eval', '', environmentLine(result.environment), ''];
  const fh = result.fernhill;
  if (fh) {
    out.push(`## Example workspace: ${fh.cases} labelled questions over ${fh.sections} sections`, '');
    for (const s of fh.skipped) out.push(`Skipped: ${s}.`, '');
    if (fh.meaning) out.push(meaningLine(fh.meaning), '');
    out.push(
      ...table(
        ['system', 'nDCG@10', 'recall@5', 'recall@10', 'MRR@10', 'within rank'],
        fh.systems.map((s) => [s.system, ...metricCells(s.overall), `${s.overall.passed}/${fh.cases}`]),
      ),
      '',
    );
    const splits = (pick: (s: SystemResult) => Record<string, MeanMetrics & { passed: number }>, label: string) => {
      const keys = [...new Set(fh.systems.flatMap((s) => Object.keys(pick(s))))].sort();
      const rows = keys.map((k) => [
        `${label} ${k} (${pick(fh.systems[0])[k]?.queries ?? 0})`,
        ...fh.systems.map((s) => (pick(s)[k] ? `${f3(pick(s)[k].ndcg10)} · ${pick(s)[k].passed}` : '-')),
      ]);
      out.push(...table([`nDCG@10 · passed`, ...fh.systems.map((s) => s.system)], rows), '');
    };
    out.push('By kind and by source kind (nDCG@10 · cases within their rank):', '');
    splits((s) => s.byKind, 'kind');
    splits((s) => s.bySourceKind, 'source');
    for (const system of fh.systems.slice(0, 1)) {
      const failing = system.cases.filter((c) => !c.passed);
      out.push(
        `Failing cases for ${system.system} (${failing.length}): expected within rank, got rank (first ${fh.depth} read)`,
        '',
      );
      if (failing.length) {
        out.push(
          ...table(
            ['case', 'kind', 'source', 'within', 'got', 'ranked first instead'],
            failing.map((c) => [
              c.id,
              c.kind,
              c.sourceKind,
              String(c.within),
              c.rank === null ? `> ${fh.depth}` : String(c.rank),
              c.top ?? '(nothing)',
            ]),
          ),
          '',
        );
      }
    }
  }
  if (result.explain?.length) {
    out.push("## Why not this page? explain_result on the documentation corpora's misses (words only)", '');
    out.push(
      'Each gold file outside the first 10 passages is explained, and the cause checked by removing it: the limit raised to the one named (the page comes at the rank named), or the missing terms written into the page as a heading (it comes within 10).',
      '',
    );
    out.push(
      ...table(
        [
          'corpus',
          'questions',
          'gold files missed',
          'ranked past the limit',
          'held back',
          'below the floor',
          'no candidate',
          'other',
          'causes verified true',
        ],
        result.explain.map((e) => {
          const n = (s: string) => String(e.byStanding[s] ?? 0);
          const other =
            e.misses -
            ['ranked-below-limit', 'held-back', 'below-floor', 'no-candidate'].reduce(
              (sum, s) => sum + (e.byStanding[s] ?? 0),
              0,
            );
          return [
            e.label,
            String(e.questions),
            String(e.misses),
            n('ranked-below-limit'),
            n('held-back'),
            n('below-floor'),
            n('no-candidate'),
            String(other),
            `${e.verified}/${e.misses}`,
          ];
        }),
      ),
      '',
    );
    for (const e of result.explain)
      for (const c of e.cases.filter((x) => !x.verified))
        out.push(`Not verified: ${e.corpus} ${c.id} ${c.gold}: ${c.standing}: ${c.failure}`);
  }
  const sf = result.scifact;
  if (sf) {
    out.push(
      `## BEIR SciFact: ${sf.queries} test queries, ${sf.judgments} judgments, ${sf.documents} abstracts (${sf.sectionsIndexed} sections indexed by our engine)`,
      '',
    );
    for (const s of sf.skipped) out.push(`Skipped: ${s}.`, '');
    if (sf.meaning) out.push(meaningLine(sf.meaning), '');
    const rows = sf.systems.map((s) => [
      `${s.system} (this run)`,
      ...metricCells(s.metrics),
      ms(s.latency.median),
      ms(s.latency.p95),
      ms(s.buildMs),
    ]);
    for (const p of sf.published)
      rows.push([`${p.system} (published: ${p.source})`, f3(p.ndcg10), '', '', '', '', '', '']);
    out.push(
      ...table(
        ['system', 'nDCG@10', 'recall@5', 'recall@10', 'MRR@10', 'query p50 ms', 'query p95 ms', 'build ms'],
        rows,
      ),
      '',
    );
  }
  if (result.docs?.length || sf) out.push(...renderSummary(result));
  if (result.docs?.length) out.push(...renderSuite(result.docs, loadRecordedRanking()));
  if (result.grids?.length) out.push(...renderGrids(result.grids));
  for (const d of result.docs ?? []) out.push(...renderDocs(d));
  if (result.context) out.push(...renderContext(result.context));
  if (result.change) out.push(...renderChangeEval(result.change));
  return `${out.join('\n')}\n`;
}

const cell = (m: { ndcg10: number; recall5: number } | undefined) => (m ? `${f3(m.ndcg10)} (${f3(m.recall5)})` : '-');
const SUMMARY_COLUMNS: readonly DocsSystemKey[] = ['words', 'hybrid', 'bm25', 'lunr'];

/**
 * One table over every corpus of the run: each documentation corpus by question style and
 * overall, then SciFact; our words only and hybrid beside the reference BM25 and Lunr.
 */
function renderSummary(result: EvalResult): string[] {
  const rows: string[][] = [];
  for (const d of result.docs ?? []) {
    const by = (key: DocsSystemKey) => d.systems.find((s) => s.key === key)?.byStyle;
    const styles = stylesOf(d.systems[0]?.questions ?? []);
    for (const style of [...styles, 'all']) {
      const n = d.systems[0]?.byStyle[style]?.questions ?? 0;
      rows.push([
        style === 'all' ? `**${d.label}**` : d.label,
        style === 'all' ? '**all**' : style,
        String(n),
        ...SUMMARY_COLUMNS.map((k) => cell(by(k)?.[style])),
      ]);
    }
  }
  const sf = result.scifact;
  if (sf) {
    const pick = (label: string) => sf.systems.find((s) => s.system === label)?.metrics;
    const bm25 = sf.systems.find((s) => s.system.startsWith('typed-array'))?.metrics;
    const lunr = sf.systems.find((s) => s.system.startsWith('Lunr'))?.metrics;
    rows.push([
      '**BEIR SciFact**',
      'all',
      String(sf.queries),
      cell(pick(ourSystemLabel('off'))),
      cell(pick(ourSystemLabel('local'))),
      cell(bm25),
      cell(lunr),
    ]);
  }
  return [
    '## Retrieval quality: every corpus, nDCG@10 (recall@5)',
    '',
    "Documentation corpora: the first 10 passages as their distinct files, binary file-level gold; BM25 and Lunr are the reference baselines over the same files (bench/baselines/docsReference.ts). SciFact: BEIR's graded judgments over abstracts, its baselines the typed-array BM25 and Lunr of bench/baselines/engines.ts.",
    '',
    ...table(['corpus', 'style', 'n', 'words only', 'hybrid', 'BM25', 'Lunr'], rows),
    '',
  ];
}

function renderDocs(d: DocsEval): string[] {
  const out: string[] = [
    `## ${d.label} docs: ${d.questions} labelled questions, ${d.files} files (${d.sectionsIndexed} sections indexed by our engine, ${d.baselineSections} by the baselines)`,
    '',
  ];
  for (const s of d.skipped) out.push(`Skipped: ${s}.`, '');
  if (d.meaning) out.push(meaningLine(d.meaning), '');
  const words = d.systems.find((s) => s.key === 'words');
  const hybrid = d.systems.find((s) => s.key === 'hybrid');
  const folders = [...new Set(d.systems.flatMap((s) => Object.keys(s.byFolder ?? {})))];
  if (folders.length) {
    out.push('By repository (the questions about one; `cross` questions are in none), nDCG@10 (recall@5):', '');
    out.push(
      ...table(
        ['repository', 'n', ...d.systems.map((s) => s.key)],
        folders.map((f) => [
          f,
          String(d.systems[0]?.byFolder?.[f]?.questions ?? 0),
          ...d.systems.map((s) => cell(s.byFolder?.[f])),
        ]),
      ),
      '',
    );
  }
  for (const ours of [words, hybrid]) {
    if (!ours) continue;
    const misses = ours.questions.filter((q) => q.ndcg10 === 0);
    out.push(`Questions where ${ours.system} finds no gold file in its first 10 (${misses.length}):`, '');
    if (misses.length)
      out.push(
        ...table(
          ['id', 'style', 'gold', 'first files instead'],
          misses.map((q) => [q.id, q.style, q.gold.join(' '), q.files.slice(0, 3).join(' ')]),
        ),
        '',
      );
    out.push(
      `Latency in process (${ours.system}): p50 ${ms(ours.latency.median)} ms, p95 ${ms(ours.latency.p95)} ms.`,
      '',
    );
  }
  if (words && hybrid) {
    const lowered = hybrid.questions.filter((q, i) => q.ndcg10 < words.questions[i].ndcg10 - 1e-9);
    const raised = hybrid.questions.filter((q, i) => q.ndcg10 > words.questions[i].ndcg10 + 1e-9);
    out.push(
      `Hybrid against words only: ${raised.length} questions raised, ${lowered.length} lowered${lowered.length ? ':' : '.'}`,
      '',
    );
    if (lowered.length) {
      out.push(
        ...table(
          ['id', 'style', 'words only', 'hybrid', 'hybrid first files'],
          lowered.map((q) => {
            const w = words.questions.find((x) => x.id === q.id)!;
            return [q.id, q.style, f3(w.ndcg10), f3(q.ndcg10), q.files.slice(0, 3).join(' ')];
          }),
        ),
        '',
      );
    }
  }
  return out;
}

/** A page as the tasks name it: its path below its format's root, without extensions (`nextjs/best-practices`). */
const shortPage = (p: string) =>
  p
    .replace(/^.*?(\.github\/instructions\/|\.cursor\/rules\/|\.windsurf\/rules\/|\.context\/)/, '')
    .replace(/\.instructions\.md$|\.md$|\.mdc$/, '');
/** "link from .context/reference/refund-policy.md" as "link from refund-policy". */
const whyShort = (why: string | undefined) =>
  (why ?? '?').replace(/ from (.+)$/, (_, p: string) => ` from ${shortPage(p)}`);

function renderContext(ctx: ContextEval): string[] {
  const out: string[] = [];
  for (const set of [...new Set(ctx.runs.map((r) => r.set))]) {
    const runs = ctx.runs.filter((r) => r.set === set);
    const first = runs[0];
    const f0 = first.figures;
    out.push(
      `## get_context on ${set}: ${f0.tasks} labelled tasks (${f0.onTopic} on-topic, ${f0.offTopic} where nothing-found is right) over ${first.pages} library pages, ${first.sections} sections`,
      '',
    );
    for (const r of runs) if (r.meaning) out.push(meaningLine(r.meaning), '');
    out.push(
      ...table(
        [
          'run',
          'page precision',
          '(micro)',
          'recall',
          'off-topic nothing-found',
          'on-topic nothing-found',
          'tasks sending a confusable',
          'tokens mean / median / max',
          'off-topic tokens',
          'max response chars per token',
          'rules + pinned came',
          'same bundle twice',
        ],
        runs.map((r) => {
          const f = r.figures;
          return [
            `${r.embeddings === 'off' ? 'words only' : 'hybrid (local model)'}, judge ${r.judge}`,
            f3(f.precision),
            f3(f.precisionMicro),
            f3(f.recall),
            `${f.offTopicNothingFound}/${f.offTopic}`,
            `${f.onTopicNothingFound}/${f.onTopic}`,
            `${f.tasksWithConfusables}/${f.onTopic}`,
            `${Math.round(f.tokensMean)} / ${Math.round(f.tokensMedian)} / ${f.tokensMax}`,
            String(Math.round(f.offTopicTokensMean)),
            f.maxCharsPerToken.toFixed(2),
            `${f.rulesAndPinned}/${f.tasks}`,
            `${f.deterministic}/${f.tasks}`,
          ];
        }),
      ),
      '',
    );
    const entity = runs.find((r) => r.figures.entityDocTasks > 0);
    if (entity)
      out.push(
        `Entity docs a colleague would add (scored apart): ${runs.map((r) => `${r.embeddings} ${r.figures.entityDocsSent}/${r.figures.entityDocTasks}`).join(', ')}.`,
        '',
      );
    out.push(
      `Entity pages sent (entity docs, overviews, epics; not in page precision): ${runs.map((r) => `${r.embeddings} ${r.figures.entityPagesSent} on ${r.figures.tasksWithEntityPages} of ${r.figures.tasks} tasks`).join(', ')}.`,
      '',
    );
    out.push(
      `Nothing-found answers naming 2-3 nearest pages: ${runs.map((r) => `${r.embeddings} ${r.figures.nothingFoundWithNearest}/${r.figures.nothingFoundAnswers}`).join(', ')}.`,
      '',
    );
    for (const r of runs) {
      const misses = r.results.filter(
        (t) =>
          (t.precision !== null && t.precision < 1) ||
          (t.recall !== null && t.recall < 1) ||
          t.nothingFound !== t.nothingExpected ||
          (t.nothingExpected && t.sent.length > 0),
      );
      out.push(
        `Misses, ${r.embeddings === 'off' ? 'words only' : 'hybrid'} (${misses.length} of ${r.results.length}):`,
        '',
      );
      if (misses.length) {
        out.push(
          ...table(
            [
              'task',
              'precision',
              'recall',
              'missing',
              'sent that it should not (why it came)',
              'nothing-found',
              'packs',
              'tokens',
            ],
            misses.map((t) => [
              t.id,
              t.precision === null ? '-' : f3(t.precision),
              t.recall === null ? '-' : f3(t.recall),
              t.missing.map(shortPage).join(' ') || '-',
              t.wrong
                .map(
                  (p) =>
                    `${t.confusables.includes(p) ? `**${shortPage(p)}**` : shortPage(p)} (${whyShort(t.wrongWhy[p])})`,
                )
                .join(' ') || '-',
              t.nothingFound ? `yes (${t.nearest} nearest)` : 'no',
              t.packs.join(', ') || '-',
              String(t.tokens),
            ]),
          ),
          '',
        );
      }
    }
    out.push('Bold: a confusable page the task labels must not come (another stack, SDK, version or product).', '');
  }
  return out;
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseArgs(argv);
  const log = (m: string) => process.stderr.write(`[eval] ${m}\n`);
  const fernhillMode: EvalEmbeddings = options.modes.length === 1 ? options.modes[0] : 'off';
  const result: EvalResult = { environment: runEnvironment(REPO_ROOT), embeddings: fernhillMode, modes: options.modes };
  if (options.grids.length) {
    const corpora = docsCorpora(options.argocdDir).filter((c) => options.datasets.includes(c.key));
    // Hybrid only when asked for alone: a grid is one mode's fit.
    const mode: EvalEmbeddings = options.modes.length === 1 ? options.modes[0] : 'off';
    result.grids = await runGrids(corpora, options.grids, log, mode);
    mkdirSync(path.dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(renderEval(result));
    return;
  }
  if (options.datasets.includes('fernhill')) result.fernhill = await evalFernhill(REPO_ROOT, fernhillMode, log);
  if (options.datasets.includes('scifact')) result.scifact = await evalScifact(options.scifactDir, options.modes, log);
  for (const corpus of docsCorpora(options.argocdDir)) {
    if (!options.datasets.includes(corpus.key)) continue;
    if (!existsSync(path.join(corpus.dir, 'questions.jsonl'))) {
      log(`${corpus.key}: ${corpus.dir} is missing: skipped`);
      continue;
    }
    const scored = await evalDocs(corpus, options.modes, log, options.tuning);
    (result.docs ??= []).push(scored);
    // explain_result reads one served folder; a corpus this build does not read has nothing to explain.
    if (!corpus.folders && scored.sectionsIndexed > 0) (result.explain ??= []).push(await evalExplain(corpus, log));
  }
  if (options.datasets.includes('context')) {
    result.context = await evalContext(
      options.modes,
      {
        sets: options.contextSets,
        ...(options.modelUrl ? { modelUrl: options.modelUrl } : {}),
        ...(options.model ? { model: options.model } : {}),
      },
      log,
    );
  }
  if (options.datasets.includes('change')) result.change = await evalChange(log);
  if (options.recordMain && result.docs?.length) {
    recordRanking(result.docs, { commit: result.environment.commit.slice(0, 12), contractVersion: CONTRACT_VERSION });
    log('docs: recorded as main ranking in bench/baselines/mainRanking.json');
  }
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(renderEval(result));
  process.stdout.write(`\nJSON: ${path.relative(process.cwd(), options.out)}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  });
}
