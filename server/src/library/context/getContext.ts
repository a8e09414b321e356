/**
 * `get_context` on the index (docs/ARCHITECTURE.md, get_context's contract, "How get_context chooses"): one task in, one bundle of
 * rules and reference material out, sized to the budget. Each step is its own module:
 *
 *   scope -> plan -> rules -> pinned -> packs -> Good-for (and the pages of the subjects the
 *   task names, taskSubjects.ts) -> section search -> widening
 *         -> the judge (one call: packs, sections, table rows) -> focus -> budget -> render
 *
 * `buildContext` reads as those steps: the task analysed once (`analyseTask`), then `prepare`
 * (setup.ts: budget, scope, rules, pinned pages, what may be searched), the plan, `matchByPurpose` (packs,
 * Good-for, folders, stacks), `searchAndWiden`, `judgeAndFocus` and `assemble` (budget, render).
 *
 * Every model-backed step is optional: with no provider (or a slow or failing one) the
 * heuristics answer and the bundle is still complete.
 */
import { type Doc, InputError, estimateTokens, normalizeName } from '../../engine';
import type { LibrarySection, LibraryView } from '../view/libraryView';
import type { MeaningScorer } from '../view/ranking';
import { librarySoundness } from '../view/soundness';
import { isReadWhole } from '../models/derivedText';
import { runJudge, type JudgeQuestion } from '../models/judge';
import { fillBudget, type ExcerptCandidate, type WholeCandidate } from './budget';
import { FOLDER_COHERENCE_MIN, GOOD_FOR_MATCH, GOOD_FOR_SECTIONS, WHOLE_PAGE_SHARE } from './constants';
import type { ContextIndex } from './contextIndex';
import { folderCoherence, folderOfPath } from './coherence';
import {
  bestScores,
  decideFocus,
  focusQuestions,
  heuristicDifferent,
  heuristicUse,
  isRelated,
  otherSubject,
  type FocusContext,
} from './focus';
import { notForWork } from './deliverable';
import { taskSubjects, type TaskSubjects } from './taskSubjects';
import { matchFolders, scorePages, selectGoodFor, type GoodForMatch } from './goodFor';
import { entityCandidates, type EntityExcerpt } from './entityDocs';
import type { ContextHooks } from './hooks';
import { nearestPages, pageNearness } from './nothingFound';
import { decidePacks, packCandidates, packQuestions } from './packs';
import { makePlan } from './plan';
import { isPrivateNote } from './privateNotes';
import { renderMarkdown, type IdOf } from './render';
import { bundleOpening } from './rules';
import { isTeamInstructions } from './scope';
import { searchSections } from './sectionSearch';
import type { BundleSection, Candidate, ContextBundle, ContextRequest, PageReason, ReachedBy } from './types';
import { widen } from './widening';
import { analyseTask, hasBody, prepare, type Setup, type TaskAnalysis } from './setup';
import { analyseRequestChange, changeOnlyBundle, changePart } from './change/changeStep';
import type { ChangeAnalysis } from './change/changeAnalysis';

export interface BuildContextInput {
  view: LibraryView;
  request: ContextRequest;
  hooks: ContextHooks;
  /** The services' section-meaning scorer (embeddings), when on. */
  meaning?: MeaningScorer;
  /** The name in "Instructions from the <organization> team". */
  organization: string;
  /** The user's own ready notes, when the connection is theirs. */
  privateDocs?: readonly Doc[];
  privateSections?: readonly LibrarySection[];
  /**
   * Passages of the entity docs, overviews and epics of the entities the task names (or that
   * rank), best first (entityDocs.ts). They come after every library excerpt, labelled with their
   * source kind, and never when the library found nothing for the task.
   */
  entityExcerpts?: readonly EntityExcerpt[];
}

export interface BuiltContext {
  bundle: ContextBundle;
  markdown: string;
  idOf: IdOf;
}

