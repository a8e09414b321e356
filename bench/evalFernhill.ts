/**
 * Eval dataset 1: the example workspace's labelled questions (examples/fernhill-cases.yaml).
 *
 * Each case names one expected passage (a file and a Markdown section's own heading, or a catalog
 * entity's canonical ref) and the rank it must reach (`within`); `kind` says whether the question
 * shares words with it (`words`) or only meaning (`meaning`). The expected passage is resolved to
 * section ordinals of the engine's own index, and every system is judged on the ordinals it ranks:
 * `workspace_context` through the tool (its passages map back by path and start line; words only,
 * or hybrid with `--embeddings local`), and the baselines over the same sections
 * (bench/measure.ts `sectionPassages`) and the same questions.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { IndexState } from '../server/src/engine/indexState';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import { BASELINES } from './baselines/engines';
import { ourSystemLabel, startEvalEngine, type EvalEmbeddings, type MeaningFigures } from './evalEngine';
import { sectionPassages } from './measure';
import {
  evaluateQuery,
  firstRelevantRank,
  meanMetrics,
  type Judgments,
  type MeanMetrics,
  type QueryMetrics,
} from './metrics';

export interface RankingCase {
  id: string;
  question: string;
  expect: { path: string; heading: string };
  within: number;
  kind: 'words' | 'meaning';
  sourceKind: string;
}

export interface CaseResult {
  id: string;
  kind: string;
  sourceKind: string;
  within: number;
  /** 1-based rank of the expected passage among the first `depth` answers, or null. */
  rank: number | null;
  passed: boolean;
  metrics: QueryMetrics;
  /** What came first instead, when the case failed: `path › heading`. */
  top?: string;
}

export interface SystemResult {
  system: string;
  overall: MeanMetrics & { passed: number };
  byKind: Record<string, MeanMetrics & { passed: number }>;
  bySourceKind: Record<string, MeanMetrics & { passed: number }>;
  cases: CaseResult[];
}

export interface FernhillEval {
  cases: number;
  sections: number;
  /** How deep each system's list was read for "got rank". */
  depth: number;
  systems: SystemResult[];
  skipped: string[];
  /** Embedding figures, when the run had embeddings on. */
  meaning?: MeaningFigures;
}

/** Answers read per question: metrics stop at 10; the rest says how far a failing case fell. */
const DEPTH = 20;

export function loadCases(file: string): RankingCase[] {
  const raw = parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`eval: ${file} must be a YAML list of cases`);
  return raw.map((c: Record<string, unknown>, i) => {
    const expect = c.expect as Record<string, unknown> | undefined;
    const ok =
      typeof c.id === 'string' &&
      typeof c.question === 'string' &&
      typeof expect?.path === 'string' &&
      typeof expect?.heading === 'string' &&
      typeof c.within === 'number' &&
      (c.kind === 'words' || c.kind === 'meaning') &&
      typeof c.sourceKind === 'string';
    if (!ok)
      throw new Error(
        `eval: case ${i + 1} of ${file} lacks id, question, expect.path, expect.heading, within, kind (words|meaning) or sourceKind`,
      );
    return {
      id: c.id,
      question: c.question,
      expect: { path: expect.path, heading: expect.heading },
      within: c.within,
      kind: c.kind,
      sourceKind: c.sourceKind,
    } as RankingCase;
  });
}

/** Ordinals of the sections a case expects: its own heading in that file (entity refs compared lower-cased). */
export function expectedOrdinals(state: IndexState, c: RankingCase): number[] {
  const wanted = c.expect.heading.trim();
  const out: number[] = [];
  for (const entry of state.sections) {
    if (!entry || entry.doc.path !== c.expect.path) continue;
    const own = entry.section.headingPath[entry.section.headingPath.length - 1]?.trim() ?? '';
    const isEntity = entry.doc.sourceKind === 'catalog_entity';
    if (
      isEntity
        ? own.toLowerCase() === wanted.toLowerCase() || (entry.section.entityRefs ?? []).includes(wanted.toLowerCase())
        : own === wanted
    )
      out.push(entry.ordinal);
  }
  return out;
}

/**
 * The ordinal of a passage a tool returned: by `sourceRef` (`{ path, startLine }`, or a string
 * `path:12-30` / `path#L12-L30`), else by a section id or a unique id prefix.
 */
