/**
 * `npm run eval`: retrieval quality.
 *
 *   npm run eval [-- --dataset fernhill|scifact|argocd|context|all] [--embeddings off|local] [--scifact-dir DIR] [--argocd-dir DIR] [--out FILE]
 *                [--context-set awesome-copilot|fernhill] [--model-url URL] [--model NAME]
 *
 * - `fernhill` (evalFernhill.ts): the example workspace's labelled questions, through
 *   `workspace_context` and the baselines; metrics overall, by kind and by source kind, and the
 *   failing cases with the rank each expected passage got.
 * - `scifact` (evalScifact.ts): BEIR SciFact's test claims over its abstracts (default folder
 *   ../shared/data/beir-scifact), nDCG@10 next to the published figures and the baselines.
 * - `context` (evalContext.ts): labelled get_context tasks on a real public library of agent
 *   instructions (github/awesome-copilot) and on the example; page precision, recall,
 *   nothing-found, tokens per bundle. Without `--embeddings` it runs both words only and hybrid;
 *   the judge is the heuristic one unless `--model-url` (an OpenAI-compatible endpoint) is given.
 * `--embeddings local` scores `workspace_context` hybrid (words and meaning, every section embedded
 * first with the packaged model); the default, `off`, scores it on words alone.
 * Metrics are bench/metrics.ts's. Prints Markdown and writes JSON to eval-results/ (or `--out`),
 * both naming the machine, the Node version and the git commit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evalFernhill, type FernhillEval, type SystemResult } from './evalFernhill';
import type { EvalEmbeddings, MeaningFigures } from './evalEngine';
import { evalScifact, type ScifactEval } from './evalScifact';
import { ARGOCD_STYLES, evalArgocd, type ArgocdEval } from './evalArgocd';
import { CONTEXT_SETS, evalContext, type ContextEval, type ContextSet } from './evalContext';
import type { MeanMetrics } from './metrics';
import { environmentLine, ms, runEnvironment, table, type RunEnvironment } from './report';

const REPO_ROOT = path.resolve(__dirname, '..');
const DATASETS = ['fernhill', 'scifact', 'argocd', 'context'] as const;

export interface EvalResult {
  environment: RunEnvironment;
  embeddings: EvalEmbeddings;
  fernhill?: FernhillEval;
  scifact?: ScifactEval;
  argocd?: ArgocdEval;
  context?: ContextEval;
}

interface EvalOptions {
  datasets: string[];
  embeddings: EvalEmbeddings;
  /** False when `--embeddings` was not given (the context dataset then runs both). */
  embeddingsGiven: boolean;
  scifactDir: string;
  argocdDir: string;
  contextSets: ContextSet[];
  modelUrl?: string;
  model?: string;
  out: string;
}

function parseArgs(argv: readonly string[]): EvalOptions {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dataset = value('--dataset') ?? 'all';
  const datasets = dataset === 'all' ? [...DATASETS] : dataset.split(',');
  for (const d of datasets) {
    if (!(DATASETS as readonly string[]).includes(d)) throw new Error(`eval: --dataset must be fernhill, scifact, argocd, context or all, got "${d}"`);
  }
  const embeddings = value('--embeddings') ?? 'off';
  if (embeddings !== 'off' && embeddings !== 'local') throw new Error(`eval: --embeddings must be off or local, got "${embeddings}"`);
  const contextSets = (value('--context-set') ?? CONTEXT_SETS.join(',')).split(',') as ContextSet[];
  for (const c of contextSets) if (!(CONTEXT_SETS as readonly string[]).includes(c)) throw new Error(`eval: --context-set must be ${CONTEXT_SETS.join(' or ')}, got "${c}"`);
  const modelUrl = value('--model-url');
  const model = value('--model');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    datasets,
    embeddings,
    embeddingsGiven: argv.includes('--embeddings'),
    contextSets,
    ...(modelUrl ? { modelUrl } : {}),
    ...(model ? { model } : {}),
    scifactDir: value('--scifact-dir') ?? path.resolve(REPO_ROOT, '..', 'shared', 'data', 'beir-scifact'),
    argocdDir: value('--argocd-dir') ?? path.resolve(REPO_ROOT, '..', 'shared', 'data', 'argocd-docs'),
    out: value('--out') ?? path.join(REPO_ROOT, 'eval-results', `eval-${stamp}.json`),
  };
}

