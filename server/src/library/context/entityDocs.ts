/**
 * One index for the bundle: besides the library, `get_context` can hand over the entity docs
 * (TechDocs), repository overviews and epics of the entities the task names, as reference
 * excerpts labelled with their source kind. For "add a retry to the dunning schedule in
 * billing-worker" that is billing-worker's own dunning runbook, which a colleague would point to
 * before any library page.
 *
 * The passages are ranked by `workspace_context`'s published formula over those source kinds
 * only (ranking/workspaceContextRanker.ts), and kept when
 *
 * - they belong to an entity the task names (the ranker's named-entity detection, Backstage refs
 *   and names), the task's own words (or meaning) match them at least
 *   {@link ENTITY_EXCERPT_MIN_MATCH} (words only) or {@link ENTITY_EXCERPT_MIN_MATCH_MEANING}
 *   (with meaning, which saturates higher), and within {@link ENTITY_EXCERPT_WINDOW} of the best
 *   such passage: the name alone brings nothing, so "roll back billing-worker" does not send its
 *   dunning runbook;
 * - or, for an entity the task does not name, they match it at least
 *   {@link RANKED_ENTITY_MIN_MATCH}, a bar only a passage about the very task clears.
 *
 * At most {@link ENTITY_EXCERPTS} passages, best first, at most {@link ENTITY_EXCERPTS_PER_DOC}
 * from one document. They never make a bundle that found nothing in the library: a task the
 * library does not cover still gets nothing-found (the caller decides that).
 */
import {
  type IndexState,
  type EntityKey,
  type Section,
  type SourceKind,
  rankWorkspaceContext,
  type MeaningSource,
  type RankedPassage,
  type RankResult,
} from '../../engine';
import type { LibrarySection, LibraryView } from '../view/libraryView';
import type { ExcerptCandidate } from './budget';

/** Source kinds that can come as entity excerpts. */
export const ENTITY_SOURCE_KINDS: readonly SourceKind[] = ['catalog_doc', 'repo_overview', 'epic_doc'];
/** Entity excerpts per bundle. Default 3. */
export const ENTITY_EXCERPTS = 3;
/** From one document: the next-best passage of another document says more. Default 1. */
export const ENTITY_EXCERPTS_PER_DOC = 1;
/**
 * Words plus meaning (the formula's match, 0..1, before its title, name and recency bonuses) a
 * passage of a named entity needs, on words alone. Default 0.25, measured on the example's 41
 * labelled tasks (examples/fernhill-context-tasks.yaml): for the dunning task billing-worker's
 * smart-dunning epic and dunning runbook match 0.28-0.33, while the best passage of a named
 * entity in the tasks that need no entity docs (on-call, gateway logging) matches 0.19 or less.
 */
export const ENTITY_EXCERPT_MIN_MATCH = 0.25;
/**
 * The same bar for a passage ranked with meaning. Default 0.35: with meaning measured from the
 * task's crowd (contract 2026-12-01.2) the dunning task's epic and runbook passages match
 * 0.40-0.47, the best named-entity passage of the tasks that need none 0.28 or less
 * (new-gateway-caller's invoice-api index; on-call 0.21, the ADR and severity tasks 0.10).
 */
export const ENTITY_EXCERPT_MIN_MATCH_MEANING = 0.35;
/** A named entity's passage must match at least this share of the best one's match. Default 0.8. */
export const ENTITY_EXCERPT_WINDOW = 0.8;
/**
 * The bar for an entity the task does not name, either mode. Default 0.8: only a passage about
 * the very task clears it ("what is dunning" and the dunning runbook: 0.85-0.94); on words alone a
 * refund question matches a canary alert at 0.38, which no bar below that could tell apart.
 */
export const RANKED_ENTITY_MIN_MATCH = 0.8;
/** Passages ranked before the bars are applied. Default 30. */
const RANKED = 30;

export interface EntityExcerpt {
  passage: RankedPassage;
  /** The entity it belongs to (its first when several). */
  entity: EntityKey;
  /** True when the task names that entity. */
  named: boolean;
}

