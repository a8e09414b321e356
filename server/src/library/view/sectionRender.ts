/**
 * How a whole section reads when a tool returns it (docs/ARCHITECTURE.md, the library tools' contract): its heading with its id, the
 * document it comes from, then its body exactly as written.
 *
 *   # Eligibility and pre-application checklist  [id: 8c1d02aa]
 *   From: Bronze Rewards Card: how to apply  [doc 3f2a9c1e]
 *
 *   Minimum credit score: 640 ...
 *
 * The token count of a section is the estimate of this block, so budgets measure what the agent
 * actually reads.
 */
import { type Doc, type Section, estimateTokens } from '../../engine';
import { shownId, type LibraryView } from './libraryView';
import { sectionBody, sectionHeading } from './summaries';

/** The rendered block of one section. */
export function renderSectionBlock(view: LibraryView, section: Section, doc: Doc): string {
  return formatSectionBlock({
    heading: sectionHeading(section, doc),
    id: shownId(view, section.id),
    title: doc.title,
    docId: shownId(view, doc.id),
    body: sectionBody(section),
  });
}

/** The block from its parts (what hosts rebuild from a tool's structured output). */
export function formatSectionBlock(parts: {
  heading: string;
  id: string;
  title: string;
  docId: string;
  body: string;
}): string {
  const head = `# ${parts.heading}  [id: ${parts.id}]\nFrom: ${parts.title}  [doc ${parts.docId}]`;
  const body = parts.body.trimEnd();
  return body === '' ? head : `${head}\n\n${body}`;
}

/** Estimated tokens of {@link renderSectionBlock}. */
export function sectionBlockTokens(view: LibraryView, section: Section, doc: Doc): number {
  return estimateTokens(renderSectionBlock(view, section, doc));
}

/** The document's text without front matter: its sections as written, in order. */
export function documentText(doc: Doc): string {
  return doc.sections.map((s) => s.text.trimEnd()).join('\n\n');
}

/** Estimated tokens of a document's sections as written (the "small document" measure). */
export function documentTokens(doc: Doc): number {
  let tokens = 0;
  for (const section of doc.sections) tokens += estimateTokens(section.text);
  return tokens;
}
