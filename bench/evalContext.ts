/**
 * Eval dataset `context`: does `get_context` hand over what a careful colleague would? Four task
 * sets, each labelled from what the pages say before the product was asked; the first three are
 * real public libraries in three formats, the dev suite that changes are judged on
 * leave-one-library-out:
 *
 * - `awesome-copilot` (test/fixtures/awesome-copilot): 54 instruction files of
 *   github/awesome-copilot, verbatim, as a workspace's `.github/instructions/` library: ten MCP
 *   server SDKs, seven front-end stacks, three Playwright bindings and more that read alike;
 * - `instructa-ai-prompts` (test/fixtures/instructa-ai-prompts): 45 Cursor rules of
 *   instructa/ai-prompts under `.cursor/rules/<folder>/`, a folder per stack or per service on a
 *   stack (Clerk, Supabase, Auth0 on Next.js, React, Vue...), `description` and `globs` front matter;
 * - `windsurf-agent-rules-kit` (test/fixtures/windsurf-agent-rules-kit): 47 Windsurf rules as
 *   tecnomanu/agent-rules-kit installs them, `.windsurf/rules/<stack>/best-practices.md` and the
 *   like: no front matter, the same file names in every stack's folder;
 * - `fernhill` (examples/fernhill-context-tasks.yaml): the example workspace's library with its
 *   packs, rules, pinned page, tables, acquirer and plan names.
 *
 * Each task names the pages that must come, pages that are fair to send, the confusable pages of
 * another stack, or says nothing-found is right. Every task is sent to the real `get_context`
 * tool (the same handler every host calls) twice in JSON and once in Markdown, and scored:
 *
 * - page precision: of the library reference pages sent (rules and pinned pages excluded: they
 *   come with every task by design and are checked on their own; entity docs, overviews and
 *   epics, reason `entity`, are scored apart against `entityDocs`), the share that is in `must`
 *   or `ok`; macro mean over on-topic tasks that sent any page;
 * - recall: the share of `must` pages sent (pinned pages count), macro mean over on-topic tasks;
 * - nothing-found: off-topic tasks answered nothing-found with no reference page; on-topic tasks
 *   wrongly answered nothing-found; the nearest pages each nothing-found answer names;
 * - tokens per bundle (the Markdown's estimate), on-topic and off-topic;
 * - response size: characters of the MCP response (text content plus structuredContent) per token
 *   of max_tokens, the larger of the Markdown and JSON formats, the largest over the tasks;
 * - determinism: tasks whose second call sent other pages or sections than the first.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { inFolder } from '../server/src/library/context/scope';
import type { Doc } from '../server/src/engine/model';
import { OpenAiModelProvider } from '../server/src/library/models/openAiProvider';
import { createServices, type Services } from '../server/src/services/services';
import { callTool } from '../server/src/tools/callTool';
import { getContextTool, type GetContextOutput } from '../server/src/tools/getContext';
import { startEvalEngine, type EvalEmbeddings, type MeaningFigures } from './evalEngine';

export const CONTEXT_SETS = [
  'awesome-copilot',
  'instructa-ai-prompts',
  'windsurf-agent-rules-kit',
  'fernhill',
] as const;
export type ContextSet = (typeof CONTEXT_SETS)[number];

export interface ContextTask {
  id: string;
  task: string;
  must: string[];
  ok: string[];
  mustNot: string[];
  nothing: boolean;
  entityDocs: string[];
  args: { tags?: string[]; folder?: string; max_tokens?: number };
}

export interface ContextTaskResult {
  id: string;
  nothingExpected: boolean;
  /** Reference pages sent (not rules, not pinned), workspace-relative paths. */
  sent: string[];
  precision: number | null;
  recall: number | null;
  missing: string[];
  confusables: string[];
  wrong: string[];
  /**
   * Why each wrong page came: its reason (`search`, `link`, `use`, `recipe`, `folder`) and, for a
   * page reached by widening, the page it came from; what decides the next change.
   */
  wrongWhy: Record<string, string>;
  nothingFound: boolean;
  nearest: number;
  tokens: number;
  /** Characters of the MCP response (text + structuredContent) per token of max_tokens. */
  charsPerToken: number;
  rulesAndPinned: boolean;
  deterministic: boolean;
  packs: string[];
  entityDocsSent: number;
  /** Entity pages (reason `entity`) the bundle carried, workspace-relative paths. */
  entityPages: string[];
}

