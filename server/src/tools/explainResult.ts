/**
 * `explain_result`: "why not this page?" For a question and the page, section or entity the caller
 * expected, where it stands in `workspace_context`'s ranking and why, with the fix (the engine's
 * explain path, engine/ranking/explainRanking.ts and explainTarget.ts). Deterministic; no model.
 */
import { z } from 'zod';
import {
  shortId,
  type IndexState,
  SOURCE_KINDS,
  type SourceKind,
  CONTRACT_VERSION,
  explainRanking,
  type FolderRanking,
  type RankingExplanation,
  folderScopedState,
  type RankedPassage,
  compileSourceGlobs,
  questionIndexTerms,
  folderNamedBy,
  summedStatistics,
  type QuestionStatistics,
  type WorkspaceIndex,
} from '../engine';
import {
  explainAbsent,
  resolveTarget,
  targetDocs,
  targetPredicate,
  type ExpectedTarget,
} from '../library/explain/explainTarget';
import { dayOf } from '../library/view/readiness';
import type { Services } from '../services/services';
import { logged } from './callLog';
import { boundedList, boundedString, INPUT_LIMITS, oneOf, wholeNumber } from './inputLimits';
import { stateForQuery } from './queryState';
import type { ToolCallContext, ToolDefinition } from './toolDefinition';
import { explainTask } from './explainTask';
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from '../library/context/constants';
import { ToolInputError } from './toolError';
import { CONTEXT_DEFAULT_LIMIT, CONTEXT_MAX_LIMIT } from './workspaceContext';

const input = {
  workspace: boundedString(INPUT_LIMITS.workspace)
    .optional()
    .describe(
      'The served workspace folder the question is asked in (its name or path); leave it out for every served folder, as workspace_context does.',
    ),
  question: boundedString(INPUT_LIMITS.text)
    .optional()
    .describe(
      `The question as asked of workspace_context (at most ${INPUT_LIMITS.text} characters). Give question or task.`,
    ),
  task: boundedString(INPUT_LIMITS.text)
    .optional()
    .describe(
      'Or the task as given to get_context: the page is looked for in the bundle get_context builds, in what did not fit and in what focus dropped.',
    ),
  max_tokens: wholeNumber(MIN_MAX_TOKENS, MAX_MAX_TOKENS, DEFAULT_MAX_TOKENS).describe(
    'With task: the budget it was asked with (default 12,000).',
  ),
  pack: boundedString(INPUT_LIMITS.name).min(1).optional().describe('With task: the pack it was asked with.'),
  tags: boundedList(boundedString(INPUT_LIMITS.listItem).min(1))
    .optional()
    .describe('With task: the tags it was asked with.'),
  folder: boundedString(INPUT_LIMITS.name)
    .min(1)
    .optional()
    .describe('With task: the library folder it was asked with.'),
  expected: boundedString(INPUT_LIMITS.workspace).describe(
    'The page you expected: its workspace-relative path (docs/rollback.md), a document or section id (8 characters or a unique prefix), or a catalog entity ref (component:default/billing-worker).',
  ),
  limit: wholeNumber(1, CONTEXT_MAX_LIMIT, CONTEXT_DEFAULT_LIMIT).describe(
    `The limit the question was asked with, 1 to ${CONTEXT_MAX_LIMIT} (default ${CONTEXT_DEFAULT_LIMIT}).`,
  ),
  sourceKinds: boundedList(oneOf(SOURCE_KINDS, 'a source kind', true))
    .optional()
    .describe(`The sourceKinds filter the question was asked with: ${SOURCE_KINDS.join(', ')}.`),
};

const passageRef = z.object({
  rank: z.number().nullable(),
  id: z.string(),
  title: z.string(),
  path: z.string(),
  headingPath: z.array(z.string()),
  startLine: z.number(),
  score: z.number(),
});

