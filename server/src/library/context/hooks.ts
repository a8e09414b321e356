/**
 * What `get_context` takes from its host, passed as an argument (`buildContext({ hooks })`), never
 * looked up: the host's composition root (services/services.ts) builds one value holding these
 * for its engine, and the tool passes it in.
 *
 * - `models`: the model provider (none: every step uses its heuristic);
 * - `judgeMode`: `gate` (the default), `shadow` or `off`;
 * - `verdicts`: the verdict cache;
 * - `notes`: what a model wrote about the library in the background (enrichment.ts);
 * - `organization`: the name in "Instructions from the <organization> team" (default: the first
 *   workspace folder's name);
 * - `privateNotes`: the user's own notes folder outside the workspace, and which connections are
 *   the user's own;
 * - `textMeaning`: phrase similarity from embeddings (Good-for phrasings, questions); without it
 *   phrasings are compared on words;
 * - `inferredLinks`: links the judge inferred between pages in the background;
 * - `conflictCheck`: the model's conflict flags (library/conflictCheck.ts).
 */
import type { ModelConflictCheck } from '../models/conflictCheck';
import type { TextMeaning } from '../../engine';
import type { ModelNotes } from '../models/derivedText';
import type { JudgeMode } from '../models/judge';
import type { ModelProvider } from '../models/modelProvider';
import type { VerdictCache } from '../models/verdictCache';
import type { InferredLinks } from './inferredLinks';
import type { PrivateNotes } from './privateNotes';

export type { TextMeaning } from '../../engine';

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
