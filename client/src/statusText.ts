/**
 * What the status bar item and the language status item say about the index: the phase (starting,
 * cold, indexing n of N, loading the model, embedding n of N with the time left, ready with counts
 * and `indexedAt`), the Problems panel's count, degraded flags with their reasons, and restricted
 * mode. Pure, so the wording is unit-tested; status.ts puts it on screen.
 *
 * Imports no `vscode`.
 */
import type { IndexStatus, McpEndpointInfo } from '../../shared/protocol';
import { timeLeft } from '../../shared/timeLeft';

/** The language client's own state, before any index status arrives. */
export type ClientState = 'starting' | 'running' | 'stopped' | 'failed';

/** Work-done progress of the pass that is running, as the server reported it. */
export interface PassProgress {
  /** The begin message ("Indexing fernhill"), replaced by each report's message. */
  message?: string;
  /** Files (or steps) done and the total, when a message said "n of N". */
  done?: number;
  total?: number;
  /** 0..100 when the server sent a percentage. */
  percentage?: number;
}

export interface StatusInput {
  status: IndexStatus | undefined;
  client: ClientState;
  /** False in an untrusted workspace (restricted mode). */
  trusted: boolean;
  progress?: PassProgress;
  mcp?: McpEndpointInfo;
  /** Why the client stopped or failed, when it did. */
  clientError?: string;
  /**
   * The diagnostics the Problems panel shows from this extension, counted from the language
   * client's own collection (the index's parse problems are only some of them).
   */
  problems?: ProblemCounts;
}

export interface ProblemCounts {
  error: number;
  warning: number;
  info: number;
}

export type StatusSeverity = 'info' | 'warning' | 'error';

export interface StatusView {
  /** Status bar text, with a codicon (`$(check) Context: ready`). */
  text: string;
  /** Language status item text (no prefix; the item is titled by the extension). */
  shortText: string;
  /** Language status item detail: counts and `indexedAt`, or what is happening. */
  detail: string;
  /** Markdown tooltip lines: phase, counts, last pass, MCP endpoint, degraded flags with reasons. */
  tooltip: string[];
  /** Read by screen readers, and by the e2e test. */
  accessibilityLabel: string;
  severity: StatusSeverity;
  /** True while something runs (the language status item shows a spinner). */
  busy: boolean;
}

/** The `restricted-mode` flag the server adds in an untrusted workspace. */
export const RESTRICTED_FLAG = 'restricted-mode';