const output = {
  /** The question, or the task. */
  question: z.string(),
  /** True when `question` is a get_context task. */
  task: z.boolean().optional(),
  expected: z.string(),
  /** What the expected name resolved to: a path, a section's heading path, an entity ref; absent when nothing in the index answers to it. */
  target: z.object({ kind: z.string(), label: z.string() }).optional(),
  /**
   * returned | held-back | ranked-below-limit | below-floor | no-candidate | not-indexed; for a
   * task also not-served (draft, expired), did-not-fit (allowance, budget), dropped-by-focus
   * (unused, different) and cut-by-budget.
   */
  standing: z.string(),
  /** For not-indexed: outside-served-folders, no-such-file, ignored, no-source-glob, unreadable, no-page, unknown-id, unknown-entity, filtered-out. */
  reason: z.string().optional(),
  rank: z.number().nullable(),
  limit: z.number(),
  /** The smallest limit at which it comes, when that is more than `limit`. */
  limitNeeded: z.number().optional(),
  summary: z.string(),
  fix: z.string(),
  /**
   * The expected page's best section for the question (the one holding the most of the question's
   * terms; the top-scoring one when none holds more), scored by the formula (its why[] as
   * workspace_context gives it). `rank` is its place in the answer, when it is in it.
   */
  best: passageRef
    .extend({
      match: z.number(),
      tokens: z.number(),
      why: z.array(
        z.object({
          signal: z.string(),
          weight: z.number(),
          raw: z.number(),
          contribution: z.number(),
          detail: z.string(),
        }),
      ),
    })
    .optional(),
  /** The page's highest-scoring section, when it is not `best`: the page ranks where this one does. */
  top: passageRef.optional(),
  /** The fact is buried in a big section: `best` is over 600 tokens and holds these question terms only weakly. */
  buried: z.object({ tokens: z.number(), weakTerms: z.array(z.string()) }).optional(),
  /** Question terms no section of the page holds. */
  missingTerms: z.array(z.string()),
  /** Question terms its best section holds only weakly (a passing mention in a long section, or an identifier's parts). */
  weakTerms: z.array(z.string()).optional(),
  questionTerms: z.array(z.string()),
  /** Passages that ranked above it, with the terms and bonuses that put them there. */
  above: z.array(
    passageRef.extend({
      termsTheTargetLacks: z.array(z.string()),
      termsHeldMoreStrongly: z.array(z.string()),
      bonusesTheTargetLacks: z.array(z.string()),
    }),
  ),
  /** A library page get_context and the library tools do not serve (draft, expired). */
  libraryStatus: z.string().optional(),
  contractVersion: z.string(),
  indexedAt: z.string().nullable(),
};

export type ExplainOutput = z.infer<z.ZodObject<typeof output>>;
type Args = z.infer<z.ZodObject<typeof input>>;

export const explainResultTool: ToolDefinition<typeof input, typeof output> = {
  name: 'explain_result',
  title: 'Why not this page?',
  description: [
    'Explain why a page, section or entity you expected did not come back from workspace_context for a question, or where it ranked.',
    'Answers with one cause: not indexed (and why: outside the served folders, no source glob reads it, ignored, unreadable with its problem), no candidate (which question terms it lacks), below the floor (its score and why[]), ranked k-th past the limit (the passages above it and the terms that put them there), or held back by the per-document rule; each with the fix.',
    'Deterministic: the same ranking workspace_context runs, read deeper.',
  ].join(' '),
  input,
  output,
  run(services, args, context) {
    return logged(
      services,
      context,
      'explain_result',
      { question: args.question, task: args.task, expected: args.expected, limit: args.limit },
      () => explain(services, args, context),
      (out) => ({ resultIds: [], empty: out.standing !== 'returned' }),
    );
  },
  unreadable: (args, notice) => ({
    question: args.question ?? args.task ?? '',
    expected: args.expected,
    standing: 'not-indexed',
    reason: 'scope-unreadable',
    rank: null,
    limit: args.limit ?? CONTEXT_DEFAULT_LIMIT,
    summary: notice,
    fix: 'Try again when the index store can be read.',
    missingTerms: [],
    questionTerms: [],
    above: [],
    contractVersion: CONTRACT_VERSION,
    indexedAt: null,
  }),
  renderText: renderExplanation,
};

