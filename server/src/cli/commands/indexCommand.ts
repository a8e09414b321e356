/**
 * `wsctx index`: index the workspace and say what was found, what is broken and how long it took.
 */
import {
  NOTHING_INDEXED,
  coverageListing,
  coverageSummary,
  isForward,
  isRelationType,
  type Engine,
  type FolderCoverage,
  type IndexState,
  type Problem,
} from '../../engine';
import { countRows, formatDuration, seconds, table } from '../format';
import { MovingRate } from '../progress';

export interface IndexSummary {
  folders: { name: string; path: string }[];
  durationMs: number;
  files: number;
  filesRead: number;
  documents: number;
  sections: number;
  bySourceKind: Record<string, number>;
  entities: number;
  entitiesByKind: Record<string, number>;
  edges: number;
  edgesByType: Record<string, number>;
  unresolved: { source: string; type: string; target: string; declaredAt: string }[];
  repositories: { root: string; folder: string; git: boolean; head: string | null }[];
  /** Per served folder: its documentation files, how many are read, and every one not read with why. */
  coverage: FolderCoverage[];
  problems: Problem[];
  indexedAt: string;
  /** Embeddings: filled by the CLI once vectors are complete; absent when embeddings are off. */
  meaning?: {
    model: string;
    runtime: string | null;
    backend: string | null;
    sectionsWithVectors: number;
    seconds: number;
    error: string | null;
  };
}

export async function runIndex(engine: Engine): Promise<IndexSummary> {
  const started = performance.now();
  const state = await engine.waitForIndex();
  const durationMs = performance.now() - started;
  return summarize(engine, state, durationMs);
}

/**
 * `wsctx index` also embeds what is not embedded yet (later commands rank with whatever vectors
 * exist, and say how many sections still lack one), with progress on stderr.
 */
export async function embedWithProgress(engine: Engine, summary: IndexSummary): Promise<void> {
  const first = engine.status().meaning;
  if (!first) return;
  process.stderr.write(`embedding with ${first.model} (${first.runtime ?? 'runtime unknown'})\n`);
  const started = performance.now();
  let last = 0;
  const tty = process.stderr.isTTY;
  const rate = new MovingRate();
  const unsubscribe = engine.onDidChangeMeaning(() => {
    const progress = engine.status().meaning?.embedding;
    if (!progress) return;
    const now = performance.now();
    rate.add(now, progress.done);
    if (now - last < (tty ? 250 : 2000)) return;
    last = now;
    const bar = progressBar(progress.done / Math.max(1, progress.total));
    const perSecond = rate.perSecond(now - started, progress.done, progress.total);
    const estimate =
      perSecond === null
        ? ''
        : `, ${perSecond.toFixed(0)} sections/s, about ${formatDuration((progress.total - progress.done) / perSecond)} left`;
    process.stderr.write(
      `${tty ? '\r\x1b[K' : ''}embedding ${bar} ${progress.done}/${progress.total} sections${estimate}${tty ? '' : '\n'}`,
    );
  });
  await engine.embedPendingMeaning();
  unsubscribe();
  const status = engine.status().meaning!;
  if (tty) process.stderr.write('\n');
  summary.meaning = {
    model: status.model,
    runtime: status.runtime,
    backend: status.backend,
    sectionsWithVectors: status.sectionsWithVectors,
    seconds: (performance.now() - started) / 1000,
    error: status.lastError,
  };
}

function progressBar(fraction: number, width = 24): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

function summarize(engine: Engine, state: IndexState, durationMs: number): IndexSummary {
  const edges = state.graph.edges();
  return {
    folders: engine.folders.map((f) => ({ name: f.name, path: f.absPath })),
    durationMs,
    files: state.counts.files,
    filesRead: engine.status().lastPass?.filesRead ?? 0,
    documents: state.counts.documents,
    sections: state.counts.sections,
    bySourceKind: state.counts.bySourceKind,
    entities: state.entities.length,
    entitiesByKind: state.counts.entitiesByKind,
    edges: edges.length,
    edgesByType: state.counts.edgesByType,
    // One line per ref: of the two halves Backstage stores, the one the dependent usually declares.
    unresolved: edges
      .filter((e) => !e.resolved && (!isRelationType(e.type) || isForward(e.type)))
      .map((e) => ({
        source: e.sourceRef,
        type: e.type,
        target: e.targetRef,
        declaredAt: `${e.origin.path}:${e.origin.line}`,
      })),
    repositories: state.repos.map((r) => ({ root: r.root || '.', folder: r.folder, git: r.git, head: r.head })),
    coverage: [...(state.coverage ?? [])],
    problems: [...state.problems],
    indexedAt: state.indexedAt,
  };
}

