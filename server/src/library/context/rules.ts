/**
 * Step 2, rules: every ready page of `type: rule`, in full, first, in map order. Never cut for
 * space: when they come to more than the budget they all still go and there is simply no room
 * left for anything else (budget.ts), which is why rules should be short. A request's `tags`
 * narrow the sections searched, never the rules; its `folder` limits everything, rules included
 * (scope.ts; the caller filters).
 */
import type { Doc } from '../../engine';
import type { LibraryView } from '../view/libraryView';
import type { PassageFlag } from '../view/soundness';
import { commentBlock, instructionsBlock, pageBlock, RULES_HEADING, type IdOf } from './render';
import { isRule, isTeamInstructions } from './scope';
import type { BundlePage } from './types';

export function rulePages(view: LibraryView): Doc[] {
  return view.docs.filter((doc) => isRule(doc) && !isTeamInstructions(doc));
}

/** The team's agent instructions (`.context/instructions.md`), shallowest first. Not narrowed by tags; a folder limits them like everything else. */
export function teamInstructions(view: LibraryView): Doc[] {
  return view.docs
    .filter(isTeamInstructions)
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
}

/**
 * The blocks every bundle starts with, which always go (budget.ts): the team's instructions, the
 * comment naming the packs applied and the tags found, then "Rules (always follow)" with each
 * rule page in full and its unsettled conflicts. Returns the rule pages too (the JSON lists them).
 */
export function bundleOpening(input: {
  organization: string;
  instructions: readonly Doc[];
  rules: readonly Doc[];
  packs: readonly string[];
  tagsFound: readonly string[];
  idOf: IdOf;
  conflictsOf: (doc: Doc) => PassageFlag[];
}): { ruleBlocks: BundlePage[]; fixed: string[] } {
  const { idOf, instructions, rules } = input;
  const ruleBlocks: BundlePage[] = rules.map((doc) => {
    const conflicts = input.conflictsOf(doc);
    const page: BundlePage = {
      doc,
      reason: 'rule',
      whole: true,
      private: false,
      sections: [],
      chars: 0,
      ...(conflicts.length > 0 ? { conflicts } : {}),
    };
    page.chars = pageBlock(page, idOf).length;
    return page;
  });
  const fixed = [
    ...(instructions.length > 0 ? [instructionsBlock(input.organization, instructions)] : []),
    commentBlock(input.packs, input.tagsFound),
    ...(rules.length > 0 ? [RULES_HEADING, ...ruleBlocks.map((p) => pageBlock(p, idOf))] : []),
  ];
  return { ruleBlocks, fixed };
}
