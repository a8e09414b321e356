/**
 * The composition root's value: everything the tools need for one engine, built once by each
 * host (the language server per engine it runs, `wsctx` and the stdio MCP server at startup,
 * tests per fixture) and passed to every tool call as an argument. Nothing is looked up
 * elsewhere: what a tool depends on is what it reads from here.
 *
 *   const services = createServices({ engine, judgeMode: 'shadow', activity });
 *   await callTool(services, findTool('get_context')!, { task }, { sessionId: 'cli' });
 *
 * It holds `get_context`'s collaborators (library/context/hooks.ts `ContextHooks`: the model
 * provider, judge mode, verdict cache, background notes, inferred links and conflict flags,
 * phrase meaning, private notes, organisation) and the library tools' (the section-meaning
 * signal, the call log, the clock, which sessions got the pinned documents).
 */
import type { ActivityLog } from '../library/activity/activityLog';
import type { ContextHooks } from '../library/context/hooks';
import { libraryPhrasingTexts } from '../library/context/phrasingTexts';
import type { RankingTuning, WorkspaceIndex } from '../engine';
import { PinnedSessions } from '../library/view/pinnedSessions';
import type { MeaningScorer } from '../library/view/ranking';
import { DEFAULT_JUDGE_MODE } from '../library/models/judge';
import { NO_MODEL } from '../library/models/modelProvider';
import { VerdictCache } from '../library/models/verdictCache';

/**
 * `E` is the index the host opened: the tools read it as a {@link WorkspaceIndex}; a host that
 * opened the in-memory `Engine` keeps that type for what only it has (passes, snapshots).
 */
export interface Services<E extends WorkspaceIndex = WorkspaceIndex> extends Readonly<ContextHooks> {
  /** The index the tools answer from: the in-memory engine, or an index over a store. */
  readonly engine: E;
  /**
   * The passage-meaning signal of `search_instructions`, `get_toc` and `get_context` (the
   * engine's section vectors). Absent when embeddings are off: search then ranks on the summary
   * and exact-word signals.
   */
  readonly sectionMeaning?: MeaningScorer;
  /** The local call log `wsctx diagnostics` reads. Absent: calls are not logged. */
  readonly activity?: ActivityLog;
  /** The clock readiness and expiry are judged by (tests pin it). */
  readonly now: () => Date;
  /** Which sessions already received the pinned documents. */
  readonly pinnedSessions: PinnedSessions;
  /**
   * A measurement's values of the ranking contract's fitted constants (`npm run eval -- --grid`,
   * bench/docsGrid.ts). No host that answers users sets it: without it the published values apply.
   */
  readonly rankingTuning?: RankingTuning;
}

/** What a host chooses; every part left out takes its default. */
export type ServiceParts<E extends WorkspaceIndex = WorkspaceIndex> = { engine: E } & Partial<Omit<Services, 'engine'>>;

/**
 * The services of `parts.engine`. Defaults: no model provider (every get_context step uses its
 * heuristic), the `gate` judge mode, a verdict cache in memory, no call log, the system clock,
 * and, when the engine embeds, its phrase meaning and section-meaning signal.
 */
export function createServices<E extends WorkspaceIndex>(parts: ServiceParts<E>): Services<E> {
  const { engine } = parts;
  // get_context's phrasings are embedded with the index, never lazily by a first request.
  if (engine.textMeaning) engine.setPhrasingSource(libraryPhrasingTexts);
  const defaults: Omit<Services, 'engine'> = {
    models: NO_MODEL,
    judgeMode: DEFAULT_JUDGE_MODE,
    verdicts: new VerdictCache(),
    now: () => new Date(),
    pinnedSessions: new PinnedSessions(),
    ...(engine.textMeaning ? { textMeaning: engine.textMeaning } : {}),
    ...(engine.hasMeaning ? { sectionMeaning: sectionMeaningOf(engine) } : {}),
  };
  return { ...defaults, ...definedParts(parts) };
}

/** The library tools' meaning signal over the engine's section vectors. */
export function sectionMeaningOf(engine: WorkspaceIndex): MeaningScorer {
  return (plan, candidates) =>
    engine.sectionMeaning(
      plan,
      candidates.map((c) => c.section.id),
    );
}

/** `parts` without its undefined entries, so they leave the defaults in place. */
function definedParts<E extends WorkspaceIndex>(parts: ServiceParts<E>): ServiceParts<E> {
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)) as ServiceParts<E>;
}
