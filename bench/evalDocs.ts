/**
 * Eval datasets 3 to 5: real documentation nobody here wrote, with labelled questions in five
 * styles (keyword, paraphrase, identifier, howto, faq) and gold at the file level.
 *
 * - `argocd`: Argo CD's docs (test/fixtures/argocd-docs, Apache-2.0): 455 files, 60 questions.
 * - `cert-manager`: cert-manager's docs (bench/corpora/cert-manager, Apache-2.0): 201 files, 62
 *   questions.
 * - `goreleaser`: GoReleaser's site (bench/corpora/goreleaser, MIT): 233 files, 62 questions.
 *
 * Each corpus becomes a workspace as its project keeps it: its `docs/` (and `mkdocs.yml` when it
 * has one) copied into a fixed folder under the temp directory, and nothing added: the pages are
 * read as a documentation site (or a docs folder) of no entity, as a user's clone of it would be
 * (a one-entity catalog file added beside them gives the same figures, measured).
 * `workspace_context` is asked every question with limit 10 through the tool layer in this process (the code the MCP server runs), words only and, with
 * embeddings, hybrid: every section embedded first by the packaged model, the vectors cached by
 * digest in a fixed folder, so a second run embeds nothing. Beside it, in the same run, the
 * reference BM25 and Lunr over the same files split the reference way (baselines/docsReference.ts).
 * Scoring: the first 10 passages as their distinct files, nDCG@10 and recall@5 per style and
 * overall.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import {
  distinctFiles,
  loadSections,
  ndcgAt10,
  recallAt5,
  ReferenceBm25,
  ReferenceLunr,
} from './baselines/docsReference';
import { ourSystemLabel, startEvalEngine, type EvalEmbeddings, type MeaningFigures } from './evalEngine';
import { summarize, type Summary } from './stats';

export const DOC_STYLES = ['keyword', 'paraphrase', 'identifier', 'howto', 'faq'] as const;

/** One documentation corpus: where it is. */
export interface DocsCorpus {
  /** Dataset key, workspace folder name and `workspace` argument. */
  key: string;
  /** Name printed in tables. */
  label: string;
  /** Folder holding `docs/`, `questions.jsonl` and maybe `mkdocs.yml`. */
  dir: string;
}

const REPO_ROOT = path.resolve(__dirname, '..');

/** The documentation corpora, Argo CD's from `argocdDir`. */
export function docsCorpora(argocdDir: string): DocsCorpus[] {
  return [
    {
      key: 'argocd',
      label: 'Argo CD',
      dir: argocdDir,
    },
    {
      key: 'cert-manager',
      label: 'cert-manager',
      dir: path.join(REPO_ROOT, 'bench', 'corpora', 'cert-manager'),
    },
    {
      key: 'goreleaser',
      label: 'GoReleaser',
      dir: path.join(REPO_ROOT, 'bench', 'corpora', 'goreleaser'),
    },
  ];
}

export interface DocsQuestion {
  id: string;
  question: string;
  style: string;
  gold: string[];
  goldHeading?: string;
}

export interface StyleFigures {
  questions: number;
  ndcg10: number;
  recall5: number;
}

export interface DocsQuestionResult {
  id: string;
  style: string;
  ndcg10: number;
  recall5: number;
  /** Distinct files of the first 10 passages, in order. */
  files: string[];
  gold: string[];
}

export type DocsSystemKey = 'words' | 'hybrid' | 'bm25' | 'lunr';

export interface DocsSystem {
  key: DocsSystemKey;
  system: string;
  /** Per style and `all`. */
  byStyle: Record<string, StyleFigures>;
  latency: Summary;
  questions: DocsQuestionResult[];
}

export interface DocsEval {
  corpus: string;
  label: string;
  files: number;
  /** Sections as the reference baselines split them. */
  baselineSections: number;
  /** Sections our engine indexed. */
  sectionsIndexed: number;
  questions: number;
  systems: DocsSystem[];
  /** Embedding figures of the hybrid run. */
  meaning?: MeaningFigures;
  skipped: string[];
}

export function loadDocsQuestions(dir: string): DocsQuestion[] {
  return readFileSync(path.join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as DocsQuestion);
}