export function passageOrdinal(state: IndexState, passage: Record<string, unknown>): number | undefined {
  const ref = passage.sourceRef;
  let file: string | undefined;
  let line: number | undefined;
  if (ref && typeof ref === 'object') {
    const r = ref as { path?: unknown; startLine?: unknown };
    if (typeof r.path === 'string') file = r.path;
    if (typeof r.startLine === 'number') line = r.startLine;
  } else if (typeof ref === 'string') {
    const m = /^(.*?)(?:[:#]L?(\d+)(?:-L?\d+)?)?$/.exec(ref);
    file = m?.[1];
    line = m?.[2] ? Number(m[2]) : undefined;
  }
  if (file !== undefined && line !== undefined) {
    for (const entry of state.sections)
      if (entry && entry.doc.path === file && entry.section.startLine === line) return entry.ordinal;
  }
  const id = typeof passage.id === 'string' ? passage.id : undefined;
  if (id && id.length >= 4) {
    const hits = state.sections.filter((e) => e?.section.id.startsWith(id));
    if (hits.length === 1) return hits[0]!.ordinal;
  }
  return undefined;
}

/** Runs the cases through `workspace_context` (when it exists) and the baselines. */
export async function evalFernhill(
  repoRoot: string,
  embeddings: EvalEmbeddings,
  log: (m: string) => void,
): Promise<FernhillEval> {
  const cases = loadCases(path.join(repoRoot, 'examples', 'fernhill-cases.yaml'));
  const { engine, state, meaning } = await startEvalEngine(
    'fernhill',
    { name: 'fernhill', absPath: path.join(repoRoot, 'examples', 'fernhill') },
    embeddings,
    log,
  );
  const judgments = new Map<string, Judgments>();
  for (const c of cases) {
    const ordinals = expectedOrdinals(state, c);
    if (ordinals.length === 0)
      throw new Error(
        `eval: case ${c.id}: no section "${c.expect.heading}" in ${c.expect.path} (run node examples/check-cases.mjs)`,
      );
    judgments.set(c.id, new Map(ordinals.map((o) => [String(o), 1])));
  }
  const systems: SystemResult[] = [];
  const skipped: string[] = [];
  const tool = findTool('workspace_context');
  if (tool) {
    const rankings = new Map<string, string[]>();
    const services = createServices({ engine });
    for (const c of cases) {
      const out = (await callTool(
        services,
        tool,
        { workspace: 'fernhill', question: c.question, limit: DEPTH },
        { sessionId: 'eval' },
      )) as { passages?: Record<string, unknown>[] };
      rankings.set(
        c.id,
        (out.passages ?? []).map((p) => String(passageOrdinal(state, p) ?? `unmapped:${JSON.stringify(p.sourceRef)}`)),
      );
    }
    systems.push(score(ourSystemLabel(embeddings), cases, judgments, rankings, state));
  } else {
    skipped.push('workspace_context is not in TOOLS yet: our engine is not scored on this dataset');
  }
  const passages = sectionPassages(state);
  for (const baseline of BASELINES) {
    const index = baseline.build(passages);
    const rankings = new Map(cases.map((c) => [c.id, index.search(c.question, DEPTH).map(String)]));
    systems.push(score(baseline.label, cases, judgments, rankings, state));
  }
  engine.dispose();
  log(`fernhill: ${cases.length} cases over ${state.counts.sections} sections`);
  return {
    cases: cases.length,
    sections: state.counts.sections,
    depth: DEPTH,
    systems,
    skipped,
    ...(meaning ? { meaning } : {}),
  };
}

function score(
  system: string,
  cases: readonly RankingCase[],
  judgments: Map<string, Judgments>,
  rankings: Map<string, string[]>,
  state: IndexState,
): SystemResult {
  const results: CaseResult[] = cases.map((c) => {
    const ranked = rankings.get(c.id) ?? [];
    const judged = judgments.get(c.id)!;
    const rank = firstRelevantRank(ranked, judged);
    const passed = rank !== null && rank <= c.within;
    const result: CaseResult = {
      id: c.id,
      kind: c.kind,
      sourceKind: c.sourceKind,
      within: c.within,
      rank,
      passed,
      metrics: evaluateQuery(ranked, judged)!,
    };
    if (!passed && ranked.length > 0) result.top = describe(state, ranked[0]);
    return result;
  });
  const group = (key: (r: CaseResult) => string) => {
    const groups: Record<string, CaseResult[]> = {};
    for (const r of results) (groups[key(r)] ??= []).push(r);
    return Object.fromEntries(Object.entries(groups).map(([k, rs]) => [k, summarise(rs)]));
  };
  return {
    system,
    overall: summarise(results),
    byKind: group((r) => r.kind),
    bySourceKind: group((r) => r.sourceKind),
    cases: results,
  };
}

function summarise(results: readonly CaseResult[]): MeanMetrics & { passed: number } {
  return { ...meanMetrics(results.map((r) => r.metrics)), passed: results.filter((r) => r.passed).length };
}

function describe(state: IndexState, ordinal: string): string {
  const entry = state.sections[Number(ordinal)];
  return entry
    ? `${entry.doc.path} › ${entry.section.headingPath[entry.section.headingPath.length - 1] ?? '(preamble)'}`
    : ordinal;
}
