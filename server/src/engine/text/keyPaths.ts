/**
 * Configuration key paths as index terms: `spec.privateKey.rotationPolicy`, `archives.format_overrides.formats`.
 *
 * Documentation names a setting by its full dotted path in one place and shows it nested in a YAML
 * (JSON, TOML) block in another, with only its last key in the prose. A path is indexed, for the
 * section that shows it, as its whole dotted form and as each of its trailing forms of two or more
 * segments (`privateKey.rotationPolicy`), all lower-cased and never stemmed, the way the analyzer
 * keeps an identifier's whole form; so a question naming the path meets the block that nests it,
 * and a question naming a longer or shorter path meets it by the segments they share at the end.
 *
 * A key is one key however its words are joined: Spring reads `use-insecure-trust-manager`,
 * `use_insecure_trust_manager` and `useInsecureTrustManager` as the same property, and a property
 * table writes one form while YAML and the question write another. A path's terms that join words
 * with `-` or `_` are indexed also with those dropped (`unseparated`), the form a camelCase key
 * lower-cases to; a question's path written with them looks up that form too, credited as a
 * trailing form of all its keys (a section spelling the path as asked still comes first).
 *
 * The same notation covers what questions and prose write around a path:
 * - array items, `solvers[].http01`, `solvers[0].http01`, `solvers.0.http01`: the item marker and a
 *   numeric segment are not segments (a YAML block shows the item's keys under the list's key);
 * - placeholders, `steps.<name>.when`, `servers.{id}.url`, `routers.*.rule`: a segment that stands
 *   for any key; it is kept as {@link PLACEHOLDER} so that no form spans it.
 */

import { identifierParts } from './identifiers';

/** A segment standing for any key (`<name>`, `{id}`, `*`). */
export const PLACEHOLDER = '';

/** Most segments a path may have to be read as one (deeper is not configuration). */
export const MAX_PATH_SEGMENTS = 12;

/** A key: starts with a letter or `_`, then word characters and `-` (`format_overrides`, `x-kubernetes-int`). */
const KEY = /^[A-Za-z_][\w-]*$/;
const NUMERIC = /^\d+$/;
const PLACEHOLDER_SEGMENT = /^(?:<[^<>\s]+>|\{[^{}\s]+\}|\*)$/;
const ARRAY_MARKS = /(?:\[[^\]\s]*\])+$/;

/**
 * The segments of a dotted path as written (`a[].b`, `a.0.b`, `a.<name>.b`), each key as written
 * (case kept) and placeholders as {@link PLACEHOLDER}; null when the text is not a key path: fewer
 * than two key segments, a segment that is neither a key, an array index nor a placeholder, or more
 * than {@link MAX_PATH_SEGMENTS}.
 */
export function keyPathSegments(text: string): string[] | null {
  const raw = text.split('.');
  if (raw.length < 2) return null;
  const segments: string[] = [];
  for (const piece of raw) {
    if (piece === '') return null;
    if (PLACEHOLDER_SEGMENT.test(piece)) {
      segments.push(PLACEHOLDER);
      continue;
    }
    const key = piece.replace(ARRAY_MARKS, '');
    if (NUMERIC.test(key)) {
      // An item index sits between keys (`solvers.0.http01`); after a key ending in a digit it is
      // a version (`release-notes-1.18.md`).
      const previous = segments[segments.length - 1];
      if (previous === undefined || /\d$/.test(previous)) return null;
      continue;
    }
    if (!KEY.test(key)) return null;
    segments.push(key);
  }
  if (segments.filter((s) => s !== PLACEHOLDER).length < 2 || segments.length > MAX_PATH_SEGMENTS) return null;
  return segments;
}

/**
 * The index terms of a path shown in a section: its whole form (unless it holds a placeholder) and
 * each trailing form of two or more segments that holds none, lower-cased, longest first; then
 * each of those that joins words with `-` or `_`, unseparated.
 */
export function keyPathTerms(segments: readonly string[]): string[] {
  const lower = segments.map((s) => s.toLowerCase());
  const terms: string[] = [];
  const last = lastPlaceholder(lower);
  for (let from = last + 1; from <= lower.length - 2; from++) terms.push(lower.slice(from).join('.'));
  for (let i = 0, n = terms.length; i < n; i++) {
    const joined = unseparated(terms[i]);
    if (joined !== terms[i]) terms.push(joined);
  }
  return terms;
}

