/**
 * The documentation dev suite: real documentation nobody here wrote, with labelled questions in
 * five styles (keyword, paraphrase, identifier, howto, faq; `cross` too where several repositories
 * are served together) and gold at the file level (bench/corpora/README.md). Each corpus has a
 * shape of its own, so that a ranking change is judged on several (bench/docsSuite.ts):
 *
 * - `argocd`: Argo CD's docs (test/fixtures/argocd-docs, Apache-2.0), an MkDocs site: 455 files.
 * - `cert-manager`: cert-manager's docs (Apache-2.0), configuration-heavy: 201 files.
 * - `goreleaser`: GoReleaser's site (MIT), Hugo, one YAML key per line documented: 233 files.
 * - `rclone`: rclone.org (MIT), Hugo, reference-heavy: one heading per flag in pages of 100-309 KB.
 * - `babel`: babeljs.io's docs (MIT), Docusaurus, one page per package sharing option names.
 * - `secrets`: four repositories of one domain (external-secrets, sealed-secrets,
 *   secrets-store-csi-driver, reloader; Apache-2.0), each served as its own workspace folder, of
 *   very different sizes, with overlapping vocabulary.
 * - `scrapy`: Scrapy's docs (BSD-3-Clause), reStructuredText (Sphinx): 54 files.
 * - `spring-cloud-gateway`: Spring Cloud Gateway's reference (Apache-2.0), AsciiDoc in an Antora
 *   layout; its two servers (WebFlux, WebMVC) document the same filters in parallel pages: 125 files.
 * - `pnpm`: pnpm.io's docs (MIT), Docusaurus: a page per command, settings written camelCase and
 *   kebab-case, MDX partials: 144 files.
 * - `cargo`: The Cargo Book (MIT OR Apache-2.0), mdBook: big reference pages of one heading per
 *   key or feature, command pages whose flags are HTML definition lists, a 449 KB changelog: 99 files.
 * - `vite`: Vite's docs (MIT), VitePress: a configuration reference of one heading per option
 *   written as its dotted path, containers for tips and warnings, a troubleshooting page: 57 files.
 * - `eslint`: ESLint's docs (MIT), Eleventy: 312 rule pages of one template (the same headings on
 *   every page, the rule named only in front matter), the user and extension guides: 395 files.
 * - `jekyll`: Jekyll's site (MIT), written in Liquid: `{% highlight %}` and `{% include %}` tags,
 *   notes as HTML blocks, 102 release announcements and a 303 KB changelog: 207 files.
 * - `keps`: SIG CLI's Kubernetes Enhancement Proposals (Apache-2.0), design documents of one
 *   template, each its folder's README.md, the same review questions as headings in each: 36 files.
 * - `opentelemetry-js`: OpenTelemetry's JavaScript monorepo (Apache-2.0), no documentation site:
 *   its packages' READMEs, a few guides and four changelogs, at the repository's own paths: 84 files.
 *
 * Each corpus becomes a workspace as its project keeps it: its `docs/` (and `mkdocs.yml` when it
 * has one) copied into a fixed folder under the temp directory, or each repository of a
 * several-folder corpus copied as a folder of its own, and nothing added: the pages are read as a
 * documentation site (or a docs folder) of no entity, as a user's clone of it would be.
 * `workspace_context` is asked every question with limit 10 through the tool layer in this
 * process (the code the MCP server runs; with several folders, every folder at once, as an agent
 * asks a multi-root workspace), words only and, with embeddings, hybrid: every section embedded
 * first by the packaged model, the vectors cached by digest in a fixed folder, so a second run
 * embeds nothing. Beside it, in the same run, the reference BM25 and Lunr over the same files
 * split the reference way (baselines/docsReference.ts). Scoring: the first 10 passages as their
 * distinct files (workspace paths: `<folder>/<path>` with several folders), nDCG@10 and recall@5 per style,
 * per repository and overall.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RankingTuning } from '../server/src/engine/ranking/contract';
import type { SourceGlobs } from '../server/src/engine/workspace/globs';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import {
  loadSections,
  ndcgAt10,
  recallAt5,
  ReferenceBm25,
  ReferenceLunr,
  type DocFormat,
  type DocSection,
  type Hit,
} from './baselines/docsReference';
import { ourSystemLabel, startEvalEngine, type EvalEmbeddings, type MeaningFigures } from './evalEngine';
import { summarize, type Summary } from './stats';

export const DOC_STYLES = ['keyword', 'paraphrase', 'identifier', 'howto', 'faq'] as const;
/** Questions whose words match several served repositories (several-folder corpora only). */
export const CROSS_STYLE = 'cross';

