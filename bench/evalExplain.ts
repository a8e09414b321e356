/**
 * Are explain_result's causes true? For every labelled question of a documentation corpus whose
 * gold file is not among the first 10 passages (words only), explain_result names a cause, and the
 * cause is checked by re-running the ranking with it removed:
 * - ranked past the limit, or held back by the per-document rule: at the limit it names the page
 *   comes, at the rank it names, and one below that limit it does not;
 * - below the floor, or no candidate: it is not in the ranking however deep (5,000), and with the
 *   question terms it lacks (or, holding them all, those a big section holds only weakly) written
 *   into it as a heading of their own (the fix) it comes within the limit;
 * - not indexed: every gold file of these corpora is indexed, so this cause would be a miss.
 * `test/unit/tools/explainResult.test.ts` runs it on Argo CD; `npm run eval` reports all three.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
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

/** Explains every miss of `corpus` (words only) and checks each cause (see the module comment). */
export async function evalExplain(
  corpus: DocsCorpus,
  log: (m: string) => void = () => {},
  parent = path.join(os.tmpdir(), 'wsctx-eval-explain'),
): Promise<ExplainEval> {
  const workspace = writeDocsWorkspace(corpus, parent);
  const engine = new Engine({ folders: [{ name: corpus.key, absPath: workspace }], embeddings: { provider: 'off' } });
  const services = createServices({ engine });
  const call = async <T>(tool: string, input: Record<string, unknown>) =>
    (await callTool(services, findTool(tool)!, input, { sessionId: 'eval' })) as T;
  const questions = loadDocsQuestions(corpus.dir);
  const cases: ExplainCase[] = [];
  try {
    await engine.waitForIndex();
    for (const q of questions) {
      const files = (
        await call<ContextOutput>('workspace_context', { question: q.question, limit: LIMIT })
      ).passages.map((p) => p.sourceRef.path);
      for (const gold of q.gold.filter((g) => !files.includes(g))) {
        const e = await call<ExplainOutput>('explain_result', { question: q.question, expected: gold, limit: LIMIT });
        const failure = await check(engine, workspace, q.question, gold, e);
        cases.push({
          id: q.id,
          gold,
          standing: e.standing,
          rank: e.rank,
          ...(e.limitNeeded !== undefined ? { limitNeeded: e.limitNeeded } : {}),
          verified: failure === null,
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
