/**
 * How much of the reference BM25's lead on a style is its analyzer rather than its formula (issue
 * 39): `npx tsx bench/referenceAnalyzers.ts [--questions corpus,...] [--style paraphrase]`.
 *
 * The reference BM25 of the dev suite (baselines/docsReference.ts: one field, k1 1.2, b 0.75,
 * `[a-z0-9]+` tokens, a 58-word stop list, no stemming) is re-run over the same sections with
 * the analysis changed one piece at a time, toward what `workspace_context` reads
 * (text/analyzer.ts): the engine's stop words (Snowball's), Porter2 stems, both, and the engine's
 * whole analyzer (identifiers with their parts, the question's frame dropped). `words` =
 * sum of idf x saturation / sum of idf is BM25F's sum divided by a number that is the same for
 * every section of one question, so with one analyzer the two orders differ only by the field
 * model and the bonuses; the difference between these rows is the analyzer's.
 *
 * Two rules for stemming's cost are measured the same way, with the value fitted
 * leave-one-corpus-out (each corpus scored at the value best on the other six, mean nDCG@10):
 * - stem credit c: a section's occurrences of the question's own word count 1, those of other
 *   words of its stem count c (idf is the stem's);
 * - exact form w: the question's word as written is a term of its own, weighed w x its idf, beside
 *   its stem (an exact occurrence earns both).
 * `--questions` prints, for each question of those corpora in `--style` (paraphrase unless
 * given), the reference's nDCG@10 with and without stems and the question's words whose stem is
 * held by many more sections than the word. Findings: bench/RESULTS.md (issue 39, paraphrase
 * under BM25).
 */
import * as path from 'node:path';
import { analyzeQuery, termCounts } from '../server/src/engine/text/analyzer';
import { porterStem } from '../server/src/engine/text/porter';
import { stripQuestionFrame } from '../server/src/engine/text/questionFrame';
import { STOP_WORDS } from '../server/src/engine/text/stopWords';
import { ndcgAt10, tokenize, type DocSection } from './baselines/docsReference';
import { docsCorpora, loadDocsQuestions, referenceSplit, type DocsCorpus, type DocsQuestion } from './evalDocs';

const K1 = 1.2;
const B = 0.75;
/** A term of the question's word as written, beside its stem (never a word of a text). */
const EXACT = '=';

/** One analysis of sections and questions: term counts of a text, the question's terms (repeats dropped). */
interface Analysis {
  name: string;
  text(s: string): Map<string, number>;
  question(q: string): string[];
  /** Weight of a term's idf (the exact-form rule). */
  weight?(term: string): number;
  /** Stem credit: the question's words by stem, and each section's words (see `stemCredit`). */
  credit?: number;
}

const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const referenceStop = (w: string) => tokenize(w).length === 0;
const stem = (w: string) => (/^[a-z]+$/.test(w) ? porterStem(w) : w);
const count = (terms: Iterable<string>) => {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};
const distinct = (terms: Iterable<string>) => [...new Set(terms)];

function simple(name: string, stop: (w: string) => boolean, form: (w: string) => string): Analysis {
  const terms = (s: string) =>
    words(s)
      .filter((w) => !stop(w))
      .map(form);
  return { name, text: (s) => count(terms(s)), question: (q) => distinct(terms(q)) };
}

const REFERENCE = simple('reference (no stems, 58 stop words)', referenceStop, (w) => w);
const ENGINE_STOPS = simple(
  '+ Snowball stop words',
  (w) => STOP_WORDS.has(w),
  (w) => w,
);
const STEMS = simple('+ Porter2 stems', referenceStop, stem);
const BOTH = simple('stems + Snowball stops', (w) => STOP_WORDS.has(w), stem);
const ENGINE: Analysis = {
  name: "the engine's analyzer",
  text: (s) => termCounts(s),
  question: (q) => analyzeQuery(stripQuestionFrame(q)).map((t) => t.key),
};

/** Stems and Snowball stops; the word as written is a term of its own too, weighed w. */
function exactForm(w: number): Analysis {
  const forms = (word: string) => (stem(word) === word ? [word] : [stem(word), `${EXACT}${word}`]);
  const terms = (s: string) =>
    words(s)
      .filter((x) => !STOP_WORDS.has(x))
      .flatMap(forms);
  return {
    name: `exact form w ${w}`,
    text: (s) => count(terms(s)),
    question: (q) => distinct(terms(q)),
    weight: (t) => (t.startsWith(EXACT) ? w : 1),
  };
}

