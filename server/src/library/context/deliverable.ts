/**
 * What the work produces decides whether the pages about writing for people apply to it
 * (docs/ARCHITECTURE.md, get_context's contract: "voice guides, formatting rules and templates
 * rarely resemble the task they apply to"): a voice guide, a style guide, a template or a
 * persona is for work that writes text people read, an email, a notice, a postmortem, a checkout
 * message. When the plan's deliverable (a model's, or the heuristic's from the task's words) is
 * code or configuration instead, a migration, a test, a feature flag, they are no page for it,
 * however much the task's words touch their subject: "a migration that creates the
 * checkout_messages table holding the texts shown to shoppers" changes a schema, it writes no text.
 */
import type { Doc } from '../../engine';

/** Page types about writing for people (the ones a written link brings as they are: constants.ts). */
export const PROSE_PAGE_TYPES: ReadonlySet<string> = new Set(['voice', 'style', 'template', 'persona']);

/** Deliverables that are code or configuration: their last word, as the plan writes it. */
export const CODE_DELIVERABLES: ReadonlySet<string> = new Set([
  'migration',
  'migrations',
  'function',
  'endpoint',
  'query',
  'script',
  'test',
  'tests',
  'flag',
  'dashboard',
  'alert',
  'pr',
  'request',
  'index',
  'schema',
  'job',
]);

/** True when the deliverable is code or configuration ("SQL migration", "feature flag", "Vitest test"). */
export function producesCode(deliverable: string | undefined): boolean {
  if (!deliverable) return false;
  const words = deliverable.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 0 && CODE_DELIVERABLES.has(words[words.length - 1]);
}

/** The deliverable that makes a page about writing for people no page for this work, or undefined. */
export function notForWork(doc: Doc, deliverable: string | undefined): string | undefined {
  return PROSE_PAGE_TYPES.has(doc.library?.type ?? '') && producesCode(deliverable) ? deliverable : undefined;
}