const f3 = (x: number) => x.toFixed(3);

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
    out.push(...table(['system', 'nDCG@10', 'recall@5', 'recall@10', 'MRR@10', 'within rank'], fh.systems.map((s) => [s.system, ...metricCells(s.overall), `${s.overall.passed}/${fh.cases}`])), '');
    const splits = (pick: (s: SystemResult) => Record<string, MeanMetrics & { passed: number }>, label: string) => {
      const keys = [...new Set(fh.systems.flatMap((s) => Object.keys(pick(s))))].sort();
      const rows = keys.map((k) => [`${label} ${k} (${pick(fh.systems[0])[k]?.queries ?? 0})`, ...fh.systems.map((s) => (pick(s)[k] ? `${f3(pick(s)[k].ndcg10)} · ${pick(s)[k].passed}` : '-'))]);
      out.push(...table([`nDCG@10 · passed`, ...fh.systems.map((s) => s.system)], rows), '');
    };
    out.push('By kind and by source kind (nDCG@10 · cases within their rank):', '');
    splits((s) => s.byKind, 'kind');
    splits((s) => s.bySourceKind, 'source');
    for (const system of fh.systems.slice(0, 1)) {
      const failing = system.cases.filter((c) => !c.passed);
      out.push(`Failing cases for ${system.system} (${failing.length}): expected within rank, got rank (first ${fh.depth} read)`, '');
      if (failing.length) {
        out.push(...table(['case', 'kind', 'source', 'within', 'got', 'ranked first instead'], failing.map((c) => [c.id, c.kind, c.sourceKind, String(c.within), c.rank === null ? `> ${fh.depth}` : String(c.rank), c.top ?? '(nothing)'])), '');
      }
    }
  }
  const sf = result.scifact;
  if (sf) {
    out.push(`## BEIR SciFact: ${sf.queries} test queries, ${sf.judgments} judgments, ${sf.documents} abstracts (${sf.sectionsIndexed} sections indexed by our engine)`, '');
    for (const s of sf.skipped) out.push(`Skipped: ${s}.`, '');
    if (sf.meaning) out.push(meaningLine(sf.meaning), '');
    const rows = sf.systems.map((s) => [`${s.system} (this run)`, ...metricCells(s.metrics), ms(s.latency.median), ms(s.latency.p95), ms(s.buildMs)]);
    for (const p of sf.published) rows.push([`${p.system} (published: ${p.source})`, f3(p.ndcg10), '', '', '', '', '', '']);
    out.push(...table(['system', 'nDCG@10', 'recall@5', 'recall@10', 'MRR@10', 'query p50 ms', 'query p95 ms', 'build ms'], rows), '');
  }
  const ac = result.argocd;
  if (ac) {
    out.push(`## Argo CD docs: ${ac.questions} labelled questions, ${ac.files} files (${ac.sectionsIndexed} sections indexed by our engine, ${ac.baselineSections} by the baselines)`, '');
    for (const s of ac.skipped) out.push(`Skipped: ${s}.`, '');
    if (ac.meaningNote) out.push(`Meaning when asked: ${ac.meaningNote}.`, '');
    const styles = [...ARGOCD_STYLES, 'all'];
    out.push('nDCG@10 over the distinct files of the first 10 passages (recall@5 in brackets):', '');
    out.push(
      ...table(
        ['style', 'n', ...ac.systems.map((s) => s.system)],
        styles.map((st) => [st, String(ac.systems[0]?.byStyle[st]?.questions ?? 0), ...ac.systems.map((s) => `${f3(s.byStyle[st].ndcg10)} (${f3(s.byStyle[st].recall5)})`)]),
      ),
      '',
    );
    const ours = ac.systems[0];
    if (ours) {
      const misses = ours.questions.filter((q) => q.ndcg10 === 0);
      out.push(`Questions where ${ours.system} finds no gold file in its first 10 (${misses.length}):`, '');
      if (misses.length) out.push(...table(['id', 'style', 'gold', 'first files instead'], misses.map((q) => [q.id, q.style, q.gold.join(' '), q.files.slice(0, 3).join(' ')])), '');
      out.push(`Latency over MCP stdio (${ours.system}): p50 ${ms(ours.latency.median)} ms, p95 ${ms(ours.latency.p95)} ms.`, '');
    }
  }
  if (result.context) out.push(...renderContext(result.context));
  return out.join('\n') + '\n';
}