export interface ContextFigures {
  tasks: number;
  onTopic: number;
  offTopic: number;
  precision: number;
  /** Over every page sent on on-topic tasks. */
  precisionMicro: number;
  recall: number;
  tasksWithConfusables: number;
  offTopicNothingFound: number;
  onTopicNothingFound: number;
  /** Nothing-found answers naming 2-3 nearest pages. */
  nothingFoundWithNearest: number;
  nothingFoundAnswers: number;
  tokensMean: number;
  tokensMedian: number;
  tokensMax: number;
  offTopicTokensMean: number;
  maxCharsPerToken: number;
  rulesAndPinned: number;
  deterministic: number;
  entityDocTasks: number;
  entityDocsSent: number;
  /** Tasks whose bundle carried any entity page, and those pages in all (on-topic and off-topic). */
  tasksWithEntityPages: number;
  entityPagesSent: number;
}

export interface ContextRun {
  set: ContextSet;
  embeddings: EvalEmbeddings;
  judge: string;
  pages: number;
  sections: number;
  figures: ContextFigures;
  results: ContextTaskResult[];
  meaning?: MeaningFigures;
}

export interface ContextEval {
  runs: ContextRun[];
}

const REPO_ROOT = path.resolve(__dirname, '..');

/** Where each set's workspace and tasks are. */
export function contextSetFiles(set: ContextSet): { workspace: string; tasks: string } {
  if (set === 'fernhill')
    return {
      workspace: path.join(REPO_ROOT, 'examples', 'fernhill'),
      tasks: path.join(REPO_ROOT, 'examples', 'fernhill-context-tasks.yaml'),
    };
  const root = path.join(REPO_ROOT, 'test', 'fixtures', set);
  return { workspace: path.join(root, 'library'), tasks: path.join(root, 'tasks.yaml') };
}

const list = (value: unknown, where: string): string[] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new Error(`eval: ${where} must be a list of page names`);
  return value as string[];
};

export function loadContextTasks(file: string): ContextTask[] {
  const raw = parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`eval: ${file} must be a YAML list of tasks`);
  const ids = new Set<string>();
  return raw.map((t: Record<string, unknown>, i) => {
    const where = `${path.basename(file)} task ${i + 1}${typeof t.id === 'string' ? ` (${t.id})` : ''}`;
    if (typeof t.id !== 'string' || typeof t.task !== 'string')
      throw new Error(`eval: ${where} needs an id and a task`);
    if (ids.has(t.id)) throw new Error(`eval: ${where}: the id is used twice`);
    ids.add(t.id);
    const nothing = t.nothing === true;
    const must = list(t.must, `${where} must`);
    if (!nothing && t.must === undefined)
      throw new Error(`eval: ${where}: give must (a list, possibly empty) or nothing: true`);
    const args = (t.args ?? {}) as ContextTask['args'];
    return {
      id: t.id,
      task: t.task,
      must,
      ok: list(t.ok, `${where} ok`),
      mustNot: list(t.mustNot, `${where} mustNot`),
      nothing,
      entityDocs: list(t.entityDocs, `${where} entityDocs`),
      args,
    };
  });
}

/**
 * A label's page: a workspace-relative path, the end of one without its extensions (`nextjs/best-practices`
 * where every stack's folder holds a best-practices.md), or a file name without its extensions.
 */
function resolveLabel(label: string, docs: readonly Doc[], where: string): string {
  if (label.includes('/')) {
    if (docs.some((d) => d.path === label)) return label;
    const ends = docs.filter((d) => `/${d.path.replace(/\.[^/]*$/, '')}`.endsWith(`/${label}`));
    if (ends.length !== 1) throw new Error(`eval: ${where}: "${label}" names ${ends.length} pages`);
    return ends[0].path;
  }
  const hits = docs.filter((d) => path.basename(d.path).split('.')[0] === label);
  if (hits.length !== 1) throw new Error(`eval: ${where}: "${label}" names ${hits.length} pages`);
  return hits[0].path;
}

async function ask(services: Services, task: ContextTask, format: 'json' | 'markdown'): Promise<GetContextOutput> {
  return (await callTool(
    services,
    getContextTool,
    { task: task.task, format, ...task.args },
    { sessionId: 'eval' },
  )) as unknown as GetContextOutput;
}

