/**
 * The reference baselines and scorer of the documentation corpora (`npm run eval`, evalDocs.ts):
 * the definition the Argo CD set publishes with its labels, written here so that every corpus,
 * ours included, is scored by the same code in the same run.
 *
 * Passages: every Markdown file (`.md`, and `.mdx` or `.markdown` where a corpus names it) under the corpus's
 * `docs/` is split into sections at ATX headings
 * (`#` lines inside ``` or ~~~ fences do not count). A section is the page title (its first H1;
 * without one, the `title:` of its YAML front matter; else the file name), its heading path
 * (`Sync Options > Server-Side Apply`) and its body up to the next heading; text before the first
 * heading is a section of its own when it is not blank. The front matter fallback is ours: the
 * Argo CD set has no page without an H1 that has a front matter title, so its figures are the
 * published ones (BM25 0.652, Lunr 0.547 nDCG@10), while sites that title pages in front matter
 * (cert-manager, GoReleaser) do not leave the baselines with file names for titles.
 * reStructuredText files (`.rst`) are split the same way at their section titles: a line of
 * text under (and optionally over) a line of one repeated punctuation character at least as
 * long, each adornment style a level in the order the file first uses it (docutils' rule); the
 * page title is the first such title. AsciiDoc files (`.adoc`) are split at their section titles,
 * `=` to `======` and a space at the start of a line outside delimited blocks (listing `----`,
 * literal `....`, example `====`, sidebar, quote, passthrough, comment and table blocks), the level
 * the count of `=`; the page title is the first `=` title, else the file name; an Antora module's
 * `nav.adoc` is navigation and not read. A corpus of several repositories (several served folders)
 * reads every file of its formats in each folder, and its paths start with the folder's name.
 *
 * - BM25: Okapi, k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5) / (df + 0.5)); tokens are lower-case
 *   `[a-z0-9]+` runs, a 58-word stop list, no stemming; title, heading path and body are one
 *   field; each distinct query term counts once; ties by section order.
 * - Lunr 2.3.9, default pipeline (trimmer, stop words, stemmer), title and heading path boosted 2;
 *   the query is tokenized, trimmed and stop-worded as the index was, `*` removed, and each token
 *   added as a plain optional term (the query parser is never used).
 *
 * Scoring: a system's first 10 passages become their distinct files in order of first appearance;
 * relevance is binary at the file level; nDCG@10 = DCG / IDCG with IDCG over min(|gold|, 10);
 * recall@5 = gold files among the first 5 / |gold|.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import lunr from 'lunr';

export interface DocSection {
  /** Corpus-relative path (`docs/faq.md`). */
  file: string;
  title: string;
  heading: string;
  body: string;
}

const FENCE = /^\s*(?:>\s?)*\s*(`{3,}|~{3,})/;
const FENCE_CLOSE = /^\s*(?:>\s?)*\s*(`{3,}|~{3,})\s*$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