const shortPage = (p: string) => path.basename(p).replace(/\.instructions\.md$|\.md$|\.mdc$/, '');
/** "link from .context/reference/refund-policy.md" as "link from refund-policy". */
const whyShort = (why: string | undefined) => (why ?? '?').replace(/ from (.+)$/, (_, p: string) => ` from ${shortPage(p)}`);

function renderContext(ctx: ContextEval): string[] {
  const out: string[] = [];
  for (const set of [...new Set(ctx.runs.map((r) => r.set))]) {
    const runs = ctx.runs.filter((r) => r.set === set);
    const first = runs[0];
    const f0 = first.figures;
    out.push(`## get_context on ${set}: ${f0.tasks} labelled tasks (${f0.onTopic} on-topic, ${f0.offTopic} where nothing-found is right) over ${first.pages} library pages, ${first.sections} sections`, '');
    for (const r of runs) if (r.meaning) out.push(meaningLine(r.meaning), '');
    out.push(
      ...table(
        ['run', 'page precision', '(micro)', 'recall', 'off-topic nothing-found', 'on-topic nothing-found', 'tasks sending a confusable', 'tokens mean / median / max', 'off-topic tokens', 'max response chars per token', 'rules + pinned came', 'same bundle twice'],
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
    if (entity) out.push(`Entity docs a colleague would add (scored apart): ${runs.map((r) => `${r.embeddings} ${r.figures.entityDocsSent}/${r.figures.entityDocTasks}`).join(', ')}.`, '');
    out.push(`Entity pages sent (entity docs, overviews, epics; not in page precision): ${runs.map((r) => `${r.embeddings} ${r.figures.entityPagesSent} on ${r.figures.tasksWithEntityPages} of ${r.figures.tasks} tasks`).join(', ')}.`, '');
    out.push(`Nothing-found answers naming 2-3 nearest pages: ${runs.map((r) => `${r.embeddings} ${r.figures.nothingFoundWithNearest}/${r.figures.nothingFoundAnswers}`).join(', ')}.`, '');
    for (const r of runs) {
      const misses = r.results.filter((t) => (t.precision !== null && t.precision < 1) || (t.recall !== null && t.recall < 1) || t.nothingFound !== t.nothingExpected || (t.nothingExpected && t.sent.length > 0));
      out.push(`Misses, ${r.embeddings === 'off' ? 'words only' : 'hybrid'} (${misses.length} of ${r.results.length}):`, '');
      if (misses.length) {
        out.push(
          ...table(
            ['task', 'precision', 'recall', 'missing', 'sent that it should not (why it came)', 'nothing-found', 'packs', 'tokens'],
            misses.map((t) => [
              t.id,
              t.precision === null ? '-' : f3(t.precision),
              t.recall === null ? '-' : f3(t.recall),
              t.missing.map(shortPage).join(' ') || '-',
              t.wrong.map((p) => `${t.confusables.includes(p) ? `**${shortPage(p)}**` : shortPage(p)} (${whyShort(t.wrongWhy[p])})`).join(' ') || '-',
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
  const result: EvalResult = { environment: runEnvironment(REPO_ROOT), embeddings: options.embeddings };
  if (options.datasets.includes('fernhill')) result.fernhill = await evalFernhill(REPO_ROOT, options.embeddings, log);
  if (options.datasets.includes('scifact')) result.scifact = await evalScifact(options.scifactDir, options.embeddings, log);
  if (options.datasets.includes('argocd')) result.argocd = await evalArgocd(options.argocdDir, options.embeddings, log);
  if (options.datasets.includes('context')) {
    const modes: EvalEmbeddings[] = options.embeddingsGiven ? [options.embeddings] : ['off', 'local'];
    result.context = await evalContext(modes, { sets: options.contextSets, ...(options.modelUrl ? { modelUrl: options.modelUrl } : {}), ...(options.model ? { model: options.model } : {}) }, log);
  }
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(renderEval(result));
  process.stdout.write(`\nJSON: ${path.relative(process.cwd(), options.out)}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  });
}
