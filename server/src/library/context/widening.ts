/**
 * Widening the search by one step from the pages behind the best hits (docs/ARCHITECTURE.md, get_context's contract, step 6):
 *
 * - **links**: pages those pages link to with `[[Page title]]`, and pages that link to them (a link
 *   written in the hit section itself carries more than one elsewhere on the page);
 * - **inferred links**: pages the judge said someone using the page would also need
 *   (inferredLinks.ts), when a model inferred any;
 * - **folders**: siblings in the same folder, when that folder is about one thing
 *   (coherence.ts, at least {@link FOLDER_COHERENCE_MIN}).
 *
 * A page reached this way joins the candidates through its best matching section (its first with a body
 * when search found none of them) with a weight that says how it was reached: the similarity of the
 * page it came from times {@link REACH_WEIGHT}. The closeness window and the judge then decide
 * whether it belongs like everything else, so a bad link costs a candidate, not a wrong answer.
 */
import { type Doc, extractPageLinks } from '../../engine';
import type { LibrarySection } from '../view/libraryView';
import { sectionBody } from '../view/summaries';
import { FOLDER_COHERENCE_MIN, REACH_WEIGHT, WIDEN_FROM_PAGES } from './constants';
import { folderCoherence, folderOfPath } from './coherence';
import { resolvePageRef, type ContextIndex } from './contextIndex';
import type { InferredLinks } from './inferredLinks';
import type { Candidate, ReachedBy } from './types';

export interface WidenInput {
  index: ContextIndex;
  /** Candidates so far by section id; widened ones are added to it. */
  candidates: Map<string, Candidate>;
  /** The hits to widen from, best first (only the first WIDEN_FROM_PAGES pages count). */
  seeds: readonly Candidate[];
  /** Pages the request may add (scope, not rules, not the team instructions). */
  allowed: (doc: Doc) => boolean;
  inferred?: InferredLinks;
}

/** Adds the candidates widening reaches; returns them in the order reached. */
export function widen(input: WidenInput): Candidate[] {
  const { index, candidates } = input;
  const fromPages: { doc: Doc; similarity: number; hitLinks: Set<string> }[] = [];
  for (const seed of input.seeds) {
    let page = fromPages.find((p) => p.doc.id === seed.entry.doc.id);
    if (!page) {
      if (fromPages.length >= WIDEN_FROM_PAGES) continue;
      page = { doc: seed.entry.doc, similarity: seed.weight, hitLinks: new Set() };
      fromPages.push(page);
    }
    page.similarity = Math.max(page.similarity, seed.weight);
    for (const link of extractPageLinks(seed.entry.section.text)) page.hitLinks.add(link.trim().toLowerCase());
  }
  const added: Candidate[] = [];
  for (const from of fromPages) {
    const targets: { doc: Doc; by: keyof typeof REACH_WEIGHT }[] = [];
    for (const link of from.doc.library!.links) {
      const doc = resolvePageRef(index, link);
      if (doc) targets.push({ doc, by: from.hitLinks.has(link.trim().toLowerCase()) ? 'link' : 'page-link' });
    }
    for (const doc of index.linkedFrom.get(from.doc.id) ?? []) targets.push({ doc, by: 'page-link' });
    for (const { doc } of input.inferred?.linksOf(index.view, from.doc) ?? [])
      targets.push({ doc, by: 'inferred-link' });
    const folder = folderCoherence(index, folderOfPath(from.doc.path));
    if (folder.score >= FOLDER_COHERENCE_MIN) for (const doc of folder.pages) targets.push({ doc, by: 'folder' });

    for (const { doc, by } of targets) {
      if (doc.id === from.doc.id || !input.allowed(doc)) continue;
      const entry = representative(index, doc, candidates);
      if (!entry) continue;
      const carried = from.similarity * REACH_WEIGHT[by];
      const reachedBy: ReachedBy = by === 'page-link' ? 'link' : by;
      const existing = candidates.get(entry.section.id);
      if (existing && existing.weight >= carried) continue;
      if (existing) {
        existing.weight = carried;
        if (existing.similarity < carried) {
          existing.reachedBy = reachedBy;
          existing.via = from.doc;
        }
        continue;
      }
      const candidate: Candidate = {
        entry,
        similarity: 0,
        weight: carried,
        fused: 0,
        reachedBy,
        via: from.doc,
        named: false,
      };
      candidates.set(entry.section.id, candidate);
      added.push(candidate);
    }
  }
  return added;
}

/** The page's best candidate section, else its first section with a body. */
function representative(
  index: ContextIndex,
  doc: Doc,
  candidates: ReadonlyMap<string, Candidate>,
): LibrarySection | undefined {
  let best: Candidate | undefined;
  for (const section of doc.sections) {
    const c = candidates.get(section.id);
    if (c && (!best || c.fused > best.fused)) best = c;
  }
  if (best) return best.entry;
  // The first section that says something (a page's H1 is often followed straight by a subheading).
  for (const section of doc.sections) {
    const entry = index.view.sectionById.get(section.id);
    if (entry && sectionBody(section).trim() !== '') return entry;
  }
  return undefined;
}
