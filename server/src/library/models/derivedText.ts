/**
 * What the model would write about pages, folders, packs and sections, derived without one
 * (docs/ARCHITECTURE.md, "Model steps are optional": headings and first sentences): Good-for phrasings, whether a page is read
 * whole, and the questions each section answers. What the front matter says always wins; what a
 * model wrote (enrichment.ts) comes next; these are the fallback.
 */
import { type Doc, type Section, type FolderDescription, type LibraryPack, termSet } from '../../engine';
import { documentSummary, sectionHeading } from '../view/summaries';

/** Page types read whole unless the front matter says otherwise (docs/ARCHITECTURE.md, get_context's contract, step 5). */
export const READ_WHOLE_TYPES: ReadonlySet<string> = new Set(['rule', 'voice', 'style', 'template', 'process']);

/** What a model wrote about pages and sections, when one did (enrichment.ts implements it). */
export interface ModelNotes {
  pageCard(doc: Doc): { goodFor: string[]; readWhole?: boolean } | undefined;
  sectionQuestions(doc: Doc, section: Section): string[] | undefined;
  folderPhrasings(folder: FolderDescription): string[] | undefined;
  packPhrasings(pack: LibraryPack): string[] | undefined;
}

export type PhrasingSource = 'front-matter' | 'model' | 'derived';

/** A page's Good-for phrasings: front matter, else the model's, else its title and summary. */
export function pagePhrasings(doc: Doc, notes?: ModelNotes): { phrasings: string[]; source: PhrasingSource } {
  const declared = doc.library?.goodFor ?? [];
  if (declared.length > 0) return { phrasings: declared, source: 'front-matter' };
  const model = notes?.pageCard(doc)?.goodFor;
  if (model && model.length > 0) return { phrasings: model, source: 'model' };
  return { phrasings: dedupe([doc.title, documentSummary(doc)]), source: 'derived' };
}

/** Whether a page is sent only whole: `read_whole` in front matter, else the model's, else by type. */
export function isReadWhole(doc: Doc, notes?: ModelNotes): boolean {
  const declared = doc.library?.readWhole;
  if (declared !== undefined) return declared;
  const model = notes?.pageCard(doc)?.readWhole;
  if (model !== undefined) return model;
  return READ_WHOLE_TYPES.has(doc.library?.type ?? '');
}

/** A folder's phrasings: its folder.yaml `good_for`, else the model's, else its description and pages' titles. */
export function folderPhrasings(folder: FolderDescription, pages: readonly Doc[], notes?: ModelNotes): string[] {
  if (folder.goodFor.length > 0) return folder.goodFor;
  const model = notes?.folderPhrasings(folder);
  if (model && model.length > 0) return model;
  return dedupe([...(folder.description ? [folder.description] : []), ...pages.map((p) => p.title)]);
}

/** A pack's phrasings: its `good_for`, else the model's, else its description and name. */
export function packPhrasings(pack: LibraryPack, notes?: ModelNotes): string[] {
  if (pack.goodFor.length > 0) return pack.goodFor;
  const model = notes?.packPhrasings(pack);
  if (model && model.length > 0) return model;
  return dedupe([pack.name, ...(pack.description ? [pack.description] : [])]);
}

/**
 * The questions a section answers: the model's when it wrote them; else the page's front matter
 * `questions` that fit this section best (each goes to the section whose heading and text share
 * most of its words), plus one derived from the heading ("What does <page> say about <heading>?").
 */
export function sectionQuestions(doc: Doc, section: Section, notes?: ModelNotes): string[] {
  const model = notes?.sectionQuestions(doc, section);
  if (model && model.length > 0) return model;
  const out = (doc.library?.questions ?? []).filter((q) => bestSectionFor(doc, q) === section);
  const heading = sectionHeading(section, doc);
  out.push(section.level <= 1 ? `What is ${doc.title}?` : `What does ${doc.title} say about ${heading}?`);
  return out;
}

const bestSections = new WeakMap<Doc, Map<string, Section>>();

/** The section of `doc` whose heading path and text hold most of the question's words; the first on ties. */
function bestSectionFor(doc: Doc, question: string): Section {
  let cache = bestSections.get(doc);
  if (!cache) bestSections.set(doc, (cache = new Map()));
  const cached = cache.get(question);
  if (cached) return cached;
  const words = termSet(question);
  let best = doc.sections[0];
  let bestScore = -1;
  for (const section of doc.sections) {
    const heading = termSet(section.headingPath.slice(1).join(' '));
    const body = termSet(section.text);
    let score = 0;
    for (const w of words) score += heading.has(w) ? 2 : body.has(w) ? 1 : 0;
    if (score > bestScore) {
      best = section;
      bestScore = score;
    }
  }
  cache.set(question, best);
  return best;
}

function dedupe(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = v.trim().toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
