/**
 * Code lenses on each entity declared in a catalog file, on its `metadata.name`: how many entities
 * depend on it, how many it depends on (dependsOn and consumesApi edges; entityFacts.ts), and how
 * many documents are attached to it. Each lens runs a client command: expand inwards, expand
 * outwards, pick a document.
 */
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { ClientCommands, type ExpandEntityArgs, type ShowEntityDocsArgs } from '../../../../shared/protocol';
import type { FeatureContext } from './context';
import { lineRange } from './documents';
import { dependencyCounts, docsOf, plural } from './entityFacts';
import { documentMentions } from './refsAtPosition';

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
    const counts = dependencyCounts(state, entity.key);
    const range = lineRange(mention.line, mention.column, mention.endColumn);
    const expand = (direction: ExpandEntityArgs['direction']): ExpandEntityArgs => ({ entityRef: entity.ref, direction, depth: 1 });
    const docs: ShowEntityDocsArgs = {
      entityRef: entity.ref,
      docs: docsOf(state, entity.key).flatMap((doc) => {
        const docUri = ctx.documents.uriOf(doc.path);
        return docUri ? [{ title: doc.title, uri: docUri, sourceKind: doc.sourceKind }] : [];
      }),
    };
    lenses.push(
      { range, command: { title: plural(counts.dependents, 'dependent'), command: ClientCommands.expandEntity, arguments: [expand('in')] } },
      { range, command: { title: plural(counts.dependencies, 'dependency', 'dependencies'), command: ClientCommands.expandEntity, arguments: [expand('out')] } },
      { range, command: { title: plural(counts.docs, 'doc'), command: ClientCommands.showEntityDocs, arguments: [docs] } },
    );
  }
  return lenses;
}
