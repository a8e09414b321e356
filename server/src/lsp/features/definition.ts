/**
 * Go to definition on an entity ref: the entity's `metadata.name` in its catalog file.
 */
import type { DefinitionParams, Location } from 'vscode-languageserver';
import type { IndexState, CatalogEntity } from '../../engine';
import type { FeatureContext } from './context';
import { lineRange, type DocumentStore } from './documents';
import { declarationLine } from './entityFacts';
import { documentMentions, mentionAtPosition } from './refsAtPosition';

export async function definition(ctx: FeatureContext, params: DefinitionParams): Promise<Location | null> {
  const state = ctx.state();
  if (!state) return null;
  const mention = await mentionAtPosition(ctx.documents, params.textDocument.uri, params.position);
  const entity = mention?.key ? state.graph.get(mention.key) : undefined;
  return entity ? declarationLocation(ctx.documents, state, entity) : null;
}

/** Where an entity is declared: the range of its name on the `metadata.name` line. */
export async function declarationLocation(
  documents: DocumentStore,
  state: IndexState,
  entity: CatalogEntity,
): Promise<Location | null> {
  const uri = documents.uriOf(entity.location.path);
  if (!uri) return null;
  const text = await documents.text(uri);
  const declared =
    text === null ? undefined : documentMentions(uri, text).find((m) => m.via === 'name' && m.key === entity.key);
  if (declared) return { uri, range: lineRange(declared.line, declared.column, declared.endColumn) };
  return { uri, range: lineRange(declarationLine(state, entity)) };
}