export function describeStatus(input: StatusInput): StatusView {
  const { status } = input;
  if (input.client === 'failed' || input.client === 'stopped') {
    const what = input.client === 'failed' ? 'the language server failed' : 'the language server is stopped';
    const reason = input.clientError ? `: ${input.clientError}` : '';
    return view({
      icon: input.client === 'failed' ? 'error' : 'circle-slash',
      shortText: input.client === 'failed' ? 'Server failed' : 'Server stopped',
      detail: `${what}${reason}`,
      tooltip: [`**Workspace Context**: ${what}${reason}.`, '', 'Run "Workspace Context: Show output" for the log.'],
      severity: input.client === 'failed' ? 'error' : 'warning',
      busy: false,
    });
  }
  if (!status || input.client === 'starting') {
    return view({
      icon: 'sync~spin',
      shortText: 'Starting',
      detail: 'starting the language server',
      tooltip: ['**Workspace Context**: starting the language server.'],
      severity: 'info',
      busy: true,
    });
  }

  const degraded = status.degraded.filter((d) => d.flag !== RESTRICTED_FLAG);
  const restricted = !input.trusted || status.degraded.some((d) => d.flag === RESTRICTED_FLAG);
  const failed = degraded.some((d) => d.flag === 'index-failed');
  const tooltip: string[] = [];
  let icon: string;
  let shortText: string;
  let detail: string;
  let busy = false;

  if (status.phase === 'cold') {
    icon = 'circle-outline';
    shortText = 'Cold';
    detail = 'not indexed yet';
    tooltip.push(
      '**Workspace Context**: the index is cold (nothing indexed yet). Answers say `index-cold` until the first pass is in service.',
    );
  } else if (status.phase === 'indexing' || status.updating) {
    icon = 'sync~spin';
    busy = true;
    const counted = progressCount(input.progress);
    shortText = counted ? `Indexing ${counted}` : 'Indexing';
    detail =
      input.progress?.message ??
      (status.phase === 'indexing' ? 'first pass' : 'updating; answers come from the last pass');
    tooltip.push(
      `**Workspace Context**: ${shortText.toLowerCase()}${status.phase === 'ready' ? ' (answers come from the last pass meanwhile)' : ''}.`,
    );
  } else if (status.embedding?.loadingModel) {
    // The first chunk waits for the embedding model to load: answers work on words meanwhile.
    icon = 'sync~spin';
    busy = true;
    shortText = 'Loading the model';
    detail = [countsSummary(status), 'answers rank on words until it is loaded'].filter(Boolean).join(', ');
    tooltip.push(
      `**Workspace Context**: ready; loading the embedding model to embed ${status.embedding.total} sections. Answers rank on words until it is loaded.`,
    );
  } else if (status.embedding && status.embedding.done < status.embedding.total) {
    // Answers already work on words; meaning fills in as sections get their vectors.
    const e = status.embedding;
    icon = 'sync~spin';
    busy = true;
    // Only an estimate measured after the model loaded (the server sends null before).
    const left = e.secondsLeft === null ? '' : `, ${timeLeft(e.secondsLeft)}`;
    shortText = `Embedding ${e.done} of ${e.total}${left}`;
    detail = [countsSummary(status), 'sections without vectors yet rank on words'].filter(Boolean).join(', ');
    tooltip.push(
      `**Workspace Context**: ready; embedding ${e.done} of ${e.total} sections${left}. Sections without vectors yet rank on words.`,
    );
  } else {
    icon = failed ? 'error' : degraded.length ? 'warning' : 'check';
    shortText = 'Ready';
    detail = [countsSummary(status), status.indexedAt ? `indexed ${formatIndexedAt(status.indexedAt)}` : undefined]
      .filter(Boolean)
      .join(', ');
    tooltip.push(`**Workspace Context**: ready.`);
  }
  if (restricted) {
    icon = 'shield';
    shortText = `${shortText} (restricted mode)`;
  }

  if (status.counts) {
    const c = status.counts;
    tooltip.push(
      '',
      `${c.files} files, ${c.documents} documents, ${c.sections} sections, ${c.entities} entities, ${c.edges} edges (${c.unresolvedEdges} unresolved).`,
    );
  }
  if (input.problems) tooltip.push('', problemsLine(input.problems));
  for (const c of status.coverage ?? []) {
    // The numbers wsctx doctor prints, in the same words.
    tooltip.push('', `Documentation in ${c.folder}: ${c.summary}.`);
    for (const warning of c.warnings) tooltip.push('', `**docs-unread**: ${warning}`);
  }
  if (status.indexedAt)
    tooltip.push(
      '',
      `Indexed at ${formatIndexedAt(status.indexedAt)}${status.lastPass ? ` (${describePass(status.lastPass)})` : ''}.`,
    );
  if (status.folders.length) tooltip.push('', `Folders: ${status.folders.join(', ')}.`);
  if (restricted) {
    tooltip.push(
      '',
      '**Restricted mode**: this workspace is not trusted, so the MCP endpoint is not started and no embeddings endpoint from workspace settings is used. Searching, hovers and chat still work. Trust the workspace to turn the MCP tools on.',
    );
  }
  for (const d of degraded) tooltip.push('', `**${d.flag}**: ${d.reason}`);
  if (input.mcp && !restricted) tooltip.push('', mcpLine(input.mcp));

  const severity: StatusSeverity = failed ? 'error' : degraded.length || restricted ? 'warning' : 'info';
  const flags = degraded.map((d) => d.flag);
  const degradedText = flags.length ? `, degraded: ${flags.join(', ')}` : '';
  return view({ icon, shortText, detail: `${detail}${degradedText}`, tooltip, severity, busy });
}

