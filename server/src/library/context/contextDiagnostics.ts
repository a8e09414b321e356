/**
 * What `wsctx diagnostics` (and, later, the editor) adds for `get_context` and the library's
 * soundness: the requests that found nothing, with the nearest pages each named (where the gaps
 * in a library show), the conflicting and duplicated pages with the wording from each, links the
 * judge inferred that authors might add, and which providers served the model-backed steps.
 *
 *   const report = contextDiagnosticsFor(services, view, activity.read());
 *   out.push('', renderContextDiagnostics(report));
 */
import type { ActivityEntry } from '../activity/activityLog';
import type { ContextHooks } from './hooks';
import type { FlagSource, LibraryFlag } from '../view/conflicts';
import { librarySoundness } from '../view/soundness';
import type { Problem } from '../../engine';
import type { LibraryView } from '../view/libraryView';
import type { InferredLinks } from './inferredLinks';

/** What a `get_context` line of the call log carries under `context` (tools/getContext.ts writes it). */
export interface ContextLogDetails {
  tokens: number;
  plan: { names: string[]; searches: string[]; madeBy: string; fallbackReason?: string };
  packs: string[];
  steps: { plan: string; judge: string; meaning: boolean };
  judge: {
    mode: string;
    provider: string;
    fallbackReason?: string;
    verdicts: { kind: string; subject: string; yes: boolean; p: number; from: string; model?: number }[];
  };
  nothingFound?: { nearest: { id: string; title: string }[] };
}

export interface NothingFoundRequest {
  task: string;
  count: number;
  lastAt: string;
  /** The nearest pages the last such request named (printed ids). */
  nearest: { id: string; title: string }[];
}

export interface FlagReport {
  kind: LibraryFlag['kind'];
  by: LibraryFlag['by'];
  what: string;
  score: number;
  places: { id: string; title: string; path: string; heading: string; line: number; wording: string }[];
}

export interface ContextDiagnostics {
  /** `get_context` calls in the log. */
  requests: number;
  nothingFound: NothingFoundRequest[];
  /** Which provider made the plan and answered the judge, with counts (`heuristic` when none did). */
  providers: { plan: Record<string, number>; judge: Record<string, number> };
  /** Requests where a configured model was slow or failed and the heuristics took over. */
  fallbacks: number;
  conflicts: FlagReport[];
  duplicates: FlagReport[];
  /** Flags the pages settle with `conflicts_resolved` (not shown anywhere else). */
  resolved: FlagReport[];
  /** Problems of `conflicts_resolved` entries: unknown page, the page itself, nothing to settle. */
  resolutionProblems: Problem[];
  suggestedLinks: { from: { id: string; title: string }; to: { id: string; title: string }; probability: number }[];
}

export interface ContextDiagnosticsOptions {
  /** More flag sources (the model's conflict check). */
  flagSources?: readonly FlagSource[];
  inferredLinks?: InferredLinks;
}

export function contextDiagnostics(
  view: LibraryView,
  entries: readonly ActivityEntry[],
  options: ContextDiagnosticsOptions = {},
): ContextDiagnostics {
  const shown = (id: string) => view.shownIds.get(id) ?? id.slice(0, 8);
  const requests = entries.filter((e) => e.tool === 'get_context' && e.error === undefined);
  const nothing = new Map<string, NothingFoundRequest>();
  const plan: Record<string, number> = {};
  const judge: Record<string, number> = {};
  let fallbacks = 0;
  for (const e of requests) {
    const details = (e as ActivityEntry & { context?: ContextLogDetails }).context;
    if (details) {
      plan[details.steps.plan] = (plan[details.steps.plan] ?? 0) + 1;
      judge[details.steps.judge] = (judge[details.steps.judge] ?? 0) + 1;
      if (details.plan.fallbackReason !== undefined || details.judge.fallbackReason !== undefined) {
        if (
          details.judge.provider !== 'none' ||
          details.plan.madeBy !== 'heuristic' ||
          details.plan.fallbackReason !== undefined
        )
          fallbacks++;
      }
    }
    if (!e.empty || typeof e.input.task !== 'string') continue;
    const task = e.input.task;
    const key = task.replace(/\s+/g, ' ').trim().toLowerCase();
    const nearest = (details?.nothingFound?.nearest ?? []).map((n) => ({ id: shown(n.id), title: n.title }));
    const found = nothing.get(key);
    if (found) {
      found.count++;
      found.lastAt = e.at;
      found.nearest = nearest;
    } else {
      nothing.set(key, { task, count: 1, lastAt: e.at, nearest });
    }
  }
  const soundness = librarySoundness(view, options.flagSources ?? []);
  const flags = soundness.flags;
  const report = (f: LibraryFlag): FlagReport => ({
    kind: f.kind,
    by: f.by,
    what: f.what,
    score: f.score,
    places: f.places.map((p) => ({
      id: shown(p.docId),
      title: p.title,
      path: p.path,
      heading: p.heading,
      line: p.line,
      wording: p.wording,
    })),
  });
  return {
    requests: requests.length,
    nothingFound: [...nothing.values()].sort(
      (a, b) => b.count - a.count || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0),
    ),
    providers: { plan, judge },
    fallbacks,
    conflicts: flags.filter((f) => f.kind === 'conflict').map(report),
    duplicates: flags.filter((f) => f.kind === 'duplicate').map(report),
    resolved: soundness.resolved.map(report),
    resolutionProblems: [...soundness.problems],
    suggestedLinks: (options.inferredLinks?.suggestions(view) ?? []).map((s) => ({
      from: { id: shown(s.from.id), title: s.from.title },
      to: { id: shown(s.to.id), title: s.to.title },
      probability: Math.round(s.probability * 1000) / 1000,
    })),
  };
}

