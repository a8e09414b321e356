/**
 * `get_context(task, max_tokens?, pack?, tags?, folder?, format?)` (docs/ARCHITECTURE.md, get_context's contract, Herald): one call,
 * one budgeted bundle of the team's instructions, every rule in full, the right pages whole and
 * the best excerpts, nothing about the wrong product. The pipeline lives in library/context; this
 * file validates, picks the library view, adds the user's own private notes on their own
 * connections, logs the request (plan, packs, verdicts, the providers used, nothing-found) and
 * renders Markdown or JSON.
 */
import { z } from 'zod';
import type { IndexState } from '../engine';
import { MAX_CHANGED_PATHS, MAX_DIFF_CHARS, MAX_PATH_CHARS } from '../library/context/change/changeInput';
import {
  changeReason,
  changesForLog,
  changesOutput,
  changesOutputOf,
  pageReason,
  publishedReason,
  readExpectations,
} from './contextChange';
import { boundedList, boundedString, INPUT_LIMITS, oneOf, wholeNumber } from './inputLimits';
import { ToolInputError } from './toolError';
import type { ActivityEntry } from '../library/activity/activityLog';
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from '../library/context/constants';
import type { ContextLogDetails } from '../library/context/contextDiagnostics';
import { rankEntityPassages, selectEntityExcerpts } from '../library/context/entityDocs';
import { buildContext, type BuiltContext } from '../library/context/getContext';
import { conflictNotes, nothingFoundBlock, wholePageBody, excerptBlock } from '../library/context/render';
import { conflictOutput, conflictSchema } from './conflictOutput';
import type { BundlePage } from '../library/context/types';
import { sectionHeading } from '../library/view/summaries';
import { COLD_NOTICE, libraryState } from './libraryTool';
import type { Services } from '../services/services';
import type { ToolCallContext, ToolDefinition } from './toolDefinition';

const changesInput = z
  .object({
    changedPaths: z
      .array(boundedString(MAX_PATH_CHARS).min(1))
      .max(MAX_CHANGED_PATHS, { message: `must hold at most ${MAX_CHANGED_PATHS.toLocaleString('en-US')} paths` })
      .optional()
      .describe(
        'The changed files, each relative to a served folder (optionally with the folder\'s name in front): ["payments-platform/services/billing-worker/src/worker.ts"].',
      ),
    diff: z
      .string()
      .max(MAX_DIFF_CHARS, {
        message: `must be at most ${MAX_DIFF_CHARS.toLocaleString('en-US')} characters; pass the changed files as changes.changedPaths instead`,
      })
      .optional()
      .describe(
        `A unified diff as git diff prints it (git diff HEAD, git diff main...HEAD, git show), paths relative to a served folder; at most ${MAX_DIFF_CHARS.toLocaleString('en-US')} characters. Its line numbers tell which entities a catalog file's change touches.`,
      ),
  })
  .strict()
  .optional()
  .describe(
    'A change to get the context of, instead of (or beside) a task: give changedPaths or diff, not both. The bundle then brings the entities owning the changed files with their owners (owns), what depends on them or consumes their APIs (depends-on-changed), their runbooks, docs and epics, the rule and instruction files whose globs or folders cover the changed paths (rule-applies) and the expectations it touches.',
  );

