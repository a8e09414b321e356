/**
 * Eval dataset 2: BEIR SciFact (5,183 abstracts, 300 test claims, 339 judgments; evaluation use
 * only, see the dataset's SOURCE.txt).
 *
 * Our engine reads workspaces, not corpora, so the abstracts are written as a workspace: one epic
 * spec per abstract, `epics/<corpus-id>.md` holding `# <title>` and the text as one paragraph
 * (line breaks folded to spaces; a leading `#` escaped so it stays text). Each abstract is then one
 * section whose document title is the abstract's title, which is what the published "title and
 * text in one field" BM25 figure indexes too. `workspace_context` is asked each claim with limit 10,
 * and its passages map back to corpus ids by path, words only and hybrid (every abstract embedded
 * first; minutes with the packaged model, cached for the next run), or one of them (`--embeddings`). The
 * baselines index `title + text` of the same abstracts and answer the same claims.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import { BASELINES, type Passage } from './baselines/engines';
import { ourSystemLabel, startEvalEngine, type EvalEmbeddings, type MeaningFigures } from './evalEngine';
import { evaluateQuery, meanMetrics, type Judgments, type MeanMetrics } from './metrics';
import { summarize, type Summary } from './stats';

/** Published nDCG@10 on the test split, from the dataset's README.md. */
export const SCIFACT_PUBLISHED: readonly { system: string; ndcg10: number; source: string }[] = [
  { system: 'BM25, title and text in one field (Anserini)', ndcg10: 0.679, source: 'Anserini BEIR regressions' },
  {
    system: 'BM25, title and text as separate fields (Anserini)',
    ndcg10: 0.665,
    source: 'Anserini BEIR regressions; BEIR paper',
  },
  { system: 'BM25 (bm25s)', ndcg10: 0.687, source: 'MTEB results' },
  { system: 'all-MiniLM-L6-v2 (dense only)', ndcg10: 0.645, source: 'MTEB' },
];

export interface ScifactSystem {
  system: string;
  metrics: MeanMetrics;
  /** Per-query latency, ms (answering only; building excluded). */
  latency: Summary;
  buildMs: number;
}

export interface ScifactEval {
  documents: number;
  queries: number;
  judgments: number;
  /** Sections our engine indexed from the abstracts (should equal `documents`). */
  sectionsIndexed: number;
  systems: ScifactSystem[];
  published: typeof SCIFACT_PUBLISHED;
  skipped: string[];
  /** Embedding figures, when the run had embeddings on. */
  meaning?: MeaningFigures;
}

interface Corpus {
  docs: { id: string; title: string; text: string }[];
  queries: { id: string; text: string }[];
  qrels: Map<string, Judgments>;
}

export function loadScifact(dir: string): Corpus {
  const lines = (file: string) =>
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim().length > 0);
  const docs = lines('corpus.jsonl').map((l) => {
    const d = JSON.parse(l) as { _id: string; title: string; text: string };
    return { id: d._id, title: d.title, text: d.text };
  });
  const qrels = new Map<string, Map<string, number>>();
  for (const line of lines('qrels/test.tsv').slice(1)) {
    const [q, doc, grade] = line.trim().split('\t');
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(doc, Number(grade));
  }
  const queries = lines('queries.jsonl')
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { docs, queries, qrels };
}

/** One abstract as a Markdown file: `# title`, then the text as one paragraph. */
export function abstractMarkdown(title: string, text: string): string {
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  const body = flat(text).replace(/^#/, '\\#');
  return `# ${flat(title)}\n\n${body}\n`;
}

export async function evalScifact(
  dir: string,
  modes: readonly EvalEmbeddings[],
  log: (m: string) => void,
): Promise<ScifactEval> {
  const corpus = loadScifact(dir);
  const judgments = [...corpus.qrels.values()].reduce((n, j) => n + j.size, 0);
  const systems: ScifactSystem[] = [];
  const skipped: string[] = [];
  const run = async (system: string, buildMs: number, search: (q: string) => Promise<string[]> | string[]) => {
    const perQuery = [];
    const times: number[] = [];
    for (const q of corpus.queries) {
      const t = performance.now();
      const ranked = await search(q.text);
      times.push(performance.now() - t);
      perQuery.push(evaluateQuery(ranked, corpus.qrels.get(q.id)!));
    }
    const result = { system, metrics: meanMetrics(perQuery), latency: summarize(times), buildMs };
    log(`scifact: ${system}: nDCG@10 ${result.metrics.ndcg10.toFixed(4)}`);
    systems.push(result);
  };

  // A fixed folder, so that cached vectors (keyed by the folder set) are found again next run.
  const workspace = path.join(os.tmpdir(), 'wsctx-eval-scifact-workspace');
  rmSync(workspace, { recursive: true, force: true });
  let sectionsIndexed = 0;
  let meaning: MeaningFigures | undefined;
  try {
    mkdirSync(path.join(workspace, 'epics'), { recursive: true });
    for (const d of corpus.docs)
      writeFileSync(path.join(workspace, 'epics', `${d.id}.md`), abstractMarkdown(d.title, d.text));
    const tool = findTool('workspace_context');
    if (!tool) skipped.push('workspace_context is not in TOOLS yet: our engine is not scored on SciFact');
    for (const embeddings of tool ? modes : []) {
      const started = await startEvalEngine('scifact', { name: 'scifact', absPath: workspace }, embeddings, log);
      const { engine, state } = started;
      if (started.meaning) meaning = started.meaning;
      sectionsIndexed = state.counts.sections;
      try {
        const services = createServices({ engine });
        await run(ourSystemLabel(embeddings), started.indexMs + (started.meaning?.embedMs ?? 0), async (question) => {
          const out = (await callTool(
            services,
            tool!,
            { workspace: 'scifact', question, limit: 10 },
            { sessionId: 'eval' },
          )) as { passages?: { sourceRef?: { path?: string } }[] };
          return (out.passages ?? []).map((p) => path.posix.basename(p.sourceRef?.path ?? '', '.md'));
        });
      } finally {
        engine.dispose();
      }
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }

  const passages: Passage[] = corpus.docs.map((d, i) => ({ id: i, text: `${d.title}\n${d.text}` }));
  for (const baseline of BASELINES) {
    const t = performance.now();
    const index = baseline.build(passages);
    const buildMs = performance.now() - t;
    await run(baseline.label, buildMs, (q) => index.search(q, 10).map((i) => corpus.docs[i].id));
  }
  if (!modes.includes('local')) skipped.push('hybrid (words + meaning): run without --embeddings off');
  return {
    documents: corpus.docs.length,
    queries: corpus.queries.length,
    judgments,
    sectionsIndexed,
    systems,
    published: SCIFACT_PUBLISHED,
    skipped,
    ...(meaning ? { meaning } : {}),
  };
}
