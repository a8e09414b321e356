/**
 * What Backstage's built-in kind schemas require of `spec` (packages/catalog-model/src/schema/
 * kinds/*.v1alpha1.schema.json, 1.10.x), as a small rule table instead of JSON Schema so the
 * engine needs no schema compiler. Only `spec` is covered here; the envelope (`apiVersion`,
 * `kind`, `metadata`) is checked by validateEntity.ts for every kind.
 *
 * Backstage recognises a built-in kind only with `apiVersion` `backstage.io/v1alpha1` or
 * `backstage.io/v1beta1` and the kind spelled exactly (`Component`, not `component`).
 */
import { describeValue, formatFieldPath, type FieldPath } from './fieldPath';

export const BUILTIN_KINDS = ['Component', 'API', 'Resource', 'System', 'Domain', 'Group', 'User', 'Location'] as const;
export type BuiltinKind = (typeof BUILTIN_KINDS)[number];

/** apiVersions under which Backstage recognises its built-in kinds. */
export const BUILTIN_API_VERSIONS = ['backstage.io/v1alpha1', 'backstage.io/v1beta1'] as const;

type Rule =
  | { type: 'string' }
  | { type: 'stringList' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'const'; value: string }
  | { type: 'profile' }
  | { type: 'remotes' };

interface SpecSchema {
  required: readonly string[];
  properties: Readonly<Record<string, Rule>>;
}

const str: Rule = { type: 'string' };
const list: Rule = { type: 'stringList' };
const profile: Rule = { type: 'profile' };

const SPEC_SCHEMAS: Record<BuiltinKind, SpecSchema> = {
  Component: {
    required: ['type', 'lifecycle', 'owner'],
    properties: {
      type: str,
      lifecycle: str,
      owner: str,
      system: str,
      subcomponentOf: str,
      providesApis: list,
      consumesApis: list,
      dependsOn: list,
    },
  },
  API: {
    required: ['type', 'lifecycle', 'owner', 'definition'],
    properties: { type: str, lifecycle: str, owner: str, system: str, definition: str },
  },
  Resource: {
    required: ['type', 'owner'],
    properties: { type: str, owner: str, dependsOn: list, system: str },
  },
  System: { required: ['owner'], properties: { owner: str, domain: str, type: str } },
  Domain: { required: ['owner'], properties: { owner: str, subdomainOf: str, type: str } },
  Group: {
    required: ['type', 'children'],
    properties: { type: str, profile, parent: str, children: list, members: list },
  },
  User: { required: ['memberOf'], properties: { profile, memberOf: list } },
  Location: {
    required: [],
    properties: { type: str, target: str, targets: list, presence: { type: 'enum', values: ['required', 'optional'] } },
  },
};

// API with `spec.type: mcp-server` (catalog-model 1.9+) lists `remotes` instead of a `definition`.
const MCP_SERVER_API: SpecSchema = {
  required: ['type', 'lifecycle', 'owner', 'remotes'],
  properties: {
    type: { type: 'const', value: 'mcp-server' },
    lifecycle: str,
    owner: str,
    system: str,
    remotes: { type: 'remotes' },
  },
};

/** One broken rule, with the path of the field it concerns. */
export interface SpecError {
  path: FieldPath;
  message: string;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkRule(rule: Rule, value: unknown, path: FieldPath, errors: SpecError[]): void {
  const field = formatFieldPath(path);
  switch (rule.type) {
    case 'string':
      if (typeof value !== 'string' || value.length === 0) {
        errors.push({ path, message: `${field} must be a non-empty string, found ${describeValue(value)}` });
      }
      return;
    case 'stringList':
      if (!Array.isArray(value)) {
        errors.push({ path, message: `${field} must be a list of non-empty strings, found ${describeValue(value)}` });
        return;
      }
      value.forEach((item, i) => checkRule(str, item, [...path, i], errors));
      return;
    case 'enum':
      if (typeof value !== 'string' || !rule.values.includes(value)) {
        const allowed = rule.values.map((v) => JSON.stringify(v)).join(' or ');
        errors.push({ path, message: `${field} must be ${allowed}, found ${describeValue(value)}` });
      }
      return;
    case 'const':
      if (value !== rule.value) {
        errors.push({ path, message: `${field} must be ${JSON.stringify(rule.value)}, found ${describeValue(value)}` });
      }
      return;
    case 'profile':
      if (!isMapping(value)) {
        errors.push({ path, message: `${field} must be a mapping, found ${describeValue(value)}` });
        return;
      }
      for (const key of ['displayName', 'email', 'picture']) {
        if (value[key] !== undefined) checkRule(str, value[key], [...path, key], errors);
      }
      return;
    case 'remotes':
      if (!Array.isArray(value) || value.length === 0) {
        const found = describeValue(value);
        errors.push({ path, message: `${field} must be a non-empty list of {type, url} mappings, found ${found}` });
        return;
      }
      value.forEach((item, i) => {
        const itemPath = [...path, i];
        if (!isMapping(item)) {
          errors.push({
            path: itemPath,
            message: `${formatFieldPath(itemPath)} must be a mapping, found ${describeValue(item)}`,
          });
          return;
        }
        for (const key of ['type', 'url']) checkRule(str, item[key], [...itemPath, key], errors);
      });
      return;
  }
}

function checkSpec(schema: SpecSchema, kind: string, spec: Record<string, unknown>): SpecError[] {
  const errors: SpecError[] = [];
  for (const key of schema.required) {
    if (spec[key] === undefined) {
      errors.push({ path: ['spec', key], message: `spec.${key} is required for kind ${kind}` });
    }
  }
  for (const [key, rule] of Object.entries(schema.properties)) {
    if (spec[key] !== undefined) checkRule(rule, spec[key], ['spec', key], errors);
  }
  return errors;
}

export function isBuiltinKind(kind: unknown): kind is BuiltinKind {
  return typeof kind === 'string' && (BUILTIN_KINDS as readonly string[]).includes(kind);
}

/**
 * Checks `spec` of a built-in kind. Backstage accepts an API that satisfies either the classic
 * schema or the mcp-server one; the errors reported are those of the schema its `spec.type` asks for.
 */
export function checkKindSpec(kind: BuiltinKind, spec: unknown): SpecError[] {
  if (spec === undefined) return [{ path: ['spec'], message: `spec is required for kind ${kind}` }];
  if (!isMapping(spec)) {
    return [{ path: ['spec'], message: `spec must be a mapping, found ${describeValue(spec)}` }];
  }
  const errors = checkSpec(SPEC_SCHEMAS[kind], kind, spec);
  if (kind !== 'API' || errors.length === 0) return errors;
  const mcpErrors = checkSpec(MCP_SERVER_API, kind, spec);
  if (mcpErrors.length === 0) return [];
  return spec.type === 'mcp-server' ? mcpErrors : errors;
}