const input = {
  task: boundedString(INPUT_LIMITS.text)
    .optional()
    .describe(
      `What you are about to do, in plain words. Specific beats short: "add a database migration to billing-worker that stores invoice amounts in minor units" beats "migration". At most ${INPUT_LIMITS.text} characters. Optional when changes is given (with both, the task's search fills what the change leaves of the budget); give task or changes.`,
    ),
  changes: changesInput,
  max_tokens: wholeNumber(MIN_MAX_TOKENS, MAX_MAX_TOKENS, DEFAULT_MAX_TOKENS).describe(
    `The budget in estimated tokens (characters / 4), ${MIN_MAX_TOKENS} to ${MAX_MAX_TOKENS}; default ${DEFAULT_MAX_TOKENS}. A ceiling, not a target.`,
  ),
  pack: boundedString(INPUT_LIMITS.name)
    .min(1)
    .optional()
    .describe('Apply this pack (by name) instead of matching packs to the task.'),
  tags: boundedList(boundedString(INPUT_LIMITS.listItem).min(1))
    .optional()
    .describe(
      'Search only pages with one of these tags; every rule, pinned page and the team instructions still come; entity docs (untagged) do not.',
    ),
  folder: boundedString(INPUT_LIMITS.name)
    .min(1)
    .optional()
    .describe(
      'Take material only from this library folder and its subfolders, e.g. ".context/guides" or "guides": rules, pinned pages, team instructions and entity docs outside it stay out.',
    ),
  format: oneOf(['markdown', 'json'] as const, 'a format')
    .optional()
    .describe(
      "`markdown` (default): the bundle to read. `json`: every page with its reason and each searched section's similarity.",
    ),
};

const reason = pageReason;
const answer = z.object({ yes: z.boolean(), probability: z.number(), from: z.string() });

const outputSection = z.object({
  id: z.string(),
  heading: z.string(),
  /** How it was reached: search, link, inferred-link, folder, use, recipe. */
  reachedBy: z.string(),
  /** Search similarity (0..1), when search found it. */
  similarity: z.number().optional(),
  /** How sure the judge (or the heuristics) is that it belongs, 0..1. */
  confidence: z.number().optional(),
  /** The page it was reached from (links, folders). */
  via: z.string().optional(),
  /** Table rows dropped as being about something else than the task names. */
  rowsDropped: z.number().optional(),
  /** This section states something another page states differently. */
  conflicts: z.array(conflictSchema).optional(),
});

const outputPage = z.object({
  id: z.string(),
  title: z.string(),
  type: z.string(),
  path: z.string(),
  reason,
  /** A change's page: why the change brings it (owns, depends-on-changed, runbook, doc, rule-applies, epic). */
  changeReason: changeReason.optional(),
  whole: z.boolean(),
  /** The user's own private note. */
  private: z.boolean(),
  tokens: z.number(),
  usage: z.string().optional(),
  /** Name of the attached file (get_file returns it). */
  file: z.string().optional(),
  via: z.string().optional(),
  /** The page as sent: whole, or its excerpts. Left out of MCP structured content (the text content holds it). */
  text: z.string().optional(),
  sections: z.array(outputSection),
  /** Whole pages: what its sections state that another page states differently. */
  conflicts: z.array(conflictSchema).optional(),
  /** Reason `entity`: not a library page but an entity's doc (catalog_doc), repository overview or epic. */
  sourceKind: z.string().optional(),
  /** Reason `entity`: the entity it documents. A change's page: the entity it is for. */
  entity: z.string().optional(),
  /** A change's page: why it came, in a few words (the globs that matched, how it depends). */
  why: z.string().optional(),
});