/**
 * The passages entity excerpts are chosen from: the entity docs, overviews and epics ranked for
 * `task`. A store ranks them without their texts; the caller fills those in before
 * {@link selectEntityExcerpts}, which skips passages with nothing under their heading.
 */
export function rankEntityPassages(
  state: IndexState,
  task: string,
  options: { now: number; meaning?: MeaningSource | null },
): RankResult {
  return rankWorkspaceContext(state, {
    question: task,
    limit: RANKED,
    now: options.now,
    sourceKinds: new Set(ENTITY_SOURCE_KINDS),
    meaning: options.meaning ?? null,
  });
}

/** The excerpts among `ranked` (from {@link rankEntityPassages}, texts present) that clear the bars, best first. */
export function selectEntityExcerpts(ranked: RankResult): EntityExcerpt[] {
  const named = new Set(ranked.named.map((n) => n.key));
  const ownOf = (p: RankedPassage) => entityRefsOf(p.entry.section, p.entry.doc.entityRefs).find((r) => named.has(r));
  const bestNamed = Math.max(0, ...ranked.passages.filter((p) => ownOf(p) !== undefined).map(matchOf));
  const out: EntityExcerpt[] = [];
  const perDoc = new Map<string, number>();
  for (const passage of ranked.passages) {
    if (out.length >= ENTITY_EXCERPTS) break;
    const refs = entityRefsOf(passage.entry.section, passage.entry.doc.entityRefs);
    if (refs.length === 0 || !hasBody(passage.entry.section)) continue;
    const own = ownOf(passage);
    const match = matchOf(passage);
    const floor = usedMeaning(passage) ? ENTITY_EXCERPT_MIN_MATCH_MEANING : ENTITY_EXCERPT_MIN_MATCH;
    if (own ? match < floor || match < ENTITY_EXCERPT_WINDOW * bestNamed : match < RANKED_ENTITY_MIN_MATCH) continue;
    const n = perDoc.get(passage.entry.doc.id) ?? 0;
    if (n >= ENTITY_EXCERPTS_PER_DOC) continue;
    perDoc.set(passage.entry.doc.id, n + 1);
    out.push({ passage, entity: own ?? refs[0], named: own !== undefined });
  }
  return out;
}

/** The formula's words and meaning contributions: how well the passage itself matches. */
function matchOf(passage: RankedPassage): number {
  return passage.why
    .filter((w) => w.signal === 'words' || w.signal === 'meaning')
    .reduce((s, w) => s + w.contribution, 0);
}

/** The passage ranked with a meaning signal (its section has a vector and embeddings are on). */
function usedMeaning(passage: RankedPassage): boolean {
  return passage.why.some((w) => w.signal === 'meaning' && w.weight > 0);
}

function entityRefsOf(section: Section, docRefs: readonly EntityKey[]): readonly EntityKey[] {
  return section.entityRefs ?? docRefs;
}

/** A section with text under its heading. */
function hasBody(section: Section): boolean {
  return (
    section.text
      .split('\n')
      .slice(section.level > 0 ? 1 : 0)
      .join('\n')
      .trim() !== ''
  );
}

/** Entity excerpts as budget candidates: never read whole, never private, no conflicts (not library pages). */
export function entityCandidates(view: LibraryView, found: readonly EntityExcerpt[]): ExcerptCandidate[] {
  return found.map((e) => {
    const { section, doc, ordinal } = e.passage.entry;
    const entry: LibrarySection = {
      section,
      doc,
      ordinal,
      position: Math.max(0, doc.sections.indexOf(section)),
      order: Number.MAX_SAFE_INTEGER,
    };
    const sourceKind = doc.sourceKind as 'catalog_doc' | 'repo_overview' | 'epic_doc';
    return {
      section: { entry, reachedBy: 'search', similarity: Math.round(e.passage.match * 1000) / 1000 },
      reason: 'entity',
      private: false,
      readWhole: false,
      entity: { sourceKind, ref: view.state.graph.get(e.entity)?.ref ?? e.entity, named: e.named },
    };
  });
}
