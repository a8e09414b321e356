/**
 * Eval dataset 3: Argo CD's documentation (../shared/data/argocd-docs, Apache-2.0): 455 Markdown
 * files verbatim, 60 labelled questions in five styles (keyword, paraphrase, identifier, howto,
 * faq), gold at the file level. Nobody here wrote it; it is the real-documentation check of the
 * ranking.
 *
 * The docs become a workspace the way a docs repository is one: the dataset's `docs/` and
 * `mkdocs.yml` copied into a fresh folder with one `catalog-info.yaml` whose Component carries
 * `backstage.io/techdocs-ref: dir:.`, so every page is a `catalog_doc` of that one entity (the
 * case where the named-entity bonus applies to every passage alike).
 *
 * The product is asked through the built CLI's MCP server over stdio with the SDK client, as an
 * agent asks it: `wsctx index` first (with `--embeddings local` it embeds every section, cached in
 * a fixed folder under the temp directory), then `wsctx mcp` answering `workspace_context` with
 * limit 10. Scoring follows the dataset's README: the first 10 passages mapped to files, distinct
 * files in order of first appearance, binary relevance, nDCG@10 and recall@5 per style and overall.
 * The reference baselines are the dataset's own (`baselines.mjs`: BM25 k1 1.2 b 0.75 over title +
 * heading path + body in one field, and Lunr 2 with title and heading boosted 2), run over the
 * same sections in the same process.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import lunr from 'lunr';
import type { EvalEmbeddings } from './evalEngine';
import { ourSystemLabel } from './evalEngine';
import { summarize, type Summary } from './stats';

export const ARGOCD_STYLES = ['keyword', 'paraphrase', 'identifier', 'howto', 'faq'] as const;

export interface ArgocdQuestion {
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

export interface ArgocdQuestionResult {
  id: string;
  style: string;
  ndcg10: number;
  recall5: number;
  /** Distinct files of the first 10 passages, in order. */
  files: string[];
  gold: string[];
}

export interface ArgocdSystem {
  system: string;
  /** Per style and `all`. */
  byStyle: Record<string, StyleFigures>;
  latency: Summary;
  questions: ArgocdQuestionResult[];
}

export interface ArgocdEval {
  files: number;
  /** Sections as the dataset's baselines split them. */
  baselineSections: number;
  /** Sections our engine indexed. */
  sectionsIndexed: number;
  questions: number;
  systems: ArgocdSystem[];
  /** How the product's meaning stood when it was asked (hybrid runs). */
  meaningNote?: string;
  skipped: string[];
}

interface BaselineModule {
  loadSections(root: string): { files: string[]; sections: { file: string; title: string; heading: string; body: string }[] };
  BM25: new (docs: string[]) => { search(q: string, k: number): { d: number; s: number }[] };
  buildLunr(l: typeof lunr, sections: unknown[]): lunr.Index;
  lunrSearch(l: typeof lunr, idx: lunr.Index, q: string, k: number): { d: number; s: number }[];
  distinctFiles(hits: { d: number }[], sections: { file: string }[]): string[];
  ndcgAt10(files: string[], gold: string[]): number;
  recallAt5(files: string[], gold: string[]): number;
}

const REPO_ROOT = path.resolve(__dirname, '..');
const WSCTX = path.join(REPO_ROOT, 'dist', 'wsctx.js');
/** The workspace folder's name, which is also the `workspace` argument of every call. */
const WORKSPACE_NAME = 'argocd';

