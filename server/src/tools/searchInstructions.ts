/**
 * `search_instructions(plan, profile?)` (docs/ARCHITECTURE.md, the library tools' contract, "Search"): the whole library sections that
 * apply to what the agent is about to do, grouped by document, best document first, within about
 * 4,000 tokens from at most 6 documents; the documents that matched but did not fit are named at
 * the end. Three signals fused with reciprocal rank fusion (library/view/ranking.ts); no model
 * runs at call time.
 */
import { z } from 'zod';
import { boundedString, INPUT_LIMITS, oneOf } from './inputLimits';
import {
  FOCUSED_MIN_RELATIVE_STRENGTH,
  MAX_NAMED_CUT_DOCUMENTS,
  SEARCH_MAX_DOCUMENTS,
  SEARCH_TOKEN_BUDGET,
  SMALL_DOCUMENT_TOKENS,
} from '../library/view/constants';
import { shownId, type LibraryView } from '../library/view/libraryView';
import { namespaceLabel } from '../library/view/namespaces';
import type { RankedSection } from '../library/view/ranking';
import { searchLibrary, type LibrarySearch } from '../library/view/search';
import type { CutReason } from '../library/view/searchPack';
import { formatSectionBlock } from '../library/view/sectionRender';
import { sectionBody, sectionHeading } from '../library/view/summaries';
import { COLD_NOTICE, commonOutput, libraryState, logged, pinnedFor, pinnedPrefix, servedPinned } from './libraryTool';
import { librarySoundness, type LibrarySoundness } from '../library/view/soundness';
import type { Services } from '../services/services';
import { conflictOutput, conflictSchema } from './conflictOutput';
import type { ToolDefinition } from './toolDefinition';

const input = {
  plan: boundedString(INPUT_LIMITS.text)
    .min(1)
    .describe(
      `What you are about to do, in a sentence: "writing a migration that adds a column to the invoices table of billing-worker". Name the service, API or identifier when you know it. At most ${INPUT_LIMITS.text} characters.`,
    ),
  profile: oneOf(['focused', 'catalog'] as const, 'a profile')
    .optional()
    .describe(
      "`focused` leaves out documents whose match is weak next to the best one; `catalog` keeps every match (for many similar documents). Default: each namespace's own setting, else focused.",
    ),
};

const signalScore = z.object({ rank: z.number(), score: z.number() });
const signals = z.object({
  summary: signalScore.optional(),
  meaning: signalScore.optional(),
  exact: signalScore.optional(),
});

const outputSection = z.object({
  id: z.string(),
  heading: z.string(),
  /** The section as written, without its heading line. */
  body: z.string(),
  /** Estimated tokens of the section as rendered: heading with id, From line, body (what the budget counts). */
  tokens: z.number(),
  /** Fused score (0 for the unmatched sections of a whole document). */
  score: z.number(),
  signals,
  /** What this section states that another page states differently (unsettled flags). */
  conflicts: z.array(conflictSchema).optional(),
});

const outputDocument = z.object({
  id: z.string(),
  title: z.string(),
  /** Workspace-relative path. */
  path: z.string(),
  namespace: z.string(),
  profile: z.enum(['focused', 'catalog']),
  /** True when every section of the document is here. */
  whole: z.boolean(),
  score: z.number(),
  strength: z.number(),
  titleBonus: z.number(),
  sections: z.array(outputSection),
});

const cutDocument = z.object({
  id: z.string(),
  title: z.string(),
  /** Workspace-relative path. */
  path: z.string(),
  namespace: z.string(),
  reason: z.enum(['weak', 'document-cap', 'budget']),
  score: z.number(),
  /** Its best matched sections, to open with get_section. */
  bestSections: z.array(z.string()),
});

const output = {
  plan: z.string(),
  /** The profile the call asked for; absent when each namespace's own applied. */
  profile: z.enum(['focused', 'catalog']).optional(),
  signals: z.object({ summary: z.boolean(), meaning: z.boolean(), exact: z.boolean() }),
  exactTerms: z.array(z.string()),
  budget: z.number(),
  tokens: z.number(),
  documents: z.array(outputDocument),
  /** Matched documents left out, best first (at most MAX_NAMED_CUT_DOCUMENTS). */
  cut: z.array(cutDocument),
  /** Further matched documents left out and not named. */
  moreCut: z.number(),
  ...commonOutput,
};