/** A kind of problem (severity and code) seen more often than this is printed once, with its count. */
const GROUP_OVER = 3;
/** Unresolved refs listed before the rest are only counted. */
const UNRESOLVED_SHOWN = 10;
/** Unread documentation files named per reason before the rest are only counted. */
export const UNREAD_SHOWN = 5;

export interface IndexRenderOptions {
  /** Every problem and unresolved ref, none grouped. */
  verbose?: boolean;
}

/**
 * The problems as lines: each once, in the order found, except that a kind (severity and code)
 * seen more than {@link GROUP_OVER} times is one line with its count and its first occurrence as
 * the example (an org catalog can hold hundreds of the same warning), unless `verbose`.
 */
export function problemLines(problems: readonly Problem[], verbose = false): string[] {
  const line = (p: Problem) => `${p.path}:${p.line}: ${p.severity} ${p.code}: ${p.message}`;
  if (verbose) return problems.map((p) => `  ${line(p)}`);
  const byKind = new Map<string, Problem[]>();
  for (const p of problems) {
    const key = `${p.severity} ${p.code}`;
    byKind.set(key, [...(byKind.get(key) ?? []), p]);
  }
  const lines: string[] = [];
  for (const [kind, group] of byKind) {
    if (group.length <= GROUP_OVER) lines.push(...group.map((p) => `  ${line(p)}`));
    else lines.push(`  ${kind}: ${group.length} times (--verbose lists each), first:`, `    ${line(group[0])}`);
  }
  return lines;
}

export function renderIndexSummary(s: IndexSummary, options: IndexRenderOptions = {}): string {
  const out: string[] = [];
  out.push(
    `Indexed ${s.folders.map((f) => f.name).join(', ')} in ${seconds(s.durationMs)}: ${s.files} files (${s.filesRead} read), ${s.documents} documents, ${s.sections} sections.`,
  );
  // A folder that yields nothing is said first, not left to a count of zero.
  for (const p of s.problems.filter((p) => p.code === NOTHING_INDEXED)) out.push('', `warning: ${p.message}`);
  out.push('', 'Documentation files:', ...coverageLines(s.coverage, options.verbose));
  out.push('', 'Documents by source kind:', table(countRows(s.bySourceKind)));
  out.push('', `Entities by kind (${s.entities}):`, table(countRows(s.entitiesByKind)));
  out.push('', `Edges by type (${s.edges}):`, table(countRows(s.edgesByType)));
  out.push('', `Unresolved refs (${s.unresolved.length}):`);
  if (s.unresolved.length === 0) out.push('  none');
  else {
    const shown = options.verbose ? s.unresolved : s.unresolved.slice(0, UNRESOLVED_SHOWN);
    out.push(table(shown.map((u) => [`${u.source} --${u.type}--> ${u.target}`, u.declaredAt])));
    if (shown.length < s.unresolved.length)
      out.push(`  and ${s.unresolved.length - shown.length} more (--verbose lists each)`);
  }
  out.push('', `Repositories (${s.repositories.length}):`);
  out.push(
    table(s.repositories.map((r) => [r.root, r.git ? (r.head ? r.head.slice(0, 12) : 'no commits') : 'no git'])),
  );
  const errors = s.problems.filter((p) => p.severity !== 'info');
  out.push(
    '',
    `Problems (${errors.length}${s.problems.length > errors.length ? `, plus ${s.problems.length - errors.length} info` : ''}):`,
  );
  if (errors.length === 0) out.push('  none');
  out.push(...problemLines(errors, options.verbose));
  if (s.meaning) {
    const failed = s.meaning.error ? `; stopped: ${s.meaning.error}` : '';
    out.push(
      '',
      `Meaning: ${s.meaning.sectionsWithVectors} of ${s.sections} sections embedded with ${s.meaning.model}${s.meaning.runtime ? ` on ${s.meaning.runtime}` : ''} (${s.meaning.backend ?? 'no'} vector index) in ${seconds(s.meaning.seconds * 1000)}${failed}.`,
    );
  } else {
    out.push('', 'Meaning: embeddings off (words only).');
  }
  out.push('', `indexedAt: ${s.indexedAt}`);
  return out.join('\n');
}

/**
 * Each served folder's documentation coverage: `folder: read N of M documentation files ...`, then
 * the files not read by reason (a few each unless `verbose`; `--json` lists every one).
 */
export function coverageLines(coverage: readonly FolderCoverage[], verbose = false): string[] {
  if (coverage.length === 0) return ['  none found'];
  return coverage.flatMap((c) => [
    `  ${c.folder}: ${coverageSummary(c)}`,
    ...coverageListing(c, verbose ? undefined : UNREAD_SHOWN).map((line) => `    ${line}`),
  ]);
}
