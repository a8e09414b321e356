/**
 * Step 7, keeping the bundle focused. Two questions for every candidate section:
 *
 * 1. would someone doing this task use it?
 * 2. is it specifically about a different competitor, product, market or audience than the task
 *    names?
 *
 * A section that fails either is dropped; table rows are asked the second question only
 * (tableRows.ts). Without the judge the heuristics answer:
 *
 * 1. the closeness window, per signal ({@link CLOSE_RATIO}, {@link RELATED}): yes when one of the
 *    section's words, meaning or question scores reaches its share of the request's best on that
 *    signal and that signal's "related" bar; a section reached by widening when its carried
 *    weight (the similarity of the page it came from times its reach weight) reaches
 *    {@link WIDENED_CLOSE} of the request's best similarity on any signal (a guide or reference
 *    page reached by a written link only when it is related at all on its own). A Good-for page's best
 *    sections are kept, and so is a section holding a name the plan found (a page read only
 *    whole comes on a name only when it is about the name: getContext.ts); a section of an
 *    applied pack's When-relevant page or of a coherent lifted folder is kept when it is related
 *    at all ({@link RELATED});
 * 2. the name dictionary: yes when the section's page is about a name of a kind the task names
 *    (a competitor page for TaxJar while the task names Avalara), or its heading names one, and
 *    that name is not among the task's names of that kind; and the pages' subjects
 *    (taskSubjects.ts): yes when the page is about another subject than the task names (the
 *    Python MCP server page for a Go MCP task, React's state page for a Next.js one) or narrower
 *    than the stack it names (Rust MCP servers for a Rust CLI task).
 *
 * With the judge in `gate` mode its answers decide instead, for the best
 * {@link MAX_JUDGED_SECTIONS} candidates (the rest keep the heuristics' answers), and the
 * sections it is surest about fill the budget first.
 */
import { JUDGE_QUESTIONS } from '../models/prompts';
import type { Answer, JudgeQuestion, JudgeRun } from '../models/judge';
import type { PlanName } from '../models/heuristicPlan';
import { sectionBody } from '../view/summaries';
import {
  CLOSE_RATIO,
  LINKED_AS_IS_TYPES,
  MAX_JUDGED_ROWS,
  MAX_JUDGED_SECTIONS,
  RELATED,
  WIDENED_CLOSE,
} from './constants';
import type { ContextIndex } from './contextIndex';
import { rowsAboutOtherNames, sectionTable, tableDescription } from './tableRows';
import { notForWork } from './deliverable';
import type { TaskSubjects } from './taskSubjects';
import type { Candidate, KeptRows } from './types';

/** Library name kinds the "different ..." question is about. */
const LIBRARY_KINDS = new Set(['competitor', 'product', 'persona', 'market']);

/** The request's best score on each signal (0 when the signal did not run or found nothing). */
export interface BestScores {
  words: number;
  meaning: number;
  question: number;
}

export interface FocusContext {
  index: ContextIndex;
  task: string;
  names: readonly PlanName[];
  best: BestScores;
  /** What the task's subjects bring and keep out (taskSubjects.ts). */
  subjects: Pick<TaskSubjects, 'other' | 'narrower'>;
  /** What the work produces (the plan's deliverable): a page about writing for people is no page for code (deliverable.ts). */
  deliverable?: string;
}

/** The subject that makes a page another one than the task's, or narrower than it (taskSubjects.ts). */
export function otherSubject(docId: string, subjects: FocusContext['subjects']): string | undefined {
  return subjects.other.get(docId) ?? subjects.narrower.get(docId);
}

/** The best score of each signal over search hits. */
export function bestScores(
  hits: readonly { signals: { words: number; meaning?: number; question: number } }[],
): BestScores {
  const best: BestScores = { words: 0, meaning: 0, question: 0 };
  for (const h of hits) {
    best.words = Math.max(best.words, h.signals.words);
    best.meaning = Math.max(best.meaning, h.signals.meaning ?? 0);
    best.question = Math.max(best.question, h.signals.question);
  }
  return best;
}

/** The signals, in the order every comparison reads them (one array, not one per candidate). */
const SIGNALS = ['words', 'meaning', 'question'] as const;

/**
 * A candidate's own score on one signal (0 for one search did not find). Read in place: the
 * heuristics run several times per candidate, and a task can reach a thousand sections.
 */
