/**
 * `wsctx diagnostics`: what agents' calls to every tool looked like, from the local call
 * log (library/activity): latency percentiles, empty answers, library sections never returned and
 * near-duplicate sections across documents.
 *
 * The log is the one the host's services hold (startup/startup.ts keeps it in the cache folder).
 */
import type { ActivityLog } from '../../library/activity/activityLog';
import { diagnose, type DiagnosticsReport } from '../../library/activity/diagnostics';
import { InputError } from '../../engine';
import { libraryView } from '../../library/view/libraryView';
import { dayOf } from '../../library/view/readiness';
import {
  contextDiagnosticsFor,
  renderContextDiagnostics,
  type ContextDiagnostics,
} from '../../library/context/contextDiagnostics';
import type { Services } from '../../services/services';
import { table } from '../format';

export type FullDiagnostics = DiagnosticsReport & { log: string; context: ContextDiagnostics };

export async function diagnosticsReport(services: Services, activity: ActivityLog): Promise<FullDiagnostics> {
  const state = await services.engine.waitForIndex();
  const view = libraryView(state, dayOf(services.now()));
  const entries = activity.read();
  return { ...diagnose(view, entries), log: activity.dir, context: contextDiagnosticsFor(services, view, entries) };
}

/** `activity` defaults to the services' call log. */
export async function diagnosticsCommand(
  services: Services,
  activity: ActivityLog | undefined,
  options: { json: boolean },
): Promise<string> {
  const log = activity ?? services.activity;
  if (!log)
    throw new InputError('diagnostics reads the call log kept in the cache directory; there is none with --no-cache');
  const report = await diagnosticsReport(services, log);
  return options.json ? JSON.stringify(report, null, 2) : renderDiagnostics(report);
}

export function renderDiagnostics(r: FullDiagnostics): string {
  const out: string[] = [];
  const span = r.from ? ` from ${r.from} to ${r.to}` : '';
  out.push(`Tool calls: ${r.calls}${span}${r.errors ? ` (${r.errors} refused or failed)` : ''}.`, `Log: ${r.log}`);
  out.push('', 'Latency (ms):');
  if (r.latency.length === 0) out.push('  no calls logged yet');
  else
    out.push(
      table([
        ['tool', 'calls', 'p50', 'p90', 'p99', 'max'],
        ...r.latency.map((l) => [l.tool, l.calls, ms(l.p50), ms(l.p90), ms(l.p99), ms(l.max)]),
      ]),
    );
  out.push('', `Empty answers (${r.emptySearchCalls}):`);
  if (r.emptySearches.length === 0) out.push('  none');
  else out.push(table(r.emptySearches.map((e) => [e.tool, JSON.stringify(e.text), `x${e.count}`, `last ${e.lastAt}`])));
  const never = r.neverReturned;
  out.push('', `Sections never returned: ${never.count} of ${never.of}`);
  for (const s of never.sections) out.push(`  [${s.id}] ${s.heading} (${s.document} [doc ${s.documentId}])`);
  if (never.count > never.sections.length) out.push(`  … and ${never.count - never.sections.length} more`);
  // Near-duplicate sections are listed once, with both pages' wording, under "Duplicated ground".
  out.push('', renderContextDiagnostics(r.context));
  return out.join('\n');
}

function ms(value: number): string {
  return value.toFixed(1);
}
