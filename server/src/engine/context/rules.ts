/**
 * Step 2, rules: every ready page of `type: rule` the request may see, in full, first, in map
 * order. Never cut for space: when they come to more than the budget they all still go and there
 * is simply no room left for anything else (budget.ts), which is why rules should be short.
 */
import type { Doc } from '../model';
import type { LibraryView } from '../library/libraryView';
import { isRule, isTeamInstructions, type Scope } from './scope';

export function rulePages(view: LibraryView, scope: Scope): Doc[] {
  return view.docs.filter((doc) => isRule(doc) && !isTeamInstructions(doc) && scope.includes(doc));
}

/** The team's agent instructions (`.context/instructions.md`), shallowest first. Not subject to scope. */
export function teamInstructions(view: LibraryView): Doc[] {
  return view.docs.filter(isTeamInstructions).sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
}