const output = {
  task: z.string(),
  format: z.enum(['markdown', 'json']),
  maxTokens: z.number(),
  /** Estimated tokens of the Markdown bundle. */
  tokens: z.number(),
  /** The rules alone pass the budget (they are sent anyway). */
  rulesOverBudget: z.boolean(),
  /** The bundle (format markdown). */
  markdown: z.string().optional(),
  organization: z.string(),
  instructions: z.array(z.string()),
  plan: z.object({
    names: z.array(z.object({ text: z.string(), kind: z.string(), source: z.string() })),
    deliverable: z.string().optional(),
    searches: z.array(z.string()),
    constraints: z.array(z.string()),
    madeBy: z.string(),
    fallbackReason: z.string().optional(),
  }),
  packs: z.array(
    z.object({
      name: z.string(),
      applied: z.boolean(),
      forced: z.boolean(),
      score: z.number(),
      phrasing: z.string(),
      decidedBy: z.string(),
    }),
  ),
  tagsFound: z.array(z.string()),
  pages: z.array(outputPage),
  skipped: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      reason,
      changeReason: changeReason.optional(),
      why: z.enum(['allowance', 'budget']),
    }),
  ),
  nothingFound: z
    .object({
      message: z.string(),
      nearest: z.array(z.object({ id: z.string(), title: z.string(), score: z.number() })),
    })
    .optional(),
  judge: z.object({
    mode: z.enum(['off', 'shadow', 'gate']),
    provider: z.string(),
    called: z.boolean(),
    fallbackReason: z.string().optional(),
    /** Every verdict, in the in-process result (the editor's chat); the call log keeps them too. Neither the text nor MCP structured content carries them: they can pass the budget. */
    verdicts: z
      .array(
        z.object({
          id: z.string(),
          kind: z.string(),
          subject: z.string(),
          applied: answer,
          heuristic: answer.omit({ from: true }),
          model: answer.optional(),
        }),
      )
      .optional(),
    /** How many questions the judge (or its heuristics) answered. */
    questions: z.number(),
  }),
  steps: z.object({ plan: z.string(), judge: z.string(), meaning: z.boolean() }),
  notice: z.string().optional(),
  degraded: z.array(z.string()),
  indexedAt: z.string().nullable(),
  /** Set when `changes` was given: what the change touches, and every item of its bundle with its reason. */
  changes: changesOutput.optional(),
};

export type GetContextOutput = z.infer<z.ZodObject<typeof output>>;

/**
 * A call context that may carry the connection's own model provider (an MCP client's sampling):
 * it wins over the engine's configured provider for that call.
 */
/** Kept for callers that name it; the connection's model is part of every tool call's context. */
export type ContextCallContext = ToolCallContext;
export type GetContextArgs = z.infer<z.ZodObject<typeof input>>;
type Args = GetContextArgs;

export const getContextTool: ToolDefinition<typeof input, typeof output> = {
  name: 'get_context',
  title: 'Get the context for a task',
  description: [
    "Describe the task you are about to do in plain words; get back one Markdown bundle sized to max_tokens (default 12,000): the team's agent instructions,",
    'every rule in full under "Rules (always follow)", then "Reference": pinned and pack pages whole and the best excerpts, grouped by page.',
    'Each page carries its page_id: read_page(page_id) returns the whole page, get_file(page_id) its attached file.',
    'After the library pages come excerpts of the docs (TechDocs), repository overviews and epics of the services the task names, each labelled with its source kind.',
    'A passage another page contradicts carries a Conflict note quoting both pages.',
    'When nothing matches, the answer says so and names the nearest pages: check with the user rather than guess.',
    'Name the service, API, runbook or rule the task touches (e.g. "roll back billing-worker after a failed deploy", "change the error codes of the orders API"); pass pack to force a pack, tags or folder to narrow, format "json" for reasons and similarities.',
    'Working on a change (reviewing a pull request, finishing a branch)? Pass changes: {diff: "<git diff output>"} or {changedPaths: [...]}, with or without a task: the bundle starts with the entities owning the changed files, their owners, what depends on them, their runbooks, docs and epics, and the rules for those paths, each with its reason.',
  ].join(' '),
  input,
  output,
  async run(services: Services, args, context) {
    const started = performance.now();
    let built: BuiltContext | undefined;
    const logInput = {
      task: args.task,
      ...(args.changes ? { changes: changesForLog(args.changes) } : {}),
      max_tokens: args.max_tokens,
      pack: args.pack,
      tags: args.tags,
      folder: args.folder,
      format: args.format,
    };
    try {
      const out = await runContext(services, args, context, (b) => (built = b));
      logCall(services, context, logInput, started, built);
      return out;
    } catch (error) {
      logCall(services, context, logInput, started, undefined, (error as Error).message);
      throw error;
    }
  },
  unreadable: (args, notice) => coldOutput(args, args.format ?? 'markdown', notice, ['scope-unreadable']),
  renderText(out) {
    if (out.degraded.includes('index-cold') || out.degraded.includes('scope-unreadable'))
      return out.notice ?? COLD_NOTICE;
    if (out.format === 'markdown' && out.markdown !== undefined) return out.markdown;
    // The JSON bundle: every page with its text, reasons and similarities; not the verdicts.
    const { markdown: _markdown, ...json } = out;
    const { verdicts: _verdicts, ...judge } = json.judge;
    return JSON.stringify({ ...json, judge });
  },
  /**
   * Sized to the budget: the text content holds the bundle (Markdown, or JSON with each page's
   * text), so the structured content carries ids, reasons and scores only, without the Markdown,
   * the page texts or the judge's verdicts. The response stays under about 4.5 characters per
   * token of max_tokens (the bundle's own ceiling is 4).
   */
  structuredContent(out) {
    const { markdown: _markdown, ...rest } = out;
    const { verdicts: _verdicts, ...judge } = rest.judge;
    return { ...rest, pages: rest.pages.map(({ text: _text, ...page }) => page), judge };
  },
};

