/**
 * Backstage's placeholders (catalog-backend's `PlaceholderProcessor` with its `$text`, `$json`
 * and `$yaml` resolvers, and catalog-backend-module-openapi's `$openapi` and `$asyncapi`), read
 * from the workspace instead of from URLs.
 *
 * Backstage replaces a mapping whose only key is `$<resolver>` with what the file or URL its
 * string value names holds, before the entity is validated, so `definition: { $text: ./api.yaml }`
 * is a string by the time the API schema sees it. Which mappings count follows the processor
 * (plugin-catalog-backend 4.0.5, dist/processors/PlaceholderProcessor.cjs.js): scalars are left
 * alone, lists and mappings without `$` keys are walked, a mapping with a `$` key and other keys
 * is left as written, and so is one whose resolver is not registered (`$ref` in a JSON Schema).
 *
 * Content, per resolver: `$text` the file's text; `$json` its JSON; `$yaml` its one YAML
 * document; `$openapi` / `$asyncapi` the YAML document with its file `$ref`s bundled in, printed
 * back as YAML (the module's `bundleFileWithRefs`).
 *
 * Where Backstage would fetch, this module never does: a URL, an absolute path, a path outside
 * the workspace or a file that cannot be read leaves the field unresolved and gives a warning at
 * the placeholder's line; the entity is kept (Backstage would drop it for a read error; a
 * workspace index would rather show it). Files are read only through the `FileSource`.
 */
import { posix } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import type { Problem } from '../../model';
import { exceedsNesting, MAX_YAML_NESTING, parseAllDocumentsBounded, parseYamlValue } from '../../parsing/boundedYaml';
import type { FileSource } from '../../workspace/fileSource';
import { formatFieldPath, type FieldPath } from './fieldPath';

/** The resolvers Backstage registers by default with the OpenAPI module installed. */
export const PLACEHOLDER_RESOLVERS = ['text', 'json', 'yaml', 'openapi', 'asyncapi'] as const;
export type PlaceholderResolver = (typeof PLACEHOLDER_RESOLVERS)[number];

const RESOLVERS: ReadonlySet<string> = new Set(PLACEHOLDER_RESOLVERS);

/** A placeholder found in an entity. */
export interface Placeholder {
  /** Where the `$<resolver>` mapping sits in the entity (`spec.definition`). */
  path: FieldPath;
  resolver: PlaceholderResolver;
  /** The value of the `$` key as written (Backstage requires a string). */
  target: unknown;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asPlaceholder(value: Record<string, unknown>): { resolver: PlaceholderResolver; target: unknown } | null {
  const keys = Object.keys(value);
  if (keys.length !== 1 || !keys[0].startsWith('$')) return null;
  const resolver = keys[0].slice(1);
  if (!RESOLVERS.has(resolver)) return null;
  return { resolver: resolver as PlaceholderResolver, target: value[keys[0]] };
}

/** Every placeholder in `data`, in document order. */
export function findPlaceholders(data: unknown): Placeholder[] {
  const found: Placeholder[] = [];
  const visit = (value: unknown, path: FieldPath): void => {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    if (!isMapping(value)) return;
    const keys = Object.keys(value);
    if (!keys.some((k) => k.startsWith('$'))) {
      for (const key of keys) visit(value[key], [...path, key]);
      return;
    }
    const placeholder = asPlaceholder(value);
    if (placeholder) found.push({ path, ...placeholder });
  };
  visit(data, []);
  return found;
}

/**
 * A copy of `data` in which each placeholder is what validation should see before its content is
 * known: its target string. `$text`, `$openapi` and `$asyncapi` always give a string; `$json` and
 * `$yaml` may give anything, so the entity is first taken as valid and checked again once the
 * content is read (loadCatalog.ts), which is the order Backstage checks in. The input is not
 * modified; values without placeholders are returned as they are.
 */
export function standInForPlaceholders(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(standInForPlaceholders);
  if (!isMapping(data)) return data;
  const keys = Object.keys(data);
  if (keys.some((k) => k.startsWith('$'))) {
    const placeholder = asPlaceholder(data);
    return placeholder && typeof placeholder.target === 'string' && placeholder.target !== ''
      ? placeholder.target
      : data;
  }
  return Object.fromEntries(keys.map((k) => [k, standInForPlaceholders(data[k])]));
}

/** A copy of `data` with the value at `path` replaced (the path must exist). */
export function replaceAt(data: unknown, path: FieldPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(data)) return data.map((item, i) => (i === head ? replaceAt(item, rest, value) : item));
  const record = data as Record<string, unknown>;
  return { ...record, [head]: replaceAt(record[head as string], rest, value) };
}

