/**
 * What a host plugs into `get_context` for one engine, beside the library tools' hooks
 * (library/hooks.ts: the activity log, the clock, the section-meaning scorer):
 *
 * - `models`: the model provider (default none: every step uses its heuristic);
 * - `judgeMode`: `gate` (default), `shadow` or `off`;
 * - `verdicts`: the verdict cache (default: one in memory per engine);
 * - `notes`: what a model wrote about the library in the background (enrichment.ts);
 * - `organization`: the name in "Instructions from the <organization> team" (default: the first
 *   workspace folder's name);
 * - `privateNotes`: the user's own notes folder outside the workspace, and which connections are
 *   the user's own;
 * - `textMeaning`: phrase similarity from embeddings (Good-for phrasings, questions); without it
 *   phrasings are compared on words;
 * - `inferredLinks`: links the judge inferred between pages in the background;
 * - `conflictCheck`: the model's conflict flags (library/conflictCheck.ts).
 *
 *   setContextHooks(engine, { models: new OpenAiModelProvider({...}), judgeMode: 'shadow' });
 */
import type { Engine } from '../engine';
import type { ModelConflictCheck } from '../library/conflictCheck';
import type { ModelNotes } from '../models/derivedText';
import { DEFAULT_JUDGE_MODE, type JudgeMode } from '../models/judge';
import { NO_MODEL, type ModelProvider } from '../models/modelProvider';
import { VerdictCache } from '../models/verdictCache';
import type { InferredLinks } from './inferredLinks';
import type { PrivateNotes } from './privateNotes';

/**
 * Similarity of a query to short texts from embeddings, mapped to 0..1 (0.5 and above: close).
 * Null when embeddings are off or not ready; an entry is null when that text has no vector yet.
 */
export interface TextMeaning {
  similarities(query: string, texts: readonly string[]): Promise<(number | null)[] | null>;
}

export interface ContextHooks {
  models: ModelProvider;
  judgeMode: JudgeMode;
  /** Default: the judge's own (models/judge.ts). */
  judgeTimeoutMs?: number;
  /** Default PLAN_TIMEOUT_MS. */
  planTimeoutMs?: number;
  verdicts: VerdictCache;
  notes?: ModelNotes;
  organization?: string;
  privateNotes?: PrivateNotes;
  textMeaning?: TextMeaning;
  inferredLinks?: InferredLinks;
  /** The model's conflict check (library/conflictCheck.ts), whose flags diagnostics list. */
  conflictCheck?: ModelConflictCheck;
}

const states = new WeakMap<Engine, ContextHooks>();

/** The hooks of `engine`, with defaults. */
export function contextHooks(engine: Engine): ContextHooks {
  let hooks = states.get(engine);
  if (!hooks) {
    hooks = { models: NO_MODEL, judgeMode: DEFAULT_JUDGE_MODE, verdicts: new VerdictCache() };
    states.set(engine, hooks);
  }
  return hooks;
}

/** Installs hooks for `engine`; an `undefined` value restores that hook's default. */
export function setContextHooks(engine: Engine, hooks: Partial<ContextHooks>): void {
  const current = contextHooks(engine);
  for (const [key, value] of Object.entries(hooks) as [keyof ContextHooks, unknown][]) {
    if (value !== undefined) (current as unknown as Record<string, unknown>)[key] = value;
    else if (key === 'models') current.models = NO_MODEL;
    else if (key === 'judgeMode') current.judgeMode = DEFAULT_JUDGE_MODE;
    else if (key === 'verdicts') current.verdicts = new VerdictCache();
    else delete (current as unknown as Record<string, unknown>)[key];
  }
}
