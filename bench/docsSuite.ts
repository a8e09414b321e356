/**
 * The dev suite's verdict on a ranking change (issue 39): every documentation corpus, every
 * question style, this build beside main's figures, beside the reference BM25 and Lunr of the
 * same run.
 *
 * "Main" is a recorded run (`bench/baselines/mainRanking.json`): each question's nDCG@10 and
 * recall@5, words only and hybrid, from the commit it names (the ranking before the change under
 * test). `npm run eval -- --dataset docs --record-main` writes it from the run it makes; the
 * commit of a ranking change that is kept records the new figures.
 *
 * The rule a ranking change is kept by: it helps most dev corpora and lowers none by more than
 * 0.01 overall or any style by more than 0.02. "Most" counts the corpora the change moves (overall
 * nDCG@10 up or down by more than a rounding): a change that only applies to several served
 * folders moves only the several-folder corpus, and is judged there; the others are listed as
 * unchanged. The suite also checks the targets of issue 39 on each corpus: words only at least BM25 +
 * 0.05 overall and at least BM25 - 0.01 in every style; faq and howto at or above BM25; hybrid at
 * least words only - 0.01 in every style.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { stylesOf, type DocsEval, type DocsQuestionResult } from './evalDocs';
import { table } from './report';

/** The ranking systems the suite records: ours. */
export type RecordedMode = 'words' | 'hybrid';

/** One question's figures: [nDCG@10, recall@5]. */
type QuestionFigures = [number, number];

export interface RecordedRanking {
  /** The commit whose ranking the figures are. */
  commit: string;
  /** Its contract version. */
  contractVersion: string;
  recordedAt: string;
  /** What was measured and how. */
  note: string;
  corpora: Record<string, Partial<Record<RecordedMode, Record<string, QuestionFigures>>>>;
}

const REPO_ROOT = path.resolve(__dirname, '..');
export const MAIN_RANKING_FILE = path.join(REPO_ROOT, 'bench', 'baselines', 'mainRanking.json');

export function loadRecordedRanking(file = MAIN_RANKING_FILE): RecordedRanking | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as RecordedRanking;
}

/**
 * `docs` recorded as main's ranking: merged into what `file` holds, so a run of some corpora (or
 * of one mode) replaces only those.
 */
export function recordRanking(
  docs: readonly DocsEval[],
  meta: { commit: string; contractVersion: string },
  file = MAIN_RANKING_FILE,
): RecordedRanking {
  const recorded: RecordedRanking = loadRecordedRanking(file) ?? {
    commit: meta.commit,
    contractVersion: meta.contractVersion,
    recordedAt: '',
    note: '',
    corpora: {},
  };
  recorded.commit = meta.commit;
  recorded.contractVersion = meta.contractVersion;
  recorded.recordedAt = new Date().toISOString();
  recorded.note =
    'npm run eval -- --dataset docs --record-main: per corpus, per mode, each question id -> [nDCG@10, recall@5] of workspace_context at the commit named';
  for (const d of docs) {
    const corpus = (recorded.corpora[d.corpus] ??= {});
    for (const system of d.systems) {
      if (system.key !== 'words' && system.key !== 'hybrid') continue;
      corpus[system.key] = Object.fromEntries(system.questions.map((q) => [q.id, [q.ndcg10, q.recall5]]));
    }
  }
  writeFileSync(file, `${JSON.stringify(recorded, null, 1)}\n`);
  return recorded;
}

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => (x >= 0 ? '+' : '') + x.toFixed(3);
/** Below this a difference is a tie (floating-point sums of the same figures). */
const TIE = 5e-4;

/** Mean nDCG@10 over the questions of `style` ('all': every question), or undefined without any. */
function meanOf(questions: readonly DocsQuestionResult[], style: string): number | undefined {
  const rows = questions.filter((q) => style === 'all' || q.style === style);
  return rows.length ? rows.reduce((s, q) => s + q.ndcg10, 0) / rows.length : undefined;
}

/** The recorded questions of a corpus and mode in the shape of a run's. */
function recordedQuestions(
  recorded: RecordedRanking | undefined,
  run: DocsEval,
  mode: RecordedMode,
): DocsQuestionResult[] | undefined {
  const byId = recorded?.corpora[run.corpus]?.[mode];
  const ours = run.systems.find((s) => s.key === mode) ?? run.systems.find((s) => s.key === 'bm25');
  if (!byId || !ours) return undefined;
  return ours.questions.map((q) => {
    const r = byId[q.id];
    return { ...q, ndcg10: r?.[0] ?? 0, recall5: r?.[1] ?? 0, files: [] };
  });
}