/** Stems and Snowball stops; occurrences of another word of the stem count c. */
function stemCredit(c: number): Analysis {
  return {
    name: `stem credit c ${c}`,
    // The stems, and each word as written under EXACT (read by the credit, never asked).
    text: (s) => {
      const m = new Map<string, number>();
      for (const w of words(s)) {
        if (STOP_WORDS.has(w)) continue;
        m.set(stem(w), (m.get(stem(w)) ?? 0) + 1);
        if (stem(w) !== w) m.set(`${EXACT}${w}`, (m.get(`${EXACT}${w}`) ?? 0) + 1);
      }
      return m;
    },
    question: (q) => distinct(words(q).filter((w) => !STOP_WORDS.has(w))),
    credit: c,
  };
}

/** Okapi BM25 over one field, the reference's, with an analysis of our choosing. */
class Bm25 {
  private readonly n: number;
  private readonly lengths: Float64Array;
  private readonly average: number;
  readonly df = new Map<string, number>();
  private readonly postings = new Map<string, Map<number, number>>();

  constructor(
    texts: readonly string[],
    private readonly analysis: Analysis,
  ) {
    this.n = texts.length;
    this.lengths = new Float64Array(this.n);
    let total = 0;
    texts.forEach((text, d) => {
      for (const [t, c] of analysis.text(text)) {
        if (!t.startsWith(EXACT)) this.lengths[d] += c;
        this.df.set(t, (this.df.get(t) ?? 0) + 1);
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = new Map()));
        list.set(d, c);
      }
      total += this.lengths[d];
    });
    this.average = total / Math.max(1, this.n);
  }

  private idf(t: string): number {
    const n = this.df.get(t) ?? 0;
    return Math.log(1 + (this.n - n + 0.5) / (n + 0.5));
  }

  private add(score: Map<number, number>, idf: number, d: number, c: number): void {
    const norm = K1 * (1 - B + (B * this.lengths[d]) / this.average);
    score.set(d, (score.get(d) ?? 0) + (idf * c * (K1 + 1)) / (c + norm));
  }

  search(question: string, k = 10): number[] {
    const score = new Map<number, number>();
    const { credit, weight } = this.analysis;
    if (credit !== undefined) {
      // The question's words by stem: a section's occurrences of them count 1, the stem's others c.
      const asked = new Map<string, Set<string>>();
      for (const w of this.analysis.question(question)) {
        if (!asked.has(stem(w))) asked.set(stem(w), new Set());
        asked.get(stem(w))?.add(w);
      }
      for (const [s, surfaces] of asked) {
        const list = this.postings.get(s);
        if (!list) continue;
        const idf = this.idf(s);
        for (const [d, all] of list) {
          let own = 0;
          for (const w of surfaces) own += w === s ? all : (this.postings.get(`${EXACT}${w}`)?.get(d) ?? 0);
          own = Math.min(all, own);
          const c = own + credit * (all - own);
          if (c > 0) this.add(score, idf, d, c);
        }
      }
    } else {
      for (const t of this.analysis.question(question)) {
        const list = this.postings.get(t);
        if (!list) continue;
        const idf = this.idf(t) * (weight ? weight(t) : 1);
        for (const [d, c] of list) this.add(score, idf, d, c);
      }
    }
    return [...score.entries()]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, k)
      .map(([d]) => d);
  }
}

interface Loaded {
  corpus: DocsCorpus;
  sections: DocSection[];
  texts: string[];
  questions: DocsQuestion[];
}

function ndcgOf(bm: Bm25, corpus: Loaded, q: DocsQuestion): number {
  const files: string[] = [];
  for (const d of bm.search(q.question))
    if (!files.includes(corpus.sections[d].file)) files.push(corpus.sections[d].file);
  return ndcgAt10(files, q.gold);
}

/** Mean nDCG@10 per style and `all`. */
function figures(corpus: Loaded, analysis: Analysis): Map<string, number> {
  const bm = new Bm25(corpus.texts, analysis);
  const by = new Map<string, number[]>();
  for (const q of corpus.questions) {
    const v = ndcgOf(bm, corpus, q);
    for (const k of [q.style, 'all']) by.set(k, [...(by.get(k) ?? []), v]);
  }
  return new Map([...by].map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / v.length]));
}

const f3 = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));

