/**
 * `workspace_context`: ranked passages for a plain question, each with its provenance and the
 * `why[]` that produced its score (docs/ARCHITECTURE.md, workspace_context's contract), plus the one-hop neighbourhood of every entity the
 * passages cite.
 */
import { z } from 'zod';
import { boundedList, boundedString, INPUT_LIMITS, oneOf, wholeNumber } from './inputLimits';
import {
  shortId,
  type IndexState,
  type WorkspaceIndex,
  type WorkspaceFolder,
  SOURCE_KINDS,
  type SourceKind,
  CONTRACT_VERSION,
  DOCUMENT_CAP,
  comparePassages,
  rankWorkspaceContext,
  type RankedPassage,
  type RankResult,
  folderScopedState,
  questionIndexTerms,
  folderNamedBy,
  statisticsOf,
  summedStatistics,
  type QuestionStatistics,
  fromWorkspacePath,
  isExpired,
} from '../engine';
import { pathToFileURL } from 'node:url';
import { stateForQuery, type DegradedFlag, type StateForQuery } from './queryState';
import { logged } from './callLog';
import { ToolInputError } from './toolError';
import type { Services } from '../services/services';
import { libraryView } from '../library/view/libraryView';
import { dayOf } from '../library/view/readiness';
import { librarySoundness, type LibrarySoundness } from '../library/view/soundness';
import { conflictOutput, conflictSchema } from './conflictOutput';
import { neighbourhood } from './neighbourhood';

export { NEIGHBOURHOOD_MAX_EDGES, NEIGHBOURHOOD_MAX_ENTITIES } from './neighbourhood';
import type { ToolDefinition } from './toolDefinition';

export const CONTEXT_DEFAULT_LIMIT = 10;
export const CONTEXT_MAX_LIMIT = 50;
/** Serialized size the passages of one answer may take (JSON bytes); the rest is reported as capped. */
export const CONTEXT_BYTE_BUDGET = 96 * 1024;
/**
 * Entity refs a passage lists: a root README of a catalog repository may belong to hundreds of
 * entities, and one passage must not carry them all (thousands of tokens of refs around five
 * lines of text). The rest are counted in `entityRefsTotal`; the entities the question names come
 * first.
 */
export const PASSAGE_MAX_ENTITY_REFS = 5;

const input = {
  workspace: boundedString(INPUT_LIMITS.workspace)
    .optional()
    .describe(
      `The served workspace folder to answer from: its name or path (at most ${INPUT_LIMITS.workspace} characters). Leave it out to ask every served folder at once.`,
    ),
  question: boundedString(INPUT_LIMITS.text).describe(
    `A plain-language question, e.g. "how do we roll back billing-worker?" (at most ${INPUT_LIMITS.text} characters).`,
  ),
  limit: wholeNumber(1, CONTEXT_MAX_LIMIT, CONTEXT_DEFAULT_LIMIT).describe(
    `How many passages, 1 to ${CONTEXT_MAX_LIMIT} (default ${CONTEXT_DEFAULT_LIMIT}).`,
  ),
  asOf: boundedString(INPUT_LIMITS.asOf)
    .optional()
    .describe(
      `ISO date-time or commit: answer from the workspace as it was then (at most ${INPUT_LIMITS.asOf} characters).`,
    ),
  sourceKinds: boundedList(oneOf(SOURCE_KINDS, 'a source kind', true))
    .optional()
    .describe(`Only these kinds of source: ${SOURCE_KINDS.join(', ')}.`),
};

const whyTerm = z.object({
  signal: z.string(),
  weight: z.number(),
  raw: z.number(),
  contribution: z.number(),
  detail: z.string(),
  terms: z
    .array(
      z.object({
        term: z.string(),
        weight: z.number(),
        share: z.number(),
        saturation: z.number(),
        fields: z.array(z.string()),
        matched: z
          .string()
          .optional()
          .describe('a key path found only by its trailing form (fields ["trailing"]): the form the passage holds'),
      }),
    )
    .optional()
    .describe('words and title: each question term; raw = the sum of share x saturation'),
});

