/**
 * `wsctx index`: index the workspace and say what was found, what is broken and how long it took.
 */
import { NOTHING_INDEXED } from '../../engine/indexing/emptyFolders';
import { isForward, isRelationType } from '../../engine/graph/relationTypes';
import type { Engine } from '../../engine/engine';
import type { IndexState } from '../../engine/indexState';
import type { Problem } from '../../engine/model';
import { countRows, seconds, table } from '../format';

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
  problems: Problem[];
  indexedAt: string;
  /** Embeddings: filled by the CLI once vectors are complete; absent when embeddings are off. */
  meaning?: { model: string; runtime: string | null; backend: string | null; sectionsWithVectors: number; seconds: number; error: string | null };
}

export async function runIndex(engine: Engine): Promise<IndexSummary> {
  const started = performance.now();
  const state = await engine.waitForIndex();
  const durationMs = performance.now() - started;
  return summarize(engine, state, durationMs);
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
      .map((e) => ({ source: e.sourceRef, type: e.type, target: e.targetRef, declaredAt: `${e.origin.path}:${e.origin.line}` })),
    repositories: state.repos.map((r) => ({ root: r.root || '.', folder: r.folder, git: r.git, head: r.head })),
    problems: [...state.problems],
    indexedAt: state.indexedAt,
  };
}

export function renderIndexSummary(s: IndexSummary): string {
  const out: string[] = [];
  out.push(`Indexed ${s.folders.map((f) => f.name).join(', ')} in ${seconds(s.durationMs)}: ${s.files} files (${s.filesRead} read), ${s.documents} documents, ${s.sections} sections.`);
  // A folder that yields nothing is said first, not left to a count of zero.
  for (const p of s.problems.filter((p) => p.code === NOTHING_INDEXED)) out.push('', `warning: ${p.message}`);
  out.push('', 'Documents by source kind:', table(countRows(s.bySourceKind)));
  out.push('', `Entities by kind (${s.entities}):`, table(countRows(s.entitiesByKind)));
  out.push('', `Edges by type (${s.edges}):`, table(countRows(s.edgesByType)));
  out.push('', `Unresolved refs (${s.unresolved.length}):`);
  if (s.unresolved.length === 0) out.push('  none');
  else out.push(table(s.unresolved.map((u) => [`${u.source} --${u.type}--> ${u.target}`, u.declaredAt])));
  out.push('', `Repositories (${s.repositories.length}):`);
  out.push(table(s.repositories.map((r) => [r.root, r.git ? (r.head ? r.head.slice(0, 12) : 'no commits') : 'no git'])));
  const errors = s.problems.filter((p) => p.severity !== 'info');
  out.push('', `Problems (${errors.length}${s.problems.length > errors.length ? `, plus ${s.problems.length - errors.length} info` : ''}):`);
  if (errors.length === 0) out.push('  none');
  for (const p of errors) out.push(`  ${p.path}:${p.line}: ${p.severity} ${p.code}: ${p.message}`);
  if (s.meaning) {
    const failed = s.meaning.error ? `; stopped: ${s.meaning.error}` : '';
    out.push('', `Meaning: ${s.meaning.sectionsWithVectors} of ${s.sections} sections embedded with ${s.meaning.model}${s.meaning.runtime ? ` on ${s.meaning.runtime}` : ''} (${s.meaning.backend ?? 'no'} vector index) in ${seconds(s.meaning.seconds * 1000)}${failed}.`);
  } else {
    out.push('', 'Meaning: embeddings off (words only).');
  }
  out.push('', `indexedAt: ${s.indexedAt}`);
  return out.join('\n');
}
