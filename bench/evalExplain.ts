/**
 * Are explain_result's causes true? For every labelled question of a documentation corpus whose
 * gold file is not among the first 10 passages (words only), explain_result names a cause, and the
 * cause is checked by re-running the ranking with it removed:
 * - ranked past the limit, or held back by the per-document rule: at the limit it names the page
 *   comes, at the rank it names, and one below that limit it does not;
 * - below the floor, or no candidate: it is not in the ranking however deep (5,000), and with the
 *   question terms it lacks (or, holding them all, those a big section holds only weakly) written
 *   into it as a heading of their own (the fix) it comes within the limit;
 * - a fact buried in a big section (`buried`, beside any standing): with the section split so
 *   the line that answers (the one holding the most of the weak terms, then of the question's)
 *   stands on its own under a heading of those terms, that part ranks higher than it did inside
 *   the big section (or comes at all);
 * - not indexed: every gold file of these corpora is indexed, so this cause would be a miss.
 * `test/unit/tools/explainResult.test.ts` runs it on Argo CD and on a sample of cert-manager's
 * and GoReleaser's questions; `npm run eval` reports all three whole.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
import { analyzeQuery, termSet } from '../server/src/engine/text/analyzer';
import { rankWorkspaceContext } from '../server/src/engine/ranking/workspaceContextRanker';
import { createServices } from '../server/src/services/services';
import { callTool } from '../server/src/tools/callTool';
import type { ExplainOutput } from '../server/src/tools/explainResult';
import { findTool } from '../server/src/tools/registry';
import type { ContextOutput } from '../server/src/tools/workspaceContext';
import { loadDocsQuestions, writeDocsWorkspace, type DocsCorpus } from './evalDocs';

/** How deep "not in the ranking however deep" looks. */
const DEEPEST = 5000;
const LIMIT = 10;

export interface ExplainCase {
  id: string;
  gold: string;
  standing: string;
  rank: number | null;
  limitNeeded?: number;
  /** True when removing the cause brought the page as the explanation said. */
  verified: boolean;
  /** The explanation said the fact is buried in a big section (checked too). */
  buried?: boolean;
  /** What the check saw when it was not. */
  failure?: string;
  summary: string;
}

export interface ExplainEval {
  corpus: string;
  label: string;
  questions: number;
  /** Gold files not among the first 10 passages. */
  misses: number;
  verified: number;
  byStanding: Record<string, number>;
  cases: ExplainCase[];
}

/** Position (1-based) of the first passage of `file` when the ranking is run to `limit`, or null. */
function rankOf(engine: Engine, question: string, file: string, limit: number): number | null {
  const ranked = rankWorkspaceContext(engine.stateForQuery()!, { question, limit, now: Date.now(), meaning: null });
  const at = ranked.passages.findIndex((p) => p.entry.doc.path === file);
  return at < 0 ? null : at + 1;
}

/**
 * Explains every miss of `corpus` (words only) and checks each cause (see the module comment);
 * `every` asks only every n-th question (a fixed sample, for the test suite).
 */
export async function evalExplain(
  corpus: DocsCorpus,
  log: (m: string) => void = () => {},
  parent = path.join(os.tmpdir(), 'wsctx-eval-explain'),
  every = 1,
): Promise<ExplainEval> {
  const workspace = writeDocsWorkspace(corpus, parent);
  const engine = new Engine({ folders: [{ name: corpus.key, absPath: workspace }], embeddings: { provider: 'off' } });
  const services = createServices({ engine });
  const call = async <T>(tool: string, input: Record<string, unknown>) =>
    (await callTool(services, findTool(tool)!, input, { sessionId: 'eval' })) as T;
  const questions = loadDocsQuestions(corpus.dir).filter((_, i) => i % every === 0);
  const cases: ExplainCase[] = [];
  try {
    await engine.waitForIndex();
    for (const q of questions) {
      const files = (
        await call<ContextOutput>('workspace_context', { question: q.question, limit: LIMIT })
      ).passages.map((p) => p.sourceRef.path);
      for (const gold of q.gold.filter((g) => !files.includes(g))) {
        const e = await call<ExplainOutput>('explain_result', { question: q.question, expected: gold, limit: LIMIT });
        const failure =
          (await check(engine, workspace, q.question, gold, e)) ??
          (e.buried ? await checkBuried(engine, workspace, q.question, e) : null);
        cases.push({
          id: q.id,
          gold,
          standing: e.standing,
          rank: e.rank,
          ...(e.limitNeeded !== undefined ? { limitNeeded: e.limitNeeded } : {}),
          verified: failure === null,
          ...(e.buried ? { buried: true } : {}),
          ...(failure ? { failure } : {}),
          summary: e.summary,
        });
      }
    }
  } finally {
    engine.dispose();
  }
  const byStanding: Record<string, number> = {};
  for (const c of cases) byStanding[c.standing] = (byStanding[c.standing] ?? 0) + 1;
  const verified = cases.filter((c) => c.verified).length;
  log(`${corpus.key}: explain_result on ${cases.length} misses, ${verified} causes verified true`);
  return {
    corpus: corpus.key,
    label: corpus.label,
    questions: questions.length,
    misses: cases.length,
    verified,
    byStanding,
    cases,
  };
}