const passage = z.object({
  id: z.string(),
  /** The served workspace folder the passage comes from. */
  folder: z.string(),
  documentId: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  text: z.string(),
  entityRefs: z.array(z.string()),
  entityRefsTotal: z
    .number()
    .optional()
    .describe(
      `how many entities the passage belongs to, when more than entityRefs lists (at most ${PASSAGE_MAX_ENTITY_REFS}, those the question names first)`,
    ),
  sourceKind: z.string(),
  sourceRef: z.object({ path: z.string(), startLine: z.number(), endLine: z.number() }),
  sourceCommit: z.string().nullable(),
  dirty: z.boolean(),
  sourceUri: z.string(),
  score: z.number(),
  why: z.array(whyTerm),
  /** A library page past its `expires` date (YYYY-MM-DD): the library tools no longer serve it. */
  expired: z.string().optional(),
  /** What this passage states that another library page states differently (unsettled flags). */
  conflicts: z.array(conflictSchema).optional(),
});

const neighbour = z.object({
  entity: z.string(),
  kind: z.string(),
  title: z.string().optional(),
  edges: z.array(z.object({ source: z.string(), type: z.string(), target: z.string(), resolved: z.boolean() })),
  moreEdges: z.number(),
});

const output = {
  /** The folder asked, or every folder answered from, joined by ', '. */
  workspace: z.string(),
  /** The served folders the passages were ranked in (several: their terms weighed over all of them, then merged by score). */
  folders: z.array(z.string()),
  question: z.string(),
  contractVersion: z.string(),
  passages: z.array(passage),
  neighbourhood: z.array(neighbour),
  queryTerms: z.array(z.object({ term: z.string(), surface: z.string(), weight: z.number() })),
  namedEntities: z.array(z.string()),
  candidates: z.number(),
  candidatesCapped: z
    .object({ droppedTerms: z.array(z.string()), droppedByBudget: z.number(), byteBudget: z.number() })
    .optional(),
  /**
   * Passages the per-document cap (at most DOCUMENT_CAP of one document) kept out of the answer,
   * by document, best first: each scored above the last passage shown. Absent when it kept none.
   */
  heldBack: z
    .object({
      perDocument: z.number(),
      documents: z.array(
        z.object({
          documentId: z.string(),
          title: z.string(),
          path: z.string(),
          passages: z.number(),
          bestScore: z.number(),
        }),
      ),
    })
    .optional(),
  notice: z.string().optional(),
  /** The embedding model and how many sections still rank on words alone; null when embeddings are off. */
  meaning: z
    .object({ model: z.string(), sectionsWithVectors: z.number(), sectionsWithoutVectors: z.number() })
    .nullable(),
  degraded: z.array(z.string()),
  indexedAt: z.string().nullable(),
};

export type ContextOutput = z.infer<z.ZodObject<typeof output>>;
export type ContextPassage = z.infer<typeof passage>;

export const workspaceContextTool: ToolDefinition<typeof input, typeof output> = {
  name: 'workspace_context',
  title: 'Ask the workspace',
  description: [
    "Ask a plain-language question about this workspace's services, APIs, teams, runbooks, repositories and plans when you do not yet know which entity or document holds the answer.",
    'Returns ranked passages from catalog entities, their docs (TechDocs), repository overviews, epic specs and the rules library; each carries its source path and lines, commit, the entities it belongs to, a score and why[], the published formula term by term (words 0.60 and meaning 0.40, then title, named-entity, recency and run-health bonuses).',
    'Also returns the one-hop graph neighbourhood of every entity cited. Name the service or team in the question when you know it. Follow up with workspace_expand on an entity ref to walk its dependencies.',
  ].join(' '),
  input,
  output,
  run(services: Services, args, context) {
    return logged(
      services,
      context,
      'workspace_context',
      { question: args.question, limit: args.limit, asOf: args.asOf, sourceKinds: args.sourceKinds },
      () => answerQuestion(services, args),
      (out) => ({ resultIds: out.passages.map((p) => p.id), empty: out.passages.length === 0 }),
    );
  },
  unreadable: (args, notice) => ({
    workspace: args.workspace ?? '',
    folders: args.workspace ? [args.workspace] : [],
    ...emptyAnswer(args.question, null),
    notice,
    degraded: ['scope-unreadable'],
    indexedAt: null,
  }),
  renderText: renderContext,
};

/** An answer without passages. */
function emptyAnswer(question: string, meaning: ContextOutput['meaning']) {
  return {
    question,
    contractVersion: CONTRACT_VERSION,
    passages: [],
    neighbourhood: [],
    queryTerms: [],
    namedEntities: [],
    candidates: 0,
    meaning,
  };
}