/** Pages matched by what they are for, packs, folders and the task's stacks (steps 4-5). */
interface PurposeMatches {
  packs: Awaited<ReturnType<typeof packCandidates>>;
  pageScores: GoodForMatch[];
  subjects: TaskSubjects;
  liftedPages: Set<string>;
  keptLifted: Set<string>;
}

/** The candidates after section search and widening (step 6), with what the focus step needs. */
interface Candidates {
  search: Awaited<ReturnType<typeof searchSections>>;
  candidates: Map<string, Candidate>;
  best: ReturnType<typeof bestScores>;
  goodFor: GoodForMatch[];
  stackUse: Doc[];
  focus: FocusContext;
  markRecipes: (applied: ReadonlySet<string>) => void;
}

/** The judge's decisions (step 7). */
interface Judged {
  run: Awaited<ReturnType<typeof runJudge>>;
  packDecisions: ReturnType<typeof decidePacks>;
  applied: PurposeMatches['packs'];
  recipePages: Set<string>;
  decisions: ReturnType<typeof decideFocus>;
  focusDropped: NonNullable<ContextBundle['focusDropped']>;
  candidateDocs: string[];
}

export async function buildContext(input: BuildContextInput): Promise<BuiltContext> {
  const { view, request, hooks } = input;
  const text = request.task.trim();
  if (text === '' && !request.change)
    throw new InputError(
      'task or changes: describe what you are about to do in plain words (task), or give the change (changes: changedPaths or diff)',
    );
  const task = analyseTask(text);
  const setup = prepare(input, task);
  // The change, when one is given: what it touches, before anything is searched.
  const change = request.change
    ? analyseRequestChange(view.state, setup.rules, view.docs, setup.scope, request.change)
    : undefined;
  if (text === '' && change) {
    const { ruleBlocks, fixed } = openingBlocks(input, setup, []);
    const { bundle, markdown } = changeOnlyBundle({
      ...setup,
      change,
      view,
      ruleBlocks,
      fixed,
      organization: input.organization,
    });
    return { bundle, markdown, idOf: setup.idOf };
  }
  // Step 1: the plan.
  const plan = await makePlan(task.text, setup.index, hooks.models, {
    timeoutMs: hooks.planTimeoutMs,
    signal: request.signal,
  });
  const purpose = await matchByPurpose(input, setup, task, plan);
  const found = await searchAndWiden(input, setup, task, plan, purpose);
  const judged = await judgeAndFocus(input, task, purpose, found);
  return assemble(input, setup, task, plan, found, judged, purpose, change);
}

/** Steps 4-5: packs, pages and folders by what they are for, and the pages of the stacks the task names. */
async function matchByPurpose(
  input: BuildContextInput,
  setup: Setup,
  task: TaskAnalysis,
  plan: Awaited<ReturnType<typeof makePlan>>,
): Promise<PurposeMatches> {
  const { hooks, request } = input;
  const { index, searchDocs } = setup;
  const notes = hooks.notes;
  const query = { task: task.text, facets: plan.searches };
  const packs = await packCandidates(index, query, { forced: request.pack, notes, meaning: hooks.textMeaning });
  const pageScores = await scorePages(index, searchDocs, query, { notes, meaning: hooks.textMeaning });
  // The pages of the subjects the task names, and the pages about other subjects or narrower ones.
  const subjects = taskSubjects({
    task: task.text,
    subjects: index.subjects,
    docs: searchDocs.filter((d) => !isPrivateNote(d)),
    df: (t) => index.view.state.lexical.df(t),
    complementary: (a, b) =>
      folderOfPath(a.path) === folderOfPath(b.path) &&
      folderCoherence(index, folderOfPath(a.path)).score >= FOLDER_COHERENCE_MIN,
  });
  const folders = await matchFolders(
    index,
    searchDocs.filter((d) => !isPrivateNote(d)),
    query,
    { notes, meaning: hooks.textMeaning },
  );
  const liftedPages = new Set(folders.flatMap((f) => f.pages.map((p) => p.id)));
  // Only a folder whose phrasings are its own keeps its pages past the closeness window: one whose
  // phrasings are its pages' titles (a flat folder of every stack) matches any task through one
  // page's title, which says nothing about its siblings.
  const keptLifted = new Set(folders.filter((f) => f.declared).flatMap((f) => f.pages.map((p) => p.id)));
  return { packs, pageScores, subjects, liftedPages, keptLifted };
}