/**
 * A sent page's reason, with how its sections were reached when that differs and the page a
 * widened one came from: `search`, `use`, `recipe, link from .context/reference/refund-policy.md`.
 */
function whyItCame(page: GetContextOutput['pages'][number], bundle: GetContextOutput): string {
  const reached = [...new Set(page.sections.map((s) => s.reachedBy))].filter((r) => r !== page.reason);
  const viaId = page.via ?? page.sections.find((s) => s.via)?.via;
  const via = viaId ? (bundle.pages.find((p) => p.id === viaId)?.path ?? viaId) : undefined;
  return [page.reason, ...reached].join(', ') + (via ? ` from ${via}` : '');
}

/** Pages and their sections, as a comparable string (determinism). */
function fingerprint(out: GetContextOutput): string {
  return out.pages.map((p) => `${p.path}:${p.whole ? 'whole' : p.sections.map((s) => s.id).join(',')}`).join('|');
}

export async function runContextSet(
  set: ContextSet,
  embeddings: EvalEmbeddings,
  options: { modelUrl?: string; model?: string },
  log: (m: string) => void,
): Promise<ContextRun> {
  const files = contextSetFiles(set);
  const tasks = loadContextTasks(files.tasks);
  const { engine, state, meaning } = await startEvalEngine(
    `context-${set}`,
    { name: set, absPath: files.workspace },
    embeddings,
    log,
  );
  let judge = 'heuristic';
  const models = options.modelUrl
    ? new OpenAiModelProvider({
        baseUrl: options.modelUrl,
        model: options.model ?? 'gpt-4o-mini',
        apiKey: process.env.WSCTX_MODEL_API_KEY,
      })
    : undefined;
  if (models) judge = models.name;
  const services = createServices({ engine, ...(models ? { models } : {}) });
  // The services name the phrasings to embed with the index: wait for them as for the sections.
  await engine.waitForMeaning();
  try {
    const allDocs = [...state.docs.values()];
    const docs = allDocs.filter((d) => d.sourceKind === 'library');
    const rulePaths = docs.filter((d) => d.library?.type === 'rule').map((d) => d.path);
    const results: ContextTaskResult[] = [];
    for (const task of tasks) {
      const where = `${set} task ${task.id}`;
      const must = new Set(task.must.map((l) => resolveLabel(l, docs, where)));
      const ok = new Set(task.ok.map((l) => resolveLabel(l, docs, where)));
      const mustNot = new Set(task.mustNot.map((l) => resolveLabel(l, docs, where)));
      const entityDocs = task.entityDocs.map((l) => resolveLabel(l, allDocs, where));
      const first = await ask(services, task, 'json');
      const second = await ask(services, task, 'json');
      const markdown = await ask(services, task, 'markdown');
      const maxTokens = task.args.max_tokens ?? first.maxTokens;
      // The MCP response as registerTools builds it: text content plus structured content, both formats.
      const responseOf = (out: GetContextOutput) =>
        getContextTool.renderText(out as never).length +
        JSON.stringify(getContextTool.structuredContent ? getContextTool.structuredContent(out as never) : out).length;
      const responseChars = Math.max(responseOf(markdown), responseOf(first));
      const sentPages = first.pages.filter(
        (p) => p.reason !== 'rule' && p.reason !== 'pinned' && p.reason !== 'entity',
      );
      const sent = sentPages.map((p) => p.path);
      const arrived = new Set(first.pages.map((p) => p.path));
      const pinnedPaths = docs
        .filter((d) => d.library?.alwaysInclude && d.library.status === 'published')
        .map((d) => d.path);
      const relevant = sent.filter((p) => must.has(p) || ok.has(p));
      const result: ContextTaskResult = {
        id: task.id,
        nothingExpected: task.nothing,
        sent,
        precision: !task.nothing && sent.length > 0 ? relevant.length / sent.length : null,
        recall: !task.nothing && must.size > 0 ? [...must].filter((p) => arrived.has(p)).length / must.size : null,
        missing: [...must].filter((p) => !arrived.has(p)),
        confusables: sent.filter((p) => mustNot.has(p)),
        wrong: sent.filter((p) => !must.has(p) && !ok.has(p)),
        wrongWhy: Object.fromEntries(
          sentPages.filter((p) => !must.has(p.path) && !ok.has(p.path)).map((p) => [p.path, whyItCame(p, first)]),
        ),
        nothingFound: first.nothingFound !== undefined,
        nearest: first.nothingFound?.nearest.length ?? 0,
        tokens: first.tokens,
        charsPerToken: responseChars / maxTokens,
        // Every rule and pinned page comes, whatever the tags; a folder limits them to those inside it.
        rulesAndPinned: [...rulePaths, ...pinnedPaths].every(
          (p) =>
            (task.args.folder !== undefined && !inFolder(p, task.args.folder.replace(/\/+$/, ''))) !==
            (arrived.has(p) || first.skipped.some((s) => s.title === allDocs.find((d) => d.path === p)?.title)),
        ),
        deterministic: fingerprint(first) === fingerprint(second),
        packs: first.packs.filter((p) => p.applied).map((p) => p.name),
        entityDocsSent: entityDocs.filter((p) => arrived.has(p)).length,
        entityPages: first.pages.filter((p) => p.reason === 'entity').map((p) => p.path),
      };
      results.push(result);
    }
    const figures = summarizeContext(results, tasks);
    log(
      `context ${set} (${embeddings}): precision ${figures.precision.toFixed(3)}, recall ${figures.recall.toFixed(3)}, off-topic nothing-found ${figures.offTopicNothingFound}/${figures.offTopic}`,
    );
    return {
      set,
      embeddings,
      judge,
      pages: docs.length,
      sections: state.counts.sections,
      figures,
      results,
      ...(meaning ? { meaning } : {}),
    };
  } finally {
    engine.dispose();
  }
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const median = (xs: readonly number[]) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export function summarizeContext(results: readonly ContextTaskResult[], tasks: readonly ContextTask[]): ContextFigures {
  const on = results.filter((r) => !r.nothingExpected);
  const off = results.filter((r) => r.nothingExpected);
  const precisions = on.map((r) => r.precision).filter((p): p is number => p !== null);
  const recalls = on.map((r) => r.recall).filter((p): p is number => p !== null);
  const sentOn = on.reduce((s, r) => s + r.sent.length, 0);
  const wrongOn = on.reduce((s, r) => s + r.wrong.length, 0);
  const nothingAnswers = results.filter((r) => r.nothingFound);
  return {
    tasks: results.length,
    onTopic: on.length,
    offTopic: off.length,
    precision: mean(precisions),
    precisionMicro: sentOn > 0 ? (sentOn - wrongOn) / sentOn : 0,
    recall: mean(recalls),
    tasksWithConfusables: on.filter((r) => r.confusables.length > 0).length,
    offTopicNothingFound: off.filter((r) => r.nothingFound && r.sent.length === 0).length,
    onTopicNothingFound: on.filter((r) => r.nothingFound).length,
    nothingFoundWithNearest: nothingAnswers.filter((r) => r.nearest >= 2 && r.nearest <= 3).length,
    nothingFoundAnswers: nothingAnswers.length,
    tokensMean: mean(on.map((r) => r.tokens)),
    tokensMedian: median(on.map((r) => r.tokens)),
    tokensMax: Math.max(0, ...on.map((r) => r.tokens)),
    offTopicTokensMean: mean(off.map((r) => r.tokens)),
    maxCharsPerToken: Math.max(0, ...results.map((r) => r.charsPerToken)),
    rulesAndPinned: results.filter((r) => r.rulesAndPinned).length,
    deterministic: results.filter((r) => r.deterministic).length,
    entityDocTasks: tasks.filter((t) => t.entityDocs.length > 0).length,
    entityDocsSent: results.filter((r, i) => tasks[i].entityDocs.length > 0 && r.entityDocsSent > 0).length,
    tasksWithEntityPages: results.filter((r) => r.entityPages.length > 0).length,
    entityPagesSent: results.reduce((n, r) => n + r.entityPages.length, 0),
  };
}

export async function evalContext(
  embeddings: readonly EvalEmbeddings[],
  options: { modelUrl?: string; model?: string; sets?: readonly ContextSet[] },
  log: (m: string) => void,
): Promise<ContextEval> {
  const runs: ContextRun[] = [];
  for (const set of options.sets ?? CONTEXT_SETS)
    for (const e of embeddings) runs.push(await runContextSet(set, e, options, log));
  return { runs };
}
