/**
 * Step 2, rules: every ready page of `type: rule`, in full, first, in map order. Never cut for
 * space: when they come to more than the budget they all still go and there is simply no room
 * left for anything else (budget.ts), which is why rules should be short. A request's `tags`
 * narrow the sections searched, never the rules; its `folder` limits everything, rules included
 * (scope.ts; the caller filters).
 */
import type { Doc } from '../../engine';
import type { LibraryView } from '../view/libraryView';
import { isRule, isTeamInstructions } from './scope';

export function rulePages(view: LibraryView): Doc[] {
  return view.docs.filter((doc) => isRule(doc) && !isTeamInstructions(doc));
}

/** The team's agent instructions (`.context/instructions.md`), shallowest first. Not narrowed by tags; a folder limits them like everything else. */
export function teamInstructions(view: LibraryView): Doc[] {
  return view.docs
    .filter(isTeamInstructions)
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
}