/** Step 6: section search, the pages matched by what they are for, then widening one step from the pages that belong. */
async function searchAndWiden(
  input: BuildContextInput,
  setup: Setup,
  task: TaskAnalysis,
  plan: Awaited<ReturnType<typeof makePlan>>,
  purpose: PurposeMatches,
): Promise<Candidates> {
  const { view, hooks } = input;
  const { index, sections, tagsFound, searchable } = setup;
  const { packs, pageScores, subjects, liftedPages, keptLifted } = purpose;
  const notes = hooks.notes;
  const search = await searchSections({
    index,
    sections,
    queries: [task.text, ...plan.searches],
    names: plan.names,
    tags: tagsFound,
    liftedPages,
    meaning: input.meaning,
    notes,
  });
  const candidates = new Map<string, Candidate>();
  for (const hit of search.hits) {
    candidates.set(hit.entry.section.id, {
      entry: hit.entry,
      hit,
      similarity: hit.similarity,
      weight: hit.similarity,
      fused: hit.fused,
      reachedBy: 'search',
      // A name brings its section. A page read only whole comes on a name only when it is about
      // that name: an example row naming billing-worker does not send the postmortem template.
      named:
        hit.signals.names.length > 0 &&
        (!isReadWhole(hit.entry.doc, notes) || isAboutName(index, hit.entry.doc, hit.signals.names)),
      aboutName: hit.signals.names.length > 0 && isAboutName(index, hit.entry.doc, hit.signals.names),
    });
  }
  const best = bestScores(search.hits);
  // A page matched by what it is for comes only when something on it is related to the task at
  // all, unless the words of its own Good-for phrasings matched. Meaning saturates: "prepare for my
  // first on-call shift" reads close enough to "adding a caller of the payments gateway" to clear
  // the phrasing bar while no passage of the gateway guide is about on-call. Derived phrasings are
  // the page's title and summary, words its sections are searched for anyway: when none of them is
  // related, the title's words were a coincidence ("test" for a Rust MCP server task).
  const relatedPages = new Set([...candidates.values()].filter((c) => isRelated(c)).map((c) => c.entry.doc.id));
  const textAgrees = (g: GoodForMatch) =>
    (g.declared && g.match.words >= GOOD_FOR_MATCH.words) || relatedPages.has(g.doc.id);
  // A page about another subject than the task names, narrower than it, or of a stack it names but
  // off its topic, never comes in by what it is for.
  const goodFor = selectGoodFor(
    pageScores,
    (g) =>
      otherSubject(g.doc.id, subjects) !== undefined ||
      subjects.offTopic.has(g.doc.id) ||
      notForWork(g.doc, plan.deliverable) !== undefined ||
      !textAgrees(g),
  );
  // The task's own pages and the general page of each stack it names come like pages matched by
  // what they are for, even when a narrower page of the stack matches the task's other words better.
  const stackUse = subjects.forced.filter((doc) => !goodFor.some((g) => g.doc.id === doc.id));
  const sectionEntry = (doc: Doc, sectionId: string) =>
    view.sectionById.get(sectionId) ??
    input.privateSections?.find((s) => s.section.id === sectionId && s.doc.id === doc.id);
  for (const doc of [...goodFor.map((g) => g.doc), ...stackUse]) {
    if (isReadWhole(doc, notes)) continue;
    const ranked = doc.sections
      .filter(hasBody)
      .map((s) => ({ s, c: candidates.get(s.id) }))
      .sort((a, b) => (b.c?.fused ?? 0) - (a.c?.fused ?? 0) || doc.sections.indexOf(a.s) - doc.sections.indexOf(b.s))
      .slice(0, GOOD_FOR_SECTIONS);
    for (const { s, c } of ranked) {
      if (c) c.keepPastWindow = 'use';
      else {
        const entry = sectionEntry(doc, s.id);
        if (entry)
          candidates.set(s.id, {
            entry,
            similarity: 0,
            weight: 0,
            fused: 0,
            reachedBy: 'use',
            keepPastWindow: 'use',
            named: false,
          });
      }
    }
  }
  // Sections kept past the closeness window when related at all: an applied pack's When-relevant
  // pages (recipe), then pages of a folder the task matches (lift).
  const markRecipes = (applied: ReadonlySet<string>) => {
    for (const c of candidates.values()) {
      if (c.keepPastWindow === 'use') continue;
      if (applied.has(c.entry.doc.id) && isRelated(c)) c.keepPastWindow = 'recipe';
      else if (keptLifted.has(c.entry.doc.id) && isRelated(c)) c.keepPastWindow = 'lift';
      else delete c.keepPastWindow;
    }
  };
  markRecipes(new Set(packs.filter((p) => p.heuristic.yes).flatMap((p) => p.whenRelevant.map((d) => d.id))));
  const focus: FocusContext = {
    index,
    task: task.text,
    names: plan.names,
    best,
    subjects,
    ...(plan.deliverable !== undefined ? { deliverable: plan.deliverable } : {}),
  };
  // Widening starts from pages that belong: close enough, and not about another stack than the task's.
  const seeds = [...candidates.values()]
    .filter((c) => heuristicUse(c, best).yes && !heuristicDifferent(c, focus).yes)
    .sort((a, b) => b.fused - a.fused || b.weight - a.weight);
  widen({ index, candidates, seeds, allowed: searchable, inferred: hooks.inferredLinks });
  return { search, candidates, best, goodFor, stackUse, focus, markRecipes };
}

