/**
 * Backstage's `$text` / `$json` / `$yaml` placeholders (catalog-backend's `PlaceholderProcessor`).
 *
 * Backstage replaces a mapping whose only key is `$text`, `$json` or `$yaml` with the content of
 * the file or URL its string value names, before it validates the entity, so
 * `definition: { $text: ./openapi.yaml }` is a string by the time the API schema sees it. The
 * engine reads no URLs and does not inline files here; it only stands in for the content so the
 * entity validates as Backstage would: a `$text` placeholder becomes its (non-empty) string
 * value; `$json` and `$yaml` content has no knowable type and is left as written. Mappings with
 * more keys, other `$` keys (`$ref` in JSON Schema) or non-string values are left alone, as in
 * Backstage.
 */

const RESOLVERS = new Set(['text', 'json', 'yaml']);

/** A placeholder found in an entity. */
export interface Placeholder {
  /** `text`, `json` or `yaml`. */
  resolver: string;
  /** The file or URL it names, as written. */
  target: string;
}

function asPlaceholder(value: Record<string, unknown>): Placeholder | null {
  const keys = Object.keys(value);
  if (keys.length !== 1 || !keys[0].startsWith('$')) return null;
  const resolver = keys[0].slice(1);
  const target = value[keys[0]];
  if (!RESOLVERS.has(resolver) || typeof target !== 'string') return null;
  return { resolver, target };
}

/**
 * Returns a copy of `data` with `$text` placeholders replaced by their target string; the input
 * is not modified. Values without placeholders are returned as they are.
 */
export function standInForPlaceholders(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(standInForPlaceholders);
  if (typeof data !== 'object' || data === null) return data;
  const record = data as Record<string, unknown>;
  const placeholder = asPlaceholder(record);
  if (placeholder) return placeholder.resolver === 'text' ? placeholder.target : data;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, standInForPlaceholders(v)]));
}
