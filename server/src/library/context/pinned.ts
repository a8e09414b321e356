/**
 * Step 3, pinned pages (`always_include: true`, or a Cursor rule's `alwaysApply`): whole, after
 * the rules, while they fit. Whole pages (pinned and pack pages together) use at most three
 * quarters of the budget (budget.ts); a pinned page that would pass it is skipped, and its
 * sections stay searchable. Like rules they come whatever the request's `tags` (those narrow the
 * sections searched, not the pages a team pinned), but only from inside its `folder` (scope.ts;
 * the caller filters).
 */
import type { Doc } from '../../engine';
import type { LibraryView } from '../view/libraryView';
import { isRule, isTeamInstructions } from './scope';

export function pinnedPages(view: LibraryView): Doc[] {
  return view.pinned.filter((doc) => !isRule(doc) && !isTeamInstructions(doc));
}