/** Step 7: the judge (one call for packs, sections and rows), then focus: which candidates stay, best first. */
async function judgeAndFocus(
  input: BuildContextInput,
  task: TaskAnalysis,
  purpose: PurposeMatches,
  found: Candidates,
): Promise<Judged> {
  const { hooks, request } = input;
  const { packs } = purpose;
  const { candidates, best, focus, markRecipes } = found;
  // Each candidate's answer once, not twice per comparison: a task can reach a thousand sections.
  const uses = new Map([...candidates.values()].map((c) => [c, heuristicUse(c, best)]));
  const ordered = [...candidates.values()].sort((a, b) => {
    const ua = uses.get(a)!;
    const ub = uses.get(b)!;
    return (
      Number(ub.yes) - Number(ua.yes) ||
      ub.probability - ua.probability ||
      b.fused - a.fused ||
      a.entry.order - b.entry.order
    );
  });
  const asked = focusQuestions(ordered, focus);
  const questions: JudgeQuestion[] = [...packQuestions(packs), ...asked.questions];
  const run = await runJudge(questions, {
    task: task.text,
    mode: hooks.judgeMode,
    provider: hooks.models,
    cache: hooks.verdicts,
    timeoutMs: hooks.judgeTimeoutMs,
    signal: request.signal,
  });
  const packDecisions = decidePacks(packs, run);
  const applied = packs.filter((_, i) => packDecisions[i].applied);
  const recipePages = new Set(applied.flatMap((p) => [...p.always, ...p.whenRelevant].map((d) => d.id)));
  markRecipes(new Set(applied.flatMap((p) => p.whenRelevant.map((d) => d.id))));
  const decided = decideFocus(ordered, asked, run, focus);
  const focusDropped = decided
    .filter((d) => !d.keep)
    .map((d) => ({ entry: d.candidate.entry, dropped: d.dropped ?? 'unused', confidence: round(d.confidence) }));
  const decisions = decided.filter((d) => d.keep);
  decisions.sort(
    (a, b) =>
      Number(b.candidate.named) - Number(a.candidate.named) ||
      b.confidence - a.confidence ||
      b.candidate.fused - a.candidate.fused ||
      a.candidate.entry.order - b.candidate.entry.order,
  );
  // What focus dropped and which pages were candidates at all: explain_result's task path reads them.
  const candidateDocs = [...new Set(ordered.map((c) => c.entry.doc.id))];
  return { run, packDecisions, applied, recipePages, decisions, focusDropped, candidateDocs };
}