function scoreOf(c: Candidate, signal: keyof BestScores): number {
  return c.hit?.signals[signal] ?? 0;
}

/** Related at all: one signal reaches its {@link RELATED} bar. */
export function isRelated(c: Candidate): boolean {
  return (
    scoreOf(c, 'words') >= RELATED.words ||
    scoreOf(c, 'meaning') >= RELATED.meaning ||
    scoreOf(c, 'question') >= RELATED.question
  );
}

/**
 * A section reached by widening counts what it carries from the page it came from. A page reached
 * by a written `[[link]]` that is about a topic (a guide, a reference page) must also be related
 * to the task at all on its own ({@link RELATED}): a link says two pages go together, not that the
 * second is about this task. The refund policy links the plans page for its fee amounts; a
 * question about the refund window reaches it by that link, but nothing on it is about refunds.
 * Pages of the kinds that apply to work without resembling it ({@link LINKED_AS_IS_TYPES}: a voice
 * guide, a template, a persona) come by the link alone (docs/ARCHITECTURE.md, get_context's contract: "link the page from the pages it
 * belongs with, so a hit on one brings it along"), and so do links a model inferred and coherent
 * folders' siblings, which already say the pages are needed together.
 */
function carries(c: Candidate): boolean {
  if (c.reachedBy === 'search' || c.weight < RELATED.words) return false;
  if (c.reachedBy !== 'link' || LINKED_AS_IS_TYPES.has(c.entry.doc.library?.type ?? '')) return true;
  return isRelated(c);
}

/** How close a candidate is to the best match, 0..1: its best ratio over the signals that are related. */
export function closeness(c: Candidate, best: BestScores): number {
  let ratio = 0;
  for (const signal of SIGNALS) {
    const own = scoreOf(c, signal);
    if (best[signal] > 0 && own >= RELATED[signal]) ratio = Math.max(ratio, own / best[signal]);
  }
  // Reached by widening and related on its own: what it carries from the (close, related) page it came from.
  const top = Math.max(best.words, best.meaning, best.question);
  if (carries(c) && top > 0) ratio = Math.max(ratio, c.weight / top);
  return Math.min(1, ratio);
}

/** The heuristic's answer to question 1. */
export function heuristicUse(c: Candidate, best: BestScores): Answer {
  if (c.keepPastWindow === 'use') return { yes: true, probability: 1 };
  const close = closeness(c, best);
  // A section holding a name the task says always comes (its page is about the name: surest).
  if (c.named) return { yes: true, probability: c.aboutName ? 1 : Math.max(0.6, close) };
  if ((c.keepPastWindow === 'recipe' || c.keepPastWindow === 'lift') && isRelated(c))
    return { yes: true, probability: Math.max(0.5, close) };
  let inWindow = false;
  for (const signal of SIGNALS) {
    const own = scoreOf(c, signal);
    if (own >= RELATED[signal] && own >= best[signal] * CLOSE_RATIO[signal]) inWindow = true;
  }
  if (carries(c) && c.weight >= Math.max(best.words, best.meaning, best.question) * WIDENED_CLOSE) inWindow = true;
  return inWindow
    ? { yes: true, probability: Math.max(0.5, close) }
    : { yes: false, probability: Math.min(0.49, close / 2) };
}

/** The heuristic's answer to question 2, with the name that makes it different. */
export function heuristicDifferent(c: Candidate, ctx: FocusContext): Answer & { name?: string } {
  const subject = otherSubject(c.entry.doc.id, ctx.subjects) ?? notForWork(c.entry.doc, ctx.deliverable);
  if (subject !== undefined) return { yes: true, probability: 0.9, name: subject };
  const wanted = new Map<string, Set<string>>();
  for (const n of ctx.names) {
    if (!LIBRARY_KINDS.has(n.kind)) continue;
    let set = wanted.get(n.kind);
    if (!set) wanted.set(n.kind, (set = new Set()));
    set.add(n.key);
  }
  if (wanted.size === 0) return { yes: false, probability: 0 };
  const about = [
    ...ctx.index.names.namesOfPage(c.entry.doc.id),
    ...ctx.index.names.find(c.entry.section.headingPath.slice(1).join('\n')).map((m) => m.entry),
  ];
  for (const name of about) {
    const set = wanted.get(name.kind);
    if (!set || set.has(name.key)) continue;
    // About another one of a kind the task names, unless it also names the task's own.
    if (about.some((other) => other.kind === name.kind && set.has(other.key))) continue;
    return { yes: true, probability: 0.9, name: name.text };
  }
  return { yes: false, probability: 0.1 };
}

