/**
 * Keeping the library sound (docs/ARCHITECTURE.md, get_context's contract, "Keeping the library sound"): two pages that disagree, or
 * one that repeats another, beat any ranking, because an agent given both cannot know which to
 * follow. Flags, each with both places and the wording from each:
 *
 * - **conflict, numbers and dates** (deterministic): two pages state a quantity of the same unit
 *   ("14 days" and "30 days") or a date in statements about the same thing, with different values.
 *   "About the same thing": the statements' words (with their sections' headings; numbers and unit
 *   words left out) overlap by at least {@link CONFLICT_MIN_OVERLAP} (Jaccard) and share at least
 *   {@link CONFLICT_MIN_SHARED} words.
 * - **conflict, model** (conflictCheck.ts): facts, numbers and rules a model found stated
 *   differently when a changed page was read next to its nearest neighbours.
 * - **duplicate**: sections whose text is nearly the same (nearDuplicates.ts, word 3-shingles).
 *
 * `wsctx diagnostics` lists them (library/context/contextDiagnostics.ts); editors show them on both
 * pages through {@link flagsAsProblems}.
 */
import type { Problem, RelatedPlace, Section } from '../../engine';
import { sectionFacts, type Fact } from './facts';
import type { LibraryView } from './libraryView';
import { findNearDuplicates } from './nearDuplicates';
import { firstSentences, sectionBody, sectionHeading } from './summaries';

/** Jaccard overlap of two statements' words for them to be about the same thing. Default 0.35. */
export const CONFLICT_MIN_OVERLAP = 0.35;
/** And words they must share. Default 3. */
export const CONFLICT_MIN_SHARED = 3;
/** A word in more statements than this is boilerplate and never makes two statements alike. Default 40. */
const MAX_WORD_FACTS = 40;

export interface FlagPlace {
  docId: string;
  sectionId: string;
  path: string;
  title: string;
  heading: string;
  /** 1-based line of the wording. */
  line: number;
  /** The words from this page. */
  wording: string;
}

export interface LibraryFlag {
  kind: 'conflict' | 'duplicate';
  /** How it was found. */
  by: 'numbers' | 'dates' | 'model' | 'shingles';
  /** What differs ("14 days vs 30 days"), or what is repeated. */
  what: string;
  /** 0..1: context overlap (numbers, dates) or text similarity (duplicates). */
  score: number;
  places: [FlagPlace, FlagPlace];
}

/** Where more flags come from (the model's conflict check). */
export interface FlagSource {
  flags(view: LibraryView): LibraryFlag[];
}

const cache = new WeakMap<LibraryView, LibraryFlag[]>();

/** Every flag of the view: deterministic conflicts, then `extra` (the model's), then duplicates. */
export function libraryFlags(view: LibraryView, extra: readonly FlagSource[] = []): LibraryFlag[] {
  let own = cache.get(view);
  if (!own) {
    own = [...factConflicts(view), ...duplicateFlags(view)];
    cache.set(view, own);
  }
  const more = extra.flatMap((s) => s.flags(view));
  return [...own.filter((f) => f.kind === 'conflict'), ...more, ...own.filter((f) => f.kind === 'duplicate')];
}

/** Quantities and dates two pages state differently about the same thing, strongest first. */
export function factConflicts(view: LibraryView): LibraryFlag[] {
  const facts: Fact[] = view.sections.flatMap((s) => sectionFacts(s.section, s.doc));
  const byWord = new Map<string, number[]>();
  facts.forEach((f, i) => {
    for (const w of f.context) {
      let list = byWord.get(w);
      if (!list) byWord.set(w, (list = []));
      list.push(i);
    }
  });
  const best = new Map<string, { a: Fact; b: Fact; score: number }>();
  facts.forEach((f, i) => {
    const shared = new Map<number, number>();
    for (const w of f.context) {
      const list = byWord.get(w)!;
      if (list.length > MAX_WORD_FACTS) continue;
      for (const j of list) if (j > i) shared.set(j, (shared.get(j) ?? 0) + 1);
    }
    for (const [j, common] of shared) {
      const g = facts[j];
      if (g.doc.id === f.doc.id || g.unit !== f.unit || g.value === f.value || common < CONFLICT_MIN_SHARED) continue;
      const score = common / (f.context.size + g.context.size - common);
      if (score < CONFLICT_MIN_OVERLAP) continue;
      const [a, b] = f.doc.path <= g.doc.path ? [f, g] : [g, f];
      const key = `${a.section.id}|${b.section.id}|${a.unit}`;
      const seen = best.get(key);
      if (!seen || score > seen.score) best.set(key, { a, b, score });
    }
  });
  return [...best.values()]
    .sort((x, y) => y.score - x.score || (x.a.doc.path < y.a.doc.path ? -1 : 1) || x.a.line - y.a.line)
    .map(({ a, b, score }) => ({
      kind: 'conflict',
      by: a.unit === 'date' ? 'dates' : 'numbers',
      what: `${a.text} vs ${b.text}`,
      score: round(score),
      places: [place(view, a), place(view, b)],
    }));
}

function duplicateFlags(view: LibraryView): LibraryFlag[] {
  return findNearDuplicates(view).map((p) => ({
    kind: 'duplicate',
    by: 'shingles',
    what: `"${sectionHeading(p.a.section, p.a.doc)}" is nearly the same text in both pages`,
    score: round(p.similarity),
    places: [
      {
        docId: p.a.doc.id,
        sectionId: p.a.section.id,
        path: p.a.doc.path,
        title: p.a.doc.title,
        heading: sectionHeading(p.a.section, p.a.doc),
        line: p.a.section.startLine,
        wording: firstLine(p.a.section),
      },
      {
        docId: p.b.doc.id,
        sectionId: p.b.section.id,
        path: p.b.doc.path,
        title: p.b.doc.title,
        heading: sectionHeading(p.b.section, p.b.doc),
        line: p.b.section.startLine,
        wording: firstLine(p.b.section),
      },
    ],
  }));
}

function place(_view: LibraryView, fact: Fact): FlagPlace {
  return {
    docId: fact.doc.id,
    sectionId: fact.section.id,
    path: fact.doc.path,
    title: fact.doc.title,
    heading: sectionHeading(fact.section, fact.doc),
    line: fact.line,
    wording: fact.statement,
  };
}

/**
 * The flags as problems for editor diagnostics: one on each page, worded with the other page's
 * words, and the other place as related information. Code `library.conflict` (warning) or
 * `library.duplicate` (info).
 */
export function flagsAsProblems(flags: readonly LibraryFlag[]): Problem[] {
  const out: Problem[] = [];
  for (const flag of flags) {
    for (const [here, there] of [flag.places, [flag.places[1], flag.places[0]]] as const) {
      const related: RelatedPlace = {
        path: there.path,
        line: there.line,
        message: `"${there.title}" › ${there.heading}: ${there.wording}`,
      };
      const message =
        flag.kind === 'conflict'
          ? `This page says "${here.wording}" but "${there.title}" says "${there.wording}" (${flag.what}). An agent given both cannot know which to follow.`
          : `"${here.heading}" repeats "${there.heading}" in "${there.title}" (${Math.round(flag.score * 100)}% the same words). Keep one copy and link to it.`;
      out.push({
        path: here.path,
        line: here.line,
        severity: flag.kind === 'conflict' ? 'warning' : 'info',
        code: `library.${flag.kind}`,
        message,
        related: [related],
      });
    }
  }
  return out;
}

/** The section's first sentence, as the wording of a duplicate. */
function firstLine(section: Section): string {
  return firstSentences(sectionBody(section), 1);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
