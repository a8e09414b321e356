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
  return dirName(path).split('/').some((segment) => segment.toLowerCase() === 'epics');
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
}

export interface EpicResult {
  /** Null when the file is not an epic (path and front matter both say no). */
  doc: Doc | null;
  /** Refs written in the body (front matter excluded), resolved or not, with positions. */
  refs: RawEntityRef[];
  problems: Problem[];
}

export function readEpic(input: EpicInput): EpicResult {
  const markdown = parseMarkdown(input.path, input.text);
  const data = markdown.frontMatter.data;
  if (!isEpicPath(input.path) && !declaresEpic(data)) return { doc: null, refs: [], problems: [] };

  const resolve = input.resolve ?? keepAllRefs;
  const problems = [...markdown.problems];
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
    else fields.report('entities', `names '${written}', which is not a known entity`);
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
  return { doc: built.doc, refs, problems };
}