/** Step 8: whole pages, then excerpts, within the budget, each with its unsettled conflicts; or the nearest pages when nothing matched; rendered. */
function assemble(
  input: BuildContextInput,
  setup: Setup,
  task: TaskAnalysis,
  plan: Awaited<ReturnType<typeof makePlan>>,
  found: Candidates,
  judged: Judged,
  purpose: PurposeMatches,
  change?: ChangeAnalysis,
): BuiltContext {
  const { view, hooks } = input;
  const { maxTokens, scope, idOf, instructions, rules, pinned, searchDocs, tagsFound } = setup;
  const { search, candidates, goodFor, stackUse } = found;
  const { run, packDecisions, applied, recipePages, decisions } = judged;
  const notes = hooks.notes;
  const soundness = librarySoundness(view, hooks.conflictCheck ? [hooks.conflictCheck] : []);
  const conflictsOf = (doc: Doc) => soundness.pageConflicts(doc.id);
  // A stack page's sections say how they came: by search, or, kept past the window, by its subject ('use').
  const useIds = new Set(goodFor.map((g) => g.doc.id));
  const privateOf = (doc: Doc) => isPrivateNote(doc);
  const whole: WholeCandidate[] = [];
  const ruleIds = new Set(rules.map((d) => d.id));
  const pushWhole = (doc: Doc, reason: PageReason) => {
    // Pinned pages come whatever the tags (the list is already the folder's); pack and Good-for pages only from inside the scope.
    if (
      ruleIds.has(doc.id) ||
      isTeamInstructions(doc) ||
      (reason !== 'pinned' && !scope.includes(doc)) ||
      whole.some((w) => w.doc.id === doc.id)
    )
      return;
    whole.push({ doc, reason, private: privateOf(doc), sections: [], conflicts: conflictsOf(doc) });
  };
  for (const doc of pinned) pushWhole(doc, 'pinned');
  // A pack's Always pages about writing for people do not come with work that produces code.
  for (const pack of applied)
    for (const doc of pack.always) if (notForWork(doc, plan.deliverable) === undefined) pushWhole(doc, 'recipe');
  for (const doc of [...goodFor.map((g) => g.doc), ...stackUse]) if (isReadWhole(doc, notes)) pushWhole(doc, 'use');
  const excerpts: ExcerptCandidate[] = decisions.map((d) => {
    const c = d.candidate;
    const doc = c.entry.doc;
    const section: BundleSection = { entry: c.entry, reachedBy: c.reachedBy, confidence: round(d.confidence) };
    if (c.hit) section.similarity = round(c.similarity);
    if (c.via) section.via = c.via;
    if (d.rows) section.rows = d.rows;
    const conflicts = soundness.sectionConflicts(c.entry.section.id);
    if (conflicts.length > 0) section.conflicts = conflicts;
    const reason: PageReason = recipePages.has(doc.id) ? 'recipe' : useIds.has(doc.id) ? 'use' : reasonOf(c.reachedBy);
    return {
      section,
      reason,
      private: privateOf(doc),
      readWhole: isReadWhole(doc, notes),
      pageConflicts: conflictsOf(doc),
    };
  });
  // Searched sections of whole pages are reported with them (JSON similarities).
  for (const w of whole)
    for (const c of candidates.values())
      if (c.entry.doc.id === w.doc.id && c.hit)
        w.sections.push({ entry: c.entry, reachedBy: c.reachedBy, similarity: round(c.similarity) });

  const nothing = decisions.length === 0 && applied.length === 0 && goodFor.length === 0 && stackUse.length === 0;
  // A task the library covers may also get its named entities' own docs, after every library
  // excerpt, when they are in scope: inside the folder, and never in a tagged bundle (they carry no tags).
  if (!nothing)
    excerpts.push(
      ...entityCandidates(
        view,
        (input.entityExcerpts ?? []).filter((e) => scope.includes(e.passage.entry.doc)),
      ),
    );
  const nearest = nothing
    ? nearestPages(
        pageNearness(
          task.text,
          purpose.pageScores,
          search,
          searchDocs.filter((d) => !isPrivateNote(d)),
        ),
      )
    : undefined;

  const organization = input.organization;
  const { ruleBlocks, fixed } = openingBlocks(
    input,
    setup,
    applied.map((p) => p.pack.name),
  );
  // A change's part comes after the rules and leaves the task's search what it does not use (at least a quarter).
  const part = change
    ? changePart(change, view, fixed, maxTokens * 4, Math.floor(WHOLE_PAGE_SHARE * maxTokens * 4), idOf)
    : undefined;
  const filled = fillBudget({
    budgetChars: maxTokens * 4,
    fixed,
    afterFixed: part?.blocks,
    whole,
    excerpts,
    nothingFound: nearest,
    idOf,
  });

  const bundle: ContextBundle = {
    task: task.text,
    maxTokens,
    tokens: 0,
    rulesOverBudget: filled.rulesOverBudget,
    organization,
    instructions,
    plan,
    packs: packDecisions,
    tagsFound,
    rules: ruleBlocks,
    reference: filled.reference,
    skipped: filled.skipped,
    focusDropped: judged.focusDropped,
    candidateDocs: judged.candidateDocs,
    ...(nearest && filled.nothingFoundShown ? { nothingFound: { nearest } } : {}),
    judge: {
      mode: run.mode,
      provider: run.provider,
      called: run.called,
      ...(run.fallbackReason !== undefined ? { fallbackReason: run.fallbackReason } : {}),
      verdicts: run.verdicts,
    },
    steps: {
      plan: plan.madeBy,
      judge: run.called && run.fallbackReason === undefined ? run.provider : 'heuristic',
      meaning: search.meaning,
    },
    scope: { ...(scope.folder ? { folder: scope.folder } : {}), ...(scope.tags ? { tags: scope.tags } : {}) },
    ...(part ? { change: part } : {}),
  };
  const markdown = renderMarkdown(bundle, idOf);
  bundle.tokens = estimateTokens(markdown);
  if (markdown.length !== filled.chars)
    throw new Error(`get_context: budget counted ${filled.chars} characters but the bundle has ${markdown.length}`);
  return { bundle, markdown, idOf };
}

