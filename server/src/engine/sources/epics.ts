/**
 * Epic specs (`epic_doc`): Markdown under an `epics/` folder, files named `*.epic.md`, or any
 * Markdown whose front matter says `kind: epic`. An epic is attached to the entities listed in
 * its front matter (`entities:`, kind defaulting to component) and to the entity refs written in
 * its text (`kind:name` or `kind:namespace/name` with a Backstage kind).
 *
 * Ref extraction is exported on its own: it reports line and column of each ref so the editor
 * can hover and link them in any file.
 */
import { parseMarkdown } from '../chunking/markdownSections';
import type { Doc, EntityKey, Problem } from '../model';
import { refKey } from './catalog/entityRef';
import { buildDoc } from './docBuilder';
import { FieldReader } from './fields';
import { baseName, dirName, extName } from './paths';

/** Default globs for epic files; Markdown elsewhere is an epic only through `kind: epic`. */
export const EPIC_GLOBS: readonly string[] = ['**/epics/**/*.md', '**/*.epic.md'];

/** Backstage's kinds as written in refs (lower case; matching ignores case). */
export const ENTITY_KINDS: readonly string[] = [
  'component',
  'api',
  'resource',
  'system',
  'domain',
  'group',
  'user',
  'location',
  'template',
];

/**
 * Maps a ref (always written with a kind) to the entity it names, or null to drop it. Text refs
 * are passed as written; front matter refs as their canonical key (kind defaulted).
 */
export type EntityResolver = (ref: string) => EntityKey | null;

/** An entity ref found in text. */
export interface RawEntityRef {
  /** As written. */
  text: string;
  /** Lower-cased kind. */
  kind: string;
  /** As written; absent when the ref has none (`default` applies). */
  namespace?: string;
  name: string;
  /** 1-based line, counted from the start of the text plus `lineOffset`. */
  line: number;
  /** 1-based column of the first character (UTF-16 code units, as editors count). */
  column: number;
  /** 1-based column just past the last character. */
  endColumn: number;
  /** Character offset of the ref in the text passed. */
  offset: number;
}

// Backstage names: letters and digits in runs joined by single `-`, `_` or `.`, 63 characters at
// most; namespaces are the same shape. A ref must not touch other word or path characters, so
// `openapi:x`, `a/component:x` and `component:x/y` are not refs.
const SEGMENT = '[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*';
const REF_PATTERN = new RegExp(
  `(?<![\\w./:-])(${ENTITY_KINDS.join('|')}):(?:(${SEGMENT})/)?(${SEGMENT})(?![\\w/:]|-[\\w])`,
  'gi',
);
const MAX_SEGMENT = 63;

/** Every `kind:name` / `kind:namespace/name` ref with a known kind, in text order. */
export function extractEntityRefs(text: string, lineOffset = 0): RawEntityRef[] {
  const refs: RawEntityRef[] = [];
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  let lineIndex = 0;
  for (const match of text.matchAll(REF_PATTERN)) {
    const [written, kind, namespace, name] = match;
    if (name.length > MAX_SEGMENT || (namespace?.length ?? 0) > MAX_SEGMENT) continue;
    const offset = match.index ?? 0;
    while (lineIndex + 1 < lineStarts.length && lineStarts[lineIndex + 1] <= offset) lineIndex++;
    const column = offset - lineStarts[lineIndex] + 1;
    const ref: RawEntityRef = {
      text: written,
      kind: kind.toLowerCase(),
      name,
      line: lineIndex + 1 + lineOffset,
      column,
      endColumn: column + written.length,
      offset,
    };
    if (namespace !== undefined) ref.namespace = namespace;
    refs.push(ref);
  }
  return refs;
}

/** Keeps every well-formed ref (no catalog to check against). */
export const keepAllRefs: EntityResolver = (ref) => refKey(ref, { defaultKind: 'component' });

/** True for paths the default epic globs match. */
export function isEpicPath(path: string): boolean {
  if (extName(path) !== 'md') return false;
  if (baseName(path).toLowerCase().endsWith('.epic.md')) return true;
  return dirName(path)
    .split('/')
    .some((segment) => segment.toLowerCase() === 'epics');
}

/** True when the front matter declares `kind: epic` (any case). */
export function declaresEpic(frontMatter: Record<string, unknown>): boolean {
  return typeof frontMatter.kind === 'string' && frontMatter.kind.trim().toLowerCase() === 'epic';
}

