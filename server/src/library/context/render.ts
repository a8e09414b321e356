/**
 * Step 8, the bundle as Markdown, in its contract's order (docs/ARCHITECTURE.md):
 *
 * 1. the team's agent instructions (`.context/instructions.md`) under "Instructions from the
 *    <organization> team";
 * 2. a comment naming the packs that applied and the tags found in the task;
 * 3. "Rules (always follow)": each rule page in full;
 * 3b. for a change, "The change" (change/changeBundle.ts): what it touches, then the rule and
 *    instruction files for its paths, its entities' pages and their dependents', each labelled
 *    with its reason;
 * 4. "Reference": pinned and pack pages in full (then read-whole pages matched by what they are
 *    for or reached by search), then excerpts grouped by page, then excerpts of the entity docs,
 *    overviews and epics of the entities the task names, each page labelled with its source kind.
 *
 * Each page is headed by its title and a label line: its type, full page or excerpts, and its
 * page_id (read_page returns the whole page); then its usage notes and, when a file is attached,
 * a pointer to get_file. A page's own headings move down one level under its title.
 *
 * The budget (budget.ts) measures these very blocks, so the size it counts is the size sent.
 */
import { type Doc, baseName } from '../../engine';
import { describeConflict, type PassageFlag } from '../view/soundness';
import { sectionBody, sectionHeading } from '../view/summaries';
import { bodyWithRows } from './tableRows';
import type { BundlePage, BundleSection, ChangeLabel, ContextBundle, EntityLabel, NearestPage } from './types';

export const RULES_HEADING = '# Rules (always follow)';
export const REFERENCE_HEADING = '# Reference';
/** Between the blocks of the Markdown. */
export const BLOCK_SEPARATOR = '\n\n';

/** Printed id of a page or section. */
export type IdOf = (id: string) => string;

export function instructionsBlock(organization: string, docs: readonly Doc[]): string {
  const bodies = docs.map((doc) =>
    doc.sections
      .map((s, i) => {
        const body = sectionBody(s).trimEnd();
        if (s.level === 0) return s.text.trimEnd();
        if (s.level === 1 && i === firstHeadingIndex(doc) && sectionHeading(s, doc) === doc.title) return body;
        return joinBlock(`${'#'.repeat(Math.max(2, s.level))} ${sectionHeading(s, doc)}`, body);
      })
      .filter((t) => t !== '')
      .join(BLOCK_SEPARATOR),
  );
  return joinBlock(`# Instructions from the ${organization} team`, bodies.filter(Boolean).join(BLOCK_SEPARATOR));
}

export function commentBlock(packs: readonly string[], tags: readonly string[]): string {
  const list = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : 'none');
  return `<!-- packs applied: ${list(packs)}; tags found in the task: ${list(tags)} -->`;
}

/** Title, label line, usage notes and attached file of a page; an entity's page says what it is and where it lives. */
export function pageHeader(
  doc: Doc,
  idOf: IdOf,
  options: { whole: boolean; private: boolean; entity?: EntityLabel; change?: ChangeLabel },
): string {
  if (options.entity) return `## ${doc.title}\n${entityLabel(options.entity)} · excerpts · ${doc.path}`;
  if (options.change) {
    // A library page has a page_id (read_page); an entity's doc, overview or epic is read by its path.
    const where = doc.sourceKind === 'library' ? `page_id: ${idOf(doc.id)} · ${doc.path}` : doc.path;
    return `## ${doc.title}\n${changeLabel(options.change)} · full page · ${where}`;
  }
  const id = idOf(doc.id);
  const kind = doc.library?.type ?? 'page';
  const parts = [kind];
  if (options.private) parts.push('your own private note');
  parts.push(options.whole ? 'full page' : 'excerpts (read_page for the whole page)');
  parts.push(`page_id: ${id}`);
  const lines = [`## ${doc.title}`, parts.join(' · ')];
  if (doc.library?.usage) lines.push(`Usage: ${doc.library.usage}`);
  if (doc.library?.file)
    lines.push(`Attached file: ${baseName(doc.library.file)} (get_file with page_id ${id} returns it)`);
  return lines.join('\n');
}

/** "runbook of component:default/billing-worker", "rule-applies: applyTo **\/*.ts matches a.ts". */
export function changeLabel(change: ChangeLabel): string {
  return `${change.reason}: ${change.why}`;
}

/** "TechDocs of component:default/billing-worker (named in the task)", by source kind. */
export function entityLabel(entity: EntityLabel): string {
  const what =
    entity.sourceKind === 'catalog_doc'
      ? 'TechDocs of'
      : entity.sourceKind === 'repo_overview'
        ? 'repository overview of'
        : 'epic about';
  return `${entity.sourceKind}: ${what} ${entity.ref}${entity.named ? ' (named in the task)' : ''}`;
}

const wholeBodies = new WeakMap<Doc, string>();