/** One documentation corpus: where it is and how it is served. */
export interface DocsCorpus {
  /** Dataset key, workspace folder name and `workspace` argument. */
  key: string;
  /** Name printed in tables. */
  label: string;
  /** Folder holding `docs/` (or the repositories' folders), `questions.jsonl` and maybe `mkdocs.yml`. */
  dir: string;
  /** What the corpus stands for in the suite. */
  shape: string;
  /**
   * Several repositories served together: each names a folder of `dir` served as its own
   * workspace folder, and gold paths start with it. Absent: `dir/docs` served as one folder.
   */
  folders?: readonly string[];
  /** The file formats of its pages (default Markdown). */
  formats?: readonly DocFormat[];
  /**
   * Source globs the engine reads it with, replacing the defaults field by field: files the
   * default globs do not read yet that the corpus's pages are (release notes at a repository
   * root, charts' READMEs).
   */
  globs?: Partial<SourceGlobs>;
}

const REPO_ROOT = path.resolve(__dirname, '..');
const corpusDir = (key: string) => path.join(REPO_ROOT, 'bench', 'corpora', key);

/** The documentation corpora of the dev suite, Argo CD's from `argocdDir`. */
export function docsCorpora(argocdDir: string): DocsCorpus[] {
  return [
    { key: 'argocd', label: 'Argo CD', dir: argocdDir, shape: 'MkDocs site, one product' },
    {
      key: 'cert-manager',
      label: 'cert-manager',
      dir: corpusDir('cert-manager'),
      shape: 'configuration-heavy, generated API reference',
    },
    { key: 'goreleaser', label: 'GoReleaser', dir: corpusDir('goreleaser'), shape: 'Hugo site, YAML keys' },
    {
      key: 'rclone',
      label: 'rclone',
      dir: corpusDir('rclone'),
      shape: 'reference-heavy: one heading per flag in 100-309 KB pages',
    },
    { key: 'babel', label: 'Babel', dir: corpusDir('babel'), shape: 'Docusaurus site, a page per package' },
    {
      key: 'secrets',
      label: 'secrets (4 repos)',
      dir: corpusDir('secrets'),
      shape: 'four repositories of one domain, four folders',
      folders: ['external-secrets', 'sealed-secrets', 'secrets-store-csi-driver', 'reloader'],
      globs: { docs: ['**/*.md'] },
    },
    {
      key: 'scrapy',
      label: 'Scrapy',
      dir: corpusDir('scrapy'),
      shape: 'reStructuredText (Sphinx)',
      formats: ['rst'],
    },
    {
      key: 'spring-cloud-gateway',
      label: 'Spring Cloud Gateway',
      dir: corpusDir('spring-cloud-gateway'),
      shape: 'AsciiDoc (Antora), two servers documented in parallel pages',
      formats: ['adoc'],
    },
    {
      key: 'pnpm',
      label: 'pnpm',
      dir: corpusDir('pnpm'),
      shape: 'Docusaurus, a page per command, settings in two spellings, MDX partials',
      formats: ['md', 'mdx'],
    },
    {
      key: 'cargo',
      label: 'Cargo',
      dir: corpusDir('cargo'),
      shape: 'mdBook, reference pages of one heading per key, flags in HTML definition lists',
      formats: ['md'],
    },
    {
      key: 'vite',
      label: 'Vite',
      dir: corpusDir('vite'),
      shape: 'VitePress, one heading per option written as its dotted path',
      formats: ['md'],
    },
    {
      key: 'eslint',
      label: 'ESLint',
      dir: corpusDir('eslint'),
      shape: 'Eleventy, 312 rule pages of one template named in front matter',
      formats: ['md'],
    },
    {
      key: 'jekyll',
      label: 'Jekyll',
      dir: corpusDir('jekyll'),
      shape: 'Jekyll, Liquid tags in the pages, notes as HTML blocks, `.md` and `.markdown`',
      formats: ['md', 'markdown'],
    },
    {
      key: 'keps',
      label: 'Kubernetes KEPs (SIG CLI)',
      dir: corpusDir('keps'),
      shape: 'design documents of one template, each a README.md, 5-87 KB',
      formats: ['md'],
    },
    {
      key: 'opentelemetry-js',
      label: 'OpenTelemetry JS',
      dir: corpusDir('opentelemetry-js'),
      shape: 'a monorepo with no docs site: 44 package READMEs, guides, four changelogs',
      formats: ['md'],
    },
  ];
}