export type SearchInstructionsOutput = z.infer<z.ZodObject<typeof output>>;

export const searchInstructionsTool: ToolDefinition<typeof input, typeof output> = {
  name: 'search_instructions',
  title: 'Find the rules and instructions for a task',
  description: [
    'Describe what you are about to do; get back the library sections that apply, whole, grouped by document, best document first,',
    `within about ${SEARCH_TOKEN_BUDGET.toLocaleString('en-US')} tokens from at most ${SEARCH_MAX_DOCUMENTS} documents.`,
    `A document of up to about ${SMALL_DOCUMENT_TOKENS} tokens comes whole; a larger one gives its best matching sections.`,
    'Each section says which document it comes from; documents that matched but did not fit are named at the end with their ids (open them with get_toc(document_id) or get_section).',
    'Ranks by the section summaries, passage meaning (when embeddings are on) and exact identifiers, codes and flags; a document title counts extra only when the plan names it specifically, so name the service, API or identifier when you know it (e.g. "retry policy for the payments API webhooks").',
  ].join(' '),
  input,
  output,
  async run(services: Services, args, context) {
    let returned: string[] = []; // full section ids, for the call log
    return logged(
      services,
      context,
      'search_instructions',
      { plan: args.plan, profile: args.profile },
      async (): Promise<SearchInstructionsOutput> => {
        const found = await libraryState(services, [args.plan]);
        const empty = emptySearch(args);
        if (found.kind === 'cold') return { ...empty, notice: COLD_NOTICE, degraded: ['index-cold'], indexedAt: null };
        const { view } = found;
        const search = await searchLibrary(view, args.plan, {
          profile: args.profile,
          meaning: services.sectionMeaning,
        });
        const pinned = pinnedFor(services, view, context);
        servedPinned(services, context);
        const soundness = librarySoundness(view, services.conflictCheck ? [services.conflictCheck] : []);
        const out = toOutput(view, args.plan, args.profile, search, soundness);
        returned = search.pack.documents.flatMap((d) => d.sections.map((s) => s.ranked.entry.section.id));
        if (out.documents.length === 0) {
          out.notice =
            out.cut.length > 0
              ? 'Documents matched but none fitted the budget; open them by id below.'
              : 'Nothing in the library matches this plan. get_toc() maps the library; name the product, system or identifier when you know it.';
        }
        return { ...out, ...(pinned.length > 0 ? { pinned } : {}), degraded: [], indexedAt: found.indexedAt };
      },
      (out) => ({ resultIds: returned, empty: out.documents.length === 0 }),
    );
  },
  unreadable: (args, notice) => ({ ...emptySearch(args), notice, degraded: ['scope-unreadable'], indexedAt: null }),
  renderText: renderSearch,
};

type Body = Omit<SearchInstructionsOutput, 'pinned' | 'degraded' | 'indexedAt' | 'notice'> & { notice?: string };

function toOutput(
  view: LibraryView,
  plan: string,
  profile: 'focused' | 'catalog' | undefined,
  search: LibrarySearch,
  soundness: LibrarySoundness,
): Body {
  const { ranking, pack } = search;
  const cut = pack.cut.map((c) => ({
    id: shownId(view, c.ranked.doc.id),
    title: c.ranked.doc.title,
    path: c.ranked.doc.path,
    namespace: namespaceLabel(c.ranked.doc.library!.namespace),
    reason: c.reason,
    score: round(c.ranked.score),
    bestSections: c.ranked.sections.slice(0, 2).map((s) => shownId(view, s.entry.section.id)),
  }));
  return {
    plan,
    ...(profile ? { profile } : {}),
    signals: ranking.signals,
    exactTerms: ranking.exactTerms,
    budget: pack.budget,
    tokens: pack.tokens,
    documents: pack.documents.map((d) => ({
      id: shownId(view, d.ranked.doc.id),
      title: d.ranked.doc.title,
      path: d.ranked.doc.path,
      namespace: namespaceLabel(d.ranked.doc.library!.namespace),
      profile: d.profile,
      whole: d.whole,
      score: round(d.ranked.score),
      strength: round(d.ranked.strength),
      titleBonus: round(d.ranked.sections[0]?.titleBonus ?? 0),
      sections: d.sections.map((s) => outputSectionOf(view, s.ranked, s.tokens, soundness)),
    })),
    cut: cut.slice(0, MAX_NAMED_CUT_DOCUMENTS),
    moreCut: Math.max(0, cut.length - MAX_NAMED_CUT_DOCUMENTS),
  };
}