type Args = z.infer<z.ZodObject<typeof input>>;

/** One served folder's ranking of the question. */
interface FolderAnswer {
  workspace: WorkspaceFolder;
  state: IndexState;
  ranked: RankResult;
}

async function answerQuestion(services: Services, args: Args): Promise<ContextOutput> {
  const { engine } = services;
  const limit = args.limit ?? CONTEXT_DEFAULT_LIMIT;
  if (!args.question.trim()) throw new ToolInputError('question: ask something, e.g. "who owns billing-worker?"');
  const sourceKinds = args.sourceKinds ? new Set<SourceKind>(args.sourceKinds) : undefined;
  const queryVector = await engine.embedQuery(args.question);
  const now = services.now().getTime();
  const targets = await foldersToAsk(engine, args.workspace);
  const named = targets.map((f) => f.name).join(', ');

  // Each folder is ranked on its own index (ranking/folderScope.ts; a store's namespace is one
  // already), so a folder asked by name scores as it does when served alone. Asked of several at
  // once, every folder weighs the question's terms by their counts over all of them
  // (ranking/questionStatistics.ts), so that the folders' scores are on one scale; the rankings
  // merge by score.
  const terms = targets.length > 1 ? questionIndexTerms(args.question) : [];
  let statistics =
    targets.length > 1 && args.asOf === undefined ? await summedStatisticsOf(engine, targets, terms) : undefined;
  const degraded = new Set<DegradedFlag>();
  let cold: StateForQuery | undefined;
  const ready: { workspace: WorkspaceFolder; state: IndexState; namedFolder?: string }[] = [];
  for (const target of targets) {
    // A question naming one of several folders prefers it (its passages take the named-entity bonus).
    const namedFolder = targets.length > 1 ? folderNamedBy(args.question, target.name) : undefined;
    const naming = namedFolder !== undefined ? { namedFolder } : {};
    // A store reads only the sections that can be among the passages ranked this way.
    const found = await stateForQuery(engine, target.name, args.asOf, args.question, queryVector, {
      limit,
      now,
      sourceKinds,
      ...(statistics ? { statistics } : {}),
      ...naming,
      ...(services.rankingTuning ? { tuning: services.rankingTuning } : {}),
    });
    for (const flag of found.degraded) degraded.add(flag);
    if (found.kind === 'cold') {
      cold = found;
      continue;
    }
    const state = found.state.folders.length > 1 ? folderScopedState(found.state, found.workspace.name) : found.state;
    ready.push({ workspace: found.workspace, state, ...naming });
  }
  // The workspace as it was (`asOf`, in memory): the past states' own counts.
  if (targets.length > 1 && !statistics && ready.length > 1)
    statistics = summedStatistics(ready.map((r) => statisticsOf(r.state, terms)));
  const answers: FolderAnswer[] = [];
  for (const { workspace, state, namedFolder } of ready) {
    const ranked = rankWorkspaceContext(state, {
      ...(namedFolder !== undefined ? { namedFolder } : {}),
      question: args.question,
      limit,
      now,
      sourceKinds,
      meaning: engine.meaningSource(state, queryVector),
      ...(statistics ? { statistics } : {}),
      ...(services.rankingTuning ? { tuning: services.rankingTuning } : {}),
    });
    await engine.completeTexts(
      workspace,
      ranked.passages.map((p) => p.entry),
    );
    answers.push({ workspace, state, ranked });
  }
  const meaning = meaningSummary(
    engine,
    answers.map((a) => a.state),
  );
  if (answers.length === 0) {
    return {
      workspace: named,
      folders: targets.map((f) => f.name),
      ...emptyAnswer(args.question, meaning),
      notice: 'Nothing is indexed yet; indexing has started. Ask again in a moment.',
      meaning,
      degraded: [...(cold?.degraded ?? ['index-cold'])],
      indexedAt: null,
    };
  }

  const today = dayOf(services.now());
  const passages: ContextPassage[] = [];
  let bytes = 0;
  let droppedByBudget = 0;
  for (const { answer, passage } of mergeByScore(answers, limit)) {
    const soundness = passage.entry.doc.sourceKind === 'library' ? await soundnessOf(services, answer) : undefined;
    const named = new Set(answer.ranked.named.map((n) => n.key));
    const rendered = toPassage(answer.state, passage, { today, soundness }, named);
    const size = JSON.stringify(rendered).length;
    if (bytes + size > CONTEXT_BYTE_BUDGET && passages.length > 0) {
      droppedByBudget++;
      continue;
    }
    bytes += size;
    passages.push(rendered);
  }
  const first = answers.find((a) => a.workspace.name === passages[0]?.folder) ?? answers[0];
  const droppedTerms = first.ranked.droppedTerms;
  const capped = droppedTerms.length > 0 || droppedByBudget > 0;
  if (capped) degraded.add('candidates-capped');
  const state = first.state;
  // A past state without documents (asOf before the history) is the workspace as it was, not an empty index.
  const empties =
    passages.length === 0
      ? emptyNotice(
          answers.map((a) => a.state),
          args.asOf === undefined,
        )
      : undefined;
  if (empties?.flag) degraded.add(empties.flag);
  return {
    workspace: named,
    folders: answers.map((a) => a.workspace.name),
    question: args.question,
    contractVersion: CONTRACT_VERSION,
    passages,
    neighbourhood: neighbourhood(
      answers.map((a) => a.state),
      passages,
    ),
    // Term weights are each folder's own (a passage's why[] has its folder's); these are the first passage's folder's.
    queryTerms: first.ranked.terms,
    namedEntities: [...new Set(answers.flatMap((a) => a.ranked.named.map((n) => n.ref)))],
    candidates: answers.reduce((sum, a) => sum + a.ranked.candidates, 0),
    ...(capped ? { candidatesCapped: { droppedTerms, droppedByBudget, byteBudget: CONTEXT_BYTE_BUDGET } } : {}),
    ...heldBackOutput(answers.flatMap((a) => a.ranked.heldBack)),
    ...(empties ? { notice: empties.notice } : {}),
    meaning,
    degraded: [...degraded],
    indexedAt: state.indexedAt,
  };
}

