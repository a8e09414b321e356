/**
 * An order rule measured before it is built (issue 39): `npx tsx bench/evidenceTrial.ts
 * [--rarest any|identifier|name] [--moved] [corpus,...]`.
 *
 * The rule, words only: a passage that lacks the question's rarest term is not ranked above a
 * passage that holds every term of the question, as contract 2026-12-06.3 already rules for
 * meaning's lift (scoredCandidates.ts holdToEvidence). "Holds" is that rule's: whole, or a key
 * path by a trailing form; an identifier's parts alone do not count. Which rarest terms it applies
 * to (`--rarest`):
 *
 * - `any`: every question;
 * - `identifier`: the rarest term is an identifier (text/analyzer.ts);
 * - `name` (the default): an identifier that is not a word written joined, by a hyphen or a
 *   camelCase capital (`joinedWord`: `public-read`, `warnIgnored` are words; a key path, a flag
 *   or an environment variable of more parts is a name).
 *
 * For every labelled question of the dev suite (bench/evalDocs.ts) it asks `workspace_context`,
 * words only, for its first 30 passages (the per-document rule applied), reads each passage's
 * terms from its why[], moves every passage that lacks the rarest term and ranks above the last
 * passage holding every term to just below it (their own order kept), and scores the first 10 as
 * their distinct files, as the suite does (nDCG@10), before and after. A re-ordering of 30 is not
 * the engine's answer (a holder below the 30th is not seen); it says whether the rule is worth
 * building (bench/RESULTS.md, "An order rule simulated").
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeQuery, joinedWord } from '../server/src/engine/text/analyzer';
import { stripQuestionFrame } from '../server/src/engine/text/questionFrame';
import { callTool } from '../server/src/tools/callTool';
import { createServices } from '../server/src/services/services';
import { findTool } from '../server/src/tools/registry';
import type { ContextOutput } from '../server/src/tools/workspaceContext';
import { ndcgAt10 } from './baselines/docsReference';
import { docsCorpora, loadDocsQuestions, writeDocsFolders, type DocsCorpus } from './evalDocs';
import { startEvalEngine } from './evalEngine';

type Rarest = 'any' | 'identifier' | 'name';
type Passage = NonNullable<ContextOutput['passages']>[number];
interface Term {
  term: string;
  weight: number;
  saturation: number;
  fields: string[];
}

const ASKED = 30;

interface Row {
  id: string;
  style: string;
  before: number;
  after: number;
}

function termsOf(passage: Passage): Term[] {
  return (passage.why?.find((w) => w.signal === 'words') as { terms?: Term[] } | undefined)?.terms ?? [];
}

const holds = (t: Term) => t.saturation > 0 && !(t.fields.length === 1 && t.fields[0] === 'parts');

/** Whether the rule applies to a question whose rarest term is written `surface`. */
function applies(question: string, surface: string, rarest: Rarest): boolean {
  if (rarest === 'any') return true;
  const unit = analyzeQuery(stripQuestionFrame(question)).find((t) => t.surface === surface);
  if (!unit?.isIdentifier) return false;
  return rarest === 'identifier' || joinedWord(unit.surface) === null;
}

/** The files of the first 10 passages, in order, after the rule (or before it, `apply` false). */
function firstFiles(passages: readonly Passage[], question: string, rarest: Rarest, apply: boolean): string[] {
  const terms = passages.map(termsOf);
  const first = terms[0] ?? [];
  let order = [...passages.keys()];
  if (apply && first.length > 0) {
    const top = first.reduce((a, b) => (b.weight > a.weight ? b : a));
    let last = -1;
    terms.forEach((ts, i) => {
      if (ts.length > 0 && ts.every(holds)) last = i;
    });
    if (last > 0 && applies(question, top.term, rarest)) {
      const lacks = (i: number) => !terms[i].some((t) => t.term === top.term && holds(t));
      const moved = order.filter((i) => i < last && lacks(i));
      const kept = order.filter((i) => !(i < last && lacks(i)));
      const at = kept.indexOf(last) + 1;
      order = [...kept.slice(0, at), ...moved, ...kept.slice(at)];
    }
  }
  return [...new Set(order.slice(0, 10).map((i) => passages[i].sourceRef?.path ?? ''))];
}

async function trialCorpus(corpus: DocsCorpus, rarest: Rarest): Promise<Row[]> {
  const tool = findTool('workspace_context');
  if (!tool) throw new Error('evidenceTrial: workspace_context is not in TOOLS');
  const folders = writeDocsFolders(corpus, path.join(os.tmpdir(), 'wsctx-eval-docs'));
  const { engine } = await startEvalEngine(`docs-${corpus.key}`, folders, 'off', () => {}, corpus.globs);
  const services = createServices({ engine });
  const rows: Row[] = [];
  try {
    for (const q of loadDocsQuestions(corpus.dir)) {
      const args = { ...(folders.length > 1 ? {} : { workspace: corpus.key }), question: q.question, limit: ASKED };
      const out = (await callTool(services, tool, args, { sessionId: 'evidence-trial' })) as ContextOutput;
      const passages = out.passages ?? [];
      const before = ndcgAt10(firstFiles(passages, q.question, rarest, false), q.gold);
      const after = ndcgAt10(firstFiles(passages, q.question, rarest, true), q.gold);
      rows.push({ id: q.id, style: q.style, before, after });
    }
  } finally {
    engine.dispose();
  }
  return rows;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const i = argv.indexOf('--rarest');
  const rarest = (i >= 0 ? argv[i + 1] : 'name') as Rarest;
  if (!['any', 'identifier', 'name'].includes(rarest))
    throw new Error(`evidenceTrial: --rarest is any, identifier or name, not "${rarest}"`);
  const named = argv.find((a, k) => !a.startsWith('--') && argv[k - 1] !== '--rarest')?.split(',');
  const corpora = docsCorpora(path.resolve(__dirname, '..', 'test', 'fixtures', 'argocd-docs')).filter(
    (c) => !named || named.includes(c.key),
  );
  console.log(`## Order rule trial, words only, rarest term: ${rarest}; nDCG@10 before -> after\n`);
  console.log('| corpus | questions moved (up / down) | all | styles that move |');
  console.log('| --- | --- | --- | --- |');
  const moved: string[] = [];
  for (const corpus of corpora) {
    const rows = await trialCorpus(corpus, rarest);
    const styles = [...new Set(rows.map((r) => r.style))]
      .map((style) => {
        const subset = rows.filter((r) => r.style === style);
        const [b, a] = [mean(subset.map((r) => r.before)), mean(subset.map((r) => r.after))];
        return Math.abs(a - b) > 1e-9 ? `${style} ${b.toFixed(3)} -> ${a.toFixed(3)}` : '';
      })
      .filter(Boolean);
    const up = rows.filter((r) => r.after > r.before + 1e-9);
    const down = rows.filter((r) => r.after < r.before - 1e-9);
    const [b, a] = [mean(rows.map((r) => r.before)), mean(rows.map((r) => r.after))];
    console.log(
      `| ${corpus.label} | ${up.length} / ${down.length} | ${b.toFixed(3)} -> ${a.toFixed(3)} | ${styles.join('; ')} |`,
    );
    for (const r of [...up, ...down])
      moved.push(`- ${corpus.key} ${r.id} (${r.style}) ${r.before.toFixed(2)} -> ${r.after.toFixed(2)}`);
  }
  if (argv.includes('--moved') && moved.length) console.log(`\n${moved.join('\n')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