/**
 * The corpus split the reference way (baselines/docsReference.ts), each section's text as the
 * reference BM25 reads it: title, heading path and body, one field.
 */
export function referenceSplit(corpus: DocsCorpus): { files: string[]; sections: DocSection[]; texts: string[] } {
  const { files, sections } = loadSections(corpus.dir, {
    ...(corpus.formats ? { formats: corpus.formats } : {}),
    ...(corpus.folders ? { folders: corpus.folders } : {}),
  });
  return { files, sections, texts: sections.map((s) => `${s.title}\n${s.heading}\n${s.body}`) };
}

export interface DocsQuestion {
  id: string;
  question: string;
  style: string;
  gold: string[];
  goldHeading?: string;
  /** The served repository the question is about (several-folder corpora; absent for `cross`). */
  folder?: string;
}

export interface StyleFigures {
  questions: number;
  ndcg10: number;
  recall5: number;
  /** Share of the questions with a `goldHeading` whose section is among the first 10 passages. */
  section10?: number;
}

export interface DocsQuestionResult {
  id: string;
  style: string;
  folder?: string;
  ndcg10: number;
  recall5: number;
  /**
   * Where the section the question was written from (`goldHeading` in `gold[0]`) comes among the
   * first 10 passages (1-based), or null when it does not: the answer's own section, not just its
   * page. Absent for a question without a `goldHeading`.
   */
  sectionRank?: number | null;
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
  /** Per repository, for a several-folder corpus (questions naming one). */
  byFolder?: Record<string, StyleFigures>;
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
  /** Its pages of {@link BIG_PAGE_BYTES} or more (corpus-relative paths). */
  bigPages: string[];
}

/** A page this large is a reference page whose answer is one short section among many (issue 39, point 3). */
export const BIG_PAGE_BYTES = 100 * 1024;

export function loadDocsQuestions(dir: string): DocsQuestion[] {
  return readFileSync(path.join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as DocsQuestion);
}

/** The styles a corpus's questions use, in table order. */
export function stylesOf(questions: readonly { style: string }[]): string[] {
  const cross = questions.some((q) => q.style === CROSS_STYLE) ? [CROSS_STYLE] : [];
  return [...DOC_STYLES, ...cross];
}

/**
 * Writes the corpus as its repositories have it in `parent/<key>` (emptied first) and returns the
 * folders to serve: one (`docs/` and `mkdocs.yml`) or one per repository.
 */