/** Explains `args.expected` for `args.question` (the tool's run, and `wsctx why-not` and `wsctx check`). */
export async function explain(
  services: Services,
  args: Args,
  context: ToolCallContext = { sessionId: 'explain' },
): Promise<ExplainOutput> {
  const { engine } = services;
  const globs = engine.sourceGlobs;
  if (!engine.holdsWholeIndex || !globs)
    throw new ToolInputError(
      'explain_result reads the whole index in memory, and a store answers each question from its candidates only: run wsctx why-not on the workspace itself (without --store).',
    );
  if ((args.question === undefined) === (args.task === undefined))
    throw new ToolInputError(
      'question, task: give one: the question asked of workspace_context, or the task given to get_context',
    );
  const asked = (args.question ?? args.task ?? '').trim();
  if (!asked)
    throw new ToolInputError(
      `${args.question !== undefined ? 'question' : 'task'}: give the ${args.question !== undefined ? 'question' : 'task'} that was asked, e.g. "how do I roll back billing-worker?"`,
    );
  if (
    args.question !== undefined &&
    (args.max_tokens !== undefined || args.pack !== undefined || args.tags !== undefined || args.folder !== undefined)
  )
    throw new ToolInputError(
      "max_tokens, pack, tags, folder: these are get_context's; give them with task, not question",
    );
  if (!args.expected.trim())
    throw new ToolInputError(
      'expected: name the page you expected: a path (docs/rollback.md), an id, or an entity ref',
    );
  const limit = args.limit ?? CONTEXT_DEFAULT_LIMIT;
  const sourceKinds = args.sourceKinds ? new Set<SourceKind>(args.sourceKinds) : undefined;
  const targets = args.workspace ? [args.workspace] : engine.folders.map((f) => f.name);
  const queryVector = await engine.embedQuery(asked);
  const folders: FolderRanking[] = [];
  let whole: IndexState | undefined;
  for (const name of targets) {
    const found = await stateForQuery(engine, name);
    if (found.kind === 'cold')
      throw new ToolInputError('Nothing is indexed yet; indexing has started. Ask again in a moment.');
    whole = found.state;
    const state = found.state.folders.length > 1 ? folderScopedState(found.state, found.workspace.name) : found.state;
    const namedFolder = targets.length > 1 ? folderNamedBy(asked, found.workspace.name) : undefined;
    folders.push({
      state,
      meaning: engine.meaningSource(state, queryVector),
      ...(namedFolder !== undefined ? { namedFolder } : {}),
    });
  }
  const state = whole!;
  const today = dayOf(services.now());
  const base = {
    question: asked,
    ...(args.task !== undefined ? { task: true } : {}),
    expected: args.expected,
    limit,
    contractVersion: CONTRACT_VERSION,
    indexedAt: state.indexedAt,
  };
  const target = resolveTarget(state, args.expected, today);
  if (!target) {
    const absent = explainAbsent(state, engine.folders, compileSourceGlobs(globs), args.expected);
    return {
      ...base,
      standing: 'not-indexed',
      reason: absent.reason,
      rank: null,
      summary: absent.summary,
      fix: absent.fix,
      missingTerms: [],
      questionTerms: [],
      above: [],
    };
  }
  const filtered = filteredOut(state, target, sourceKinds, args.workspace);
  if (filtered)
    return {
      ...base,
      target: { kind: target.kind, label: target.label },
      standing: 'not-indexed',
      reason: 'filtered-out',
      rank: null,
      summary: filtered.summary,
      fix: filtered.fix,
      missingTerms: [],
      questionTerms: [],
      above: [],
    };
  if (args.task !== undefined) {
    const t = await explainTask(
      services,
      { task: asked, max_tokens: args.max_tokens, pack: args.pack, tags: args.tags, folder: args.folder },
      target,
      folders,
      context,
    );
    const ranked = t.ranking ? render(t.ranking, target) : undefined;
    return {
      ...base,
      ...(ranked ?? { missingTerms: [], questionTerms: [], above: [] }),
      target: { kind: target.kind, label: target.label },
      standing: t.standing,
      ...(t.reason ? { reason: t.reason } : {}),
      rank: ranked?.rank ?? null,
      summary: t.summary,
      fix: t.fix,
    };
  }
  // Several folders asked at once weigh the question over all of them, as workspace_context does.
  const statistics = targets.length > 1 ? await questionStatisticsOver(engine, asked, targets) : undefined;
  const explained = explainRanking(
    folders,
    { question: asked, limit, now: services.now().getTime(), sourceKinds, ...(statistics ? { statistics } : {}) },
    targetPredicate(target),
    targetDocs(target),
  );
  return { ...base, ...render(explained, target) };
}