/** The blocks every bundle starts with (rules.ts), from the request's setup. */
function openingBlocks(input: BuildContextInput, setup: Setup, packs: readonly string[]) {
  const soundness = librarySoundness(input.view, input.hooks.conflictCheck ? [input.hooks.conflictCheck] : []);
  return bundleOpening({
    organization: input.organization,
    instructions: setup.instructions,
    rules: setup.rules,
    packs,
    tagsFound: setup.tagsFound,
    idOf: setup.idOf,
    conflictsOf: (doc) => soundness.pageConflicts(doc.id),
  });
}

/** The page is about one of `names`: its title holds it, or the dictionary has the page as that name's. */
function isAboutName(index: ContextIndex, doc: Doc, names: readonly string[]): boolean {
  const title = ` ${normalizeName(doc.title)} `;
  const own = new Set(index.names.namesOfPage(doc.id).map((n) => n.text));
  return names.some((n) => own.has(n) || title.includes(` ${normalizeName(n)} `));
}

function reasonOf(reached: ReachedBy): PageReason {
  switch (reached) {
    case 'link':
    case 'inferred-link':
      return 'link';
    case 'folder':
      return 'folder';
    case 'use':
      return 'use';
    case 'recipe':
      return 'recipe';
    case 'search':
      return 'search';
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
