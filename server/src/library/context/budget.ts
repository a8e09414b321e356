/**
 * Filling the budget (docs/ARCHITECTURE.md, get_context's contract, steps 3-8). The budget is a ceiling, not a target, and it is
 * measured on the Markdown actually sent (characters / 4 estimates tokens; text/tokenEstimate.ts):
 *
 * 1. The team instructions, the comment and the rules always go (rules are never cut; when they
 *    pass the budget there is simply no room left); then a change's part, sized before to what
 *    they left (change/changeBundle.ts).
 * 2. Whole pages in order (pinned, pack Always pages, read-whole Good-for pages) while their
 *    blocks stay within {@link WHOLE_PAGE_SHARE} of the budget and the budget itself; a page that
 *    would pass either is skipped, and its sections stay searchable.
 * 3. Excerpts in the order given (the sections the judge is surest about first), each added when
 *    it fits; a section that does not fit is skipped and a smaller one may still fit. A section
 *    of a page to read whole brings the whole page instead, if it fits, and otherwise nothing.
 *    Entity excerpts (entity docs, overviews, epics) come last in that order, after every library
 *    excerpt.
 * 4. The nothing-found notice, when the request found nothing.
 */
import { WHOLE_PAGE_SHARE } from './constants';
import {
  BLOCK_SEPARATOR,
  excerptBlock,
  nothingFoundBlock,
  pageBlock,
  pageHeader,
  REFERENCE_HEADING,
  type IdOf,
} from './render';
import type { BundlePage, BundleSection, EntityLabel, NearestPage, PageReason, SkippedPage } from './types';
import type { Doc } from '../../engine';
import type { PassageFlag } from '../view/soundness';

export interface WholeCandidate {
  doc: Doc;
  reason: PageReason;
  private: boolean;
  /** Searched sections that led to it (JSON similarities). */
  sections: BundleSection[];
  /** Its sections' conflicts with other pages (shown after it). */
  conflicts?: PassageFlag[];
}

export interface ExcerptCandidate {
  section: BundleSection;
  reason: PageReason;
  private: boolean;
  /** The page is read whole: the whole page comes instead of the section. */
  readWhole: boolean;
  /** The page's conflicts, shown after it when it comes whole. */
  pageConflicts?: PassageFlag[];
  /** An entity's doc, overview or epic (never read whole). */
  entity?: EntityLabel;
}

export interface FillInput {
  /** `max_tokens * 4`. */
  budgetChars: number;
  /** Blocks that always go: instructions, comment, rules heading and rule pages. */
  fixed: readonly string[];
  /** Blocks after those that go too, already sized by their maker: a change's part (change/changeBundle.ts). */
  afterFixed?: readonly string[];
  whole: readonly WholeCandidate[];
  excerpts: readonly ExcerptCandidate[];
  /** Set when the request found nothing: the notice goes last, if it fits. */
  nothingFound?: readonly NearestPage[];
  idOf: IdOf;
}

export interface FillResult {
  reference: BundlePage[];
  skipped: SkippedPage[];
  /** Characters of the Markdown. */
  chars: number;
  rulesOverBudget: boolean;
  /** The notice made it in. */
  nothingFoundShown: boolean;
}

export function fillBudget(input: FillInput): FillResult {
  const sep = BLOCK_SEPARATOR.length;
  let used = input.fixed.reduce((n, b) => n + b.length, 0) + sep * Math.max(0, input.fixed.length - 1);
  const rulesOverBudget = used > input.budgetChars;
  for (const block of input.afterFixed ?? []) used += sep + block.length;
  let referenceOpen = false;
  /** What adding a block of `length` characters as a new block costs. */
  const blockCost = (length: number) => (referenceOpen ? 0 : REFERENCE_HEADING.length + sep) + length + sep;
  const fits = (cost: number) => used + cost <= input.budgetChars;
  const take = (cost: number) => {
    used += cost;
    referenceOpen = true;
  };

  const whole: BundlePage[] = [];
  // One entry per page that did not fit, however many ways it came (pinned, a pack's, search):
  // the first says why; every later way is refused with it.
  const skipped: SkippedPage[] = [];
  const skip = (page: SkippedPage) => {
    if (!skipped.some((s) => s.doc.id === page.doc.id)) skipped.push(page);
  };
  const wholeIds = new Set<string>();
  const allowance = Math.floor(WHOLE_PAGE_SHARE * input.budgetChars);
  let wholeUsed = 0;
  for (const c of input.whole) {
    if (wholeIds.has(c.doc.id)) continue;
    const page: BundlePage = {
      doc: c.doc,
      reason: c.reason,
      whole: true,
      private: c.private,
      sections: c.sections,
      chars: 0,
      ...(c.conflicts?.length ? { conflicts: c.conflicts } : {}),
    };
    page.chars = pageBlock(page, input.idOf).length;
    const cost = blockCost(page.chars);
    if (wholeUsed + page.chars > allowance) {
      skip({ doc: c.doc, reason: c.reason, why: 'allowance' });
      continue;
    }
    if (!fits(cost)) {
      skip({ doc: c.doc, reason: c.reason, why: 'budget' });
      continue;
    }
    take(cost);
    wholeUsed += page.chars;
    whole.push(page);
    wholeIds.add(c.doc.id);
  }

  const excerptPages = new Map<string, BundlePage>();
  const refused = new Set<string>(); // read-whole pages that did not fit: nothing from them
  for (const c of input.excerpts) {
    const doc = c.section.entry.doc;
    if (wholeIds.has(doc.id) || refused.has(doc.id)) {
      const page = whole.find((p) => p.doc.id === doc.id);
      if (page && !page.sections.some((s) => s.entry.section.id === c.section.entry.section.id))
        page.sections.push(c.section);
      continue;
    }
    if (c.readWhole) {
      const page: BundlePage = {
        doc,
        reason: c.reason,
        whole: true,
        private: c.private,
        sections: [c.section],
        chars: 0,
        ...(c.pageConflicts?.length ? { conflicts: c.pageConflicts } : {}),
      };
      page.chars = pageBlock(page, input.idOf).length;
      const cost = blockCost(page.chars);
      if (!fits(cost)) {
        refused.add(doc.id);
        skip({ doc, reason: c.reason, why: 'budget' });
        continue;
      }
      take(cost);
      whole.push(page);
      wholeIds.add(doc.id);
      continue;
    }
    const block = excerptBlock(c.section, input.idOf).length;
    const existing = excerptPages.get(doc.id);
    if (existing) {
      if (!fits(block + sep)) continue;
      used += block + sep;
      existing.sections.push(c.section);
      continue;
    }
    const header = pageHeader(doc, input.idOf, { whole: false, private: c.private, entity: c.entity }).length;
    const cost = blockCost(header + sep + block);
    if (!fits(cost)) continue;
    take(cost);
    excerptPages.set(doc.id, {
      doc,
      reason: c.reason,
      whole: false,
      private: c.private,
      sections: [c.section],
      chars: 0,
      ...(c.entity ? { entity: c.entity } : {}),
    });
  }
  const reference = [...whole, ...excerptPages.values()];
  for (const page of excerptPages.values()) page.chars = pageBlock(page, input.idOf).length;

  let nothingFoundShown = false;
  if (input.nothingFound) {
    const cost = blockCost(nothingFoundBlock(input.nothingFound, input.idOf).length);
    if (fits(cost)) {
      take(cost);
      nothingFoundShown = true;
    }
  }
  return { reference, skipped, chars: used, rulesOverBudget, nothingFoundShown };
}