/**
 * The served folders a question asks: the one `workspace` names, or every served folder when it
 * is left out. A name that is no served folder is the caller's mistake, refused with the names it
 * could have used (an empty answer would read as "nothing is written about it").
 */
async function foldersToAsk(engine: WorkspaceIndex, workspace: string | undefined): Promise<WorkspaceFolder[]> {
  // A namespace written into a store since the server started is served without a restart.
  if (workspace === undefined || !engine.findFolder(workspace)) await engine.refreshFolders(workspace);
  if (workspace === undefined || workspace.trim() === '') return [...engine.folders];
  const folder = engine.findFolder(workspace);
  if (!folder) {
    const served = engine.folders.map((f) => `'${f.name}'`).join(', ');
    throw new ToolInputError(
      `workspace: this server does not serve a workspace named '${workspace}'; it serves ${served} (give one of these names or its path, or leave workspace out to ask them all).`,
    );
  }
  return [folder];
}

/**
 * The question's statistics over every folder of `targets` (ranking/questionStatistics.ts);
 * undefined when fewer than two of them are ready (a cold folder has none to give).
 */
async function summedStatisticsOf(
  engine: WorkspaceIndex,
  targets: readonly WorkspaceFolder[],
  terms: readonly string[],
): Promise<QuestionStatistics | undefined> {
  const parts: QuestionStatistics[] = [];
  for (const target of targets) {
    const part = await engine.questionStatistics(target, terms);
    if (part) parts.push(part);
  }
  return parts.length > 1 ? summedStatistics(parts) : undefined;
}

/**
 * The folders' passages in one order: the best head of any folder's list first, by the ranker's
 * own order (score, then its tie rules), each folder's list kept in the order its ranker gave.
 */
function mergeByScore(
  answers: readonly FolderAnswer[],
  limit: number,
): { answer: FolderAnswer; passage: RankedPassage }[] {
  const heads = answers.map(() => 0);
  const merged: { answer: FolderAnswer; passage: RankedPassage }[] = [];
  while (merged.length < limit) {
    let best = -1;
    for (let i = 0; i < answers.length; i++) {
      const candidate = answers[i].ranked.passages[heads[i]];
      if (!candidate) continue;
      if (best < 0 || comparePassages(candidate, answers[best].ranked.passages[heads[best]]) < 0) best = i;
    }
    if (best < 0) break;
    merged.push({ answer: answers[best], passage: answers[best].ranked.passages[heads[best]++] });
  }
  return merged;
}

