/**
 * `buildContext`'s change step (getContext.ts): the change analysed against the request's scope,
 * and its part of the bundle sized to what the fixed blocks leave.
 */
import type { Doc, IndexState } from '../../../engine';
import type { LibraryView } from '../../view/libraryView';
import { BLOCK_SEPARATOR, type IdOf } from '../render';
import type { Scope } from '../scope';
import type { ChangePart } from '../types';
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
