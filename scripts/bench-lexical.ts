/**
 * Micro-benchmark of text analysis and the postings index (engine/text, engine/lexical).
 *
 *   npx tsx scripts/bench-lexical.ts            10k and 100k sections
 *   npx tsx scripts/bench-lexical.ts 10000      one size
 *
 * Synthetic corpus, seeded (same text every run): passages of 100-200 words (~150) drawn from a
 * Zipf-like vocabulary of 50,000 made-up words (exponent 1.0), about 5% of them identifiers
 * (`word-word`, `wordWord`, `a.b.c`, `word2`), with sentence punctuation and capitals. Queries are
 * 3-8 words drawn from the same distribution, analysed with `analyzeQuery`; only `match` is timed.
 * A second mix leaves out the 100 most common words (which occur in nearly every passage), closer
 * to real questions once stop words are gone.
 * Cold build: each section is analysed (`analyzeText`, timed as "analyze") and handed to a
 * `PostingsBuilder` ("index build" is the builder's share, `build()` included).
 * An update is one document of 20 sections removed and re-added (analysis included).
 * Prints a table; read ratios rather than absolute numbers on a shared machine.
 */
import { performance } from 'node:perf_hooks';
import { PostingsIndex } from '../server/src/engine/lexical/postings';
import { PostingsBuilder } from '../server/src/engine/lexical/postingsBuilder';
import { analyzeQuery, analyzeText } from '../server/src/engine/text/analyzer';

const VOCABULARY = 50_000;
const ZIPF_EXPONENT = 1.0;
const QUERIES = 300;
const UPDATES = 50;
const SECTIONS_PER_DOCUMENT = 20;
/** Second query mix: words drawn below this Zipf rank only (the head is in nearly every passage). */
const HEAD_RANKS = 100;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ba',
  'ker',
  'lo',
  'min',
  'tra',
  'ves',
  'qui',
  'don',
  'sel',
  'par',
  'ro',
  'nat',
  'el',
  'su',
  'gor',
  'fen',
  'di',
  'mar',
];
const SUFFIXES = ['', '', '', 's', 'ed', 'ing', 'er', 'ly', 'tion', 'ness'];

class Corpus {
  readonly words: string[] = [];
  private readonly cdf = new Float64Array(VOCABULARY);

  constructor(private readonly random: () => number) {
    const seen = new Set<string>();
    while (this.words.length < VOCABULARY) {
      let w = '';
      const n = 2 + Math.floor(random() * 3);
      for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
      w += SUFFIXES[Math.floor(random() * SUFFIXES.length)];
      const r = random();
      if (r < 0.02) w = `${w}-${this.syllableWord()}`;
      else if (r < 0.035) w = `${w}${capitalise(this.syllableWord())}`;
      else if (r < 0.045) w = `${w}.${this.syllableWord()}.${this.syllableWord()}`;
      else if (r < 0.05) w = `${w}${Math.floor(random() * 10)}`;
      if (seen.has(w)) continue;
      seen.add(w);
      this.words.push(w);
    }
    let sum = 0;
    for (let i = 0; i < VOCABULARY; i++) this.cdf[i] = sum += 1 / Math.pow(i + 1, ZIPF_EXPONENT);
    for (let i = 0; i < VOCABULARY; i++) this.cdf[i] /= sum;
  }

  /** A word by Zipf rank; `minRank` skips the head (the most common ranks). */
  word(minRank = 0): string {
    const floor = minRank > 0 ? this.cdf[minRank - 1] : 0;
    const u = floor + this.random() * (1 - floor);
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo];
  }

  passage(): string {
    const n = 100 + Math.floor(this.random() * 101);
    const out: string[] = [];
    let sentence = 0;
    for (let i = 0; i < n; i++) {
      let w = this.word();
      if (sentence === 0) w = capitalise(w);
      sentence++;
      if (sentence > 8 && this.random() < 0.15) {
        w += this.random() < 0.8 ? '.' : ',';
        if (w.endsWith('.')) sentence = 0;
      }
      out.push(w);
    }
    return out.join(' ') + '.';
  }

  query(minRank = 0): string {
    const n = 3 + Math.floor(this.random() * 6);
    return Array.from({ length: n }, () => this.word(minRank)).join(' ');
  }

  private syllableWord(): string {
    return (
      SYLLABLES[Math.floor(this.random() * SYLLABLES.length)] + SYLLABLES[Math.floor(this.random() * SYLLABLES.length)]
    );
  }
}

