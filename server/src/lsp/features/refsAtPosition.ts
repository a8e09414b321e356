/**
 * Entity refs in an editor document and the one under the cursor, for hover, definition,
 * references and links. The engine finds them (references/entityMentions.ts); this keeps the last
 * answer per document so a burst of requests on an unchanged buffer parses it once.
 */
import type { Position } from 'vscode-languageserver';
import { type IndexState, findEntityMentions, mentionAt, type EntityMention } from '../../engine';
import type { DocumentStore } from './documents';

/** Documents whose mentions are remembered. Default 32. */
const CACHE_SIZE = 32;
const cache = new Map<string, { text: string; mentions: EntityMention[] }>();

/**
 * Mentions in a document's current text. `uri` names the document; its path decides whether it is
 * read as catalog YAML (non-file URIs use the URI's own path).
 */
export function documentMentions(uri: string, text: string): EntityMention[] {
  const hit = cache.get(uri);
  if (hit && hit.text === text) return hit.mentions;
  const mentions = findEntityMentions(uriPath(uri), text);
  cache.delete(uri);
  cache.set(uri, { text, mentions });
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return mentions;
}

/** The mention under an LSP position, or undefined. */
export async function mentionAtPosition(
  documents: DocumentStore,
  uri: string,
  position: Position,
): Promise<EntityMention | undefined> {
  const text = await documents.text(uri);
  if (text === null) return undefined;
  return mentionAt(documentMentions(uri, text), position.line + 1, position.character + 1);
}

/** The entity a mention names when the catalog has it. */
export function resolvedEntity(state: IndexState, mention: EntityMention) {
  return mention.key ? state.graph.get(mention.key) : undefined;
}

function uriPath(uri: string): string {
  const withoutQuery = uri.replace(/[?#].*$/, '');
  return decodeURIComponent(withoutQuery.slice(withoutQuery.indexOf(':') + 1));
}
