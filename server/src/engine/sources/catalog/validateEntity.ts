/**
 * The checks Backstage applies to an entity read from a catalog file, collected instead of thrown.
 *
 * Backstage (catalog-backend's processing) runs, in order: the envelope schema, the entity
 * policies `SchemaValidEntityPolicy` (Entity + EntityMeta schemas), `DefaultNamespaceEntityPolicy`,
 * `NoForeignRootFieldsEntityPolicy` and `FieldFormatEntityPolicy`, then each kind processor's
 * schema. It stops at the first failure; this module reports every failure it finds, each naming
 * its field, so one edit can fix them all. An entity is accepted exactly when Backstage would
 * accept it, with one deliberate difference: kinds Backstage has no built-in processor for
 * (Template, custom kinds) are accepted after the envelope checks instead of being rejected as
 * "unrecognized", because a workspace index should still show them.
 */
import { DEFAULT_NAMESPACE } from './entityRef';
import { FIELD_FORMATS, type FieldFormat } from './fieldFormats';
import { describeValue, formatFieldPath, type FieldPath } from './fieldPath';
import { BUILTIN_API_VERSIONS, BUILTIN_KINDS, checkKindSpec, isBuiltinKind } from './kindSchemas';

/** One problem with one field. `path` locates it; `field` is the same path printed. */
export interface FieldIssue {
  path: FieldPath;
  field: string;
  message: string;
}

/** The envelope of an accepted entity, with defaults applied. */
export interface ValidEntity {
  apiVersion: string;
  kind: string;
  /** `metadata.namespace`, or `default` when left out (DefaultNamespaceEntityPolicy). */
  namespace: string;
  name: string;
  metadata: Record<string, unknown>;
  /** `spec` as written; an empty object when the entity has none. */
  spec: Record<string, unknown>;
}

export type EntityValidation =
  | { ok: true; entity: ValidEntity; warnings: FieldIssue[] }
  | { ok: false; errors: FieldIssue[]; warnings: FieldIssue[] };

/** Root fields NoForeignRootFieldsEntityPolicy allows. */
const ROOT_FIELDS = ['apiVersion', 'kind', 'metadata', 'spec'];

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class IssueList {
  readonly issues: FieldIssue[] = [];
  add(path: FieldPath, message: string): void {
    this.issues.push({ path, field: formatFieldPath(path), message });
  }
  /** A required string with a format: missing, wrong type and bad format are three messages. */
  requireFormat(path: FieldPath, value: unknown, format: FieldFormat): void {
    const field = formatFieldPath(path);
    if (value === undefined) this.add(path, `${field} is required`);
    else if (typeof value !== 'string' || value.length === 0) {
      this.add(path, `${field} must be a non-empty string, found ${describeValue(value)}`);
    } else this.checkFormat(path, value, format);
  }
  checkFormat(path: FieldPath, value: unknown, format: FieldFormat): void {
    if (!format.test(value)) {
      const field = formatFieldPath(path);
      this.add(path, `${field} ${describeValue(value)} is not a valid ${format.noun}: expected ${format.expectation}`);
    }
  }
  /** Optional field that must be a string (of at least `minLength` characters) when present. */
  optionalString(path: FieldPath, value: unknown, minLength: number): void {
    if (value === undefined) return;
    if (typeof value !== 'string' || value.length < minLength) {
      const noun = minLength > 0 ? 'a non-empty string' : 'a string';
      this.add(path, `${formatFieldPath(path)} must be ${noun}, found ${describeValue(value)}`);
    }
  }
}

function checkKeyValues(
  issues: IssueList,
  path: FieldPath,
  value: unknown,
  keyFormat: FieldFormat,
  valueFormat: FieldFormat,
): void {
  if (value === undefined) return;
  if (!isMapping(value)) {
    issues.add(path, `${formatFieldPath(path)} must be a mapping, found ${describeValue(value)}`);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const itemPath = [...path, key];
    if (!keyFormat.test(key)) {
      const what = `${formatFieldPath(path)} key ${JSON.stringify(key)}`;
      issues.add(itemPath, `${what} is not a valid ${keyFormat.noun}: expected ${keyFormat.expectation}`);
    }
    if (typeof v !== 'string') {
      issues.add(itemPath, `${formatFieldPath(itemPath)} must be a string, found ${describeValue(v)}`);
    } else issues.checkFormat(itemPath, v, valueFormat);
  }
}

function checkTags(issues: IssueList, tags: unknown): void {
  if (tags === undefined) return;
  const path = ['metadata', 'tags'];
  if (!Array.isArray(tags)) {
    issues.add(path, `metadata.tags must be a list of tags, found ${describeValue(tags)}`);
    return;
  }
  tags.forEach((tag, i) => issues.requireFormat([...path, i], tag, FIELD_FORMATS.tag));
}