export async function runContext(
  services: Services,
  args: Args,
  context: ToolCallContext,
  keep: (b: BuiltContext) => void,
): Promise<GetContextOutput> {
  const format = args.format ?? 'markdown';
  const task = args.task?.trim() ?? '';
  if (task === '' && !args.changes)
    throw new ToolInputError(
      'task or changes: describe what you are about to do in plain words (task), or give the change (changes: changedPaths or diff)',
    );
  const found = await libraryState(services, [task, args.pack, ...(args.tags ?? []), args.folder]);
  if (found.kind === 'cold') return coldOutput(args, format);
  const { view } = found;
  const connectionModels = (context as ContextCallContext).models;
  const hooks = connectionModels?.available() ? { ...services, models: connectionModels } : services;
  const notes = hooks.privateNotes;
  const own = notes?.ownedBy(context.sessionId) ?? false;
  const privateDocs = own && notes ? notes.docs(view.today) : [];
  const entities = task === '' ? [] : await entityExcerpts(services, view.state, task);
  const built = await buildContext({
    entityExcerpts: entities,
    view,
    request: {
      task,
      ...(args.changes
        ? { change: { request: args.changes, expectations: await readExpectations(services.engine) } }
        : {}),
      maxTokens: args.max_tokens,
      pack: args.pack,
      tags: args.tags,
      folder: args.folder,
      sessionId: context.sessionId,
      signal: context.signal,
    },
    hooks,
    meaning: services.sectionMeaning,
    organization: hooks.organization ?? services.engine.folders[0].name,
    privateDocs,
    privateSections: own && notes ? notes.sections(privateDocs) : [],
  });
  keep(built);
  return toOutput(built, format, found.indexedAt);
}

/** The entity docs, overviews and epics of the entities the task names, ranked by the workspace's formula. */
async function entityExcerpts(services: Services, state: IndexState, task: string) {
  const engine = services.engine;
  const queryVector = await engine.embedQuery(task);
  const entityState = await engine.excerptState(state, task, queryVector);
  const meaning = engine.meaningSource(entityState, queryVector);
  const ranked = rankEntityPassages(entityState, task, { now: services.now().getTime(), meaning });
  // A store ranks without texts; the excerpts are chosen by what is under their headings.
  await engine.completeTexts(
    entityState.folders[0],
    ranked.passages.map((p) => p.entry),
  );
  return selectEntityExcerpts(ranked);
}

function coldOutput(
  args: Args,
  format: 'markdown' | 'json',
  notice = COLD_NOTICE,
  degraded = ['index-cold'],
): GetContextOutput {
  return {
    task: args.task?.trim() ?? '',
    format,
    maxTokens: args.max_tokens ?? DEFAULT_MAX_TOKENS,
    tokens: 0,
    rulesOverBudget: false,
    organization: '',
    instructions: [],
    plan: { names: [], searches: [], constraints: [], madeBy: 'none' },
    packs: [],
    tagsFound: [],
    pages: [],
    skipped: [],
    judge: { mode: 'off', provider: 'none', called: false, questions: 0, verdicts: [] },
    steps: { plan: 'none', judge: 'none', meaning: false },
    notice,
    degraded,
    indexedAt: null,
  };
}