/** One corpus's change against main in one mode: by style and overall; undefined when either side is missing. */
export interface CorpusChange {
  corpus: string;
  mode: RecordedMode;
  before: Record<string, number>;
  after: Record<string, number>;
  /** Questions whose nDCG@10 rose / fell. */
  raised: number;
  lowered: number;
}

export function corpusChange(
  recorded: RecordedRanking | undefined,
  run: DocsEval,
  mode: RecordedMode,
): CorpusChange | undefined {
  const ours = run.systems.find((s) => s.key === mode);
  const main = recordedQuestions(recorded, run, mode);
  if (!ours || !main) return undefined;
  const styles = [...stylesOf(ours.questions), 'all'];
  const before: Record<string, number> = {};
  const after: Record<string, number> = {};
  for (const style of styles) {
    const b = meanOf(main, style);
    const a = meanOf(ours.questions, style);
    if (b !== undefined && a !== undefined) {
      before[style] = b;
      after[style] = a;
    }
  }
  let raised = 0;
  let lowered = 0;
  ours.questions.forEach((q, i) => {
    if (q.ndcg10 > main[i].ndcg10 + 1e-9) raised++;
    else if (q.ndcg10 < main[i].ndcg10 - 1e-9) lowered++;
  });
  return { corpus: run.corpus, mode, before, after, raised, lowered };
}

/** The keep rule's verdict on one mode's changes (see the module comment). */
export interface KeepVerdict {
  mode: RecordedMode;
  measured: number;
  helped: string[];
  lowered: string[];
  /** `corpus all -0.012`, `corpus faq -0.031`: what breaks the rule. */
  violations: string[];
  kept: boolean;
}

export function keepVerdict(changes: readonly CorpusChange[], mode: RecordedMode): KeepVerdict {
  const mine = changes.filter((c) => c.mode === mode);
  const helped: string[] = [];
  const lowered: string[] = [];
  const violations: string[] = [];
  for (const c of mine) {
    const delta = c.after.all - c.before.all;
    if (delta > TIE) helped.push(c.corpus);
    else if (delta < -TIE) lowered.push(c.corpus);
    if (delta < -0.01) violations.push(`${c.corpus} all ${signed(delta)}`);
    for (const style of Object.keys(c.after)) {
      if (style === 'all') continue;
      const d = c.after[style] - c.before[style];
      if (d < -0.02) violations.push(`${c.corpus} ${style} ${signed(d)}`);
    }
  }
  return {
    mode,
    measured: mine.length,
    helped,
    lowered,
    violations,
    kept: violations.length === 0 && helped.length > 0 && helped.length * 2 > helped.length + lowered.length,
  };
}

/** The targets of issue 39 on one corpus: what is met and what is not. */
export function targetMisses(run: DocsEval): string[] {
  const by = (key: string) => run.systems.find((s) => s.key === key)?.byStyle;
  const words = by('words');
  const hybrid = by('hybrid');
  const bm25 = by('bm25');
  const misses: string[] = [];
  if (!words || !bm25) return misses;
  if (words.all.ndcg10 < bm25.all.ndcg10 + 0.05 - 1e-9)
    misses.push(`words ${f3(words.all.ndcg10)} < BM25 + 0.05 (${f3(bm25.all.ndcg10 + 0.05)})`);
  for (const style of Object.keys(words)) {
    if (style === 'all' || !bm25[style]) continue;
    const floor = style === 'faq' || style === 'howto' ? 0 : 0.01;
    if (words[style].ndcg10 < bm25[style].ndcg10 - floor - 1e-9)
      misses.push(
        `${style}: words ${f3(words[style].ndcg10)} < BM25 ${f3(bm25[style].ndcg10)}${floor ? ' - 0.01' : ''}`,
      );
    if (hybrid?.[style] && hybrid[style].ndcg10 < words[style].ndcg10 - 0.01 - 1e-9)
      misses.push(`${style}: hybrid ${f3(hybrid[style].ndcg10)} < words ${f3(words[style].ndcg10)} - 0.01`);
  }
  return misses;
}

/**
 * The suite table: each corpus and style, main's words only and hybrid beside this build's, with
 * the change, and BM25 and Lunr; then the keep rule's verdict per mode and each corpus's targets.
 */
