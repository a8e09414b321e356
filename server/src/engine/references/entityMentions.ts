/**
 * Where a text names catalog entities, with line and columns: the one answer the editor's hover,
 * go to definition, find references, document links and diagnostics all start from.
 *
 * Three ways a file names an entity:
 * - `field`: a value of a relation field in a catalog file (`owner: payments-team`,
 *   `- resource:default/invoices-db`), read as Backstage reads it: the field's default kind and the
 *   declaring entity's namespace fill what the value leaves out (relationFields.ts);
 * - `name`: an entity's own `metadata.name` (the declaration);
 * - `text`: a `kind:name` or `kind:namespace/name` ref written anywhere else, as `extractEntityRefs`
 *   finds them: anywhere in Markdown, YAML and other prose, but in source code only inside comments
 *   and strings (parsing/commentsAndStrings.ts), so `{component:x}` in an object literal is not one.
 *
 * Never throws: a catalog file that does not parse yields its text refs only, and a field value
 * that is not a valid ref is returned with `key: null` and Backstage's reason.
 */
import type { EntityKey } from '../model';
import { sourceCommentAndStringRanges, sourceCommentAndStringRangesNow } from '../parsing/commentsAndStrings';
import { insideRanges, type TextRange } from '../parsing/languages';
import { entityKey } from '../sources/catalog/entityRef';
import { parseCatalogFile } from '../sources/catalog/parseCatalogFile';
import { parseFieldRef, relationFieldsOf } from '../sources/catalog/relationFields';
import { extractEntityRefs, type RawEntityRef } from '../sources/epics';

export type MentionVia = 'field' | 'name' | 'text';

export interface EntityMention {
  /** 1-based line. */
  line: number;
  /** 1-based column of the first character, and just past the last (UTF-16 code units). */
  column: number;
  endColumn: number;
  /** The ref as written. */
  written: string;
  /** The entity it names, or null when the written value is not a valid ref in its field. */
  key: EntityKey | null;
  /** Why `key` is null. */
  error?: string;
  via: MentionVia;
  /** For `field` and `name`: the entity whose field it is, and the field (`spec.owner`). */
  entity?: EntityKey;
  field?: string;
  /** For `field`: the kind a kindless value defaults to there (undefined: the kind is required). */
  defaultKind?: string;
}

/** True for paths read as catalog YAML (relation fields and declarations), besides their text refs. */
export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

export interface FindMentionsOptions {
  /**
   * Where text refs count in a source file: its comments and strings. Default: found now
   * (tree-sitter when its grammar is already loaded, else the plain scanner). Null: the whole text
   * counts. Ignored for YAML, whose text refs count anywhere.
   */
  commentsAndStrings?: readonly TextRange[] | null;
}

/**
 * Every entity mention in `text`, in text order. `path` decides whether the text is read as
 * catalog YAML (`.yaml`/`.yml`) or as source code whose refs count only in comments and strings
 * (by extension; see parsing/languages.ts); it is not read from disk.
 */
export function findEntityMentions(path: string, text: string, options: FindMentionsOptions = {}): EntityMention[] {
  const refs = extractEntityRefs(text);
  let ranges: readonly TextRange[] | null = null;
  if (refs.length > 0 && !isYamlPath(path)) {
    ranges =
      options.commentsAndStrings !== undefined
        ? options.commentsAndStrings
        : sourceCommentAndStringRangesNow(path, text);
  }
  return mentionsOf(path, text, refs, ranges);
}

/**
 * {@link findEntityMentions}, waiting for tree-sitter to load on the first source file of a
 * language rather than answering from the plain scanner meanwhile.
 */
export async function findEntityMentionsAsync(path: string, text: string): Promise<EntityMention[]> {
  const refs = extractEntityRefs(text);
  const ranges = refs.length > 0 && !isYamlPath(path) ? await sourceCommentAndStringRanges(path, text) : null;
  return mentionsOf(path, text, refs, ranges);
}

