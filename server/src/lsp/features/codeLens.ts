/**
 * Code lenses on each entity declared in a catalog file, on its `metadata.name`: the relations
 * that matter for its kind (entityLenses.ts: a system's components, APIs and resources, a
 * group's ownership and members, a component's dependents and dependencies...) and how many
 * documents are attached to it, each only when its count is above zero. A relation lens walks those
 * relations (`workspace_expand`, one hop, those edge types, in the direction they lie on); the docs
 * lens picks a document.
 */
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { ClientCommands, type ExpandEntityArgs } from '../../../../shared/protocol';
import type { FeatureContext } from './context';
import { lineRange } from './documents';
import { entityDocsArgs, plural } from './entityFacts';
import { lensCounts } from './entityLenses';
import { documentMentions } from './refsAtPosition';
import { directionOf } from '../../engine';

export async function codeLenses(ctx: FeatureContext, params: CodeLensParams): Promise<CodeLens[]> {
  const state = ctx.state();
  const uri = params.textDocument.uri;
  if (!state || !/\.ya?ml$/i.test(uri)) return [];
  const text = await ctx.documents.text(uri);
  if (text === null) return [];
  const lenses: CodeLens[] = [];
  for (const mention of documentMentions(uri, text)) {
    if (mention.via !== 'name' || !mention.key) continue;
    const entity = state.graph.get(mention.key);
    if (!entity) continue;
    const range = lineRange(mention.line, mention.column, mention.endColumn);
    const docs = entityDocsArgs(state, entity, (path) => ctx.documents.uriOf(path));
    for (const count of lensCounts(state, entity.key, entity.kind)) {
      const walk: ExpandEntityArgs = {
        entityRef: entity.ref,
        direction: directionOf(count.edgeTypes),
        depth: 1,
        edgeTypes: count.edgeTypes,
      };
      lenses.push({ range, command: { title: count.title, command: ClientCommands.expandEntity, arguments: [walk] } });
    }
    if (docs.docs.length > 0)
      lenses.push({
        range,
        command: { title: plural(docs.docs.length, 'doc'), command: ClientCommands.showEntityDocs, arguments: [docs] },
      });
  }
  return lenses;
}
