/**
 * Finding the entity a person or an agent meant.
 *
 * Input is more forgiving than catalog fields: `component:default/billing-worker`,
 * `component:billing-worker`, `default/billing-worker` and plain `billing-worker` all resolve, the
 * last two only when exactly one entity has that name. Anything else is an error that lists the
 * closest refs, so the caller can retry without guessing.
 */
import type { EntityKey } from '../model';
import type { ComponentGraph } from './componentGraph';
import { nearestRefs } from './nearestRefs';

export type EntityLookup = { ok: true; key: EntityKey } | { ok: false; message: string; suggestions: string[] };

export function resolveEntityInput(graph: ComponentGraph, input: string): EntityLookup {
  const text = input.trim();
  if (!text)
    return { ok: false, message: 'an entity ref is required, like component:default/billing-worker', suggestions: [] };
  const colon = text.indexOf(':');
  const kind = colon > 0 ? text.slice(0, colon) : undefined;
  const rest = colon > 0 ? text.slice(colon + 1) : text;
  const slash = rest.indexOf('/');
  const namespace = slash >= 0 ? rest.slice(0, slash) : undefined;
  const name = slash >= 0 ? rest.slice(slash + 1) : rest;

  if (kind) {
    const key = `${kind}:${namespace ?? 'default'}/${name}`.toLowerCase();
    if (graph.has(key)) return { ok: true, key };
  } else {
    const matches = [...graph.entities()].filter(
      (e) => e.name.toLowerCase() === name.toLowerCase() && (!namespace || e.namespace === namespace.toLowerCase()),
    );
    if (matches.length === 1) return { ok: true, key: matches[0].key };
    if (matches.length > 1) {
      const refs = matches.map((e) => e.ref).sort();
      return {
        ok: false,
        message: `"${text}" names ${matches.length} entities; say which: ${refs.join(', ')}`,
        suggestions: refs,
      };
    }
  }
  const suggestions = nearestRefs(text, graph.entities());
  const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(' or ')}?` : '';
  return { ok: false, message: `No entity '${text}' in the catalog.${hint}`, suggestions };
}

/** What a caller usually wants to see about an entity, in one flat object. */
export interface EntitySummary {
  ref: string;
  kind: string;
  name: string;
  title?: string;
  description?: string;
  type?: string;
  lifecycle?: string;
  owner?: string;
  /** `path:start-end` of the entity in its catalog file. */
  sourceRef: string;
}

export function summarizeEntity(graph: ComponentGraph, key: EntityKey): EntitySummary {
  const entity = graph.get(key);
  if (!entity) return { ref: key, kind: key.split(':')[0], name: key.split('/').pop() ?? key, sourceRef: '' };
  return {
    ref: entity.ref,
    kind: entity.kind,
    name: entity.name,
    ...(entity.title ? { title: entity.title } : {}),
    ...(entity.description ? { description: entity.description } : {}),
    ...(entity.type ? { type: entity.type } : {}),
    ...(entity.lifecycle ? { lifecycle: entity.lifecycle } : {}),
    ...(graph.ownerOf(key) ? { owner: graph.ownerOf(key) } : {}),
    sourceRef: `${entity.location.path}:${entity.location.startLine}-${entity.location.endLine}`,
  };
}