export function loadArgocdQuestions(dataDir: string): ArgocdQuestion[] {
  return readFileSync(path.join(dataDir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ArgocdQuestion);
}

/** Writes the docs as a one-entity docs repository; returns its folder. */
export function writeArgocdWorkspace(dataDir: string, parent: string): string {
  const workspace = path.join(parent, WORKSPACE_NAME);
  rmSync(workspace, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  cpSync(path.join(dataDir, 'docs'), path.join(workspace, 'docs'), { recursive: true });
  cpSync(path.join(dataDir, 'mkdocs.yml'), path.join(workspace, 'mkdocs.yml'));
  writeFileSync(
    path.join(workspace, 'catalog-info.yaml'),
    [
      'apiVersion: backstage.io/v1alpha1',
      'kind: Component',
      'metadata:',
      '  name: argo-cd',
      '  title: Argo CD',
      '  description: Declarative GitOps continuous delivery for Kubernetes.',
      '  annotations:',
      '    backstage.io/techdocs-ref: dir:.',
      'spec:',
      '  type: service',
      '  lifecycle: production',
      '  owner: argoproj',
      '',
    ].join('\n'),
  );
  return workspace;
}

function figures(results: readonly ArgocdQuestionResult[]): Record<string, StyleFigures> {
  const out: Record<string, StyleFigures> = {};
  for (const style of [...ARGOCD_STYLES, 'all']) {
    const rows = results.filter((r) => style === 'all' || r.style === style);
    const mean = (pick: (r: ArgocdQuestionResult) => number) => (rows.length ? rows.reduce((s, r) => s + pick(r), 0) / rows.length : 0);
    out[style] = { questions: rows.length, ndcg10: mean((r) => r.ndcg10), recall5: mean((r) => r.recall5) };
  }
  return out;
}

export async function evalArgocd(dataDir: string, embeddings: EvalEmbeddings, log: (m: string) => void): Promise<ArgocdEval> {
  if (!existsSync(WSCTX)) throw new Error(`eval: ${WSCTX} is missing: run \`npm run build\` first`);
  const baseline = (await import(pathToFileURL(path.join(dataDir, 'baselines.mjs')).href)) as BaselineModule;
  const questions = loadArgocdQuestions(dataDir);
  const systems: ArgocdSystem[] = [];
  const skipped: string[] = [];

  const score = async (system: string, answer: (q: string) => Promise<string[]> | string[]) => {
    const results: ArgocdQuestionResult[] = [];
    const times: number[] = [];
    for (const q of questions) {
      const t = performance.now();
      const files = await answer(q.question);
      times.push(performance.now() - t);
      results.push({ id: q.id, style: q.style, ndcg10: baseline.ndcgAt10(files, q.gold), recall5: baseline.recallAt5(files, q.gold), files: files.slice(0, 10), gold: q.gold });
    }
    const result: ArgocdSystem = { system, byStyle: figures(results), latency: summarize(times), questions: results };
    log(`argocd: ${system}: nDCG@10 ${result.byStyle.all.ndcg10.toFixed(3)}`);
    systems.push(result);
  };

  // The product, through its MCP server. A fixed parent folder keeps the snapshot and the vector
  // cache (keyed by folder) for the next run.
  const parent = path.join(os.tmpdir(), 'wsctx-eval-argocd');
  const cacheDir = path.join(parent, `cache-${embeddings}`);
  const workspace = writeArgocdWorkspace(dataDir, parent);
  const cliEmbeddings = embeddings === 'off' ? 'off' : 'local';
  const env = { ...(process.env as Record<string, string>), WSCTX_CACHE_DIR: cacheDir };
  log(`argocd: wsctx index --embeddings ${cliEmbeddings} (embeds every section when local; cached)`);
  const indexed = spawnSync(process.execPath, [WSCTX, 'index', '--workspace', workspace, '--embeddings', cliEmbeddings, '--json'], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (indexed.status !== 0) throw new Error(`eval: wsctx index failed (${indexed.status}): ${indexed.stderr}`);
  const sectionsIndexed = (JSON.parse(indexed.stdout) as { sections?: number }).sections ?? 0;

  const transport = new StdioClientTransport({ command: process.execPath, args: [WSCTX, 'mcp', '--workspace', workspace, '--embeddings', cliEmbeddings], env, stderr: 'pipe' });
  const client = new Client({ name: 'wsctx-eval', version: '1.0.0' });
  await client.connect(transport);
  let meaningNote: string | undefined;
  try {
    await score(ourSystemLabel(embeddings), async (question) => {
      const result = await client.callTool({ name: 'workspace_context', arguments: { workspace: WORKSPACE_NAME, question, limit: 10 } });
      const out = result.structuredContent as { passages?: { sourceRef?: { path?: string } }[]; meaning?: unknown; degraded?: string[] } | undefined;
      if (result.isError || !out) throw new Error(`eval: workspace_context failed: ${JSON.stringify(result.content)}`);
      if (out.meaning && !meaningNote) meaningNote = JSON.stringify(out.meaning);
      const files: string[] = [];
      for (const p of out.passages ?? []) {
        const file = p.sourceRef?.path ?? '';
        if (!files.includes(file)) files.push(file);
      }
      return files;
    });
  } finally {
    await client.close();
  }

  // The dataset's own reference baselines, same sections, same run.
  const { files, sections } = baseline.loadSections(dataDir);
  const bm25 = new baseline.BM25(sections.map((s) => `${s.title}\n${s.heading}\n${s.body}`));
  await score('BM25 k1 1.2 b 0.75, one field (dataset reference)', (q) => baseline.distinctFiles(bm25.search(q, 10), sections));
  const lunrIndex = baseline.buildLunr(lunr, sections);
  await score('Lunr 2.3.9, title and headings boosted 2 (dataset reference)', (q) => baseline.distinctFiles(baseline.lunrSearch(lunr, lunrIndex, q, 10), sections));
  if (embeddings === 'off') skipped.push('hybrid (words + meaning): run with --embeddings local');
  return { files: files.length, baselineSections: sections.length, sectionsIndexed, questions: questions.length, systems, skipped, ...(meaningNote ? { meaningNote } : {}) };
}