export function writeDocsFolders(corpus: DocsCorpus, parent: string): { name: string; absPath: string }[] {
  const workspace = path.join(parent, corpus.key);
  rmSync(workspace, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  if (corpus.folders) {
    return corpus.folders.map((name) => {
      const absPath = path.join(workspace, name);
      cpSync(path.join(corpus.dir, name), absPath, { recursive: true });
      return { name, absPath };
    });
  }
  cpSync(path.join(corpus.dir, 'docs'), path.join(workspace, 'docs'), { recursive: true });
  const mkdocs = path.join(corpus.dir, 'mkdocs.yml');
  if (existsSync(mkdocs)) cpSync(mkdocs, path.join(workspace, 'mkdocs.yml'));
  return [{ name: corpus.key, absPath: workspace }];
}

/** A one-folder corpus as the workspace the explain eval and the store tests index; returns the folder. */
export function writeDocsWorkspace(corpus: DocsCorpus, parent: string): string {
  if (corpus.folders) throw new Error(`eval: ${corpus.key} is served as several folders`);
  return writeDocsFolders(corpus, parent)[0].absPath;
}

/** Argo CD's docs as the workspace the store tests index. */
export function writeArgocdWorkspace(dataDir: string, parent: string): string {
  return writeDocsWorkspace({ ...docsCorpora(dataDir)[0], dir: dataDir }, parent);
}

/** One passage of an answer: its file and its own heading (the page title for the text before the first). */
interface Passage {
  file: string;
  heading: string;
}

/** A heading as compared with a question's `goldHeading`: no code marks, anchors, emoji or case. */
export function headingKey(heading: string): string {
  return heading
    .replace(/\{#[^}]*\}/g, '')
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}

/** Rank (1-based) of the first passage that is the question's gold section, null when none is; undefined without a goldHeading. */
function goldSectionRank(passages: readonly Passage[], q: DocsQuestion): number | null | undefined {
  if (!q.goldHeading) return undefined;
  const want = headingKey(q.goldHeading);
  const at = passages
    .slice(0, 10)
    .findIndex((p) => p.file === q.gold[0] && (headingKey(p.heading) === want || headingKey(p.heading).endsWith(want)));
  return at < 0 ? null : at + 1;
}

function meanFigures(rows: readonly DocsQuestionResult[]): StyleFigures {
  const mean = (pick: (r: DocsQuestionResult) => number) =>
    rows.length ? rows.reduce((s, r) => s + pick(r), 0) / rows.length : 0;
  const withSection = rows.filter((r) => r.sectionRank !== undefined);
  return {
    questions: rows.length,
    ndcg10: mean((r) => r.ndcg10),
    recall5: mean((r) => r.recall5),
    ...(withSection.length
      ? { section10: withSection.filter((r) => r.sectionRank !== null).length / withSection.length }
      : {}),
  };
}

function figures(results: readonly DocsQuestionResult[], styles: readonly string[]): Record<string, StyleFigures> {
  const out: Record<string, StyleFigures> = {};
  for (const style of [...styles, 'all'])
    out[style] = meanFigures(results.filter((r) => style === 'all' || r.style === style));
  return out;
}

function folderFigures(results: readonly DocsQuestionResult[]): Record<string, StyleFigures> | undefined {
  const folders = [...new Set(results.map((r) => r.folder).filter((f): f is string => !!f))];
  if (folders.length === 0) return undefined;
  return Object.fromEntries(folders.map((f) => [f, meanFigures(results.filter((r) => r.folder === f))]));
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
  tuning?: RankingTuning,
): Promise<DocsEval> {
  const questions = loadDocsQuestions(corpus.dir);
  const styles = stylesOf(questions);
  const systems: DocsSystem[] = [];
  const skipped: string[] = [];
  const score = async (key: DocsSystemKey, answer: (q: string) => Promise<Passage[]> | Passage[]) => {
    const results: DocsQuestionResult[] = [];
    const times: number[] = [];
    for (const q of questions) {
      const t = performance.now();
      const passages = await answer(q.question);
      times.push(performance.now() - t);
      const files: string[] = [];
      for (const p of passages) if (!files.includes(p.file)) files.push(p.file);
      const section = goldSectionRank(passages, q);
      results.push({
        id: q.id,
        style: q.style,
        ...(q.folder ? { folder: q.folder } : {}),
        ndcg10: ndcgAt10(files, q.gold),
        recall5: recallAt5(files, q.gold),
        ...(section !== undefined ? { sectionRank: section } : {}),
        files: files.slice(0, 10),
        gold: q.gold,
      });
    }
    const byFolder = folderFigures(results);
    const result: DocsSystem = {
      key,
      system: DOCS_SYSTEM_LABELS[key],
      byStyle: figures(results, styles),
      ...(byFolder ? { byFolder } : {}),
      latency: summarize(times),
      questions: results,
    };
    log(`${corpus.key}: ${result.system}: nDCG@10 ${result.byStyle.all.ndcg10.toFixed(3)}`);
    systems.push(result);
  };

  // A fixed folder per corpus, so that cached vectors (keyed by the folder set) are found again.
  const folders = writeDocsFolders(corpus, path.join(os.tmpdir(), 'wsctx-eval-docs'));
  const several = folders.length > 1;
  let sectionsIndexed = 0;
  let meaning: MeaningFigures | undefined;
  const tool = findTool('workspace_context');
  if (!tool) throw new Error('eval: workspace_context is not in TOOLS');
  for (const mode of modes) {
    const started = await startEvalEngine(`docs-${corpus.key}`, folders, mode, log, corpus.globs);
    const { engine, state } = started;
    if (started.meaning) meaning = started.meaning;
    sectionsIndexed = state.counts.sections;
    try {
      if (sectionsIndexed === 0) {
        skipped.push(
          `workspace_context: this build reads none of the corpus's files (${(corpus.formats ?? ['md']).map((f) => `.${f}`).join(', ')})`,
        );
        break;
      }
      const services = createServices({ engine, ...(tuning ? { rankingTuning: tuning } : {}) });
      await score(mode === 'off' ? 'words' : 'hybrid', async (question) => {
        // Several folders: every folder at once, as an agent asks a multi-root workspace.
        const out = (await callTool(
          services,
          tool,
          { ...(several ? {} : { workspace: corpus.key }), question, limit: 10 },
          { sessionId: 'eval' },
        )) as { passages?: { title?: string; headingPath?: string[]; sourceRef?: { path?: string } }[] };
        // Workspace paths: with several folders they start with the folder's name, as gold paths do.
        return (out.passages ?? []).map((p) => ({
          file: p.sourceRef?.path ?? '',
          heading: p.headingPath?.[p.headingPath.length - 1] ?? p.title ?? '',
        }));
      });
    } finally {
      engine.dispose();
    }
  }
  if (!modes.includes('local')) skipped.push('hybrid (words + meaning): run without --embeddings off');

  const { files, sections, texts } = referenceSplit(corpus);
  const bm25 = new ReferenceBm25(texts);
  const asPassages = (hits: readonly Hit[]) =>
    hits.map((h) => {
      const s = sections[h.d];
      const path = s.heading.split(' > ');
      return { file: s.file, heading: s.heading ? path[path.length - 1] : s.title };
    });
  await score('bm25', (q) => asPassages(bm25.search(q, 10)));
  const lunrIndex = new ReferenceLunr(sections);
  await score('lunr', (q) => asPassages(lunrIndex.search(q, 10)));
  const bigPages = files
    .filter((abs) => statSync(abs).size >= BIG_PAGE_BYTES)
    .map((abs) => path.relative(corpus.dir, abs).split(path.sep).join('/'));
  return {
    corpus: corpus.key,
    label: corpus.label,
    bigPages,
    files: files.length,
    baselineSections: sections.length,
    sectionsIndexed,
    questions: questions.length,
    systems,
    skipped,
    ...(meaning ? { meaning } : {}),
  };
}