function mentionsOf(
  path: string,
  text: string,
  refs: readonly RawEntityRef[],
  ranges: readonly TextRange[] | null,
): EntityMention[] {
  const lines = text.split('\n');
  const structured = isYamlPath(path) ? catalogMentions(path, text, lines) : [];
  const taken = new Set(structured.map((m) => `${m.line}:${m.column}`));
  const mentions = [...structured];
  for (const ref of refs) {
    if (ranges && !insideRanges(ranges, ref.offset, ref.offset + ref.text.length)) continue;
    if (overlapsAny(structured, ref.line, ref.column, ref.endColumn) || taken.has(`${ref.line}:${ref.column}`))
      continue;
    mentions.push({
      line: ref.line,
      column: ref.column,
      endColumn: ref.endColumn,
      written: ref.text,
      key: entityKey({ kind: ref.kind, namespace: ref.namespace, name: ref.name }),
      via: 'text',
    });
  }
  return mentions.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The mention under a 1-based line and column (a cursor just past the last character counts). */
export function mentionAt(mentions: readonly EntityMention[], line: number, column: number): EntityMention | undefined {
  return mentions.find((m) => m.line === line && column >= m.column && column <= m.endColumn);
}

function overlapsAny(mentions: readonly EntityMention[], line: number, column: number, endColumn: number): boolean {
  return mentions.some((m) => m.line === line && column < m.endColumn && m.column < endColumn);
}

function catalogMentions(path: string, text: string, lines: readonly string[]): EntityMention[] {
  const parsed = parseCatalogFile(path, text);
  const mentions: EntityMention[] = [];
  for (const { entity, lines: fieldLines } of parsed.entities) {
    const nameLine = fieldLines['metadata.name'];
    if (nameLine !== undefined) {
      const token = valueTokens(lines[nameLine - 1] ?? '').find((t) => t.text === entity.name);
      if (token)
        mentions.push({
          line: nameLine,
          column: token.start + 1,
          endColumn: token.end + 1,
          written: token.text,
          key: entity.key,
          via: 'name',
          entity: entity.key,
          field: 'metadata.name',
        });
    }
    for (const field of relationFieldsOf(entity.kind)) {
      const fieldPath = `spec.${field.key}`;
      const fieldLinesOf = new Set<number>();
      for (const [printed, line] of Object.entries(fieldLines)) {
        if (
          printed === fieldPath ||
          (printed.startsWith(`${fieldPath}[`) && /^\[\d+\]$/.test(printed.slice(fieldPath.length)))
        )
          fieldLinesOf.add(line);
      }
      for (const line of [...fieldLinesOf].sort((a, b) => a - b)) {
        for (const token of valueTokens(lines[line - 1] ?? '')) {
          const ref = parseFieldRef(token.text, field, entity.namespace);
          mentions.push({
            line,
            column: token.start + 1,
            endColumn: token.end + 1,
            written: token.text,
            key: ref.ok ? entityKey(ref.value) : null,
            ...(ref.ok ? {} : { error: ref.error }),
            via: 'field',
            entity: entity.key,
            field: fieldPath,
            ...(field.defaultKind ? { defaultKind: field.defaultKind } : {}),
          });
        }
      }
    }
  }
  return mentions;
}

/** A scalar on a line: its text and 0-based start and end (exclusive) columns. */
export interface ValueToken {
  text: string;
  start: number;
  end: number;
}

/**
 * The scalar values written on one YAML line: after `key:` or a `- ` list marker, split at flow
 * punctuation (`[`, `]`, `,`), quotes and spaces, before any ` #` comment. A line with only a key
 * (`dependsOn:` opening a block list) has none.
 */
export function valueTokens(line: string): ValueToken[] {
  let start = 0;
  const item = /^\s*-(\s+|$)/.exec(line);
  if (item) start = item[0].length;
  const key = /^\s*[A-Za-z0-9_.-]+\s*:(\s+|$)/.exec(line.slice(start));
  if (key) start += key[0].length;
  const end = commentStart(line, start);
  const tokens: ValueToken[] = [];
  for (const match of line.slice(start, end).matchAll(/[^\s,[\]{}"']+/g)) {
    const at = start + (match.index ?? 0);
    tokens.push({ text: match[0], start: at, end: at + match[0].length });
  }
  return tokens;
}

/** Where a YAML comment starts on the line (a `#` at the start or after a space, outside quotes). */
function commentStart(line: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return i;
    }
  }
  return line.length;
}
