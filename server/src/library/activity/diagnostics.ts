/**
 * The figures `wsctx diagnostics` (and the editor's diagnostics view) report from the call log
 * and the library (docs/ARCHITECTURE.md, the library tools' contract, "Seeing it"): latency percentiles per tool (every tool logs its calls),
 * searches, questions and graph walks that returned nothing, ready sections no call ever returned, and near-duplicate sections across documents.
 *
 * "Returned" means handed to an agent whole: a section in a `search_instructions` answer, fetched
 * by `get_section`, sent in a `get_context` bundle, or part of a page `read_page` returned. A
 * `get_toc` listing only names sections, so it does not count.
 */
import type { LibraryView } from '../view/libraryView';
import { shownId } from '../view/libraryView';
import { findNearDuplicates } from '../view/nearDuplicates';
import { sectionHeading } from '../view/summaries';
import type { ActivityEntry } from './activityLog';

/** Tools whose results hand sections to the agent (get_context's bundle and read_page's whole page included). */
const RETURNING_TOOLS = new Set(['search_instructions', 'get_section', 'get_context', 'read_page']);
/**
 * Tools whose empty answers count as empty searches, with the argument that holds what was
 * asked: a plan, a query, a question, or the entity a graph walk started from.
 */
const SEARCH_TOOLS: ReadonlyMap<string, readonly string[]> = new Map([
  ['search_instructions', ['plan']],
  ['get_toc', ['query']],
  ['workspace_context', ['question']],
  ['workspace_expand', ['entityRef']],
]);
/** Most sections listed by name in "never returned" (all are counted). Default 50. */
export const MAX_LISTED_SECTIONS = 50;

export interface LatencyFigures {
  /** A tool name, or `all`. */
  tool: string;
  calls: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface EmptySearch {
  tool: string;
  /** The plan or query, as the agent wrote it. */
  text: string;
  count: number;
  lastAt: string;
}

export interface SectionRef {
  /** Printed id. */
  id: string;
  heading: string;
  document: string;
  documentId: string;
}

export interface DuplicatePair {
  similarity: number;
  a: SectionRef;
  b: SectionRef;
}

export interface DiagnosticsReport {
  calls: number;
  errors: number;
  /** Time of the first and last logged call. */
  from: string | null;
  to: string | null;
  latency: LatencyFigures[];
  emptySearches: EmptySearch[];
  /** Calls of the search tools that returned nothing. */
  emptySearchCalls: number;
  neverReturned: { count: number; of: number; sections: SectionRef[] };
  nearDuplicates: DuplicatePair[];
}

/** The report for `entries` (oldest first) over the library `view`. */
export function diagnose(view: LibraryView, entries: readonly ActivityEntry[]): DiagnosticsReport {
  const byTool = new Map<string, number[]>();
  for (const e of entries) {
    let list = byTool.get(e.tool);
    if (!list) byTool.set(e.tool, (list = []));
    list.push(e.latencyMs);
  }
  const latency = [...byTool.keys()].sort().map((tool) => latencyFigures(tool, byTool.get(tool)!));
  if (entries.length > 0)
    latency.push(
      latencyFigures(
        'all',
        entries.map((e) => e.latencyMs),
      ),
    );

  const empty = new Map<string, EmptySearch>();
  let emptySearchCalls = 0;
  for (const e of entries) {
    const fields = SEARCH_TOOLS.get(e.tool);
    if (!fields || !e.empty || e.error) continue;
    const text = fields.map((f) => e.input[f]).find((v): v is string => typeof v === 'string');
    if (text === undefined) continue; // a map without a query is never a search
    emptySearchCalls++;
    const key = `${e.tool}\u0000${text.trim().toLowerCase()}`;
    const found = empty.get(key);
    if (found) {
      found.count++;
      found.lastAt = e.at;
    } else {
      empty.set(key, { tool: e.tool, text, count: 1, lastAt: e.at });
    }
  }

  const returned = new Set<string>();
  for (const e of entries) if (RETURNING_TOOLS.has(e.tool)) for (const id of e.resultIds) returned.add(id);
  const never = view.sections.filter((s) => !returned.has(s.section.id));

  return {
    calls: entries.length,
    errors: entries.filter((e) => e.error !== undefined).length,
    from: entries[0]?.at ?? null,
    to: entries[entries.length - 1]?.at ?? null,
    latency,
    emptySearches: [...empty.values()].sort(
      (a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
    ),
    emptySearchCalls,
    neverReturned: {
      count: never.length,
      of: view.sections.length,
      sections: never.slice(0, MAX_LISTED_SECTIONS).map((s) => sectionRef(view, s.section.id)),
    },
    nearDuplicates: findNearDuplicates(view).map((p) => ({
      similarity: Math.round(p.similarity * 1000) / 1000,
      a: sectionRef(view, p.a.section.id),
      b: sectionRef(view, p.b.section.id),
    })),
  };
}

/**
 * The `p`-th percentile (0 < p <= 100) of ascending `sorted` values by the nearest-rank method:
 * the smallest value with at least p% of the values at or below it.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

function latencyFigures(tool: string, values: readonly number[]): LatencyFigures {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    tool,
    calls: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}

function sectionRef(view: LibraryView, sectionId: string): SectionRef {
  const entry = view.sectionById.get(sectionId)!;
  return {
    id: shownId(view, sectionId),
    heading: sectionHeading(entry.section, entry.doc),
    document: entry.doc.title,
    documentId: shownId(view, entry.doc.id),
  };
}
