/**
 * The model-backed work `get_context` does in the background, in one place a host starts once:
 * after every re-index (and once at start), one run at a time,
 *
 * 1. enrichment: Good-for phrasings, read-whole and section questions for what lacks them
 *    (models/enrichment.ts);
 * 2. inferred links between each page and its nearest neighbours (inferredLinks.ts);
 * 3. the conflict check of the pages that changed (library/conflictCheck.ts).
 *
 * It returns the three stores; the host puts them in its services (`notes`, `inferredLinks`,
 * `conflictCheck`), so requests and diagnostics read them. The provider is read at each run:
 * without one (or an unavailable one) nothing is asked and every step keeps its heuristic.
 *
 *   const background = startBackgroundModels(engine, { provider: () => models, log });
 */
import type { WorkspaceIndex } from '../../engine';
import { ModelConflictCheck, watchLibrarySoundness } from '../models/conflictCheck';
import { libraryView } from '../view/libraryView';
import { dayOf } from '../view/readiness';
import { ModelEnrichment } from '../models/enrichment';
import type { ModelProvider } from '../models/modelProvider';
import { InferredLinks } from './inferredLinks';

export interface BackgroundOptions {
  /** The provider to ask (read at each run). */
  provider: () => ModelProvider;
  /** Where the enrichment is kept across restarts (a JSON file outside the workspace). */
  enrichmentFile?: string;
  /** Where inferred links are kept across restarts, by page digests (a JSON file outside the workspace). */
  linksFile?: string;
  /** Where the model's conflict answers are kept across restarts, by section digests (a JSON file outside the workspace). */
  conflictsFile?: string;
  /** Model calls per run and step. Default 200 (enrichment), 100 (links), 50 (conflicts). */
  maxCalls?: { enrichment?: number; links?: number; conflicts?: number };
  now?: () => Date;
  log?: (message: string) => void;
}

export interface BackgroundModels {
  enrichment: ModelEnrichment;
  links: InferredLinks;
  conflicts: ModelConflictCheck;
  /** Resolves when the runs queued so far are done (tests, orderly shutdown). */
  idle(): Promise<void>;
  stop(): void;
}

export function startBackgroundModels(engine: WorkspaceIndex, options: BackgroundOptions): BackgroundModels {
  const enrichment = new ModelEnrichment({ file: options.enrichmentFile });
  const links = new InferredLinks({ file: options.linksFile });
  const conflicts = new ModelConflictCheck({ file: options.conflictsFile });
  let queue = Promise.resolve();
  let stopped = false;
  const runFor = () => {
    const state = engine.current();
    if (!state || stopped) return;
    queue = queue.then(async () => {
      const provider = options.provider();
      if (stopped || !provider.available()) return;
      const view = libraryView(state, dayOf(options.now?.() ?? new Date()));
      try {
        const enriched = await enrichment.enrich(view, provider, { maxCalls: options.maxCalls?.enrichment });
        const linkCalls = await links.infer(view, provider, { maxCalls: options.maxCalls?.links });
        // Stopped meanwhile (a one-shot answer is made): its calls were abandoned, not failed.
        if (!stopped)
          options.log?.(
            `[library] ${provider.name}: ${enriched.calls} enrichment call(s) (${enriched.failures} failed, ${enriched.remaining} left), ${linkCalls} link call(s)`,
          );
      } catch (error) {
        if (!stopped) options.log?.(`[library] background model work failed: ${(error as Error).message}`);
      }
    });
  };
  const unsubscribe = engine.onDidChangeState(runFor);
  const unwatch = watchLibrarySoundness(engine, conflicts, options.provider, {
    now: options.now,
    log: options.log,
    maxCalls: options.maxCalls?.conflicts,
  });
  runFor();
  return {
    enrichment,
    links,
    conflicts,
    idle: () => queue,
    stop() {
      stopped = true;
      unsubscribe();
      unwatch();
    },
  };
}