/** The structured answer of a built bundle. */
export function toOutput(built: BuiltContext, format: 'markdown' | 'json', indexedAt: string | null): GetContextOutput {
  const { bundle, markdown, idOf } = built;
  const page = (p: BundlePage): z.infer<typeof outputPage> => {
    const doc = p.doc;
    const notes = conflictNotes(p.conflicts ?? [], idOf, true);
    const text = p.whole
      ? `${wholePageBody(doc)}${notes ? `\n\n${notes}` : ''}`
      : [...p.sections]
          .sort((a, b) => a.entry.position - b.entry.position)
          .map((s) => excerptBlock(s, idOf))
          .join('\n\n');
    return {
      id: idOf(doc.id),
      title: doc.title,
      type: doc.library?.type ?? p.entity?.sourceKind ?? 'page',
      path: doc.path,
      ...publishedReason(p.reason),
      whole: p.whole,
      private: p.private,
      tokens: Math.ceil(p.chars / 4),
      ...(doc.library?.usage ? { usage: doc.library.usage } : {}),
      ...(doc.library?.file ? { file: doc.library.file } : {}),
      ...(p.via ? { via: idOf(p.via.id) } : {}),
      text,
      sections: [...p.sections]
        .sort((a, b) => a.entry.position - b.entry.position)
        .map((s) => ({
          id: idOf(s.entry.section.id),
          heading: sectionHeading(s.entry.section, doc),
          reachedBy: s.reachedBy,
          ...(s.similarity !== undefined ? { similarity: s.similarity } : {}),
          ...(s.confidence !== undefined ? { confidence: s.confidence } : {}),
          ...(s.via ? { via: idOf(s.via.id) } : {}),
          ...(s.rows && s.rows.dropped > 0 ? { rowsDropped: s.rows.dropped } : {}),
          ...(!p.whole && s.conflicts?.length ? { conflicts: s.conflicts.map((f) => conflictOutput(f, idOf)) } : {}),
        })),
      ...(p.whole && p.conflicts?.length ? { conflicts: p.conflicts.map((f) => conflictOutput(f, idOf)) } : {}),
      ...(p.entity ? { sourceKind: p.entity.sourceKind, entity: p.entity.ref } : {}),
      ...(p.change
        ? { sourceKind: doc.sourceKind, ...(p.change.entity ? { entity: p.change.entity } : {}), why: p.change.why }
        : {}),
    };
  };
  const plan = bundle.plan;
  return {
    task: bundle.task,
    format,
    maxTokens: bundle.maxTokens,
    tokens: bundle.tokens,
    rulesOverBudget: bundle.rulesOverBudget,
    ...(format === 'markdown' ? { markdown } : {}),
    organization: bundle.organization,
    instructions: bundle.instructions.map((d) => idOf(d.id)),
    plan: {
      names: plan.names.map((n) => ({ text: n.text, kind: n.kind, source: n.source })),
      ...(plan.deliverable ? { deliverable: plan.deliverable } : {}),
      searches: plan.searches,
      constraints: plan.constraints,
      madeBy: plan.madeBy,
      ...(plan.fallbackReason ? { fallbackReason: plan.fallbackReason } : {}),
    },
    packs: bundle.packs.map((p) => ({
      name: p.name,
      applied: p.applied,
      forced: p.forced,
      score: p.score,
      phrasing: p.phrasing,
      decidedBy: p.decidedBy,
    })),
    tagsFound: bundle.tagsFound,
    pages: [...bundle.rules, ...(bundle.change?.pages ?? []), ...bundle.reference].map(page),
    skipped: [...(bundle.change?.skipped ?? []), ...bundle.skipped].map((s) => ({
      id: idOf(s.doc.id),
      title: s.doc.title,
      ...publishedReason(s.reason),
      why: s.why,
    })),
    ...(bundle.nothingFound
      ? {
          nothingFound: {
            message: nothingFoundBlock(bundle.nothingFound.nearest, idOf).split('\n')[0],
            nearest: bundle.nothingFound.nearest.map((n) => ({
              id: idOf(n.doc.id),
              title: n.doc.title,
              score: n.score,
            })),
          },
        }
      : {}),
    judge: {
      mode: bundle.judge.mode,
      provider: bundle.judge.provider,
      called: bundle.judge.called,
      ...(bundle.judge.fallbackReason !== undefined ? { fallbackReason: bundle.judge.fallbackReason } : {}),
      questions: bundle.judge.verdicts.length,
      verdicts: bundle.judge.verdicts.map((v) => ({
        id: v.id,
        kind: v.kind,
        subject: /^[0-9a-f]{64}/.test(v.subject) ? `${idOf(v.subject.slice(0, 64))}${v.subject.slice(64)}` : v.subject,
        applied: { yes: v.applied.yes, probability: round(v.applied.probability), from: v.applied.from },
        heuristic: { yes: v.heuristic.yes, probability: round(v.heuristic.probability) },
        ...(v.model
          ? { model: { yes: v.model.yes, probability: round(v.model.probability), from: v.model.from } }
          : {}),
      })),
    },
    steps: bundle.steps,
    degraded: [],
    indexedAt,
    ...(bundle.change ? { changes: changesOutputOf(bundle.change, idOf) } : {}),
  };
}

