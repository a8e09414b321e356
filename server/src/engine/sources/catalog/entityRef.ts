/**
 * Entity references, `[kind:][namespace/]name`, parsed and printed as Backstage does.
 *
 * Parsing follows `parseEntityRef` in `@backstage/catalog-model` (packages/catalog-model/src/
 * entity/ref.ts) character for character, including its quirks: nothing is trimmed, a `/` before
 * the first `:` makes the whole prefix part of the namespace/name split (`a/b:c` is namespace `a`,
 * name `b:c`), only the first `:` and first `/` split, and the error messages are Backstage's own.
 * The difference is the shape: these functions never throw, they return `{ ok, value | error }`.
 *
 * Printing: Backstage's `stringifyEntityRef` lower-cases all three parts (1.10.x). The engine needs
 * two forms, both derived from it:
 * - {@link entityKey}: exactly `stringifyEntityRef`'s output, the identity used for lookups;
 * - {@link printEntityRef}: the same with the name's case kept, for display (model.ts `ref`).
 */
import type { EntityKey, EntityName } from '../../model';

/** Namespace used when a ref or an entity leaves it out. */
export const DEFAULT_NAMESPACE = 'default';

/** Result of a parser that never throws. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Defaults applied to the parts a ref leaves out (Backstage's `parseEntityRef` context). */
export interface RefDefaults {
  /** Kind when the ref has none; without it a kindless ref is an error. */
  defaultKind?: string;
  /** Namespace when the ref has none; {@link DEFAULT_NAMESPACE} when empty or absent. */
  defaultNamespace?: string;
}

/** A ref in compound form, as Backstage accepts it besides strings. */
export interface CompoundRefInput {
  kind?: string;
  namespace?: string;
  name?: string;
}

/** What {@link printEntityRef} and {@link entityKey} accept: `namespace` defaults to `default`. */
export interface PrintableRef {
  kind: string;
  namespace?: string;
  name: string;
}

type SplitRef = { kind?: string; namespace?: string; name: string };

function splitRefString(ref: string): Parsed<SplitRef> {
  let colon = ref.indexOf(':');
  const slash = ref.indexOf('/');
  // A '/' ahead of the ':' means the ':' belongs to the name, not to a kind prefix.
  if (slash !== -1 && slash < colon) colon = -1;
  const kind = colon === -1 ? undefined : ref.slice(0, colon);
  const namespace = slash === -1 ? undefined : ref.slice(colon + 1, slash);
  const name = ref.slice(Math.max(colon + 1, slash + 1));
  if (kind === '' || namespace === '' || name === '') {
    return { ok: false, error: `Entity reference "${ref}" was not on the form [<kind>:][<namespace>/]<name>` };
  }
  return { ok: true, value: { kind, namespace, name } };
}

function describe(ref: unknown): string {
  return JSON.stringify(ref) ?? String(ref);
}

/**
 * Parses a ref in string or compound form. `defaults.defaultKind` fills a missing kind (there is
 * none by default, so `"foo"` alone is an error); the namespace falls back to
 * `defaults.defaultNamespace`, then to `default`. Kind and namespace keep the case they were
 * written in (`Component`, `Group` from a default); compare with {@link entityKey}.
 */
export function parseEntityRef(ref: unknown, defaults: RefDefaults = {}): Parsed<EntityName> {
  if (!ref) return { ok: false, error: 'Entity reference must not be empty' };
  const defaultKind = defaults.defaultKind;
  const defaultNamespace = defaults.defaultNamespace || DEFAULT_NAMESPACE;

  let kind: unknown;
  let namespace: unknown;
  let name: unknown;
  if (typeof ref === 'string') {
    const split = splitRefString(ref);
    if (!split.ok) return split;
    kind = split.value.kind ?? defaultKind;
    namespace = split.value.namespace ?? defaultNamespace;
    name = split.value.name;
  } else {
    // Backstage reads any other value as a compound ref; numbers and booleans then lack a name.
    const compound = (typeof ref === 'object' ? ref : {}) as Record<string, unknown>;
    kind = compound.kind ?? defaultKind;
    namespace = compound.namespace ?? defaultNamespace;
    name = compound.name;
  }

  if (!kind) {
    return {
      ok: false,
      error: `Entity reference ${describe(ref)} had missing or empty kind (e.g. did not start with "component:" or similar)`,
    };
  }
  if (!namespace) {
    return { ok: false, error: `Entity reference ${describe(ref)} had missing or empty namespace` };
  }
  if (!name) return { ok: false, error: `Entity reference ${describe(ref)} had missing or empty name` };
  // Backstage passes non-string parts through and fails later when printing; say so now.
  for (const [part, value] of [
    ['kind', kind],
    ['namespace', namespace],
    ['name', name],
  ] as const) {
    if (typeof value !== 'string') {
      return { ok: false, error: `Entity reference ${describe(ref)} had a ${part} that is not a string` };
    }
  }
  return { ok: true, value: { kind: kind as string, namespace: namespace as string, name: name as string } };
}

/** `kind:namespace/name` with kind and namespace lower-cased and the name's case kept. */
export function printEntityRef(ref: PrintableRef): string {
  const namespace = ref.namespace ?? DEFAULT_NAMESPACE;
  return `${ref.kind.toLowerCase()}:${namespace.toLowerCase()}/${ref.name}`;
}

/** Identity of a ref: Backstage's `stringifyEntityRef`, i.e. the printed ref lower-cased. */
export function entityKey(ref: PrintableRef): EntityKey {
  return printEntityRef(ref).toLowerCase();
}

/**
 * Parses a ref and returns its key, or null when it does not parse. Convenience for lookups of
 * refs typed by people (hovers, tool input, epic front matter).
 */
export function refKey(ref: unknown, defaults: RefDefaults = {}): EntityKey | null {
  const parsed = parseEntityRef(ref, defaults);
  return parsed.ok ? entityKey(parsed.value) : null;
}
