/**
 * Filling a `search_instructions` answer from a ranking (docs/ARCHITECTURE.md, the library tools' contract): whole sections, grouped by
 * document, best document first, until the token budget is used, from at most
 * {@link SEARCH_MAX_DOCUMENTS} documents.
 *
 * 1. Profile: for a document whose profile is `focused` (its namespace's `folder.yaml`, unless
 *    the call names one), the document is left out when its strength is below
 *    {@link FOCUSED_MIN_RELATIVE_STRENGTH} of the best document's. `catalog` keeps every match.
 * 2. First pass, documents best first: a document of at most {@link SMALL_DOCUMENT_TOKENS} comes
 *    whole, every section in order, or not at all; a larger one contributes its best
 *    {@link BEST_SECTIONS_PER_DOCUMENT} matched sections (those that fit).
 * 3. Second pass, only when at most {@link FEW_DOCUMENTS} documents survived step 1: the budget
 *    left goes to the other matched sections of the larger documents, best fused score first.
 *
 * A section is never cut: one that does not fit is skipped and a smaller one may still fit.
 * Everything that matched but was left out is reported with the reason, best first.
 */
import {
  BEST_SECTIONS_PER_DOCUMENT,
  FEW_DOCUMENTS,
  FOCUSED_MIN_RELATIVE_STRENGTH,
  SEARCH_MAX_DOCUMENTS,
  SEARCH_TOKEN_BUDGET,
  SMALL_DOCUMENT_TOKENS,
  type LibraryProfile,
} from './constants';
import type { LibraryView } from './libraryView';
import type { LibraryRanking, RankedDocument, RankedSection } from './ranking';
import { documentTokens, sectionBlockTokens } from './sectionRender';

export interface PackedSection {
  ranked: RankedSection;
  /** Tokens of the rendered block. */
  tokens: number;
}

export interface PackedDocument {
  ranked: RankedDocument;
  profile: LibraryProfile;
  /** True when the document came back whole. */
  whole: boolean;
  /** Included sections in document order. */
  sections: PackedSection[];
}

export type CutReason = 'weak' | 'document-cap' | 'budget';

export interface CutDocument {
  ranked: RankedDocument;
  profile: LibraryProfile;
  reason: CutReason;
}

export interface SearchPack {
  documents: PackedDocument[];
  /** Matched documents left out, best first. */
  cut: CutDocument[];
  /** Tokens of the included section blocks. */
  tokens: number;
  budget: number;
}

export interface PackOptions {
  /** Overrides every namespace's profile. */
  profile?: LibraryProfile;
  /** Default {@link SEARCH_TOKEN_BUDGET}. */
  budget?: number;
  /** Default {@link SEARCH_MAX_DOCUMENTS}. */
  maxDocuments?: number;
}

export function packSearch(view: LibraryView, ranking: LibraryRanking, options: PackOptions = {}): SearchPack {
  const budget = options.budget ?? SEARCH_TOKEN_BUDGET;
  const maxDocuments = options.maxDocuments ?? SEARCH_MAX_DOCUMENTS;
  const profileOf = (d: RankedDocument): LibraryProfile =>
    options.profile ?? view.namespaceByName.get(d.doc.library?.namespace ?? '')?.profile ?? 'focused';

  const cut: CutDocument[] = [];
  const kept: RankedDocument[] = [];
  const best = ranking.documents.reduce((max, d) => Math.max(max, d.strength), 0);
  for (const ranked of ranking.documents) {
    const profile = profileOf(ranked);
    if (profile === 'focused' && ranked.strength < FOCUSED_MIN_RELATIVE_STRENGTH * best)
      cut.push({ ranked, profile, reason: 'weak' });
    else kept.push(ranked);
  }

  const tokensOf = new Map<RankedSection, number>();
  const cost = (s: RankedSection) => {
    let tokens = tokensOf.get(s);
    if (tokens === undefined) {
      tokens = sectionBlockTokens(view, s.entry.section, s.entry.doc);
      tokensOf.set(s, tokens);
    }
    return tokens;
  };

  let used = 0;
  const included: PackedDocument[] = [];
  const large: { packed: PackedDocument; rest: RankedSection[] }[] = [];
  for (const ranked of kept) {
    const profile = profileOf(ranked);
    if (included.length >= maxDocuments) {
      cut.push({ ranked, profile, reason: 'document-cap' });
      continue;
    }
    if (documentTokens(ranked.doc) <= SMALL_DOCUMENT_TOKENS) {
      const all = wholeDocument(view, ranked);
      const total = all.reduce((sum, s) => sum + cost(s), 0);
      if (used + total > budget) {
        cut.push({ ranked, profile, reason: 'budget' });
        continue;
      }
      used += total;
      included.push({ ranked, profile, whole: true, sections: all.map((s) => ({ ranked: s, tokens: cost(s) })) });
      continue;
    }
    const chosen: RankedSection[] = [];
    const rest: RankedSection[] = [];
    for (const s of ranked.sections) {
      if (chosen.length < BEST_SECTIONS_PER_DOCUMENT && used + cost(s) <= budget) {
        chosen.push(s);
        used += cost(s);
      } else {
        rest.push(s);
      }
    }
    if (chosen.length === 0) {
      cut.push({ ranked, profile, reason: 'budget' });
      continue;
    }
    const packed: PackedDocument = {
      ranked,
      profile,
      whole: false,
      sections: chosen.map((s) => ({ ranked: s, tokens: cost(s) })),
    };
    included.push(packed);
    large.push({ packed, rest });
  }

  if (kept.length <= FEW_DOCUMENTS) {
    const extra = large.flatMap(({ packed, rest }) => rest.map((s) => ({ packed, s })));
    // Best fused score first; ties keep document rank, then section order (ranking order).
    extra.sort((a, b) => b.s.fused - a.s.fused);
    for (const { packed, s } of extra) {
      if (used + cost(s) > budget) continue;
      used += cost(s);
      packed.sections.push({ ranked: s, tokens: cost(s) });
    }
  }
  for (const packed of included) {
    packed.sections.sort((a, b) => a.ranked.entry.position - b.ranked.entry.position);
    if (!packed.whole && packed.sections.length === packed.ranked.doc.sections.length) packed.whole = true;
  }
  const rank = new Map(ranking.documents.map((d, i) => [d, i]));
  cut.sort((a, b) => rank.get(a.ranked)! - rank.get(b.ranked)!);
  return { documents: included, cut, tokens: used, budget };
}

/**
 * Every section of a small document in order, as ranked sections: the matched ones carry their
 * signals, the others come along with none (a whole document is read as one piece).
 */
function wholeDocument(view: LibraryView, ranked: RankedDocument): RankedSection[] {
  const byId = new Map(ranked.sections.map((s) => [s.entry.section.id, s]));
  return ranked.doc.sections.map((section, position) => {
    const found = byId.get(section.id);
    if (found) return found;
    const entry = view.sectionById.get(section.id) ?? { section, doc: ranked.doc, ordinal: -1, position, order: -1 };
    return { entry, signals: {}, titleBonus: 0, fused: 0, strength: 0 };
  });
}