export function renderSuite(docs: readonly DocsEval[], recorded: RecordedRanking | undefined): string[] {
  const out: string[] = [
    '## Dev suite: this build against main, every corpus and style (nDCG@10)',
    '',
    recorded
      ? `Main: the ranking at ${recorded.commit} (contract ${recorded.contractVersion}), recorded in bench/baselines/mainRanking.json; BM25 and Lunr from this run.`
      : 'No recorded main ranking (bench/baselines/mainRanking.json): run with --record-main at main to make one.',
    '',
  ];
  const changes: CorpusChange[] = [];
  const rows: string[][] = [];
  for (const run of docs) {
    const words = corpusChange(recorded, run, 'words');
    const hybrid = corpusChange(recorded, run, 'hybrid');
    if (words) changes.push(words);
    if (hybrid) changes.push(hybrid);
    const by = (key: string) => run.systems.find((s) => s.key === key)?.byStyle;
    const ours = run.systems.find((s) => s.key === 'words') ?? run.systems[0];
    for (const style of [...stylesOf(ours?.questions ?? []), 'all']) {
      const cell = (change: CorpusChange | undefined, key: RecordedMode) => {
        const now = by(key)?.[style]?.ndcg10;
        const before = change?.before[style];
        return [
          before === undefined ? '-' : f3(before),
          now === undefined ? '-' : f3(now),
          before === undefined || now === undefined ? '-' : signed(now - before),
        ];
      };
      const bold = (s: string) => (style === 'all' ? `**${s}**` : s);
      rows.push([
        bold(run.label),
        bold(style),
        String(by('bm25')?.[style]?.questions ?? 0),
        ...cell(words, 'words'),
        ...cell(hybrid, 'hybrid'),
        by('bm25')?.[style] ? f3(by('bm25')![style].ndcg10) : '-',
        by('lunr')?.[style] ? f3(by('lunr')![style].ndcg10) : '-',
      ]);
    }
  }
  out.push(
    ...table(
      ['corpus', 'style', 'n', 'main words', 'words', 'change', 'main hybrid', 'hybrid', 'change', 'BM25', 'Lunr'],
      rows,
    ),
    '',
  );
  for (const mode of ['words', 'hybrid'] as const) {
    const v = keepVerdict(changes, mode);
    if (v.measured === 0) continue;
    const moved = changes
      .filter((c) => c.mode === mode)
      .map((c) => `${c.corpus} ${c.raised} up / ${c.lowered} down`)
      .join(', ');
    out.push(
      `Keep rule, ${mode === 'words' ? 'words only' : 'hybrid'}: helps ${v.helped.length} of ${v.measured} corpora (${v.helped.join(', ') || 'none'}), lowers ${v.lowered.join(', ') || 'none'}, ${v.measured - v.helped.length - v.lowered.length} unchanged; ${v.violations.length ? `breaks the rule: ${v.violations.join('; ')}` : 'lowers none by more than 0.01 overall or any style by more than 0.02'}: ${v.kept ? 'KEPT' : 'NOT KEPT'}. Questions moved: ${moved}.`,
      '',
    );
  }
  out.push(...renderSections(docs));
  const targets = docs.map((run) => [run.label, targetMisses(run).join('; ') || 'met']);
  out.push(
    'Targets (words >= BM25 + 0.05 overall, every style >= BM25 - 0.01, faq and howto >= BM25, hybrid >= words - 0.01 per style):',
    '',
  );
  out.push(...table(['corpus', 'misses'], targets), '');
  return out;
}

/**
 * The answer's own section: for every corpus, the share of questions whose gold section (the one
 * it was written from) is among the first 10 passages, each system; then the questions whose
 * answer is a section of a big reference page (100 KB or more), nDCG@10 and section found.
 */
function renderSections(docs: readonly DocsEval[]): string[] {
  const keys = ['words', 'hybrid', 'bm25', 'lunr'] as const;
  const pct = (x: number | undefined) => (x === undefined ? '-' : `${Math.round(x * 100)}%`);
  const rows = docs.map((run) => [
    run.label,
    ...keys.map((k) => pct(run.systems.find((s) => s.key === k)?.byStyle.all.section10)),
  ]);
  const out = [
    'The gold section (the one the question was written from) among the first 10 passages:',
    '',
    ...table(['corpus', 'words', 'hybrid', 'BM25', 'Lunr'], rows),
    '',
  ];
  const big: string[][] = [];
  for (const run of docs) {
    const on = (q: DocsQuestionResult) => run.bigPages.includes(q.gold[0]);
    const first = run.systems[0]?.questions.filter(on) ?? [];
    if (first.length === 0) continue;
    big.push([
      run.label,
      String(first.length),
      ...keys.map((k) => {
        const qs = run.systems.find((s) => s.key === k)?.questions.filter(on);
        if (!qs?.length) return '-';
        const ndcg = qs.reduce((sum, q) => sum + q.ndcg10, 0) / qs.length;
        const hit = qs.filter((q) => q.sectionRank !== undefined && q.sectionRank !== null).length;
        return `${f3(ndcg)} · ${hit}/${qs.length}`;
      }),
    ]);
  }
  if (big.length)
    out.push(
      'Questions answered by a section of a page of 100 KB or more: nDCG@10 · gold section among the first 10 passages:',
      '',
      ...table(['corpus', 'n', 'words', 'hybrid', 'BM25', 'Lunr'], big),
      '',
    );
  return out;
}