/** The library's conflict flags in the folder a library passage came from (computed once per answer). */
async function soundnessOf(
  services: Services,
  answer: FolderAnswer & { soundness?: Promise<LibrarySoundness> },
): Promise<LibrarySoundness> {
  answer.soundness ??= (async () =>
    librarySoundness(
      libraryView(await services.engine.wholeLibraryState(answer.workspace, answer.state), dayOf(services.now())),
      services.conflictCheck ? [services.conflictCheck] : [],
    ))();
  return answer.soundness;
}

/**
 * Why nothing came back: an index that holds no document at all says so (`index-empty`, with
 * what to do), anything else is a question no passage answers well enough.
 */
function emptyNotice(states: readonly IndexState[], current: boolean): { notice: string; flag?: DegradedFlag } {
  if (current && states.every((s) => s.docs.size === 0)) {
    return {
      notice:
        'Nothing is indexed: the served folders hold no catalog file, documentation, README or library page that the source globs read (wsctx doctor says what each folder holds and how to have it read).',
      flag: 'index-empty',
    };
  }
  return { notice: 'No passage scored above the floor; try other words or name the service.' };
}

function heldBackOutput(held: RankResult['heldBack']): Pick<ContextOutput, 'heldBack'> {
  if (held.length === 0) return {};
  const documents = held.map((h) => ({
    documentId: shortId(h.doc.id),
    title: h.doc.title,
    path: h.doc.path,
    passages: h.passages,
    bestScore: h.bestScore,
  }));
  return { heldBack: { perDocument: DOCUMENT_CAP, documents } };
}

function meaningSummary(engine: WorkspaceIndex, states: readonly IndexState[]): ContextOutput['meaning'] {
  const sections = states.reduce((sum, s) => sum + (s.scope ? s.scope.ordinals.length : s.counts.sections), 0);
  const coverage = engine.meaningCoverage(states, sections);
  if (!coverage) return null;
  return {
    model: coverage.model,
    sectionsWithVectors: coverage.sectionsWithVectors,
    sectionsWithoutVectors: Math.max(0, sections - coverage.sectionsWithVectors),
  };
}

/** A ranked passage as output, with its expiry and its conflicts when it is a library page's. */
function toPassage(
  state: IndexState,
  ranked: RankedPassage,
  library: { today: string; soundness?: LibrarySoundness },
  named: ReadonlySet<string>,
): ContextPassage {
  const { section, doc } = ranked.entry;
  const conflicts = library.soundness?.sectionConflicts(section.id) ?? [];
  const info = state.commits.get(doc.path);
  const abs = fromWorkspacePath(state.folders, doc.path)?.absPath;
  const uri = abs
    ? `${pathToFileURL(abs).href}#L${section.startLine}-L${section.endLine}`
    : `${doc.path}#L${section.startLine}-L${section.endLine}`;
  return {
    id: shortId(section.id),
    folder: doc.folder,
    documentId: shortId(doc.id),
    title: doc.title,
    headingPath: section.headingPath,
    text: section.text,
    ...cappedRefs(section.entityRefs ?? doc.entityRefs, named, (key) => state.graph.get(key)?.ref ?? key),
    sourceKind: doc.sourceKind,
    sourceRef: { path: doc.path, startLine: section.startLine, endLine: section.endLine },
    sourceCommit: info?.commit ?? null,
    dirty: info?.dirty ?? false,
    sourceUri: uri,
    score: ranked.score,
    why: ranked.why,
    ...(doc.library && isExpired(doc.library, library.today) ? { expired: doc.library.expires! } : {}),
    ...(conflicts.length > 0 ? { conflicts: conflicts.map((f) => conflictOutput(f, (id) => shortId(id))) } : {}),
  };
}

/**
 * At most {@link PASSAGE_MAX_ENTITY_REFS} of a passage's entity keys as display refs, those the
 * question names first, and the total when some were left out.
 */
function cappedRefs(
  keys: readonly string[],
  named: ReadonlySet<string>,
  refOf: (key: string) => string,
): { entityRefs: string[]; entityRefsTotal?: number } {
  if (keys.length <= PASSAGE_MAX_ENTITY_REFS) return { entityRefs: keys.map(refOf) };
  const first = keys.filter((key) => named.has(key));
  const rest = keys.filter((key) => !named.has(key));
  const shown = [...first, ...rest].slice(0, PASSAGE_MAX_ENTITY_REFS);
  return { entityRefs: shown.map(refOf), entityRefsTotal: keys.length };
}