function capitalise(w: string): string {
  return w[0].toUpperCase() + w.slice(1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function ms(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

interface Row {
  sections: number;
  analyzeMs: number;
  buildMs: number;
  postingsPerSection: number;
  bytesPerSection: number;
  terms: number;
  matchP50: number;
  matchP95: number;
  matchMax: number;
  candidates: number;
  tailP50: number;
  tailP95: number;
  tailCandidates: number;
  updateP50: number;
  updateP95: number;
  compactMs: number;
  snapshotBytes: number;
  serializeMs: number;
  deserializeMs: number;
}

function run(sections: number): Row {
  const random = rng(42);
  const corpus = new Corpus(random);
  const texts = Array.from({ length: sections }, () => corpus.passage());

  // Cold build as an indexer runs it: analyse a section, hand its terms to the builder, drop them.
  let analyzeMs = 0;
  let postings = 0;
  let t = performance.now();
  const builder = new PostingsBuilder();
  for (let i = 0; i < sections; i++) {
    const a = performance.now();
    const terms = analyzeText(texts[i]);
    analyzeMs += performance.now() - a;
    postings += terms.length;
    builder.add(i, terms);
  }
  const index = builder.build();
  const buildMs = performance.now() - t - analyzeMs;

  const timeQueries = (minRank: number): { times: number[]; candidates: number } => {
    const queries = Array.from({ length: QUERIES }, () =>
      analyzeQuery(corpus.query(minRank))
        .slice(0, 32)
        .map((unit) => [unit.key]),
    );
    for (const units of queries.slice(0, 30)) index.match(units); // warm up
    const times: number[] = [];
    let candidates = 0;
    for (const units of queries) {
      const s = performance.now();
      const result = index.match(units);
      times.push(performance.now() - s);
      candidates += result.count;
    }
    return { times: times.sort((a, b) => a - b), candidates: candidates / queries.length };
  };
  const { times, candidates } = timeQueries(0);
  const tail = timeQueries(HEAD_RANKS);
  const bytesPerSection = index.byteSize() / sections;

  const updates: number[] = [];
  for (let u = 0; u < UPDATES; u++) {
    const first = Math.floor(random() * (sections - SECTIONS_PER_DOCUMENT));
    const fresh = Array.from({ length: SECTIONS_PER_DOCUMENT }, () => corpus.passage());
    const s = performance.now();
    for (let k = 0; k < SECTIONS_PER_DOCUMENT; k++) index.remove(first + k);
    for (let k = 0; k < SECTIONS_PER_DOCUMENT; k++) index.add(first + k, analyzeText(fresh[k]));
    updates.push(performance.now() - s);
  }
  updates.sort((a, b) => a - b);

  t = performance.now();
  index.compact();
  const compactMs = performance.now() - t;

  t = performance.now();
  const bytes = index.serialize();
  const serializeMs = performance.now() - t;
  t = performance.now();
  const loaded = PostingsIndex.deserialize(bytes);
  const deserializeMs = performance.now() - t;
  if (loaded.sectionCount !== index.sectionCount) throw new Error('bench: snapshot lost sections');

  return {
    sections,
    analyzeMs,
    buildMs,
    postingsPerSection: postings / sections,
    bytesPerSection,
    terms: index.termCount,
    matchP50: percentile(times, 50),
    matchP95: percentile(times, 95),
    matchMax: times[times.length - 1],
    candidates,
    tailP50: percentile(tail.times, 50),
    tailP95: percentile(tail.times, 95),
    tailCandidates: tail.candidates,
    updateP50: percentile(updates, 50),
    updateP95: percentile(updates, 95),
    compactMs,
    snapshotBytes: bytes.length,
    serializeMs,
    deserializeMs,
  };
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const rows = (sizes.length > 0 ? sizes : [10_000, 100_000]).map(run);

const header = [
  'sections',
  'analyze ms',
  'index build ms',
  'postings/section',
  'bytes/section',
  'terms',
  'match p50 / p95 / max ms',
  'avg candidates',
  `match, no top-${HEAD_RANKS} words: p50 / p95 ms (avg candidates)`,
  `update (${SECTIONS_PER_DOCUMENT} sections) p50 / p95 ms`,
  'compact ms',
  'snapshot MB',
  'save / load ms',
];
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const r of rows) {
  console.log(
    `| ${[
      r.sections.toLocaleString('en'),
      ms(r.analyzeMs),
      ms(r.buildMs),
      r.postingsPerSection.toFixed(0),
      r.bytesPerSection.toFixed(0),
      r.terms.toLocaleString('en'),
      `${ms(r.matchP50)} / ${ms(r.matchP95)} / ${ms(r.matchMax)}`,
      r.candidates.toFixed(0),
      `${ms(r.tailP50)} / ${ms(r.tailP95)} (${r.tailCandidates.toFixed(0)})`,
      `${ms(r.updateP50)} / ${ms(r.updateP95)}`,
      ms(r.compactMs),
      (r.snapshotBytes / 1e6).toFixed(1),
      `${ms(r.serializeMs)} / ${ms(r.deserializeMs)}`,
    ].join(' | ')} |`,
  );
}
