/**
 * Find references on an entity ref (or on an entity's own name): every place in the workspace that
 * names it, from the mention index (catalog relation fields in any written form, `kind:name` refs
 * in Markdown, code comments and text), with open documents read from their unsaved buffers.
 */
import type { Location, ReferenceParams } from 'vscode-languageserver';
import type { EntityKey, EntityMention } from '../../engine';
import type { FeatureContext } from './context';
import { lineRange } from './documents';
import { documentMentions, mentionAtPosition } from './refsAtPosition';

export async function references(ctx: FeatureContext, params: ReferenceParams): Promise<Location[] | null> {
  const mention = await mentionAtPosition(ctx.documents, params.textDocument.uri, params.position);
  if (!mention?.key) return null;
  return referencesTo(ctx, mention.key, params.context.includeDeclaration);
}

/** Every place naming `key`, by path then position; the declaration only when asked for. */
export async function referencesTo(
  ctx: FeatureContext,
  key: EntityKey,
  includeDeclaration: boolean,
): Promise<Location[]> {
  const index = ctx.mentions();
  if (!index) return [];
  const found: { path: string; mention: EntityMention }[] = [];
  const open = ctx.documents.openInWorkspace();
  const openPaths = new Set(open.map((d) => d.path));
  for (const hit of await index.mentionsOf(key)) if (!openPaths.has(hit.path)) found.push(hit);
  // An open buffer may differ from the file on disk: its own text is what the user sees.
  for (const doc of open) {
    for (const mention of documentMentions(doc.uri, doc.text))
      if (mention.key === key) found.push({ path: doc.path, mention });
  }
  const locations: { path: string; location: Location }[] = [];
  for (const { path, mention } of found) {
    if (mention.via === 'name' && !includeDeclaration) continue;
    const uri = ctx.documents.uriOf(path);
    if (uri)
      locations.push({ path, location: { uri, range: lineRange(mention.line, mention.column, mention.endColumn) } });
  }
  locations.sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.location.range.start.line - b.location.range.start.line ||
      a.location.range.start.character - b.location.range.start.character,
  );
  return locations.map((l) => l.location);
}
