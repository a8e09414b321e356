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
 * 1. the closeness window: yes when the section's weight is within {@link CLOSENESS_WINDOW} of
 *    the best match's similarity (and at least {@link MIN_SIMILARITY}), or when it holds a name
 *    the plan found, or when a Good-for page, an applied pack or a matching folder keeps it past
 *    the window;
 * 2. the name dictionary: yes when the section's page is about a name of a kind the task names
 *    (a competitor page for TaxJar while the task names Avalara), or its heading names one, and
 *    that name is not among the task's names of that kind.
 *
 * With the judge in `gate` mode its answers decide instead, for the best
 * {@link MAX_JUDGED_SECTIONS} candidates (the rest keep the heuristics' answers), and the
 * sections it is surest about fill the budget first.
 */
import { JUDGE_QUESTIONS } from '../models/prompts';
import type { Answer, JudgeQuestion, JudgeRun } from '../models/judge';
import type { PlanName } from '../models/heuristicPlan';
import { sectionBody } from '../library/summaries';
import { CLOSENESS_WINDOW, MAX_JUDGED_ROWS, MAX_JUDGED_SECTIONS, MIN_SIMILARITY } from './constants';
import type { ContextIndex } from './contextIndex';
import { rowsAboutOtherNames, sectionTable, tableDescription } from './tableRows';
import type { Candidate, KeptRows } from './types';

/** Library name kinds the "different ..." question is about. */
const LIBRARY_KINDS = new Set(['competitor', 'product', 'persona', 'market']);

export interface FocusContext {
  index: ContextIndex;
  task: string;
  names: readonly PlanName[];
  /** The best search similarity of the request. */
  best: number;
}

/** The heuristic's answer to question 1. */
export function heuristicUse(c: Candidate, best: number): Answer {
  if (c.named || c.keepPastWindow === 'use') return { yes: true, probability: 1 };
  if ((c.keepPastWindow === 'recipe' || c.keepPastWindow === 'lift') && c.similarity > 0) return { yes: true, probability: Math.max(0.5, best > 0 ? Math.min(1, c.weight / best) : 0) };
  const closeness = best > 0 ? Math.min(1, c.weight / best) : 0;
  const inWindow = c.weight >= MIN_SIMILARITY && c.weight >= best - CLOSENESS_WINDOW;
  return inWindow ? { yes: true, probability: Math.max(0.5, closeness) } : { yes: false, probability: Math.min(0.49, closeness / 2) };
}

/** The heuristic's answer to question 2, with the name that makes it different. */
export function heuristicDifferent(c: Candidate, ctx: FocusContext): Answer & { name?: string } {
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
    questions.push({ id: mine.use!, kind: 'use', subject: section.id, material, pages, heuristic: heuristicUse(c, ctx.best) });
    const diff = heuristicDifferent(c, ctx);
    questions.push({ id: mine.different!, kind: 'different', subject: section.id, material, pages, heuristic: { yes: diff.yes, probability: diff.probability } });
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
export function decideFocus(candidates: readonly Candidate[], asked: FocusQuestions, run: JudgeRun, ctx: FocusContext): FocusDecision[] {
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
