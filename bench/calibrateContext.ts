/**
 * `npx tsx bench/calibrateContext.ts [--embeddings off|local] [--set SET[,SET]] (awesome-copilot, instructa-ai-prompts, windsurf-agent-rules-kit, fernhill)`:
 * the measurement behind get_context's per-signal thresholds (library/context/constants.ts).
 *
 * For every labelled task of the `context` eval sets (bench/evalContext.ts) it runs the section
 * search as get_context does (the task and the heuristic plan's facets) and takes each page's best
 * score per signal (words, meaning, questions) and the task's best. It prints, per signal:
 *
 * - the ratio page best / task best for the pages a task must get, and for the pages it must not
 *   get (neither `must` nor `ok`): where "close enough" can sit;
 * - the task best on on-topic and on off-topic tasks: where "related at all" and the nothing-found
 *   bar can sit;
 * - the best Good-for phrasing and pack phrasing similarity on both.
 */
import * as path from 'node:path';
import { contextIndex } from '../server/src/library/context/contextIndex';
import { matchPhrasings } from '../server/src/library/context/phraseMatch';
import { searchSections } from '../server/src/library/context/sectionSearch';
import { createServices } from '../server/src/services/services';
import { libraryView } from '../server/src/library/view/libraryView';
import { pagePhrasings, packPhrasings } from '../server/src/library/models/derivedText';
import { heuristicPlan } from '../server/src/library/models/heuristicPlan';
import { CONTEXT_SETS, contextSetFiles, loadContextTasks, type ContextSet } from './evalContext';
import { startEvalEngine, type EvalEmbeddings } from './evalEngine';

type Signal = 'words' | 'meaning' | 'question';
const SIGNALS: Signal[] = ['words', 'meaning', 'question'];

const quantiles = (xs: number[]) => {
  if (xs.length === 0) return '-';
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))].toFixed(3);
  return `n ${s.length}: min ${q(0)} p10 ${q(0.1)} p25 ${q(0.25)} p50 ${q(0.5)} p75 ${q(0.75)} p90 ${q(0.9)} max ${q(1)}`;
};

async function calibrate(set: ContextSet, embeddings: EvalEmbeddings): Promise<void> {
  const files = contextSetFiles(set);
  const tasks = loadContextTasks(files.tasks);
  const { engine, state } = await startEvalEngine(
    `context-${set}`,
    { name: set, absPath: files.workspace },
    embeddings,
    (m) => process.stderr.write(`${m}\n`),
  );
  const view = libraryView(state, new Date().toISOString().slice(0, 10));
  const index = contextIndex(view);
  const services = createServices({ engine });
  await engine.waitForMeaning();
  const meaning = services.sectionMeaning;
  const textMeaning = services.textMeaning;
  const ratios = { must: new Map<Signal, number[]>(), wrong: new Map<Signal, number[]>() };
  const bests = { on: new Map<Signal, number[]>(), off: new Map<Signal, number[]>() };
  const phr = {
    onPage: [] as number[],
    offPage: [] as number[],
    mustPage: [] as number[],
    wrongPage: [] as number[],
    onPack: [] as number[],
    offPack: [] as number[],
  };
  const name = (p: string) => path.basename(p).split('.')[0];
  for (const task of tasks) {
    const plan = heuristicPlan(task.task, index.names);
    const search = await searchSections({
      index,
      sections: view.sections,
      queries: [task.task, ...plan.searches],
      names: plan.names,
      tags: [],
      liftedPages: new Set(),
      meaning,
    });
    const byPage = new Map<string, Record<Signal, number>>();
    const best: Record<Signal, number> = { words: 0, meaning: 0, question: 0 };
    for (const h of search.hits) {
      const p = byPage.get(h.entry.doc.path) ?? { words: 0, meaning: 0, question: 0 };
      p.words = Math.max(p.words, h.signals.words);
      p.meaning = Math.max(p.meaning, h.signals.meaning ?? 0);
      p.question = Math.max(p.question, h.signals.question);
      byPage.set(h.entry.doc.path, p);
      for (const s of SIGNALS) best[s] = Math.max(best[s], s === 'meaning' ? (h.signals.meaning ?? 0) : h.signals[s]);
    }
    for (const s of SIGNALS) {
      const list = (task.nothing ? bests.off : bests.on).get(s) ?? [];
      list.push(best[s]);
      (task.nothing ? bests.off : bests.on).set(s, list);
    }
    const query = { task: task.task, facets: plan.searches };
    const pageMatches = await matchPhrasings(
      index,
      query,
      view.docs.map((d) => pagePhrasings(d).phrasings),
      textMeaning,
    );
    const packMatches = await matchPhrasings(
      index,
      query,
      view.state.packs.map((p) => packPhrasings(p)),
      textMeaning,
    );
    (task.nothing ? phr.offPage : phr.onPage).push(Math.max(0, ...pageMatches.map((m) => m.score)));
    if (packMatches.length)
      (task.nothing ? phr.offPack : phr.onPack).push(Math.max(0, ...packMatches.map((m) => m.score)));
    if (task.nothing) continue;
    const must = new Set(task.must.map(name));
    const ok = new Set(task.ok.map(name));
    view.docs.forEach((doc, i) => {
      const n = name(doc.path);
      if (doc.library?.type === 'rule' || doc.library?.alwaysInclude) return;
      const kind = must.has(n) ? 'must' : ok.has(n) ? undefined : 'wrong';
      if (!kind) return;
      (kind === 'must' ? phr.mustPage : phr.wrongPage).push(pageMatches[i].score);
      const p = byPage.get(doc.path) ?? { words: 0, meaning: 0, question: 0 };
      for (const s of SIGNALS) {
        if (best[s] <= 0) continue;
        const list = ratios[kind].get(s) ?? [];
        list.push(p[s] / best[s]);
        ratios[kind].set(s, list);
      }
    });
  }
  engine.dispose();
  const out = [`## ${set}, embeddings ${embeddings}`, ''];
  for (const s of SIGNALS) {
    out.push(`${s}: page best / task best, must pages  ${quantiles(ratios.must.get(s) ?? [])}`);
    out.push(`${s}: page best / task best, wrong pages ${quantiles(ratios.wrong.get(s) ?? [])}`);
    out.push(`${s}: task best, on-topic  ${quantiles(bests.on.get(s) ?? [])}`);
    out.push(`${s}: task best, off-topic ${quantiles(bests.off.get(s) ?? [])}`);
  }
  out.push(
    `Good-for phrasing, best page: on-topic ${quantiles(phr.onPage)}`,
    `Good-for phrasing, best page: off-topic ${quantiles(phr.offPage)}`,
  );
  out.push(
    `Good-for phrasing, must pages ${quantiles(phr.mustPage)}`,
    `Good-for phrasing, wrong pages ${quantiles(phr.wrongPage)}`,
  );
  out.push(
    `Pack phrasing, best pack: on-topic ${quantiles(phr.onPack)}`,
    `Pack phrasing, best pack: off-topic ${quantiles(phr.offPack)}`,
    '',
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(argv: readonly string[]): Promise<void> {
  const value = (n: string) => (argv.indexOf(n) >= 0 ? argv[argv.indexOf(n) + 1] : undefined);
  const modes = (value('--embeddings') ?? 'off,local').split(',') as EvalEmbeddings[];
  const sets = (value('--set') ?? CONTEXT_SETS.join(',')).split(',') as ContextSet[];
  for (const set of sets) for (const mode of modes) await calibrate(set, mode);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