export interface FocusQuestions {
  questions: JudgeQuestion[];
  /** Question ids per candidate. */
  ids: Map<Candidate, { use?: string; different?: string; rows?: string[] }>;
}

/** The judge's questions about the best candidates and their table rows. */
export function focusQuestions(ordered: readonly Candidate[], ctx: FocusContext): FocusQuestions {
  const questions: JudgeQuestion[] = [];
  const ids = new Map<Candidate, { use?: string; different?: string; rows?: string[] }>();
  let rows = 0;
  ordered.slice(0, MAX_JUDGED_SECTIONS).forEach((c, i) => {
    const { doc, section } = c.entry;
    const pages = { [doc.id]: doc.digest };
    const material = `Page: ${doc.title}${doc.library?.type ? ` (${doc.library.type})` : ''}\nSection: ${section.headingPath.join(' > ') || doc.title}\n\n${sectionBody(section)}`;
    const mine: { use?: string; different?: string; rows?: string[] } = { use: `s${i + 1}u`, different: `s${i + 1}d` };
    questions.push({
      id: mine.use!,
      kind: 'use',
      subject: section.id,
      material,
      pages,
      heuristic: heuristicUse(c, ctx.best),
    });
    const diff = heuristicDifferent(c, ctx);
    questions.push({
      id: mine.different!,
      kind: 'different',
      subject: section.id,
      material,
      pages,
      heuristic: { yes: diff.yes, probability: diff.probability },
    });
    const table = sectionTable(section);
    if (table && rows < MAX_JUDGED_ROWS) {
      const heuristic = rowsAboutOtherNames(table, ctx.task, ctx.names, ctx.index.names);
      const description = tableDescription(doc, section, table);
      mine.rows = [];
      for (const row of table.rows) {
        if (rows >= MAX_JUDGED_ROWS) break;
        const id = `s${i + 1}r${row.index + 1}`;
        mine.rows.push(id);
        rows++;
        questions.push({
          id,
          kind: 'row',
          question: JUDGE_QUESTIONS.row,
          subject: `${section.id}#${row.index}:${row.keys.join(',')}`,
          material: `${description}\nRow: ${row.text.trim()}`,
          pages,
          heuristic: heuristic[row.index] ? { yes: true, probability: 0.9 } : { yes: false, probability: 0.1 },
        });
      }
    }
    ids.set(c, mine);
  });
  return { questions, ids };
}

export interface FocusDecision {
  candidate: Candidate;
  keep: boolean;
  /** Why it was dropped. */
  dropped?: 'unused' | 'different';
  /** How sure the applied answers are that it belongs: p(use) * (1 - p(different)). */
  confidence: number;
  rows?: KeptRows;
}

/** Applies the judge's answers (or the heuristics') to every candidate. */
export function decideFocus(
  candidates: readonly Candidate[],
  asked: FocusQuestions,
  run: JudgeRun,
  ctx: FocusContext,
): FocusDecision[] {
  return candidates.map((c) => {
    const ids = asked.ids.get(c);
    const use = ids?.use ? run.answer(ids.use) : heuristicUse(c, ctx.best);
    const diffAnswer = ids?.different ? run.answer(ids.different) : heuristicDifferent(c, ctx);
    const confidence = use.probability * (1 - diffAnswer.probability);
    if (!use.yes) return { candidate: c, keep: false, dropped: 'unused', confidence };
    if (diffAnswer.yes) return { candidate: c, keep: false, dropped: 'different', confidence };
    const decision: FocusDecision = { candidate: c, keep: true, confidence };
    const table = sectionTable(c.entry.section);
    if (table) {
      const heuristic = rowsAboutOtherNames(table, ctx.task, ctx.names, ctx.index.names);
      const kept: number[] = [];
      for (const row of table.rows) {
        const id = ids?.rows?.[row.index];
        const different = id ? run.answer(id).yes : heuristic[row.index];
        if (!different) kept.push(row.index);
      }
      if (kept.length === 0) return { candidate: c, keep: false, dropped: 'different', confidence };
      decision.rows = { kept, dropped: table.rows.length - kept.length };
    }
    return decision;
  });
}
