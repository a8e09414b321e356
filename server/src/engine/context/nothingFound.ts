/**
 * When nothing comes close enough to send (seed 000, "When nothing matches"): the agent is told so
 * and asked to check with the user rather than guess, with the two or three nearest pages and
 * their ids so it can read one that plainly covers the task. Such requests are listed by
 * `wsctx diagnostics` (contextDiagnostics.ts), which is where the gaps in a library show.
 *
 * Nearness: a page's best search similarity or its closest Good-for phrasing, whichever is higher,
 * even below the thresholds that would have sent it.
 */
import type { Doc } from '../model';
import { NEAREST_PAGES } from './constants';
import type { NearestPage } from './types';

export function nearestPages(pageScores: ReadonlyMap<Doc, number>, count = NEAREST_PAGES): NearestPage[] {
  return [...pageScores]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || (a[0].path < b[0].path ? -1 : 1))
    .slice(0, count)
    .map(([doc, score]) => ({ doc, score: Math.round(score * 1000) / 1000 }));
}
