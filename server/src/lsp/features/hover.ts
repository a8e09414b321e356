/**
 * Hover on an entity ref anywhere: catalog relation fields (short forms read with the field's
 * default kind), an entity's own name, and `kind:name` refs in Markdown, comments or any text.
 * Shows the entity (kind, title, owner, lifecycle), then its links (where it is declared, its
 * documents, expand the graph deeper), then its description and its neighbours grouped by edge
 * type and direction. The links come before the long parts so that a hover cut to the editor's
 * hover height still shows them. An unresolved ref says so and suggests the nearest refs. Results
 * documents get their own hover (resultsDocument.ts).
 */
import type { Hover, HoverParams } from 'vscode-languageserver';
import { markdownCode, markdownLinkTarget, markdownText } from '../../../../shared/markdown';
import { ClientCommands, RESULTS_SCHEME, type ExpandEntityArgs } from '../../../../shared/protocol';
import { nearestRefs, type IndexState, type EntityMention, type CatalogEntity } from '../../engine';
import { stateWhenInService, type FeatureContext } from './context';
import { lineRange } from './documents';
import { declarationLine, entityDocsArgs, neighbourGroups, plural, suggestionsFor } from './entityFacts';
import { mentionAtPosition } from './refsAtPosition';

/** Refs listed per neighbour group before "+N more". Default 5. */
export const HOVER_REFS_PER_GROUP = 5;
/** Depth of the walks the hover's expand links ask for (the hover itself shows one hop). Default 2. */
export const HOVER_EXPAND_DEPTH = 2;
/** Characters of the description shown before "…" (the rest is in the catalog file). Default 300. */
export const HOVER_DESCRIPTION_CHARS = 300;
/** How long a hover asked before the first pass is in service waits for it. Default 20 s. */
export const HOVER_FIRST_PASS_WAIT_MS = 20_000;

export async function hover(ctx: FeatureContext, params: HoverParams): Promise<Hover | null> {
  const uri = params.textDocument.uri;
  if (uri.startsWith(`${RESULTS_SCHEME}:`)) return ctx.results.hover(uri, params.position);
  const state = await stateWhenInService(ctx, HOVER_FIRST_PASS_WAIT_MS);
  if (!state) return null;
  const mention = await mentionAtPosition(ctx.documents, uri, params.position);
  if (!mention) return null;
  const range = lineRange(mention.line, mention.column, mention.endColumn);
  const entity = mention.key ? state.graph.get(mention.key) : undefined;
  const value = entity ? renderEntity(ctx, state, entity) : renderUnresolved(state, mention);
  return { contents: { kind: 'markdown', value }, range };
}

/**
 * The hover text for an entity in the catalog. Every value from the workspace goes through
 * shared/markdown.ts (text or code span), so none can close a span or open a link; the only links
 * are the declaration's file, the entity-docs command (workspace-relative paths the client checks)
 * and the expand commands.
 */
export function renderEntity(ctx: Pick<FeatureContext, 'documents'>, state: IndexState, entity: CatalogEntity): string {
  const lines: string[] = [];
  lines.push(`### ${markdownText(entity.title ?? entity.name)}`, '');
  const owner = state.graph.ownerOf(entity.key);
  const facts = [
    `${markdownText(entity.kind)} ${markdownCode(entity.ref)}`,
    owner ? `owner ${markdownCode(owner)}` : undefined,
    entity.lifecycle ? `lifecycle ${markdownCode(entity.lifecycle)}` : undefined,
    entity.type ? `type ${markdownCode(entity.type)}` : undefined,
  ].filter(Boolean);
  lines.push(facts.join(' · '), '');

  const line = declarationLine(state, entity);
  const uri = ctx.documents.uriOf(entity.location.path);
  const where = markdownText(`${entity.location.path}:${line}`);
  const docs = entityDocsArgs(state, entity, (path) => ctx.documents.uriOf(path));
  const open = docs.docs.length
    ? ` · [Open ${docs.docs.length === 1 ? 'its doc' : `its ${plural(docs.docs.length, 'doc')}`}](${markdownLinkTarget(commandUri(ClientCommands.showEntityDocs, docs))})`
    : '';
  lines.push(`Declared in ${uri ? `[${where}](${markdownLinkTarget(`${uri}#L${line}`)})` : where}${open}`, '');
  const link = (label: string, direction: ExpandEntityArgs['direction']) =>
    `[${label}](${markdownLinkTarget(commandUri(ClientCommands.expandEntity, { entityRef: entity.ref, direction, depth: HOVER_EXPAND_DEPTH }))})`;
  lines.push(
    `Expand ${HOVER_EXPAND_DEPTH} hops: ${link('dependencies', 'out')} · ${link('dependents', 'in')} · ${link('both', 'both')}`,
    '',
  );

  if (entity.description) lines.push(markdownText(clip(entity.description.trim()), { multiline: true }), '');

  const groups = neighbourGroups(state, entity.key);
  const edges = groups.reduce((n, g) => n + g.refs.length, 0);
  if (edges === 0) {
    lines.push('**Neighbours:** none');
  } else {
    lines.push(`**Neighbours** (${edges} ${edges === 1 ? 'edge' : 'edges'})`, '');
    for (const group of groups) {
      const shown = group.refs
        .slice(0, HOVER_REFS_PER_GROUP)
        .map((r) => `${markdownCode(r.ref)}${r.resolved ? '' : ' (unresolved)'}`);
      const more = group.refs.length > HOVER_REFS_PER_GROUP ? ` +${group.refs.length - HOVER_REFS_PER_GROUP} more` : '';
      lines.push(`- ${group.type} ${group.direction === 'out' ? '→' : '←'} ${shown.join(', ')}${more}`);
    }
  }
  return lines.join('\n');
}

/** A description cut at a word near {@link HOVER_DESCRIPTION_CHARS}, with "…" when cut. */
function clip(text: string): string {
  if (text.length <= HOVER_DESCRIPTION_CHARS) return text;
  const cut = text.slice(0, HOVER_DESCRIPTION_CHARS);
  const at = cut.lastIndexOf(' ');
  return `${(at > HOVER_DESCRIPTION_CHARS / 2 ? cut.slice(0, at) : cut).trimEnd()}…`;
}

function renderUnresolved(state: IndexState, mention: EntityMention): string {
  if (!mention.key) {
    const lines = [
      `**Not an entity ref:** ${markdownCode(mention.written)}`,
      '',
      markdownText(mention.error ?? 'This value is not an entity ref.'),
    ];
    const suggestions = nearestRefs(mention.written, state.graph.entities());
    if (suggestions.length) lines.push('', `Did you mean ${suggestions.map(markdownCode).join(' or ')}?`);
    return lines.join('\n');
  }
  const lines = [
    `**Unresolved entity ref:** ${markdownCode(mention.key)}`,
    '',
    'No entity with this ref is in the catalog.',
  ];
  const suggestions = suggestionsFor(state, mention.key);
  if (suggestions.length) lines.push('', `Did you mean ${suggestions.map(markdownCode).join(' or ')}?`);
  return lines.join('\n');
}

/** A `command:` URI VS Code runs from trusted Markdown (arguments as a JSON array). */
export function commandUri(command: string, ...args: unknown[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}