/** One placeholder's outcome. */
export type PlaceholderResolution =
  | { ok: true; value: unknown; read: string[] }
  | { ok: false; message: string; read: string[] };

// Two or more scheme characters, so a Windows drive letter (`C:`) is not taken for a URL.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const ABSOLUTE = /^([\\/]|[A-Za-z]:[\\/])/;

/** A target relative to `fromPath`, or why it is not read. */
function workspacePath(fromPath: string, target: string): { ok: true; path: string } | { ok: false; why: string } {
  if (SCHEME.test(target))
    return { ok: false, why: 'is a URL; URLs are never fetched, only files in the workspace are read' };
  if (ABSOLUTE.test(target)) return { ok: false, why: `is an absolute path; write it relative to ${fromPath}` };
  const joined = posix.normalize(posix.join(posix.dirname(fromPath), target));
  if (joined === '..' || joined.startsWith('../'))
    return { ok: false, why: `points outside the workspace (${joined})` };
  return { ok: true, path: joined };
}

/** Most files one `$openapi`/`$asyncapi` bundle may pull in (a guard against ref chains). */
const MAX_BUNDLED_FILES = 50;

/**
 * Inlines the file `$ref`s of a parsed OpenAPI/AsyncAPI document (`$ref: ./schemas.yaml#/Pet`):
 * what json-schema-ref-parser's `bundle` leaves the document meaning, written out in full.
 * Internal refs (`#/...`) and URLs stay as written; a ref that cannot be read stays as well.
 */
async function bundleRefs(
  doc: unknown,
  docPath: string,
  source: FileSource,
  read: string[],
  seen: Set<string>,
): Promise<unknown> {
  if (Array.isArray(doc)) return Promise.all(doc.map((item) => bundleRefs(item, docPath, source, read, seen)));
  if (!isMapping(doc)) return doc;
  const ref = doc.$ref;
  if (typeof ref === 'string' && !ref.startsWith('#') && !SCHEME.test(ref) && Object.keys(doc).length === 1) {
    const [file, pointer = ''] = ref.split('#');
    const where = workspacePath(docPath, file);
    if (!where.ok || seen.has(`${where.path}#${pointer}`) || read.length >= MAX_BUNDLED_FILES) return doc;
    read.push(where.path);
    const text = await source.readText(where.path);
    if (text === null) return doc;
    let parsed: unknown;
    try {
      parsed = parseYamlValue(text, { merge: false });
    } catch {
      return doc;
    }
    const target = pointer ? resolvePointer(parsed, pointer) : parsed;
    if (target === undefined) return doc;
    return bundleRefs(target, where.path, source, read, new Set([...seen, `${where.path}#${pointer}`]));
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) out[key] = await bundleRefs(value, docPath, source, read, seen);
  return out;
}