function view(v: {
  icon: string;
  shortText: string;
  detail: string;
  tooltip: string[];
  severity: StatusSeverity;
  busy: boolean;
}): StatusView {
  const text = `$(${v.icon}) Context: ${v.shortText.charAt(0).toLowerCase()}${v.shortText.slice(1)}`;
  const accessibilityLabel = `Workspace Context: ${v.shortText.toLowerCase()}${v.detail ? `, ${v.detail}` : ''}`;
  return {
    text,
    shortText: v.shortText,
    detail: v.detail,
    tooltip: v.tooltip,
    accessibilityLabel,
    severity: v.severity,
    busy: v.busy,
  };
}

/** "12 of 97" from the progress, when it has both numbers, or "40%" from a percentage. */
export function progressCount(progress: PassProgress | undefined): string | undefined {
  if (!progress) return undefined;
  if (progress.done !== undefined && progress.total !== undefined) return `${progress.done} of ${progress.total}`;
  if (progress.percentage !== undefined) return `${Math.round(progress.percentage)}%`;
  return undefined;
}

/**
 * Reads "n of N" out of a progress message ("Read 12 of 97 files"), so a server that reports
 * counts in words still fills the status; undefined when the message has none.
 */
export function parseProgressCount(message: string | undefined): { done: number; total: number } | undefined {
  const match = /(\d[\d,]*)\s+of\s+(\d[\d,]*)/.exec(message ?? '');
  if (!match) return undefined;
  const done = Number(match[1].replace(/,/g, ''));
  const total = Number(match[2].replace(/,/g, ''));
  return total > 0 && done <= total ? { done, total } : undefined;
}

/**
 * `12 problems in the Problems panel (1 error, 4 warnings, 7 info)`: the same count the panel
 * shows for this extension, so the two never disagree.
 */
export function problemsLine(p: ProblemCounts): string {
  const total = p.error + p.warning + p.info;
  if (total === 0) return 'No problems in the Problems panel.';
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return `${count(total, 'problem')} in the Problems panel (${count(p.error, 'error')}, ${count(p.warning, 'warning')}, ${p.info} info).`;
}

function countsSummary(status: IndexStatus): string {
  const c = status.counts;
  if (!c) return 'nothing indexed';
  return `${c.entities} entities, ${c.sections} sections`;
}

function describePass(pass: NonNullable<IndexStatus['lastPass']>): string {
  const seconds = (pass.durationMs / 1000).toFixed(1);
  if (pass.kind === 'full') return `full pass over ${pass.filesRead} files in ${seconds} s`;
  return `update: ${pass.filesChanged} changed, ${pass.filesRemoved} removed in ${seconds} s`;
}

function mcpLine(mcp: McpEndpointInfo): string {
  switch (mcp.state) {
    case 'running':
      return `MCP endpoint running at ${mcp.url} (registered with VS Code as "Workspace Context").`;
    case 'starting':
      return 'MCP endpoint starting.';
    default:
      return `MCP endpoint ${mcp.state}${mcp.reason ? `: ${mcp.reason}` : '.'}`;
  }
}

/** `2026-11-30T14:05:12.345Z` -> `2026-11-30 14:05:12 UTC`; anything else unchanged. */
export function formatIndexedAt(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/**
 * The message after "Re-index": what the index holds now and what the pass did, e.g.
 * `re-indexed fernhill: 97 files, 350 sections, 66 entities (full pass, 0 files read again, 0.4 s).`
 * Files whose content digest did not change are not read again, so a re-index of an unchanged
 * workspace reads none.
 */
export function reindexSummary(status: IndexStatus): string {
  const where = status.folders.length ? ` ${status.folders.join(', ')}` : '';
  const c = status.counts;
  const holds = c ? `${c.files} files, ${c.sections} sections, ${c.entities} entities` : 'nothing indexed';
  const pass = status.lastPass
    ? ` (${status.lastPass.kind} pass, ${status.lastPass.filesRead} files read again, ${(status.lastPass.durationMs / 1000).toFixed(1)} s)`
    : '';
  const failed = status.lastError ? ` The pass failed: ${status.lastError}` : '';
  return `re-indexed${where}: ${holds}${pass}.${failed}`;
}