/**
 * A lower-cased path with its keys' `-` and `_` dropped: `use-insecure-trust-manager`,
 * `use_insecure_trust_manager` and `useInsecureTrustManager` are one key written three ways.
 */
export function unseparated(term: string): string {
  return term.includes('-') || term.includes('_') ? term.replace(/[-_]/g, '') : term;
}

/** Index of the last placeholder segment, or -1. */
function lastPlaceholder(segments: readonly string[]): number {
  for (let i = segments.length - 1; i >= 0; i--) if (segments[i] === PLACEHOLDER) return i;
  return -1;
}

/**
 * A question's path as the ranker matches it: the whole form (looked up as one term), and the
 * trailing forms it may match by instead. `segments` are lower-cased; placeholders stay
 * {@link PLACEHOLDER}.
 */
export interface AskedPath {
  /** The segments as written (case kept; placeholders {@link PLACEHOLDER}). */
  written: string[];
  segments: string[];
  /** The whole lower-cased dotted form; a placeholder is written `*` (no section spells it). */
  whole: string;
  /**
   * Other forms the path may match by. First, when `whole` joins words with `-` or `_` and holds
   * no placeholder, `whole` unseparated (`from` 0). Then trailing forms shorter than `whole` that
   * span no placeholder, longest first: `{ term, from }` where `term` is
   * `segments.slice(from).join('.')`, two or more segments, each followed by its unseparated form
   * when that differs; then the last segment
   * alone when it is a name of two words or more (`creationPolicy`, `format_overrides`), `leaf`
   * set: prose names a key by its last segment ("set `creationPolicy` to Merge"). A one-word
   * last segment (`enabled`, `name`) is a word like any other, one of the identifier's parts.
   */
  trailing: { term: string; from: number; leaf?: boolean }[];
}

export function askedPath(segments: readonly string[]): AskedPath {
  const lower = segments.map((s) => s.toLowerCase());
  const last = lastPlaceholder(lower);
  const whole = lower.map((s) => (s === PLACEHOLDER ? '*' : s)).join('.');
  const trailing: { term: string; from: number; leaf?: boolean }[] = [];
  const joinedWhole = unseparated(whole);
  if (joinedWhole !== whole && last < 0) trailing.push({ term: joinedWhole, from: 0 });
  for (let from = Math.max(1, last + 1); from <= lower.length - 2; from++) {
    const term = lower.slice(from).join('.');
    trailing.push({ term, from });
    if (unseparated(term) !== term) trailing.push({ term: unseparated(term), from });
  }
  const leaf = lower.length - 1;
  if (leaf > last && leaf >= 1 && identifierParts(segments[leaf]).length >= 2)
    trailing.push({ term: lower[leaf], from: leaf, leaf: true });
  return { written: [...segments], segments: lower, whole, trailing };
}

/**
 * A path written in prose or a question that the tokenizer would not keep whole: one with array
 * marks (`a[].b`, `a[0].b`) or placeholder segments (`a.<name>.b`, `a.{id}.b`, `a.*.b`). Plain
 * dotted identifiers (`a.b.c`) are tokens already. Calls `visit` with each match's span and
 * segments, left to right.
 */
export function forEachMarkedPath(text: string, visit: (start: number, end: number, segments: string[]) => void): void {
  if (!MARKED_HINT.test(text)) return;
  // matchAll works on a copy of the expression: its `lastIndex` is never shared between calls.
  for (const m of text.matchAll(MARKED_PATH)) {
    const span = m[0];
    if (!/[[<{*]/.test(span) && !/\.\d+(?:\.|$)/.test(span)) continue;
    const segments = keyPathSegments(span);
    if (segments) visit(m.index!, m.index! + span.length, segments);
  }
}

const SEGMENT = String.raw`(?:[A-Za-z_][\w-]*(?:\[[^\]\s]*\])*|<[^<>\s]+>|\{[^{}\s]+\}|\*|\d+)`;
/** Two or more segments joined by dots, starting with a key, not inside a longer word. */
const MARKED_PATH = new RegExp(String.raw`(?<![\w.\-/])[A-Za-z_][\w-]*(?:\[[^\]\s]*\])*(?:\.${SEGMENT})+`, 'g');
/** Cheap test before the expression runs: some mark a marked path needs. */
const MARKED_HINT = /\[[^\]\s]*\]\.|\.(?:<|\{|\*|\d+\.)/;