function analyzerTable(corpora: readonly Loaded[], style: string): void {
  const rows = [REFERENCE, ENGINE_STOPS, STEMS, BOTH, ENGINE];
  console.log(`\nThe reference BM25, ${style} / all, nDCG@10, by analysis:\n`);
  console.log(`| corpus | ${rows.map((r) => r.name).join(' | ')} |`);
  console.log(`| --- | ${rows.map(() => '---').join(' | ')} |`);
  for (const c of corpora) {
    const cells = rows.map((r) => {
      const f = figures(c, r);
      return `${f3(f.get(style))} / ${f3(f.get('all'))}`;
    });
    console.log(`| ${c.corpus.label} | ${cells.join(' | ')} |`);
  }
}

/** A rule at each value; each corpus at the value fitted on the others (best mean `all`). */
function ruleGrid(
  corpora: readonly Loaded[],
  style: string,
  label: string,
  values: readonly number[],
  rule: (v: number) => Analysis,
  off: number,
): void {
  const grid = values.map((v) => corpora.map((c) => figures(c, rule(v))));
  console.log(`\n${label}: ${style} / all nDCG@10 at each value (${off}: the rule off)\n`);
  console.log(
    `| corpus | ${values.map((v) => `${v}`).join(' | ')} | fitted without it | held-out change, all | ${style} |`,
  );
  console.log(`| --- | ${values.map(() => '---').join(' | ')} | --- | --- | --- |`);
  corpora.forEach((c, i) => {
    let best = 0;
    let bestMean = -Infinity;
    values.forEach((_, j) => {
      const others = grid[j].filter((_, k) => k !== i);
      const mean = others.reduce((s, f) => s + (f.get('all') ?? 0), 0) / others.length;
      if (mean > bestMean + 1e-9) {
        best = j;
        bestMean = mean;
      }
    });
    const base = values.indexOf(off);
    const change = (k: string) => (grid[best][i].get(k) ?? 0) - (grid[base][i].get(k) ?? 0);
    const cells = values.map((_, j) => `${f3(grid[j][i].get(style))} / ${f3(grid[j][i].get('all'))}`);
    const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
    console.log(
      `| ${c.corpus.label} | ${cells.join(' | ')} | ${values[best]} | ${signed(change('all'))} | ${signed(change(style))} |`,
    );
  });
}

function questionRows(c: Loaded, style: string): void {
  const plain = new Bm25(c.texts, REFERENCE);
  const stems = new Bm25(c.texts, BOTH);
  const exact = new Bm25(c.texts, exactForm(1));
  console.log(
    `\n${c.corpus.label}, ${style}: the reference without and with stems; words whose stem many more sections hold\n`,
  );
  for (const q of c.questions.filter((x) => x.style === style)) {
    const widened = distinct(words(q.question).filter((w) => !STOP_WORDS.has(w) && stem(w) !== w))
      .map((w) => ({ w, word: exact.df.get(`${EXACT}${w}`) ?? 0, family: stems.df.get(stem(w)) ?? 0 }))
      .filter((x) => x.family > 1.5 * x.word)
      .map((x) => `${x.w} ${x.word} -> ${stem(x.w)} ${x.family}`);
    console.log(
      `- ${q.id}: ${ndcgOf(plain, c, q).toFixed(2)} -> ${ndcgOf(stems, c, q).toFixed(2)}; ${widened.join(', ') || '-'}`,
    );
  }
}

function main(): void {
  const argv = process.argv.slice(2);
  const value = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const style = value('--style') ?? 'paraphrase';
  const questionsOf = value('--questions')?.split(',') ?? [];
  const corpora: Loaded[] = docsCorpora(path.resolve(__dirname, '..', 'test', 'fixtures', 'argocd-docs')).map(
    (corpus) => ({ corpus, ...referenceSplit(corpus), questions: loadDocsQuestions(corpus.dir) }),
  );
  analyzerTable(corpora, style);
  ruleGrid(corpora, style, 'Stem credit c (another word of the stem counts c)', [0.25, 0.5, 0.75, 1], stemCredit, 1);
  ruleGrid(
    corpora,
    style,
    'Exact form w (the word as written, a term of its own)',
    [0, 0.15, 0.3, 0.5, 1],
    exactForm,
    0,
  );
  for (const c of corpora.filter((x) => questionsOf.includes(x.corpus.key))) questionRows(c, style);
}

main();
