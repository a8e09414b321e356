/**
 * `buildContext`'s change step (getContext.ts): the change analysed against the request's scope,
 * and its part of the bundle sized to what the fixed blocks leave.
 */
import { type Doc, type IndexState, estimateTokens } from '../../../engine';
import type { LibraryView } from '../../view/libraryView';
import { fillBudget } from '../budget';
import { BLOCK_SEPARATOR, renderMarkdown, type IdOf } from '../render';
import type { Scope } from '../scope';
import type { BundlePage, ChangePart, ContextBundle } from '../types';
import { analyseChange, type ChangeAnalysis, type ChangeInput } from './changeAnalysis';
import { fillChange } from './changeBundle';

/**
 * The change of a request, analysed. Rule and instruction files come from the library pages in
 * the request's folder (its tags narrow search, not rules); rule pages (`type: rule`) are left
 * to the rules step, which sends them all.
 */
export function analyseRequestChange(
  state: IndexState,
  rules: readonly Doc[],
  docs: readonly Doc[],
  scope: Scope,
  change: ChangeInput,
): ChangeAnalysis {
  const ruleIds = new Set(rules.map((d) => d.id));
  const library = docs.filter((d) => scope.withinFolder(d) && !ruleIds.has(d.id));
  return analyseChange(state, library, change, { hops: 2 });
}

/**
 * The change's part of the bundle, sized to what `fixed` (instructions, comment, rules) leaves of
 * `totalChars`, and to at most `capChars` (with a task, the search keeps a share).
 */
export function changePart(
  change: ChangeAnalysis,
  view: LibraryView,
  fixed: readonly string[],
  totalChars: number,
  capChars: number,
  idOf: IdOf,
): ChangePart {
  const sep = BLOCK_SEPARATOR.length;
  // The fixed blocks joined, then the separator before the change's heading.
  const fixedChars = fixed.reduce((n, b) => n + b.length, 0) + sep * fixed.length;
  const budgetChars = Math.max(0, Math.min(capChars, totalChars - fixedChars));
  return fillChange({ analysis: change, state: view.state, budgetChars, idOf });
}

/**
 * The bundle of a change with no task: the team's instructions and rules (`fixed`, `ruleBlocks`),
 * then the change's part with the whole budget they leave; nothing is searched, so nothing is
 * "not found", and no plan, pack or judge runs.
 */
export function changeOnlyBundle(input: {
  change: ChangeAnalysis;
  view: LibraryView;
  maxTokens: number;
  scope: Scope;
  idOf: IdOf;
  organization: string;
  instructions: Doc[];
  tagsFound: string[];
  ruleBlocks: BundlePage[];
  fixed: string[];
}): { bundle: ContextBundle; markdown: string } {
  const { maxTokens, scope, idOf, fixed } = input;
  const part = changePart(input.change, input.view, fixed, maxTokens * 4, maxTokens * 4, idOf);
  const filled = fillBudget({
    budgetChars: maxTokens * 4,
    fixed,
    afterFixed: part.blocks,
    whole: [],
    excerpts: [],
    idOf,
  });
  const bundle: ContextBundle = {
    task: '',
    maxTokens,
    tokens: 0,
    rulesOverBudget: filled.rulesOverBudget,
    organization: input.organization,
    instructions: input.instructions,
    plan: { task: '', names: [], searches: [], constraints: [], madeBy: 'none' },
    packs: [],
    tagsFound: input.tagsFound,
    rules: input.ruleBlocks,
    reference: [],
    skipped: [],
    focusDropped: [],
    candidateDocs: [],
    judge: { mode: 'off', provider: 'none', called: false, verdicts: [] },
    steps: { plan: 'none', judge: 'none', meaning: false },
    scope: { ...(scope.folder ? { folder: scope.folder } : {}), ...(scope.tags ? { tags: scope.tags } : {}) },
    change: part,
  };
  const markdown = renderMarkdown(bundle, idOf);
  bundle.tokens = estimateTokens(markdown);
  if (markdown.length !== filled.chars)
    throw new Error(`get_context: budget counted ${filled.chars} characters but the bundle has ${markdown.length}`);
  return { bundle, markdown };
}
