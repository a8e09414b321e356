/**
 * Field paths inside an entity (`spec.dependsOn[1]`, `metadata.annotations["backstage.io/x"]`),
 * one printed form shared by validation messages and the parser's line table, so a problem about
 * a field can be placed on the line where that field is written.
 */

/** Path segments from the entity's root: map keys and list indices. */
export type FieldPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * Prints a path as people read it: plain keys joined by dots, list indices in brackets, and keys
 * that are not plain words (dots, slashes, spaces) as bracketed JSON strings.
 * `['metadata', 'annotations', 'backstage.io/techdocs-ref']` ->
 * `metadata.annotations["backstage.io/techdocs-ref"]`.
 */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '<root>' : out;
}

/** A short description of a value for messages: strings quoted, collections by kind. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${String(value)}`;
}