/**
 * The markers a passage carries, one line each: expired (the page is past its `expires` date) and
 * every unsettled conflict with another page, with both wordings. Every host shows these lines
 * (MCP text, `wsctx ask`, the editor's results documents and hovers).
 */
export function passageMarkers(p: Pick<ContextPassage, 'expired' | 'conflicts'>): string[] {
  const lines: string[] = [];
  if (p.expired)
    lines.push(
      `EXPIRED on ${p.expired}: this library page is past its expires date and the library tools no longer serve it; do not rely on it.`,
    );
  for (const c of p.conflicts ?? [])
    lines.push(
      `CONFLICT: "${c.with.title}" [${c.with.id}] › ${c.with.heading} (${c.with.path}:${c.with.line}) says "${c.there}", where this says "${c.here}" (${c.what}).`,
    );
  return lines;
}

/** ` (+606 more)` after a passage's capped entity refs, or nothing. */
export function moreRefs(p: Pick<ContextPassage, 'entityRefs' | 'entityRefsTotal'>): string {
  const more = (p.entityRefsTotal ?? p.entityRefs.length) - p.entityRefs.length;
  return more > 0 ? ` (+${more} more)` : '';
}

export function renderContext(out: ContextOutput): string {
  const lines: string[] = [];
  if (out.notice) lines.push(out.notice);
  out.passages.forEach((p, i) => {
    lines.push(`## ${i + 1}. ${[p.title, ...p.headingPath.filter((h) => h !== p.title)].join(' › ')}  [${p.id}]`);
    const commit = p.sourceCommit ? ` @ ${p.sourceCommit.slice(0, 12)}${p.dirty ? ' (uncommitted changes)' : ''}` : '';
    lines.push(
      `score ${p.score.toFixed(3)} · ${p.sourceKind} · ${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}${commit}`,
    );
    if (p.entityRefs.length) lines.push(`entities: ${p.entityRefs.join(', ')}${moreRefs(p)}`);
    for (const note of passageMarkers(p)) lines.push(note);
    lines.push(
      `why: ${p.why.map((w) => `${w.signal} ${w.weight.toFixed(2)}×${w.raw.toFixed(2)}=${w.contribution.toFixed(3)} (${w.detail})`).join(' + ')}`,
    );
    lines.push('', p.text.trim(), '');
  });
  if (out.neighbourhood.length) {
    lines.push('## Neighbourhood');
    for (const n of out.neighbourhood) {
      const more = n.moreEdges ? ` (+${n.moreEdges} more: use workspace_expand)` : '';
      lines.push(
        `- ${n.entity}${n.title ? ` (${n.title})` : ''}: ${n.edges.map((e) => `${e.source} ${e.type} ${e.target}${e.resolved ? '' : ' [unresolved]'}`).join('; ')}${more}`,
      );
    }
  }
  if (out.heldBack) {
    const held = out.heldBack.documents.map(
      (d) => `${d.passages} of "${d.title}" [${d.documentId}] (best ${d.bestScore.toFixed(3)})`,
    );
    lines.push(
      `held back by the cap of ${out.heldBack.perDocument} passages per document: ${held.join('; ')}: open the document to read them, or ask about it by name.`,
    );
  }
  if (out.candidatesCapped) {
    const c = out.candidatesCapped;
    const parts = [
      c.droppedTerms.length ? `terms not used: ${c.droppedTerms.join(', ')}` : '',
      c.droppedByBudget ? `${c.droppedByBudget} passages past the ${c.byteBudget}-byte budget` : '',
    ].filter(Boolean);
    lines.push(`candidates-capped: ${parts.join('; ')}. Narrow the question.`);
  }
  const meaning = out.meaning
    ? ` · meaning ${out.meaning.model}${out.meaning.sectionsWithoutVectors ? ` (${out.meaning.sectionsWithoutVectors} sections still on words alone)` : ''}`
    : ' · embeddings off';
  lines.push(
    `contractVersion ${out.contractVersion} · indexedAt ${out.indexedAt ?? 'never'}${meaning}${out.degraded.length ? ` · degraded: ${out.degraded.join(', ')}` : ''}`,
  );
  return lines.join('\n');
}