/** A packed section as output: printed id, body, size, signals rounded. */
function outputSectionOf(
  view: LibraryView,
  ranked: RankedSection,
  tokens: number,
  soundness: LibrarySoundness,
): z.infer<typeof outputSection> {
  const { section, doc } = ranked.entry;
  const conflicts = soundness.sectionConflicts(section.id);
  const sig: z.infer<typeof signals> = {};
  for (const name of ['summary', 'meaning', 'exact'] as const) {
    const s = ranked.signals[name];
    if (s) sig[name] = { rank: s.rank, score: round(s.score) };
  }
  return {
    id: shownId(view, section.id),
    heading: sectionHeading(section, doc),
    body: sectionBody(section),
    tokens,
    score: round(ranked.fused),
    signals: sig,
    ...(conflicts.length > 0 ? { conflicts: conflicts.map((f) => conflictOutput(f, (id) => shownId(view, id))) } : {}),
  };
}

const REASONS: Record<CutReason, string> = {
  weak: 'weak next to the best match',
  'document-cap': `over the ${SEARCH_MAX_DOCUMENTS}-document limit`,
  budget: `did not fit the ${SEARCH_TOKEN_BUDGET.toLocaleString('en-US')}-token budget`,
};

const WEAK_NOTE = `(focused profile: documents under ${FOCUSED_MIN_RELATIVE_STRENGTH * 100}% of the best match's strength are left out; profile "catalog" keeps them)`;

export function renderSearch(out: SearchInstructionsOutput): string {
  if (out.degraded.includes('index-cold')) return out.notice ?? 'The index is still empty.';
  const blocks: string[] = [];
  for (const doc of out.documents) {
    for (const s of doc.sections) {
      const block = formatSectionBlock({ heading: s.heading, id: s.id, title: doc.title, docId: doc.id, body: s.body });
      const notes = (s.conflicts ?? []).map(
        (c) =>
          `> Conflict: "${c.with.title}" [doc ${c.with.id}] › ${c.with.heading} says "${c.there}", where this says "${c.here}" (${c.what}). Check which holds before relying on either.`,
      );
      blocks.push(notes.length > 0 ? `${block}\n\n${notes.join('\n')}` : block);
    }
  }
  if (out.notice) blocks.push(out.notice);
  if (out.cut.length > 0) {
    const lines = ['Also matched, not included (open with get_toc(document_id=...) or get_section(id=...)):'];
    for (const c of out.cut) {
      const best =
        c.bestSections.length > 0 ? `; best sections ${c.bestSections.map((id) => `[${id}]`).join(', ')}` : '';
      lines.push(`- ${c.title}  [doc ${c.id}]: ${REASONS[c.reason]}${best}`);
    }
    if (out.moreCut > 0) lines.push(`- and ${out.moreCut} more; add words to the plan to narrow it.`);
    if (out.cut.some((c) => c.reason === 'weak')) lines.push(WEAK_NOTE);
    blocks.push(lines.join('\n'));
  }
  return `${pinnedPrefix(out.pinned)}${blocks.join('\n\n')}`;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** A search that found nothing (cold index, unreadable store). */
function emptySearch(args: Pick<SearchInstructionsOutput, 'plan' | 'profile'>) {
  return {
    plan: args.plan,
    ...(args.profile ? { profile: args.profile } : {}),
    signals: { summary: true, meaning: false, exact: false },
    exactTerms: [],
    budget: SEARCH_TOKEN_BUDGET,
    tokens: 0,
    documents: [],
    cut: [],
    moreCut: 0,
  };
}