/** The question's statistics over the served folders named `targets` (workspace_context's merge). */
async function questionStatisticsOver(
  engine: WorkspaceIndex,
  question: string,
  targets: readonly string[],
): Promise<QuestionStatistics | undefined> {
  const terms = questionIndexTerms(question);
  const parts: QuestionStatistics[] = [];
  for (const name of targets) {
    const folder = engine.findFolder(name);
    const part = folder ? await engine.questionStatistics(folder, terms) : undefined;
    if (part) parts.push(part);
  }
  return parts.length > 1 ? summedStatistics(parts) : undefined;
}

/** A target the question's own filters (sourceKinds, workspace) leave out. */
function filteredOut(
  state: IndexState,
  target: ExpectedTarget,
  sourceKinds: ReadonlySet<SourceKind> | undefined,
  workspace: string | undefined,
): { summary: string; fix: string } | null {
  const docs = [...target.docIds].map((id) => state.docs.get(id)).filter((d) => d !== undefined);
  if (docs.length === 0)
    return {
      summary: `${target.label} is in the catalog but has no document to rank (no docs, overview or section attached).`,
      fix: 'Attach docs to it (backstage.io/techdocs-ref) or give its repository an overview.md.',
    };
  if (sourceKinds && docs.every((d) => !sourceKinds.has(d.sourceKind))) {
    return {
      summary: `${target.label} is a ${docs[0].sourceKind} page and the question asks only for ${[...sourceKinds].join(', ')}.`,
      fix: `Ask without sourceKinds, or include ${docs[0].sourceKind}.`,
    };
  }
  if (
    workspace &&
    docs.every(
      (d) => d.folder !== workspace && !state.folders.some((f) => f.name === d.folder && f.absPath === workspace),
    )
  ) {
    return {
      summary: `${target.label} is in the served folder ${docs[0].folder}, and the question asks ${workspace} only.`,
      fix: `Ask ${docs[0].folder} (or leave workspace out to ask every served folder).`,
    };
  }
  return null;
}

function passageRefOf(p: RankedPassage, rank: number | null) {
  return {
    rank,
    id: shortId(p.entry.section.id),
    title: p.entry.doc.title,
    path: p.entry.doc.path,
    headingPath: p.entry.section.headingPath,
    startLine: p.entry.section.startLine,
    score: p.score,
  };
}

function render(
  e: RankingExplanation,
  target: ExpectedTarget,
): Omit<ExplainOutput, 'question' | 'expected' | 'limit' | 'contractVersion' | 'indexedAt'> {
  const hidden = target.hidden
    ? `${target.label} is a library ${target.hidden === 'draft' ? 'draft (status: draft)' : 'page past its expires date'}: workspace_context ranks it, but get_context and the library tools never serve it.`
    : undefined;
  return {
    target: { kind: target.kind, label: target.label },
    standing: e.standing,
    rank: e.rank,
    ...(e.limitNeeded !== undefined ? { limitNeeded: e.limitNeeded } : {}),
    summary: e.summary,
    fix: e.fix,
    ...(e.best
      ? {
          best: {
            ...passageRefOf(e.best, e.bestRank !== null && e.bestRank <= e.limit ? e.bestRank : null),
            match: e.best.match,
            tokens: e.bestTokens,
            why: e.best.why.map(({ signal, weight, raw, contribution, detail }) => ({
              signal,
              weight,
              raw,
              contribution,
              detail,
            })),
          },
        }
      : {}),
    ...(e.top ? { top: passageRefOf(e.top, e.standing === 'returned' ? e.rank : null) } : {}),
    ...(e.buried ? { buried: { tokens: e.buried.tokens, weakTerms: e.buried.weakTerms } } : {}),
    missingTerms: e.missingTerms,
    ...(e.weakTerms.length ? { weakTerms: e.weakTerms } : {}),
    questionTerms: e.questionTerms,
    above: e.above.map((a) => ({
      ...passageRefOf(a.passage, a.rank),
      termsTheTargetLacks: a.termsTheTargetLacks,
      termsHeldMoreStrongly: a.termsHeldMoreStrongly,
      bonusesTheTargetLacks: a.bonusesTheTargetLacks,
    })),
    ...(hidden ? { libraryStatus: hidden } : {}),
  };
}

