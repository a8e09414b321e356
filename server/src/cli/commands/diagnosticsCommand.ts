/**
 * `wsctx diagnostics`: what agents' calls to every tool looked like, from the local call
 * log (engine/activity): latency percentiles, empty answers, library sections never returned and
 * near-duplicate sections across documents.
 *
 * Also where the CLI keeps that log: `<cache dir>/activity-<key>/`, beside the index snapshot,
 * with the same key (a digest of the served folders), so each workspace has its own log. No
 * cache dir (`--no-cache`) means no log; a cache dir inside a served folder is refused, because
 * nothing we do may write into the workspace.
 */
import * as path from 'node:path';
import { ActivityLog } from '../../engine/activity/activityLog';
import { diagnose, type DiagnosticsReport } from '../../engine/activity/diagnostics';
import { sha256Hex } from '../../engine/chunking/ids';
import type { Engine } from '../../engine/engine';
import { InputError } from '../../engine/errors';
import type { WorkspaceFolder } from '../../engine/indexState';
import { libraryHooks, nowFor, setLibraryHooks } from '../../engine/library/hooks';
import { libraryView } from '../../engine/library/libraryView';
import { dayOf } from '../../engine/library/readiness';
import { contextDiagnosticsFor, renderContextDiagnostics, type ContextDiagnostics } from '../../engine/context/contextDiagnostics';
import { table } from '../format';

/** The call log's directory for these folders inside `cacheDir`. */
export function activityDir(cacheDir: string, folders: readonly WorkspaceFolder[]): string {
  const key = sha256Hex(folders.map((f) => `${f.name}\u0000${f.absPath}`).join('\n')).slice(0, 16);
  return path.join(path.resolve(cacheDir), `activity-${key}`);
}

/**
 * Installs the call log on `engine`, so every library tool call is logged, and returns it.
 * Undefined without a cache dir, or when it lies inside a served folder (said through `log`).
 */
export function useActivityLog(engine: Engine, cacheDir: string | undefined, log?: (message: string) => void): ActivityLog | undefined {
  if (cacheDir === undefined) return undefined;
  let activity: ActivityLog;
  try {
    activity = ActivityLog.outsideWorkspace(activityDir(cacheDir, engine.folders), engine.folders.map((f) => f.absPath), {
      onError: (error) => log?.(`[activity] could not write the call log: ${error.message}`),
    });
  } catch (error) {
    log?.(`[activity] not logging tool calls: ${(error as Error).message}`);
    return undefined;
  }
  setLibraryHooks(engine, { activity });
  return activity;
}

export type FullDiagnostics = DiagnosticsReport & { log: string; context: ContextDiagnostics };

export async function diagnosticsReport(engine: Engine, activity: ActivityLog): Promise<FullDiagnostics> {
  const state = await engine.waitForIndex();
  const view = libraryView(state, dayOf(nowFor(engine)));
  const entries = activity.read();
  return { ...diagnose(view, entries), log: activity.dir, context: contextDiagnosticsFor(engine, view, entries) };
}

/** `activity` defaults to the log installed on the engine ({@link useActivityLog}). */
export async function diagnosticsCommand(engine: Engine, activity: ActivityLog | undefined, options: { json: boolean }): Promise<string> {
  const log = activity ?? libraryHooks(engine).activity;
  if (!log) throw new InputError('diagnostics reads the call log kept in the cache directory; there is none with --no-cache');
  const report = await diagnosticsReport(engine, log);
  return options.json ? JSON.stringify(report, null, 2) : renderDiagnostics(report);
}

export function renderDiagnostics(r: FullDiagnostics): string {
  const out: string[] = [];
  const span = r.from ? ` from ${r.from} to ${r.to}` : '';
  out.push(`Tool calls: ${r.calls}${span}${r.errors ? ` (${r.errors} refused or failed)` : ''}.`, `Log: ${r.log}`);
  out.push('', 'Latency (ms):');
  if (r.latency.length === 0) out.push('  no calls logged yet');
  else out.push(table([['tool', 'calls', 'p50', 'p90', 'p99', 'max'], ...r.latency.map((l) => [l.tool, l.calls, ms(l.p50), ms(l.p90), ms(l.p99), ms(l.max)])]));
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