/** The report as the text `wsctx diagnostics` prints after its own sections. */
export function renderContextDiagnostics(r: ContextDiagnostics): string {
  const out: string[] = [];
  out.push(
    `get_context requests: ${r.requests}${r.fallbacks > 0 ? ` (${r.fallbacks} fell back to the heuristics: a model was slow or failed)` : ''}.`,
  );
  if (r.requests > 0) out.push(`  plan made by: ${counts(r.providers.plan)}; judged by: ${counts(r.providers.judge)}`);
  out.push('', `Nothing found (${r.nothingFound.reduce((n, x) => n + x.count, 0)}):`);
  if (r.nothingFound.length === 0) out.push('  none');
  for (const n of r.nothingFound) {
    out.push(`  ${JSON.stringify(n.task)}  x${n.count}  last ${n.lastAt}`);
    out.push(`    nearest: ${n.nearest.length > 0 ? n.nearest.map((p) => `${p.title} [${p.id}]`).join('; ') : 'none'}`);
  }
  out.push('', `Conflicting pages (${r.conflicts.length}):`);
  if (r.conflicts.length === 0) out.push('  none');
  for (const f of r.conflicts) out.push(...flagLines(f));
  out.push('', `Duplicated ground (${r.duplicates.length}):`);
  if (r.duplicates.length === 0) out.push('  none');
  for (const f of r.duplicates) out.push(...flagLines(f));
  if (r.resolved.length > 0) {
    out.push('', `Settled by conflicts_resolved (${r.resolved.length}):`);
    for (const f of r.resolved)
      out.push(
        `  ${f.what} (${f.by}): ${f.places[0].title} [${f.places[0].id}] and ${f.places[1].title} [${f.places[1].id}]`,
      );
  }
  if (r.resolutionProblems.length > 0) {
    out.push('', `conflicts_resolved problems (${r.resolutionProblems.length}):`);
    for (const p of r.resolutionProblems) out.push(`  ${p.path}:${p.line}: ${p.severity}: ${p.message} [${p.code}]`);
  }
  if (r.suggestedLinks.length > 0) {
    out.push('', `Links authors might add (${r.suggestedLinks.length}):`);
    for (const s of r.suggestedLinks)
      out.push(`  ${s.from.title} [${s.from.id}] -> [[${s.to.title}]]  (${s.probability.toFixed(2)})`);
  }
  return out.join('\n');
}

function flagLines(f: FlagReport): string[] {
  const [a, b] = f.places;
  return [
    `  ${f.what} (${f.by}, ${f.score.toFixed(2)})`,
    `    ${a.title} [${a.id}] › ${a.heading}, ${a.path}:${a.line}: ${a.wording}`,
    `    ${b.title} [${b.id}] › ${b.heading}, ${b.path}:${b.line}: ${b.wording}`,
  ];
}

function counts(record: Record<string, number>): string {
  const entries = Object.entries(record).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return entries.length > 0 ? entries.map(([k, n]) => `${k} x${n}`).join(', ') : 'none';
}

/** {@link contextDiagnostics} with the host's background stores (the model's conflict check, inferred links). */
export function contextDiagnosticsFor(
  hooks: Pick<ContextHooks, 'conflictCheck' | 'inferredLinks'>,
  view: LibraryView,
  entries: readonly ActivityEntry[],
): ContextDiagnostics {
  return contextDiagnostics(view, entries, {
    flagSources: hooks.conflictCheck ? [hooks.conflictCheck] : [],
    ...(hooks.inferredLinks ? { inferredLinks: hooks.inferredLinks } : {}),
  });
}
