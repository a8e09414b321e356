/**
 * Document links: `[[Page title]]` (and `[[Page title|shown text]]`) to the library page of that
 * title, and every entity ref that resolves (relation fields, `kind:name` text refs) to the entity's
 * declaration. Targets are `file:` URIs with a `#L<line>` fragment, which VS Code opens at the line.
 */
import type { DocumentLink, DocumentLinkParams } from 'vscode-languageserver';
import type { IndexState, Doc } from '../../engine';
import type { FeatureContext } from './context';
import { lineRange } from './documents';
import { declarationLine } from './entityFacts';
import { documentMentions } from './refsAtPosition';

export async function documentLinks(ctx: FeatureContext, params: DocumentLinkParams): Promise<DocumentLink[]> {
  const state = ctx.state();
  if (!state) return [];
  const uri = params.textDocument.uri;
  const text = await ctx.documents.text(uri);
  if (text === null) return [];
  const links: DocumentLink[] = [];
  for (const mention of documentMentions(uri, text)) {
    if (mention.via === 'name' || !mention.key) continue;
    const entity = state.graph.get(mention.key);
    const target = entity && ctx.documents.uriOf(entity.location.path);
    if (!entity || !target) continue;
    links.push({
      range: lineRange(mention.line, mention.column, mention.endColumn),
      target: `${target}#L${declarationLine(state, entity)}`,
      tooltip: `Open ${entity.ref}${entity.title ? ` (${entity.title})` : ''}`,
    });
  }
  const byTitle = pagesByTitle(state);
  for (const link of pageLinks(text)) {
    const doc = byTitle.get(link.title.toLowerCase());
    const target = doc && ctx.documents.uriOf(doc.path);
    if (!doc || !target) continue;
    links.push({
      range: lineRange(link.line, link.column, link.endColumn),
      target: `${target}#L1`,
      tooltip: `Open "${doc.title}" (${doc.path})`,
    });
  }
  return links.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

/** A `[[Page title]]` link written in a text, with its position (1-based; end exclusive). */
export interface PageLink {
  title: string;
  line: number;
  column: number;
  endColumn: number;
}

/**
 * `[[Page title]]` links with positions, outside fenced code blocks and inline code (the engine's
 * `extractPageLinks` rule, which lists targets without positions).
 */
export function pageLinks(text: string): PageLink[] {
  const links: PageLink[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence !== null) return;
    // Inline code is blanked out (same length) so columns stay true.
    const visible = line.replace(/(`+)[^`]*?\1/g, (code) => ' '.repeat(code.length));
    for (const match of visible.matchAll(/\[\[([^[\]|\n]+)(?:\|[^[\]\n]*)?\]\]/g)) {
      const title = match[1].trim();
      if (!title) continue;
      const column = (match.index ?? 0) + 1;
      links.push({ title, line: index + 1, column, endColumn: column + match[0].length });
    }
  });
  return links;
}

const pagesByState = new WeakMap<IndexState, Map<string, Doc>>();

/** Library pages by lower-cased title; other documents fill titles no library page has. */
export function pagesByTitle(state: IndexState): Map<string, Doc> {
  let byTitle = pagesByState.get(state);
  if (!byTitle) {
    byTitle = new Map();
    const docs = [...state.docs.values()].sort(
      (a, b) => Number(b.sourceKind === 'library') - Number(a.sourceKind === 'library') || (a.path < b.path ? -1 : 1),
    );
    for (const doc of docs) {
      if (doc.sourceKind === 'catalog_entity') continue;
      const title = doc.title.trim().toLowerCase();
      if (!byTitle.has(title)) byTitle.set(title, doc);
    }
    pagesByState.set(state, byTitle);
  }
  return byTitle;
}