function cleanHeading(s: string): string {
  return s
    .replace(/<[^>]+>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A title line: where it starts, where its body starts (the next line unless `end` says), its level and text. */
interface Head {
  line: number;
  end?: number;
  level: number;
  text: string;
}

/**
 * A file's sections from its title lines, the same for every format: the text before the first
 * title when it is not blank, then each title's body up to the next title, under its heading path.
 */
function sectionsAt(file: string, title: string, lines: readonly string[], heads: readonly Head[]): DocSection[] {
  const sections: DocSection[] = [];
  const pre = lines.slice(0, heads.length ? heads[0].line : lines.length).join('\n');
  if (pre.trim()) sections.push({ file, title, heading: '', body: pre });
  const stack: Head[] = [];
  heads.forEach((h, k) => {
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push(h);
    const end = k + 1 < heads.length ? heads[k + 1].line : lines.length;
    const body = lines.slice(h.end ?? h.line + 1, end).join('\n');
    sections.push({ file, title, heading: stack.map((x) => x.text).join(' > '), body });
  });
  return sections;
}

/** `title:` of a leading YAML front matter block, unquoted; undefined without one. */
function frontMatterTitle(lines: readonly string[]): string | undefined {
  if (lines[0]?.trim() !== '---') return undefined;
  for (let i = 1; i < lines.length && lines[i].trim() !== '---'; i++) {
    const m = /^title:\s*(.*?)\s*$/.exec(lines[i]);
    if (m) return m[1].replace(/^(["'])(.*)\1$/, '$2').trim() || undefined;
  }
  return undefined;
}

/** The sections of one Markdown file, as the reference splits them. */
export function splitMarkdown(file: string, text: string): DocSection[] {
  const lines = text.split(/\r?\n/);
  let fence: { ch: string; len: number } | null = null;
  const heads: { line: number; level: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (f) {
      const ch = f[1][0];
      const len = f[1].length;
      if (!fence) fence = { ch, len };
      else if (ch === fence.ch && len >= fence.len && FENCE_CLOSE.test(line)) fence = null;
      continue;
    }
    if (fence) continue;
    const m = ATX.exec(line);
    if (m) heads.push({ line: i, level: m[1].length, text: cleanHeading(m[2] ?? '') });
  }
  const h1 = heads.find((h) => h.level === 1 && h.text);
  const title = h1 ? h1.text : (frontMatterTitle(lines) ?? path.posix.basename(file).replace(/\.(mdx?|markdown)$/, ''));
  return sectionsAt(file, title, lines, heads);
}

/** reStructuredText's section adornment: one punctuation character repeated, nothing else. */
const RST_ADORNMENT = /^([!-/:-@[-`{-~])\1+\s*$/;

/** The sections of one reStructuredText file, as the reference splits them (see the module comment). */
export function splitRst(file: string, text: string): DocSection[] {
  const lines = text.split(/\r?\n/);
  const styles: string[] = [];
  const heads: { line: number; end: number; level: number; text: string }[] = [];
  for (let i = 1; i < lines.length; i++) {
    const under = lines[i];
    const title = lines[i - 1];
    const m = RST_ADORNMENT.exec(under);
    if (!m || !title.trim() || /^\s/.test(title) || RST_ADORNMENT.test(title)) continue;
    if (under.trimEnd().length < title.trimEnd().length) continue;
    const over = i >= 2 && lines[i - 2].trimEnd() === under.trimEnd();
    const style = `${over ? 'over' : 'under'}${m[1]}`;
    if (!styles.includes(style)) styles.push(style);
    heads.push({ line: over ? i - 2 : i - 1, end: i + 1, level: styles.indexOf(style) + 1, text: cleanHeading(title) });
  }
  const title = heads[0]?.text ?? path.posix.basename(file).replace(/\.rst$/, '');
  return sectionsAt(file, title, lines, heads);
}

/** An AsciiDoc section title: one to six `=` and a space (`== Retry`); level = the count. */
const ADOC_TITLE = /^(={1,6})[ \t]+(\S.*?)[ \t]*$/;
/** An AsciiDoc delimited block's fence: listing, literal, example, sidebar, quote, passthrough, comment, table. */
const ADOC_FENCE = /^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|\/{4,}|[|,:!]={3,})\s*$/;

/** The sections of one AsciiDoc file, as the reference splits them (see the module comment). */
export function splitAsciidoc(file: string, text: string): DocSection[] {
  const lines = text.split(/\r?\n/);
  let fence: string | null = null;
  const heads: { line: number; level: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = ADOC_FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const m = ADOC_TITLE.exec(line);
    if (m) heads.push({ line: i, level: m[1].length, text: cleanHeading(m[2]) });
  }
  const title = heads.find((h) => h.level === 1)?.text ?? path.posix.basename(file, '.adoc');
  return sectionsAt(file, title, lines, heads);
}

/** The file formats a corpus is written in. */
export type DocFormat = 'md' | 'markdown' | 'mdx' | 'rst' | 'adoc';

/** An Antora module's `nav.adoc` (`modules/<name>/nav.adoc`): the site's navigation, not a page. */
const isAntoraNav = (file: string) => /[\\/]modules[\\/][^\\/]+[\\/]nav\.adoc$/.test(file);

function filesOf(dir: string, formats: readonly DocFormat[]): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesOf(p, formats));
    else if (e.isFile() && formats.some((f) => e.name.endsWith(`.${f}`)) && !isAntoraNav(p)) out.push(p);
  }
  return out;
}

/** Where a corpus's files are, as the reference reads them. */
export interface CorpusFiles {
  /** The formats read (default Markdown only). */
  formats?: readonly DocFormat[];
  /**
   * Folders of `root` read whole, each a repository served as its own folder; paths are
   * `<folder>/<path in it>`. Without them, `root/docs` is read and paths are `docs/...`.
   */
  folders?: readonly string[];
}

/**
 * Every section of every file of the corpus's formats under `root/docs` (or under each of its
 * folders), files in path order.
 */
export function loadSections(root: string, where: CorpusFiles = {}): { files: string[]; sections: DocSection[] } {
  const formats = where.formats ?? ['md'];
  const dirs = where.folders ? where.folders.map((f) => path.join(root, f)) : [path.join(root, 'docs')];
  // Code-unit order, as the dataset's script sorts.
  const files = dirs.flatMap((d) => filesOf(d, formats)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sections: DocSection[] = [];
  for (const abs of files) {
    const rel = path.relative(root, abs).split(path.sep).join('/');
    const text = readFileSync(abs, 'utf8');
    sections.push(
      ...(rel.endsWith('.rst')
        ? splitRst(rel, text)
        : rel.endsWith('.adoc')
          ? splitAsciidoc(rel, text)
          : splitMarkdown(rel, text)),
    );
  }
  return { files, sections };
}

const STOP = new Set(
  `a an and are as at be but by for from has have how i if in into is it its
me my of on or our so that the their them then there these they this to was we what when where
which who why will with you your do does can should would could not no`.split(/\s+/).filter(Boolean),
);

/** The reference systems' terms: lower-cased runs of letters and digits, stop words dropped (no stemming). */
export function tokenize(s: string): string[] {
  return (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));
}

/** A ranked hit: section index and score. */
export interface Hit {
  d: number;
  s: number;
}

/** Plain Okapi BM25 over one field. */
export class ReferenceBm25 {
  private readonly n: number;
  private readonly lengths: Float64Array;
  private readonly df = new Map<string, number>();
  private readonly postings = new Map<string, [number, number][]>();
  private readonly avgdl: number;

  constructor(
    docs: readonly string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.n = docs.length;
    this.lengths = new Float64Array(this.n);
    let total = 0;
    docs.forEach((text, d) => {
      const tokens = tokenize(text);
      const counts = new Map<string, number>();
      for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
      this.lengths[d] = tokens.length;
      total += tokens.length;
      for (const [t, c] of counts) {
        this.df.set(t, (this.df.get(t) ?? 0) + 1);
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push([d, c]);
      }
    });
    this.avgdl = total / Math.max(1, this.n);
  }

  private idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.n - n + 0.5) / (n + 0.5));
  }

  search(query: string, k = 10): Hit[] {
    const score = new Map<number, number>();
    for (const t of new Set(tokenize(query))) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = this.idf(t);
      for (const [d, c] of list) {
        const s = (idf * (c * (this.k1 + 1))) / (c + this.k1 * (1 - this.b + (this.b * this.lengths[d]) / this.avgdl));
        score.set(d, (score.get(d) ?? 0) + s);
      }
    }
    return [...score.entries()]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, k)
      .map(([d, s]) => ({ d, s }));
  }
}

/** Lunr 2 over title (boost 2), heading path (boost 2) and body. */
export class ReferenceLunr {
  private readonly index: lunr.Index;

  constructor(sections: readonly DocSection[]) {
    this.index = lunr(function () {
      this.ref('id');
      this.field('title', { boost: 2 });
      this.field('heading', { boost: 2 });
      this.field('body');
      sections.forEach((s, i) => this.add({ id: String(i), title: s.title, heading: s.heading, body: s.body }));
    });
  }

  search(query: string, k = 10): Hit[] {
    const tokens = lunr
      .tokenizer(query)
      .map((t) => lunr.trimmer(t) as lunr.Token | null | undefined)
      .filter((t): t is lunr.Token => !!t && !!lunr.stopWordFilter(t))
      .map((t) => t.toString().replace(/\*/g, ''))
      .filter(Boolean);
    if (!tokens.length) return [];
    return this.index
      .query((q) => {
        for (const t of tokens) q.term(t, {});
      })
      .slice(0, k)
      .map((r) => ({ d: Number(r.ref), s: r.score }));
  }
}

/** The files of `hits`, distinct, in order of first appearance. */
export function distinctFiles(hits: readonly Hit[], sections: readonly DocSection[]): string[] {
  const seen: string[] = [];
  for (const h of hits) {
    const f = sections[h.d].file;
    if (!seen.includes(f)) seen.push(f);
  }
  return seen;
}

export function ndcgAt10(files: readonly string[], gold: readonly string[]): number {
  const g = new Set(gold);
  let dcg = 0;
  files.slice(0, 10).forEach((f, i) => {
    if (g.has(f)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(g.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  return idcg ? dcg / idcg : 0;
}

export function recallAt5(files: readonly string[], gold: readonly string[]): number {
  const g = new Set(gold);
  return files.slice(0, 5).filter((f) => g.has(f)).length / g.size;
}
