/**
 * Where words only loses to the reference BM25, question by question (issue 39):
 * `npx tsx bench/styleMisses.ts [corpus,...] [--style paraphrase] [--all] [--tune NAME=value]`.
 *
 * For every labelled question of the named dev-suite corpora in one style (paraphrase unless
 * `--style` says), words only, it scores `workspace_context` (limit 10) and the reference BM25
 * (evalDocs.ts: one field, title, heading path and body, k1 1.2, b 0.75) as the suite does, and
 * for each question where BM25's nDCG@10 is higher (every question with `--all`) prints both first
 * 10 passages side by side: file and heading, score, the question's terms the passage holds (ours
 * from its words `why[]`; BM25's from its tokens), the section's length in characters, and `*`
 * on a gold file. The shared cause this finds is summarised in bench/RESULTS.md (issue 39,
 * paraphrase under BM25).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { RankingTuning } from '../server/src/engine/ranking/contract';
import { createServices } from '../server/src/services/services';
import { callTool } from '../server/src/tools/callTool';
import { findTool } from '../server/src/tools/registry';
import type { ContextOutput } from '../server/src/tools/workspaceContext';
import { ndcgAt10, ReferenceBm25, tokenize } from './baselines/docsReference';
import { docsCorpora, loadDocsQuestions, referenceSplit, writeDocsFolders } from './evalDocs';
import { startEvalEngine } from './evalEngine';

type Passage = NonNullable<ContextOutput['passages']>[number];

interface Row {
  file: string;
  heading: string;
  score: number;
  terms: string;
  chars: number;
}

const distinct = (rows: readonly Row[]) => [...new Set(rows.map((r) => r.file))];

/** The question terms a passage's words entry credits, with their saturation (`term 0.62`). */
function oursTerms(p: Passage): string {
  const words = p.why?.find((w) => w.signal === 'words');
  const title = p.why?.find((w) => w.signal === 'title' && w.contribution > 0);
  const detail = words?.detail ?? '';
  return `${detail.length > 220 ? `${detail.slice(0, 220)}...` : detail}${title ? ` | title +${title.contribution.toFixed(3)}` : ''}`;
}

function printSide(label: string, rows: readonly Row[], gold: ReadonlySet<string>): void {
  console.log(`\n${label}`);
  rows.forEach((r, i) => {
    const mark = gold.has(r.file) ? '*' : ' ';
    console.log(`${String(i + 1).padStart(2)}${mark} ${r.score.toFixed(3)} [${r.chars} ch] ${r.file} # ${r.heading}`);
    console.log(`      ${r.terms}`);
  });
}

function parseTuning(argv: readonly string[]): RankingTuning | undefined {
  const tuning: Record<string, number> = {};
  argv.forEach((a, i) => {
    if (a !== '--tune') return;
    const [name, value] = (argv[i + 1] ?? '').split('=');
    tuning[name] = Number(value);
  });
  return Object.keys(tuning).length ? (tuning as RankingTuning) : undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const all = argv.includes('--all');
  const style = argv.includes('--style') ? (argv[argv.indexOf('--style') + 1] ?? 'paraphrase') : 'paraphrase';
  const tuning = parseTuning(argv);
  const keys = argv.find((a, i) => !a.startsWith('--') && !['--style', '--tune'].includes(argv[i - 1]))?.split(',');
  const corpora = docsCorpora(path.resolve(__dirname, '..', 'test', 'fixtures', 'argocd-docs')).filter(
    (c) => !keys || keys.includes(c.key),
  );
  const tool = findTool('workspace_context');
  if (!tool) throw new Error('styleMisses: workspace_context is not in TOOLS');
  for (const corpus of corpora) {
    const questions = loadDocsQuestions(corpus.dir).filter((q) => q.style === style);
    const folders = writeDocsFolders(corpus, path.join(os.tmpdir(), 'wsctx-eval-docs'));
    const { engine } = await startEvalEngine(`docs-${corpus.key}`, folders, 'off', () => {}, corpus.globs);
    const { sections, texts } = referenceSplit(corpus);
    const bm25 = new ReferenceBm25(texts);
    const services = createServices({ engine, ...(tuning ? { rankingTuning: tuning } : {}) });
    const deepServices = createServices({ engine, rankingTuning: { ...tuning, DOCUMENT_CAP: 50 } });
    let oursSum = 0;
    let bm25Sum = 0;
    try {
      console.log(`\n# ${corpus.label}, ${style}: ${questions.length} questions`);
      for (const q of questions) {
        const args = { ...(folders.length > 1 ? {} : { workspace: corpus.key }), question: q.question, limit: 10 };
        const out = (await callTool(services, tool, args, { sessionId: 'style-misses' })) as ContextOutput;
        const ours: Row[] = (out.passages ?? []).map((p) => ({
          file: p.sourceRef?.path ?? '',
          heading: p.headingPath?.join(' > ') ?? p.title ?? '',
          score: p.score,
          terms: oursTerms(p),
          chars: p.text?.length ?? 0,
        }));
        const qTerms = new Set(tokenize(q.question));
        const theirs: Row[] = bm25.search(q.question, 10).map((h) => {
          const s = sections[h.d];
          const text = `${s.title}\n${s.heading}\n${s.body}`;
          const held = new Set(tokenize(text).filter((t) => qTerms.has(t)));
          return {
            file: s.file,
            heading: s.heading || s.title,
            score: h.s,
            terms: `${held.size}/${qTerms.size}: ${[...held].join(' ')}`,
            chars: s.body.length,
          };
        });
        const a = ndcgAt10(distinct(ours), q.gold);
        const b = ndcgAt10(distinct(theirs), q.gold);
        oursSum += a;
        bm25Sum += b;
        if (!all && b <= a) continue;
        console.log(`\n## ${q.id} ours ${a.toFixed(2)} BM25 ${b.toFixed(2)} "${q.question}"`);
        console.log(`gold: ${q.gold.join(', ')} # ${q.goldHeading ?? ''}; BM25 terms: ${[...qTerms].join(' ')}`);
        const gold = new Set(q.gold);
        printSide('ours (words only):', ours, gold);
        printSide('BM25:', theirs, gold);
        // The gold section in our order by score alone (the per-document rule off), first 50.
        const deep = (await callTool(
          deepServices,
          tool,
          { ...args, limit: 50 },
          { sessionId: 'style-misses' },
        )) as ContextOutput;
        const want = (q.goldHeading ?? '').toLowerCase();
        const at = (deep.passages ?? []).findIndex(
          (p) => gold.has(p.sourceRef?.path ?? '') && (p.headingPath?.at(-1) ?? '').toLowerCase().includes(want),
        );
        const own = at >= 0 ? deep.passages?.[at] : undefined;
        console.log(
          own
            ? `\ngold section, ours: ${at + 1} of 50 (DOCUMENT_CAP 50) ${own.score.toFixed(3)} [${own.text?.length ?? 0} ch] ${own.headingPath?.join(' > ')}\n      ${oursTerms(own)}`
            : '\ngold section, ours: not in the first 50 (DOCUMENT_CAP 50)',
        );
      }
      console.log(
        `\n${corpus.label} ${style}: ours ${(oursSum / questions.length).toFixed(3)}, BM25 ${(bm25Sum / questions.length).toFixed(3)}`,
      );
    } finally {
      engine.dispose();
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