/** Writes the corpus as its docs repository has it in `parent/<key>` (emptied first); returns the folder. */
export function writeDocsWorkspace(corpus: DocsCorpus, parent: string): string {
  const workspace = path.join(parent, corpus.key);
  rmSync(workspace, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  cpSync(path.join(corpus.dir, 'docs'), path.join(workspace, 'docs'), { recursive: true });
  const mkdocs = path.join(corpus.dir, 'mkdocs.yml');
  if (existsSync(mkdocs)) cpSync(mkdocs, path.join(workspace, 'mkdocs.yml'));
  return workspace;
}

/** Argo CD's docs as the workspace the store tests index. */
export function writeArgocdWorkspace(dataDir: string, parent: string): string {
  return writeDocsWorkspace({ ...docsCorpora(dataDir)[0], dir: dataDir }, parent);
}

function figures(results: readonly DocsQuestionResult[]): Record<string, StyleFigures> {
  const out: Record<string, StyleFigures> = {};
  for (const style of [...DOC_STYLES, 'all']) {
    const rows = results.filter((r) => style === 'all' || r.style === style);
    const mean = (pick: (r: DocsQuestionResult) => number) =>
      rows.length ? rows.reduce((s, r) => s + pick(r), 0) / rows.length : 0;
    out[style] = { questions: rows.length, ndcg10: mean((r) => r.ndcg10), recall5: mean((r) => r.recall5) };
  }
  return out;
}

/** The label of each system row. */
export const DOCS_SYSTEM_LABELS: Readonly<Record<DocsSystemKey, string>> = {
  words: ourSystemLabel('off'),
  hybrid: ourSystemLabel('local'),
  bm25: 'BM25 k1 1.2 b 0.75, one field (reference)',
  lunr: 'Lunr 2.3.9, title and headings boosted 2 (reference)',
};

/** Scores `corpus`: our engine in each of `modes`, then the two reference baselines. */
export async function evalDocs(
  corpus: DocsCorpus,
  modes: readonly EvalEmbeddings[],
  log: (m: string) => void,
): Promise<DocsEval> {
  const questions = loadDocsQuestions(corpus.dir);
  const systems: DocsSystem[] = [];
  const skipped: string[] = [];
  const score = async (key: DocsSystemKey, answer: (q: string) => Promise<string[]> | string[]) => {
    const results: DocsQuestionResult[] = [];
    const times: number[] = [];
    for (const q of questions) {
      const t = performance.now();
      const files = await answer(q.question);
      times.push(performance.now() - t);
      results.push({
        id: q.id,
        style: q.style,
        ndcg10: ndcgAt10(files, q.gold),
        recall5: recallAt5(files, q.gold),
        files: files.slice(0, 10),
        gold: q.gold,
      });
    }
    const result: DocsSystem = {
      key,
      system: DOCS_SYSTEM_LABELS[key],
      byStyle: figures(results),
      latency: summarize(times),
      questions: results,
    };
    log(`${corpus.key}: ${result.system}: nDCG@10 ${result.byStyle.all.ndcg10.toFixed(3)}`);
    systems.push(result);
  };

  // A fixed folder per corpus, so that cached vectors (keyed by the folder set) are found again.
  const workspace = writeDocsWorkspace(corpus, path.join(os.tmpdir(), 'wsctx-eval-docs'));
  let sectionsIndexed = 0;
  let meaning: MeaningFigures | undefined;
  const tool = findTool('workspace_context');
  if (!tool) throw new Error('eval: workspace_context is not in TOOLS');
  for (const mode of modes) {
    const started = await startEvalEngine(`docs-${corpus.key}`, { name: corpus.key, absPath: workspace }, mode, log);
    const { engine, state } = started;
    if (started.meaning) meaning = started.meaning;
    sectionsIndexed = state.counts.sections;
    try {
      const services = createServices({ engine });
      await score(mode === 'off' ? 'words' : 'hybrid', async (question) => {
        const out = (await callTool(
          services,
          tool,
          { workspace: corpus.key, question, limit: 10 },
          { sessionId: 'eval' },
        )) as { passages?: { sourceRef?: { path?: string } }[] };
        const files: string[] = [];
        for (const p of out.passages ?? []) {
          const file = p.sourceRef?.path ?? '';
          if (!files.includes(file)) files.push(file);
        }
        return files;
      });
    } finally {
      engine.dispose();
    }
  }
  if (!modes.includes('local')) skipped.push('hybrid (words + meaning): run without --embeddings off');

  const { files, sections } = loadSections(corpus.dir);
  const bm25 = new ReferenceBm25(sections.map((s) => `${s.title}\n${s.heading}\n${s.body}`));
  await score('bm25', (q) => distinctFiles(bm25.search(q, 10), sections));
  const lunrIndex = new ReferenceLunr(sections);
  await score('lunr', (q) => distinctFiles(lunrIndex.search(q, 10), sections));
  return {
    corpus: corpus.key,
    label: corpus.label,
    files: files.length,
    baselineSections: sections.length,
    sectionsIndexed,
    questions: questions.length,
    systems,
    skipped,
    ...(meaning ? { meaning } : {}),
  };
}
