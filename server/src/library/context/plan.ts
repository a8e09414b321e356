/**
 * Step 1, the plan: the names the task mentions and what each is, the deliverable, two or three
 * facet searches and any hard constraints. A model makes it when one is configured (prompts.ts
 * `planPrompt`); the catalog and library dictionaries always contribute their names, and the
 * heuristic plan (heuristicPlan.ts) stands in when the model is slow, fails or is absent. The plan
 * is only ever searched beside the task, never instead of it.
 */
import { heuristicPlan, type PlanName, type TaskPlan } from '../models/heuristicPlan';
import type { ModelProvider } from '../models/modelProvider';
import { parsePlan, planPrompt } from '../models/prompts';
import { normalizeName } from '../../engine';
import { PLAN_TIMEOUT_MS } from './constants';
import type { ContextIndex } from './contextIndex';

/** Known library names listed in the planner's prompt, at most. Default 60. */
export const PLAN_PROMPT_NAMES = 60;

export async function makePlan(
  task: string,
  index: ContextIndex,
  provider: ModelProvider,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<TaskPlan> {
  const fallback = heuristicPlan(task, index.names);
  if (!provider.available()) return fallback;
  const known = index.names
    .entries()
    .filter((e) => e.source === 'library')
    .slice(0, PLAN_PROMPT_NAMES)
    .map((e) => ({ text: e.text, kind: e.kind }));
  const prompt = planPrompt(task, known);
  let text: string;
  try {
    text = await provider.generate(
      { system: prompt[0].content, prompt: prompt[1].content, json: true, maxTokens: 300 },
      { timeoutMs: options.timeoutMs ?? PLAN_TIMEOUT_MS, signal: options.signal },
    );
  } catch (error) {
    return { ...fallback, fallbackReason: (error as Error).message };
  }
  const parsed = parsePlan(text, task);
  if (!parsed) return { ...fallback, fallbackReason: `${provider.name}: the plan is not the JSON asked for` };
  const names: PlanName[] = [...fallback.names];
  for (const n of parsed.names) {
    const key = normalizeName(n.text);
    if (!key || names.some((m) => m.key === key)) continue;
    // A name the dictionaries know keeps their kind and pages; a new one is the model's.
    const known = index.names.find(n.text).find((m) => m.entry.key === key)?.entry;
    names.push(
      known
        ? {
            text: known.text,
            kind: known.kind,
            source: known.source,
            ...(known.ref ? { ref: known.ref } : {}),
            docIds: [...known.docIds],
            key,
          }
        : { text: n.text, kind: n.kind, source: 'model', docIds: [], key },
    );
  }
  const plan: TaskPlan = {
    task,
    names,
    searches: parsed.searches.length > 0 ? parsed.searches : fallback.searches,
    constraints: parsed.constraints,
    madeBy: provider.name,
  };
  const deliverable = parsed.deliverable ?? fallback.deliverable;
  if (deliverable) plan.deliverable = deliverable;
  return plan;
}