/** The fix of a page the answer shows by the section that answers. */
export const NOTHING_TO_FIX = 'Nothing to fix.';

const STANDING_TITLES: Record<string, string> = {
  returned: 'returned',
  'held-back': 'held back by the per-document rule',
  'ranked-below-limit': 'ranked past the limit',
  'below-floor': 'below the floor',
  'no-candidate': 'not a candidate',
  'not-indexed': 'not indexed',
  'not-served': 'not served by get_context',
  'did-not-fit': 'did not fit',
  'dropped-by-focus': 'dropped by focus',
  'cut-by-budget': 'cut by the budget',
  'not-a-candidate': "not reached by get_context's search",
};

export interface RenderOptions {
  /** Marks a span a wrapping host must not break (the command line's keepTogether); none by default. */
  keep?: (span: string) => string;
}

/** The explanation as text: the standing, the summary, the fix, the page's why[] and the passages above it. */
export function renderExplanation(out: ExplainOutput, options: RenderOptions = {}): string {
  const keep = options.keep ?? ((span: string) => span);
  const headings = (p: { headingPath: string[]; title: string }) => keep(p.headingPath.join(' > ') || p.title);
  const lines: string[] = [];
  const title = STANDING_TITLES[out.standing] ?? out.standing;
  const asked = out.task ? `the task "${out.question}"` : `"${out.question}" (limit ${out.limit})`;
  lines.push(
    `${out.target?.label ?? out.expected}: ${title}${out.reason ? ` (${out.reason})` : ''}${out.rank !== null ? `, rank ${out.rank}` : ''} for ${asked}`,
  );
  lines.push(`  ${out.summary}`);
  lines.push(`  Fix: ${out.fix}`);
  if (out.libraryStatus) lines.push(`  Note: ${out.libraryStatus}`);
  // A page returned by the section that answers needs nothing more; otherwise the section that
  // answers, with its why[], and what ranked above.
  const settled = out.standing === 'returned' && out.fix === NOTHING_TO_FIX;
  if (out.best && !settled) {
    lines.push(
      `  Its best section for the question: ${headings(out.best)} (${out.best.path}:${out.best.startLine}, ${out.best.tokens} tokens) score ${out.best.score.toFixed(3)}`,
    );
    for (const w of out.best.why) lines.push(`    ${w.signal} ${w.contribution.toFixed(3)}: ${w.detail}`);
    if (out.top)
      lines.push(
        `  It ranks by another section: ${headings(out.top)} (${out.top.path}:${out.top.startLine}) score ${out.top.score.toFixed(3)}`,
      );
  }
  if (out.above.length && !settled) {
    lines.push('  Above it:');
    for (const a of out.above) {
      const why = [
        a.termsTheTargetLacks.length ? `holds ${a.termsTheTargetLacks.join(', ')}` : '',
        a.termsHeldMoreStrongly.length ? `stronger: ${a.termsHeldMoreStrongly.join(', ')}` : '',
        a.bonusesTheTargetLacks.length ? a.bonusesTheTargetLacks.join(', ') : '',
      ]
        .filter(Boolean)
        .join('; ');
      lines.push(
        `    ${a.rank}. ${a.score.toFixed(3)} ${a.path}:${a.startLine} ${headings(a)}${why ? ` (${why})` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
