/**
 * When nothing comes close enough to send (docs/ARCHITECTURE.md, get_context's contract, "When nothing matches"): the agent is told so
 * and asked to check with the user rather than guess, with the two or three nearest pages and
 * their ids so it can read one that plainly covers the task. Such requests are listed by
 * `wsctx diagnostics` (contextDiagnostics.ts), which is where the gaps in a library show.
 *
 * Nearness: a page's best search similarity or its closest Good-for phrasing, whichever is higher,
 * even below the thresholds that would have sent it. On words alone a task may share no word with
 * the library at all ("organize the holiday party for the office"); the nearest pages are then the
 * ones whose title, summary and phrasings are spelled most like the task's words
 * ({@link spellingNearness}), so the answer still names two or three, as it does with meaning.
 */
import { type Doc, isStopWord } from '../../engine';
import { NEAREST_PAGES } from './constants';
import type { GoodForMatch } from './goodFor';
import type { SearchHit } from './sectionSearch';
import type { NearestPage } from './types';

export function nearestPages(pageScores: ReadonlyMap<Doc, number>, count = NEAREST_PAGES): NearestPage[] {
  return [...pageScores]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || (a[0].path < b[0].path ? -1 : 1))
    .slice(0, count)
    .map(([doc, score]) => ({ doc, score: Math.round(score * 1000) / 1000 }));
}

/**
 * When nothing matched: how near each page came, for naming the two or three nearest. `pages`
 * are the pages that may be named (no one's private notes).
 */
export function pageNearness(
  task: string,
  pageScores: readonly GoodForMatch[],
  search: { hits: readonly SearchHit[]; touched: readonly SearchHit[] },
  pages: readonly Doc[],
): Map<Doc, number> {
  const nearness = new Map<Doc, number>();
  for (const g of pageScores) nearness.set(g.doc, g.match.score);
  for (const h of search.hits) nearness.set(h.entry.doc, Math.max(nearness.get(h.entry.doc) ?? 0, h.similarity));
  // Words alone may leave fewer than two pages with any similarity ("write a poem"): the pages
  // that share a word with the task at all (a one-word facet, a task verb) are the nearest then,
  // in their fused order, at a nearness too small to show.
  if ([...nearness.values()].filter((s) => s > 0).length < 2) {
    search.touched.forEach((h, i) => {
      if (!((nearness.get(h.entry.doc) ?? 0) > 0)) nearness.set(h.entry.doc, 1e-6 / (i + 1));
    });
  }
  // A task that shares no word with the library: the pages spelled most like it, nearer still
  // to nothing (docs/ARCHITECTURE.md, get_context's contract: the answer names two or three nearest pages, with meaning or without).
  if ([...nearness.values()].filter((s) => s > 0).length < 2) {
    for (const [doc, near] of spellingNearness(task, pages)) {
      if (!((nearness.get(doc) ?? 0) > 0)) nearness.set(doc, 1e-9 * near);
    }
  }
  return nearness;
}

/** Words shorter than this say little about spelling: 3 characters. */
const MIN_WORD = 3;

/**
 * How alike in spelling each page's title, summary and Good-for phrasings are to the task's
 * words, 0..1: for each content word of the task, the best Dice coefficient of its character
 * trigrams with any word of the page's texts, averaged over the task's words ("organize" and
 * "organization" share most trigrams, "office" and "offsite" some). Only for naming the nearest
 * pages of a nothing-found answer on words alone; it never brings a page into a bundle.
 */
export function spellingNearness(task: string, docs: readonly Doc[]): Map<Doc, number> {
  const taskWords = contentWords(task);
  const near = new Map<Doc, number>();
  if (taskWords.length === 0) return near;
  const taskGrams = taskWords.map(trigrams);
  for (const doc of docs) {
    const texts = [doc.title, doc.library?.summary ?? '', ...(doc.library?.goodFor ?? [])].join(' ');
    const pageGrams = [...new Set(contentWords(texts))].map(trigrams);
    if (pageGrams.length === 0) continue;
    let sum = 0;
    for (const grams of taskGrams) {
      let best = 0;
      for (const other of pageGrams) best = Math.max(best, dice(grams, other));
      sum += best;
    }
    if (sum > 0) near.set(doc, sum / taskGrams.length);
  }
  return near;
}

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= MIN_WORD && !isStopWord(w));
}

/** A word's character trigrams, with its start and end marked (`^of`, `ce$`). */
function trigrams(word: string): Set<string> {
  const padded = `^${word}$`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const g of a) if (b.has(g)) shared++;
  return (2 * shared) / (a.size + b.size);
}