/**
 * A whole page's text under its header: its H1 title dropped, other headings one level down.
 * Kept per document (documents are immutable): every bundle sends every rule whole.
 */
export function wholePageBody(doc: Doc): string {
  let body = wholeBodies.get(doc);
  if (body === undefined) wholeBodies.set(doc, (body = renderWholeBody(doc)));
  return body;
}

function renderWholeBody(doc: Doc): string {
  const first = firstHeadingIndex(doc);
  return doc.sections
    .map((s, i) => {
      if (s.level === 0) return s.text.trimEnd();
      const body = sectionBody(s).trimEnd();
      // An entity's own page is headed by its ref, which the page's header already names.
      if (i === first && s.level === 1 && (sectionHeading(s, doc) === doc.title || doc.sourceKind === 'catalog_entity'))
        return body;
      return joinBlock(`${'#'.repeat(Math.min(6, s.level + 1))} ${sectionHeading(s, doc)}`, body);
    })
    .filter((t) => t !== '')
    .join(BLOCK_SEPARATOR);
}

/**
 * One excerpt: its heading path under the page title, then its body (a table with the kept rows
 * only), then its conflicts with other pages.
 */
export function excerptBlock(section: BundleSection, idOf: IdOf): string {
  const { section: s } = section.entry;
  const path = s.headingPath.slice(1).join(' › ') || '(top of the page)';
  const body = (section.rows ? bodyWithRows(s, section.rows.kept) : sectionBody(s)).trimEnd();
  return joinBlock(joinBlock(`### ${path}`, body), conflictNotes(section.conflicts ?? [], idOf, false));
}

/**
 * The conflict notes under an excerpt or after a whole page, one quoted line each: the other
 * page with its page_id and both wordings (with `inSection`, which section of this page).
 */
export function conflictNotes(flags: readonly PassageFlag[], idOf: IdOf, inSection: boolean): string {
  return flags
    .map(
      (f) =>
        `> Conflict${inSection ? ` in "${f.here.heading}"` : ''}: ${describeConflict(f, `page_id ${idOf(f.other.docId)}`)}`,
    )
    .join('\n');
}

/** A page's block: header, then the whole page (and its conflicts) or its excerpts in document order. */
export function pageBlock(page: BundlePage, idOf: IdOf): string {
  const header = pageHeader(page.doc, idOf, {
    whole: page.whole,
    private: page.private,
    entity: page.entity,
    change: page.change,
  });
  if (page.whole)
    return joinBlock(joinBlock(header, wholePageBody(page.doc)), conflictNotes(page.conflicts ?? [], idOf, true));
  const sections = [...page.sections].sort((a, b) => a.entry.position - b.entry.position);
  return [header, ...sections.map((s) => excerptBlock(s, idOf))].join(BLOCK_SEPARATOR);
}

export function nothingFoundBlock(nearest: readonly NearestPage[], idOf: IdOf): string {
  const lines = [
    'Nothing in the library comes close enough to this task to send: the workspace may not cover it. Check with the user rather than guess.',
  ];
  if (nearest.length > 0) {
    lines.push('Nearest pages (pass a page_id to read_page if one plainly covers the task):');
    for (const n of nearest) lines.push(`- ${n.doc.title} (page_id: ${idOf(n.doc.id)})`);
  } else {
    lines.push('No page of the library is near it.');
  }
  return lines.join('\n');
}

/** The whole bundle as Markdown. */
export function renderMarkdown(bundle: ContextBundle, idOf: IdOf): string {
  return bundleBlocks(bundle, idOf).join(BLOCK_SEPARATOR);
}

/** The blocks of the Markdown, in order (the budget counts them joined by {@link BLOCK_SEPARATOR}). */
export function bundleBlocks(bundle: ContextBundle, idOf: IdOf): string[] {
  const blocks: string[] = [];
  if (bundle.instructions.length > 0) blocks.push(instructionsBlock(bundle.organization, bundle.instructions));
  blocks.push(
    commentBlock(
      bundle.packs.filter((p) => p.applied).map((p) => p.name),
      bundle.tagsFound,
    ),
  );
  if (bundle.rules.length > 0) {
    blocks.push(RULES_HEADING);
    for (const page of bundle.rules) blocks.push(pageBlock(page, idOf));
  }
  if (bundle.change) blocks.push(...bundle.change.blocks);
  if (bundle.reference.length > 0 || bundle.nothingFound) {
    blocks.push(REFERENCE_HEADING);
    for (const page of bundle.reference) blocks.push(pageBlock(page, idOf));
    if (bundle.nothingFound) blocks.push(nothingFoundBlock(bundle.nothingFound.nearest, idOf));
  }
  return blocks;
}

function firstHeadingIndex(doc: Doc): number {
  return doc.sections.findIndex((s) => s.level > 0);
}

function joinBlock(head: string, body: string): string {
  return body === '' ? head : `${head}${BLOCK_SEPARATOR}${body}`;
}
