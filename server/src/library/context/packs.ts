/**
 * Step 4, packs (`.context/packs/*.yaml`): the task is compared with every pack's Good-for
 * phrasings; the packs it comes close to are candidates. Without the judge a pack applies when
 * its closest phrasing reaches {@link PACK_APPLY} on words or on meaning (each signal its own
 * calibrated bar: a loose meaning match is no reason to send a pack's pages); with it, the judge reads the
 * task and each candidate and the packs it is sure about (at least {@link JUDGE_SURE}) apply.
 * Several packs can apply, or none. `pack` forces one pack and no other is matched.
 *
 * An applied pack's Always pages come whole (within the three-quarter allowance); its
 * When-relevant pages' sections are kept past the closeness window when related at all.
 */
import { type Doc, InputError, sha256Hex, type LibraryPack, baseName } from '../../engine';
import { packPhrasings, type ModelNotes } from '../models/derivedText';
import type { Answer, JudgeQuestion, JudgeRun } from '../models/judge';
import { JUDGE_QUESTIONS } from '../models/prompts';
import { JUDGE_SURE, PACK_APPLY, PACK_CANDIDATE_MIN } from './constants';
import { resolvePageRef, type ContextIndex } from './contextIndex';
import type { TextMeaning } from './hooks';
import { clears, matchPhrasings, type PhraseMatch, type PhraseQuery } from './phraseMatch';
import type { PackDecision } from './types';

export interface PackCandidate {
  pack: LibraryPack;
  match: PhraseMatch;
  forced: boolean;
  /** Ready pages of `always`, in the pack's order. */
  always: Doc[];
  whenRelevant: Doc[];
  heuristic: Answer;
  /** Judge question id, when the judge is asked. */
  questionId?: string;
}

/** The pack `name` names (its name or file name, case-insensitive), or an error listing the packs. */
export function findPack(packs: readonly LibraryPack[], name: string): LibraryPack {
  const wanted = name.trim().toLowerCase();
  const found =
    packs.find((p) => p.name.toLowerCase() === wanted) ??
    packs.find(
      (p) =>
        baseName(p.path)
          .replace(/\.ya?ml$/i, '')
          .toLowerCase() === wanted,
    );
  if (found) return found;
  const names = packs.map((p) => `"${p.name}"`).join(', ');
  throw new InputError(
    `pack: no pack is named "${name}". ${packs.length > 0 ? `Packs: ${names}.` : 'The library has no packs (.context/packs/*.yaml).'}`,
  );
}

export async function packCandidates(
  index: ContextIndex,
  query: PhraseQuery,
  options: { forced?: string; notes?: ModelNotes; meaning?: TextMeaning },
): Promise<PackCandidate[]> {
  const packs = index.view.state.packs;
  const pages = (refs: readonly string[]) =>
    refs.map((r) => resolvePageRef(index, r)).filter((d): d is Doc => d !== undefined);
  if (options.forced !== undefined) {
    const pack = findPack(packs, options.forced);
    const [match] = await matchPhrasings(index, query, [packPhrasings(pack, options.notes)], options.meaning);
    return [
      {
        pack,
        match,
        forced: true,
        always: pages(pack.always),
        whenRelevant: pages(pack.whenRelevant),
        heuristic: { yes: true, probability: 1 },
      },
    ];
  }
  const matches = await matchPhrasings(
    index,
    query,
    packs.map((p) => packPhrasings(p, options.notes)),
    options.meaning,
  );
  const out: PackCandidate[] = [];
  packs.forEach((pack, i) => {
    const match = matches[i];
    if (match.score < PACK_CANDIDATE_MIN) return;
    const heuristic = clears(match, PACK_APPLY)
      ? { yes: true, probability: match.score }
      : { yes: false, probability: Math.min(match.score, 0.49) };
    out.push({
      pack,
      match,
      forced: false,
      always: pages(pack.always),
      whenRelevant: pages(pack.whenRelevant),
      heuristic,
    });
  });
  return out.sort((a, b) => b.match.score - a.match.score || (a.pack.name < b.pack.name ? -1 : 1));
}

/** The judge's question about each candidate pack that was not forced. */
export function packQuestions(candidates: PackCandidate[]): JudgeQuestion[] {
  const questions: JudgeQuestion[] = [];
  candidates.forEach((c, i) => {
    if (c.forced) return;
    c.questionId = `p${i + 1}`;
    const pages: Record<string, string> = {};
    for (const d of [...c.always, ...c.whenRelevant]) pages[d.id] = d.digest;
    const material = [
      `Pack: ${c.pack.name}`,
      c.pack.description ? `Description: ${c.pack.description}` : '',
      `Good for: ${c.pack.goodFor.join('; ') || c.match.phrasing}`,
      `Pages: ${[...c.always, ...c.whenRelevant].map((d) => d.title).join('; ')}`,
    ]
      .filter(Boolean)
      .join('\n');
    // The pack's own content is part of its subject: an edited pack is judged afresh.
    const subject = `${c.pack.name}#${sha256Hex(JSON.stringify([c.pack.description ?? '', c.pack.goodFor, c.pack.always, c.pack.whenRelevant])).slice(0, 12)}`;
    questions.push({
      id: c.questionId,
      kind: 'pack',
      subject,
      question: JUDGE_QUESTIONS.pack(c.pack.name),
      material,
      pages,
      heuristic: c.heuristic,
    });
  });
  return questions;
}

/** Which candidates apply: forced ones; the judge's sure ones in gate mode; else the heuristic's. */
export function decidePacks(candidates: readonly PackCandidate[], run: JudgeRun): PackDecision[] {
  return candidates.map((c) => {
    const base = {
      name: c.pack.name,
      path: c.pack.path,
      phrasing: c.match.phrasing,
      score: round(c.match.score),
      forced: c.forced,
    };
    if (c.forced) return { ...base, applied: true, decidedBy: 'forced' as const };
    const answer = run.answer(c.questionId!);
    if (answer.from === 'heuristic') return { ...base, applied: answer.yes, decidedBy: 'heuristic' as const };
    return { ...base, applied: answer.probability >= JUDGE_SURE, decidedBy: answer.from };
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