/** JSON Pointer (RFC 6901) into a parsed document. */
function resolvePointer(doc: unknown, pointer: string): unknown {
  let at: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isMapping(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/**
 * Resolves one placeholder written in the catalog file `fromPath`. Messages follow Backstage's
 * ("Placeholder $json failed to parse JSON data at ./x.json, ...") with the workspace's reasons
 * for not reading added. `read` lists the workspace paths read, for callers that cache.
 */
export async function resolvePlaceholder(
  fromPath: string,
  placeholder: Placeholder,
  source: FileSource,
): Promise<PlaceholderResolution> {
  const { resolver, target } = placeholder;
  const read: string[] = [];
  const key = `$${resolver}`;
  if (typeof target !== 'string' || target === '') {
    return {
      ok: false,
      read,
      message: `Placeholder ${key} expected a string value parameter, in the form of an absolute URL or a relative path`,
    };
  }
  const where = workspacePath(fromPath, target);
  if (!where.ok)
    return { ok: false, read, message: `Placeholder ${key} target ${JSON.stringify(target)} ${where.why}` };
  read.push(where.path);
  const content = await source.readText(where.path);
  if (content === null) {
    return {
      ok: false,
      read,
      message: `Placeholder ${key} could not read location ${target}: ${where.path} is not a file the workspace index reads`,
    };
  }
  switch (resolver) {
    case 'text':
      return { ok: true, read, value: content };
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(content);
      } catch (e) {
        return {
          ok: false,
          read,
          message: `Placeholder ${key} failed to parse JSON data at ${target}, ${(e as Error).message}`,
        };
      }
      // Every later step walks the entity; a value nested without bound would overflow the stack.
      if (exceedsNesting(value))
        return {
          ok: false,
          read,
          message: `Placeholder ${key} found data nested deeper than ${MAX_YAML_NESTING} levels at ${target}`,
        };
      return { ok: true, read, value };
    }
    case 'yaml': {
      const docs = parseAllDocumentsBounded(content, { merge: false });
      const list = Array.isArray(docs) ? docs : [docs];
      if (list.length !== 1) {
        return {
          ok: false,
          read,
          message: `Placeholder ${key} expected to find exactly one document of data at ${target}, found ${list.length}`,
        };
      }
      if (list[0].errors.length > 0) {
        return {
          ok: false,
          read,
          message: `Placeholder ${key} found an error in the data at ${target}, ${list[0].errors[0].message.split('\n')[0]}`,
        };
      }
      return { ok: true, read, value: list[0].toJSON() };
    }
    case 'openapi':
    case 'asyncapi': {
      let parsed: unknown;
      try {
        parsed = parseYamlValue(content, { merge: false });
      } catch (e) {
        return {
          ok: false,
          read,
          message: `Placeholder ${key} unable to bundle the file at ${target}, ${(e as Error).message.split('\n')[0]}`,
        };
      }
      const bundled = await bundleRefs(parsed, where.path, source, read, new Set([`${where.path}#`]));
      return { ok: true, read, value: stringifyYaml(bundled) };
    }
  }
}

/** An entity's placeholders resolved: the new raw value, the problems, and the files read. */
export interface ResolvedPlaceholders {
  raw: Record<string, unknown>;
  problems: Problem[];
  /** Fields left unresolved (printed paths). */
  unresolved: string[];
  /** Workspace paths read (targets and bundled refs). */
  read: string[];
}

/**
 * Resolves every placeholder of one entity declared in `path`; `lineOf` places a field path.
 * Unresolved ones stay as written in `raw` and each gives a `catalog.placeholder-unresolved`
 * warning at its line.
 */
export async function resolveEntityPlaceholders(
  path: string,
  raw: Record<string, unknown>,
  placeholders: readonly Placeholder[],
  source: FileSource,
  lineOf: (field: FieldPath) => number,
  label: string,
): Promise<ResolvedPlaceholders> {
  let out: unknown = raw;
  const problems: Problem[] = [];
  const unresolved: string[] = [];
  const read: string[] = [];
  for (const placeholder of placeholders) {
    const result = await resolvePlaceholder(path, placeholder, source);
    for (const p of result.read) read.push(p);
    const field = formatFieldPath(placeholder.path);
    if (result.ok) {
      out = replaceAt(out, placeholder.path, result.value);
      continue;
    }
    unresolved.push(field);
    problems.push({
      path,
      line: lineOf(placeholder.path),
      severity: 'warning',
      code: 'catalog.placeholder-unresolved',
      message: `${result.message}; ${field} of ${label} is left unresolved (the entity is indexed)`,
    });
  }
  return { raw: out as Record<string, unknown>, problems, unresolved, read };
}
