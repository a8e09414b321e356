/**
 * Running the judge for one request (docs/ARCHITECTURE.md, get_context's contract, "The judge"): every question in ONE call, answers
 * as yes/no with a probability, in one of three modes:
 *
 * - `gate` (the default): the judge's answers apply;
 * - `shadow`: the judge answers and its answers are logged, but the heuristics' answers apply, so
 *   the two can be compared;
 * - `off`: no model is asked; the heuristics' answers apply.
 *
 * Every question carries the heuristic's answer, computed first, so a judge that is slow, fails or
 * is not configured costs nothing but its own answers: the request then uses the heuristics
 * throughout. Verdicts the cache remembers (verdictCache.ts) stand in for the judge and are not
 * asked again; the judge's answers are recorded there.
 */
import { JUDGE_QUESTIONS, type JudgeItem } from './prompts';
import type { ModelProvider } from './modelProvider';
import type { PageDigests, VerdictCache } from './verdictCache';

export type JudgeMode = 'off' | 'shadow' | 'gate';
export const JUDGE_MODES: readonly JudgeMode[] = ['off', 'shadow', 'gate'];
export const DEFAULT_JUDGE_MODE: JudgeMode = 'gate';

/** How long one request waits for the judge before using the heuristics. Default 4,000 ms. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 4_000;

export type QuestionKind = keyof typeof JUDGE_QUESTIONS;

export interface Answer {
  yes: boolean;
  /** Probability that the answer is yes, 0..1. */
  probability: number;
}

export interface JudgeQuestion {
  /** Unique within the request. */
  id: string;
  kind: QuestionKind;
  /** What the verdict cache files it under: a section id, a pack name, a row key. */
  subject: string;
  /** Defaults to the kind's wording (prompts.ts `JUDGE_QUESTIONS`). */
  question?: string;
  material: string;
  /** The pages the question involves, with their digests (the cache forgets on change). */
  pages: PageDigests;
  heuristic: Answer;
}

export interface Verdict {
  id: string;
  kind: QuestionKind;
  subject: string;
  heuristic: Answer;
  /** The judge's or the cache's answer, when there was one. */
  model?: Answer & { from: 'judge' | 'cache' };
  /** The answer that applies. */
  applied: Answer & { from: 'judge' | 'cache' | 'heuristic' };
}

export interface JudgeRun {
  mode: JudgeMode;
  /** The provider asked (`none` when none was). */
  provider: string;
  /** True when a model call was made. */
  called: boolean;
  /** Why the heuristics were used for the request although a judge was configured. */
  fallbackReason?: string;
  verdicts: Verdict[];
  /** The applied answer to a question. */
  answer(id: string): Answer & { from: 'judge' | 'cache' | 'heuristic' };
}

export interface JudgeOptions {
  task: string;
  mode: JudgeMode;
  provider: ModelProvider;
  cache?: VerdictCache;
  /** Default {@link DEFAULT_JUDGE_TIMEOUT_MS}. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function runJudge(questions: readonly JudgeQuestion[], options: JudgeOptions): Promise<JudgeRun> {
  const model = new Map<string, Answer & { from: 'judge' | 'cache' }>();
  let called = false;
  let fallbackReason: string | undefined;
  const usesModel = options.mode !== 'off' && options.provider.available();
  if (usesModel) {
    const ask: JudgeQuestion[] = [];
    for (const q of questions) {
      const remembered = options.cache?.lookup({ task: options.task, question: q.kind, subject: q.subject }, q.pages);
      if (remembered) model.set(q.id, { ...remembered, from: 'cache' });
      else ask.push(q);
    }
    if (ask.length > 0) {
      called = true;
      try {
        const items: JudgeItem[] = ask.map((q) => ({
          id: q.id,
          question: q.question ?? JUDGE_QUESTIONS[q.kind].toString(),
          material: q.material,
        }));
        const answers = await options.provider.judge(
          { task: options.task, items },
          { timeoutMs: options.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS, signal: options.signal },
        );
        const byId = new Map(ask.map((q) => [q.id, q]));
        for (const a of answers) {
          const q = byId.get(a.id);
          if (!q) continue;
          model.set(a.id, { yes: a.yes, probability: a.probability, from: 'judge' });
          options.cache?.record({ task: options.task, question: q.kind, subject: q.subject }, a, q.pages);
        }
        options.cache?.flush();
      } catch (error) {
        fallbackReason = (error as Error).message;
        model.clear(); // slow or failing: the heuristics decide this whole request
      }
    }
  } else if (options.mode !== 'off') {
    fallbackReason = `no model provider is available (${options.provider.name})`;
  }

  const verdicts: Verdict[] = questions.map((q) => {
    const m = model.get(q.id);
    const applied =
      options.mode === 'gate' && m && fallbackReason === undefined
        ? { ...m }
        : { ...q.heuristic, from: 'heuristic' as const };
    return { id: q.id, kind: q.kind, subject: q.subject, heuristic: q.heuristic, ...(m ? { model: m } : {}), applied };
  });
  const byId = new Map(verdicts.map((v) => [v.id, v]));
  return {
    mode: options.mode,
    provider: usesModel ? options.provider.name : 'none',
    called,
    ...(fallbackReason !== undefined ? { fallbackReason } : {}),
    verdicts,
    answer(id) {
      const v = byId.get(id);
      if (!v) throw new Error(`judge: no question '${id}'`);
      return v.applied;
    },
  };
}