export interface EpicInput {
  path: string;
  text: string;
  /** Workspace folder name. Default ''. */
  folder?: string;
  /** Default keeps every well-formed ref (`keepAllRefs`). */
  resolve?: EntityResolver;
  /**
   * Whether the `epics` source globs match the path (globs.ts roles); the front matter's
   * `kind: epic` makes an epic of any Markdown file either way. Default: the default globs'
   * test (`isEpicPath`).
   */
  matchesEpicGlobs?: boolean;
}

export interface EpicResult {
  /** Null when the file is not an epic (path and front matter both say no). */
  doc: Doc | null;
  /** Refs written in the body (front matter excluded), resolved or not, with positions. */
  refs: RawEntityRef[];
  problems: Problem[];
}

export function readEpic(input: EpicInput): EpicResult {
  const read = readEpicWith(input, input.resolve ?? keepAllRefs);
  return read ? { doc: read.doc, refs: read.refs, problems: read.problems } : { doc: null, refs: [], problems: [] };
}

/**
 * An epic read without a catalog (`parseEpic`): its document attached to every well-formed ref,
 * front matter and text alike, and the checks still to make against the catalog of the day.
 */
export interface ParsedEpic {
  /** Attached to every well-formed ref, in the order `readEpic` would attach the known ones. */
  doc: Doc;
  /** Refs written in the body (front matter excluded), with positions. */
  refs: RawEntityRef[];
  /** Every problem `readEpic` could report, in its order. */
  problems: Problem[];
  /**
   * `[index in problems, entity key]`: the front-matter problem at that index ("names ..., which
   * is not a known entity") applies only while that entity is not in the catalog.
   */
  unlessKnown: [number, EntityKey][];
}

/**
 * Reads an epic without resolving its refs (null when the file is not an epic), so the result
 * stays valid whatever the catalog does; `resolveEpic` then gives what `readEpic` gives with a
 * resolver that keeps the refs of known entities.
 */
export function parseEpic(input: Omit<EpicInput, 'resolve'>): ParsedEpic | null {
  return readEpicWith(input, keepAllRefs, true);
}

/**
 * The parsed epic against the entities known now: the document attached only to known entities
 * (the parsed document itself when every ref is known) and the problems that apply.
 */
export function resolveEpic(
  parsed: ParsedEpic,
  isKnown: (key: EntityKey) => boolean,
): { doc: Doc; problems: Problem[] } {
  const refs = parsed.doc.entityRefs.filter(isKnown);
  const doc = refs.length === parsed.doc.entityRefs.length ? parsed.doc : { ...parsed.doc, entityRefs: refs };
  if (parsed.unlessKnown.length === 0) return { doc, problems: parsed.problems };
  const dropped = new Set<number>();
  for (const [index, key] of parsed.unlessKnown) if (isKnown(key)) dropped.add(index);
  return { doc, problems: dropped.size === 0 ? parsed.problems : parsed.problems.filter((_, i) => !dropped.has(i)) };
}

/**
 * The one reading of an epic. With `deferUnknown`, a front-matter ref the resolver keeps is also
 * reported as unknown, and the report is listed in `unlessKnown` for `resolveEpic` to drop.
 */
function readEpicWith(
  input: Omit<EpicInput, 'resolve'>,
  resolve: EntityResolver,
  deferUnknown = false,
): ParsedEpic | null {
  const markdown = parseMarkdown(input.path, input.text);
  const data = markdown.frontMatter.data;
  if (!(input.matchesEpicGlobs ?? isEpicPath(input.path)) && !declaresEpic(data)) return null;

  const problems = [...markdown.problems];
  const unlessKnown: [number, EntityKey][] = [];
  const keys: EntityKey[] = [];
  const fields = new FieldReader(data, {
    path: input.path,
    keyLines: markdown.frontMatter.keyLines,
    code: 'epic.invalid-field',
    label: 'Front matter field',
    problems,
  });
  for (const written of fields.stringList('entities')) {
    // Resolve the canonical form so the resolver never needs to know the kind default.
    const canonical = refKey(written, { defaultKind: 'component' });
    const key = canonical === null ? null : resolve(canonical);
    if (key) keys.push(key);
    if (key && deferUnknown) unlessKnown.push([problems.length, key]);
    if (!key || deferUnknown) fields.report('entities', `names '${written}', which is not a known entity`);
  }

  const refs = extractEntityRefs(markdown.frontMatter.body, markdown.frontMatter.bodyLineOffset);
  for (const ref of refs) {
    const key = resolve(ref.text);
    if (key) keys.push(key);
  }
  const built = buildDoc({
    path: input.path,
    text: input.text,
    sourceKind: 'epic_doc',
    format: 'markdown',
    folder: input.folder,
    entityRefs: keys,
    markdown,
  });
  return { doc: built.doc, refs, problems, unlessKnown };
}