function checkLinks(issues: IssueList, links: unknown): void {
  if (links === undefined) return;
  const path = ['metadata', 'links'];
  if (!Array.isArray(links)) {
    issues.add(path, `metadata.links must be a list of links, found ${describeValue(links)}`);
    return;
  }
  links.forEach((link, i) => {
    const linkPath = [...path, i];
    if (!isMapping(link)) {
      issues.add(linkPath, `${formatFieldPath(linkPath)} must be a mapping with a url, found ${describeValue(link)}`);
      return;
    }
    issues.requireFormat([...linkPath, 'url'], link.url, FIELD_FORMATS.url);
    for (const key of ['title', 'icon']) {
      const value = link[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || value.length === 0) issues.optionalString([...linkPath, key], value, 1);
      else issues.checkFormat([...linkPath, key], value, FIELD_FORMATS.nonEmptyString);
    }
    issues.optionalString([...linkPath, 'type'], link.type, 1);
  });
}

function checkMetadata(issues: IssueList, metadata: Record<string, unknown>): void {
  issues.requireFormat(['metadata', 'name'], metadata.name, FIELD_FORMATS.entityName);
  if (metadata.namespace !== undefined) {
    issues.requireFormat(['metadata', 'namespace'], metadata.namespace, FIELD_FORMATS.namespace);
  }
  issues.optionalString(['metadata', 'uid'], metadata.uid, 1);
  issues.optionalString(['metadata', 'etag'], metadata.etag, 1);
  issues.optionalString(['metadata', 'title'], metadata.title, 1);
  issues.optionalString(['metadata', 'description'], metadata.description, 0);
  checkKeyValues(issues, ['metadata', 'labels'], metadata.labels, FIELD_FORMATS.labelKey, FIELD_FORMATS.labelValue);
  checkKeyValues(
    issues,
    ['metadata', 'annotations'],
    metadata.annotations,
    FIELD_FORMATS.annotationKey,
    FIELD_FORMATS.annotationValue,
  );
  checkTags(issues, metadata.tags);
  checkLinks(issues, metadata.links);
}

/**
 * Validates one parsed YAML document as a catalog entity. Never throws. Warnings do not reject
 * the entity (today: a built-in kind written in the wrong case, which Backstage would not
 * recognise and this index keeps as a custom kind).
 */
export function validateEntity(data: unknown): EntityValidation {
  const issues = new IssueList();
  const warnings = new IssueList();
  if (!isMapping(data)) {
    const found = describeValue(data);
    issues.add([], `An entity must be a mapping with apiVersion, kind, metadata and spec, found ${found}`);
    return { ok: false, errors: issues.issues, warnings: [] };
  }

  for (const key of Object.keys(data)) {
    if (!ROOT_FIELDS.includes(key)) {
      const allowed = 'only apiVersion, kind, metadata and spec may appear at the top level';
      issues.add([key], `${formatFieldPath([key])} is not an entity field: ${allowed}`);
    }
  }
  issues.requireFormat(['apiVersion'], data.apiVersion, FIELD_FORMATS.apiVersion);
  issues.requireFormat(['kind'], data.kind, FIELD_FORMATS.kind);

  const metadata = data.metadata;
  if (metadata === undefined) issues.add(['metadata'], 'metadata is required');
  else if (!isMapping(metadata))
    issues.add(['metadata'], `metadata must be a mapping, found ${describeValue(metadata)}`);
  else checkMetadata(issues, metadata);

  const spec = data.spec;
  if (isBuiltinKind(data.kind)) {
    const apiVersion = data.apiVersion;
    if (typeof apiVersion === 'string' && !(BUILTIN_API_VERSIONS as readonly string[]).includes(apiVersion)) {
      const expected = BUILTIN_API_VERSIONS.join(' or ');
      issues.add(
        ['apiVersion'],
        `apiVersion ${JSON.stringify(apiVersion)} is not recognised for kind ${data.kind}: expected ${expected}`,
      );
    }
    for (const error of checkKindSpec(data.kind, spec)) issues.add(error.path, error.message);
  } else {
    if (spec !== undefined && !isMapping(spec)) {
      issues.add(['spec'], `spec must be a mapping, found ${describeValue(spec)}`);
    }
    const kind = typeof data.kind === 'string' ? data.kind : undefined;
    const builtin = kind && BUILTIN_KINDS.find((k) => k.toLowerCase() === kind.toLowerCase());
    if (builtin) {
      warnings.add(
        ['kind'],
        `kind ${JSON.stringify(kind)} is not the built-in kind ${JSON.stringify(builtin)} (kinds are case-sensitive); ` +
          'it is kept as a custom kind without relations',
      );
    }
  }

  if (issues.issues.length > 0) return { ok: false, errors: issues.issues, warnings: warnings.issues };
  const meta = metadata as Record<string, unknown>;
  return {
    ok: true,
    entity: {
      apiVersion: data.apiVersion as string,
      kind: data.kind as string,
      namespace: (meta.namespace as string | undefined) ?? DEFAULT_NAMESPACE,
      name: meta.name as string,
      metadata: meta,
      spec: (spec as Record<string, unknown> | undefined) ?? {},
    },
    warnings: warnings.issues,
  };
}