/**
 * One line in the call log per request: the usual fields (the returned page and section ids,
 * empty when nothing was found) plus `context`: the plan, the packs applied, which provider did
 * each step, the judge's verdicts and, when nothing was found, the nearest pages.
 */
function logCall(
  services: Pick<Services, 'activity'>,
  context: ToolCallContext,
  input: Record<string, unknown>,
  started: number,
  built: BuiltContext | undefined,
  error?: string,
): void {
  const log = services.activity;
  if (!log) return;
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;
  if (!built) {
    log.append({
      tool: 'get_context',
      session: context.sessionId,
      input,
      latencyMs,
      resultIds: [],
      empty: true,
      ...(error !== undefined ? { error } : {}),
    });
    return;
  }
  const { bundle } = built;
  const pages = [...bundle.rules, ...(bundle.change?.pages ?? []), ...bundle.reference];
  const resultIds = [
    ...pages.map((p) => p.doc.id),
    ...pages.flatMap((p) => (p.whole ? p.doc.sections.map((s) => s.id) : p.sections.map((s) => s.entry.section.id))),
  ];
  const entry: Omit<ActivityEntry, 'at'> & { context: ContextLogDetails } = {
    tool: 'get_context',
    session: context.sessionId,
    input,
    latencyMs,
    resultIds,
    empty: bundle.nothingFound !== undefined,
    context: {
      tokens: bundle.tokens,
      plan: {
        names: bundle.plan.names.map((n) => `${n.text} (${n.kind})`),
        searches: bundle.plan.searches,
        madeBy: bundle.plan.madeBy,
        ...(bundle.plan.fallbackReason ? { fallbackReason: bundle.plan.fallbackReason } : {}),
      },
      packs: bundle.packs.filter((p) => p.applied).map((p) => p.name),
      steps: bundle.steps,
      judge: {
        mode: bundle.judge.mode,
        provider: bundle.judge.provider,
        ...(bundle.judge.fallbackReason !== undefined ? { fallbackReason: bundle.judge.fallbackReason } : {}),
        verdicts: bundle.judge.verdicts.map((v) => ({
          kind: v.kind,
          subject: v.subject,
          yes: v.applied.yes,
          p: round(v.applied.probability),
          from: v.applied.from,
          ...(v.model ? { model: round(v.model.probability) } : {}),
        })),
      },
      ...(bundle.nothingFound
        ? { nothingFound: { nearest: bundle.nothingFound.nearest.map((n) => ({ id: n.doc.id, title: n.doc.title })) } }
        : {}),
    },
  };
  log.append(entry);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
