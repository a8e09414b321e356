/**
 * What a get_context request may draw from, fixed before any step searches: the budget, the
 * scope, the team instructions, rules and pinned pages (steps 2-3), and the pages and sections
 * search may reach. A change with no task searches nothing (change/changeStep.ts assembles it).
 */
import { type Doc, type Section, InputError, termSet } from '../../engine';
import type { LibrarySection, LibraryView } from '../view/libraryView';
import { sectionBody } from '../view/summaries';
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from './constants';
import { contextIndex, type ContextIndex } from './contextIndex';
import { pinnedPages } from './pinned';
import type { IdOf } from './render';
import { rulePages, teamInstructions } from './rules';
import { isRule, isTeamInstructions, resolveScope } from './scope';
import type { ContextRequest } from './types';

/** What of get_context's input the setup reads (getContext.ts's BuildContextInput has it). */
export interface SetupInput {
  view: LibraryView;
  request: Pick<ContextRequest, 'maxTokens' | 'folder' | 'tags'>;
  privateDocs?: readonly Doc[];
  privateSections?: readonly LibrarySection[];
}

/** Validates `max_tokens` (1,000..30,000, default 12,000). Throws {@link InputError} naming the field. */
export function budgetOf(maxTokens: number | undefined): number {
  if (maxTokens === undefined) return DEFAULT_MAX_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS || maxTokens > MAX_MAX_TOKENS) {
    throw new InputError(
      `max_tokens: must be a whole number from ${MIN_MAX_TOKENS.toLocaleString('en-US')} to ${MAX_MAX_TOKENS.toLocaleString('en-US')} (got ${maxTokens}); the default is ${DEFAULT_MAX_TOKENS.toLocaleString('en-US')}`,
    );
  }
  return maxTokens;
}

/** The task as every step reads it, analysed once: its words as the index analyses them. */
export interface TaskAnalysis {
  /** The task, trimmed. */
  text: string;
  /** Its analysed terms (tags found, the focus step). */
  terms: ReadonlySet<string>;
}

export function analyseTask(text: string): TaskAnalysis {
  return { text, terms: termSet(text) };
}

/** What the request may draw from: its scope, the pages fixed by the library, and what search may reach. */
export interface Setup {
  view: LibraryView;
  maxTokens: number;
  scope: ReturnType<typeof resolveScope>;
  index: ContextIndex;
  idOf: IdOf;
  instructions: Doc[];
  rules: Doc[];
  pinned: Doc[];
  /** Pages in scope that are searched (not rules, not the team instructions), the user's notes included. */
  searchDocs: Doc[];
  searchable: (doc: Doc) => boolean;
  sections: LibrarySection[];
  tagsFound: string[];
}

/** Validates the request and fixes its scope, the team instructions, rules and pinned pages (steps 2-3), and what may be searched. */
export function prepare(input: SetupInput, task: TaskAnalysis): Setup {
  const { view, request } = input;
  const maxTokens = budgetOf(request.maxTokens);
  const scope = resolveScope(view, { folder: request.folder, tags: request.tags });
  const index = contextIndex(view);
  const idOf: IdOf = (id) => view.shownIds.get(id) ?? id.slice(0, 8);

  // Steps 2-3: instructions, rules, pinned pages; whatever the tags, only from inside the folder.
  const instructions = teamInstructions(view).filter(scope.withinFolder);
  const rules = rulePages(view).filter(scope.withinFolder);
  const pinned = pinnedPages(view).filter(scope.withinFolder);

  const fixed = { view, maxTokens, scope, index, idOf, instructions, rules, pinned };
  // A change with no task searches nothing (changeStep.ts assembles it): nothing is searchable.
  if (task.text === '') return { ...fixed, searchDocs: [], searchable: () => false, sections: [], tagsFound: [] };

  // What may be searched: pages in scope, not rules (they come whole), not the team instructions.
  const privateDocs = (input.privateDocs ?? []).filter((d) => scope.includes(d));
  const searchDocs = [
    ...view.docs.filter((doc) => !isRule(doc) && !isTeamInstructions(doc) && scope.includes(doc)),
    ...privateDocs,
  ];
  const searchIds = new Set(searchDocs.map((d) => d.id));
  const searchable = (doc: Doc) => searchIds.has(doc.id);
  // A section with nothing under its heading (a title followed straight by a subheading) is never an excerpt.
  const sections = [...view.sections, ...(input.privateSections ?? [])].filter(
    (s) => searchIds.has(s.doc.id) && hasBody(s.section),
  );
  const tagsFound = [...index.tags]
    .filter(([, terms]) => terms.size > 0 && [...terms].every((t) => task.terms.has(t)))
    .map(([tag]) => tag)
    .sort();
  return { ...fixed, searchDocs, searchable, sections, tagsFound };
}

const bodies = new WeakMap<Section, boolean>();

/** True when a section has text under its heading (cached per section). */
export function hasBody(section: Section): boolean {
  let has = bodies.get(section);
  if (has === undefined) {
    has = sectionBody(section).trim() !== '';
    bodies.set(section, has);
  }
  return has;
}