/** Null when the cause is true, else what the check saw. */
async function check(
  engine: Engine,
  workspace: string,
  question: string,
  gold: string,
  e: ExplainOutput,
): Promise<string | null> {
  if (e.standing === 'ranked-below-limit' || e.standing === 'held-back') {
    if (e.rank === null || e.limitNeeded === undefined)
      return `${e.standing} without a rank and the limit that shows it`;
    const at = rankOf(engine, question, gold, e.limitNeeded);
    if (at !== e.rank) return `at limit ${e.limitNeeded} it came at ${at}, not ${e.rank}`;
    const before = rankOf(engine, question, gold, e.limitNeeded - 1);
    if (before !== null) return `it already came at limit ${e.limitNeeded - 1} (rank ${before})`;
    return null;
  }
  if (e.standing === 'below-floor' || e.standing === 'no-candidate') {
    const deep = rankOf(engine, question, gold, DEEPEST);
    if (deep !== null) return `it ranks ${deep} when the ranking is run to ${DEEPEST}`;
    // The terms it lacks, or (all there, but buried in a big section) those it holds only weakly.
    const terms = e.missingTerms.length ? e.missingTerms : (e.weakTerms ?? []);
    if (terms.length === 0) return 'no missing or weakly held terms named';
    const file = path.join(workspace, gold);
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `${original}\n\n## ${terms.join(' ')}\n\nThe answer.\n`);
    try {
      await engine.update([file]);
      const rank = rankOf(engine, question, gold, LIMIT);
      return rank === null ? `still not in the first ${LIMIT} with "## ${terms.join(' ')}" added` : null;
    } finally {
      writeFileSync(file, original);
      await engine.update([file]);
    }
  }
  return `standing ${e.standing}${e.reason ? ` (${e.reason})` : ''} for an indexed gold file`;
}

/**
 * Null when the buried-fact cause is true: the best section split, a heading of the terms it
 * holds weakly put over the line holding most of them, that part ranks higher than it did.
 */
export async function checkBuried(
  engine: Engine,
  workspace: string,
  question: string,
  e: ExplainOutput,
): Promise<string | null> {
  const best = e.best!;
  const terms = e.buried!.weakTerms;
  const file = path.join(workspace, best.path);
  const original = readFileSync(file, 'utf8');
  const lines = original.split('\n');
  const start = best.startLine - 1;
  const level = Math.min(6, (/^(#{1,6})\s/.exec(lines[start] ?? '')?.[1].length ?? 1) + 1);
  // The section runs to the next heading of its level or above.
  let end = start + 1;
  while (end < lines.length && !new RegExp(`^#{1,${level - 1}}\\s`).test(lines[end])) end++;
  // The line that answers: the one holding the most of the weak terms, then of the question's
  // terms, as the index reads them (stemmed: "errors" holds "error").
  const keysOf = (list: readonly string[]) => list.map((t) => analyzeQuery(t)[0]?.key).filter((k) => k !== undefined);
  const weak = keysOf(terms);
  const all = keysOf(e.questionTerms);
  let at = -1;
  let most = 0;
  for (let i = start + 1; i < end; i++) {
    const words = termSet(lines[i]);
    const held = weak.filter((k) => words.has(k)).length * 100 + all.filter((k) => words.has(k)).length;
    if (held > most && held >= 100) [at, most] = [i, held];
  }
  if (at < 0) return `buried: no line of "${best.headingPath.at(-1) ?? best.title}" holds ${terms.join(', ')}`;
  const answer = lines[at];
  // Where the part that answers ranks: inside the big section now, under its own heading after.
  const before = rankOfLine(engine, question, best.path, at + 1);
  // The part that answers, on its own under a heading of its words; the rest of the section after it.
  lines.splice(at + 1, 0, '', `${'#'.repeat(level)} More of ${best.headingPath.at(-1) ?? best.title}`, '');
  lines.splice(at, 0, '', `${'#'.repeat(level)} ${terms.join(' ')}`, '');
  writeFileSync(file, lines.join('\n'));
  try {
    await engine.update([file]);
    const after = rankOfLine(engine, question, best.path, lines.indexOf(answer) + 1);
    if (after === null || (before !== null && after >= before))
      return `buried: with "${best.headingPath.at(-1) ?? best.title}" split at line ${at + 1} the part that answers ranks ${after ?? 'nowhere'}, not above ${before ?? 'nowhere'}`;
    return null;
  } finally {
    writeFileSync(file, original);
    await engine.update([file]);
  }
}

/** Position (1-based) of the passage of `file` whose section holds line `line`, the ranking run as deep as it goes; null when absent. */
function rankOfLine(engine: Engine, question: string, file: string, line: number): number | null {
  const ranked = rankWorkspaceContext(engine.stateForQuery()!, {
    question,
    limit: DEEPEST,
    now: Date.now(),
    meaning: null,
  });
  const at = ranked.passages.findIndex(
    (p) => p.entry.doc.path === file && p.entry.section.startLine <= line && line <= p.entry.section.endLine,
  );
  return at < 0 ? null : at + 1;
}
