/**
 * Completion of entity refs in catalog relation fields (`owner:`, `system:`, `dependsOn:` items...).
 *
 * The buffer being typed in is usually not valid YAML yet (`owner: ` with nothing after it), so the
 * field is found from the text around the cursor rather than from a parse: the key on the cursor's
 * line, or for a list item the key that opens the list, directly under a top-level `spec:`, in a
 * YAML document whose `kind:` has that relation field (relationFields.ts). A field with a default
 * kind offers that kind's entities in the short form people write (`payments-team`); typing a kind
 * (`user:`) offers that kind's entities instead; a field without one (`dependsOn`) offers every
 * entity as `kind:name`.
 */
import { CompletionItemKind, type CompletionItem, type CompletionParams } from 'vscode-languageserver';
import { defaultKindForField, type CatalogEntity } from '../../engine';
import type { FeatureContext } from './context';

export interface FieldContext {
  kind: string;
  namespace: string;
  /** Key under `spec`. */
  field: string;
  defaultKind: string | undefined;
  /** 0-based character where the value being typed starts, and where it ends. */
  tokenStart: number;
  tokenEnd: number;
  /** The entity being edited (`metadata.name`), when written. */
  selfName?: string;
}

export async function completion(ctx: FeatureContext, params: CompletionParams): Promise<CompletionItem[] | null> {
  const uri = params.textDocument.uri;
  if (!/\.ya?ml$/i.test(uri)) return null;
  const state = ctx.state();
  const text = await ctx.documents.text(uri);
  if (!state || text === null) return null;
  const field = fieldContext(
    text.split('\n').map((l) => l.replace(/\r$/, '')),
    params.position.line,
    params.position.character,
  );
  if (!field) return null;
  const typed = text.split('\n')[params.position.line].slice(field.tokenStart, params.position.character);
  const typedKind = typed.includes(':') ? typed.slice(0, typed.indexOf(':')).toLowerCase() : undefined;

  const items: CompletionItem[] = [];
  for (const entity of state.entities) {
    if (field.selfName && entity.name === field.selfName && entity.kind.toLowerCase() === field.kind.toLowerCase())
      continue;
    const sameKind = !!field.defaultKind && entity.kind.toLowerCase() === field.defaultKind.toLowerCase();
    if (
      typedKind !== undefined ? entity.kind.toLowerCase() !== typedKind : field.defaultKind !== undefined && !sameKind
    )
      continue;
    const label = shortRef(entity, field.namespace, typedKind === undefined && sameKind);
    items.push({
      label,
      kind: CompletionItemKind.Reference,
      detail: entity.title ? `${entity.ref} · ${entity.title}` : entity.ref,
      ...(entity.description ? { documentation: entity.description } : {}),
      sortText: `${entity.kind.toLowerCase()}:${label.toLowerCase()}`,
      filterText: label,
      textEdit: {
        range: {
          start: { line: params.position.line, character: field.tokenStart },
          end: { line: params.position.line, character: field.tokenEnd },
        },
        newText: label,
      },
    });
  }
  return items.sort((a, b) => (a.sortText! < b.sortText! ? -1 : a.sortText! > b.sortText! ? 1 : 0));
}

/** The ref as people write it in that field: the name alone where kind and namespace default. */
function shortRef(entity: CatalogEntity, namespace: string, kindDefaulted: boolean): string {
  const name = entity.namespace === namespace.toLowerCase() ? entity.name : `${entity.namespace}/${entity.name}`;
  return kindDefaulted ? name : `${entity.kind.toLowerCase()}:${name}`;
}

const KEY_LINE = /^(\s*)([A-Za-z0-9_]+)\s*:(.*)$/;
const ITEM_LINE = /^(\s*)-(?:\s|$)/;
const SKIP_LINE = /^\s*(#.*)?$/;

/** The relation field the cursor is typing a value of, or null. 0-based line and character. */
export function fieldContext(lines: readonly string[], line: number, character: number): FieldContext | null {
  const current = lines[line] ?? '';
  const before = current.slice(0, character);
  const tokenStart = lastBoundary(before);
  const tokenEnd = tokenStart + (/^[^\s,[\]{}"'#]*/.exec(current.slice(tokenStart))?.[0].length ?? 0);
  const prefix = current.slice(0, tokenStart);

  let keyLine: number;
  let keyIndent: number;
  let key: string;
  const inline = /^(\s*)([A-Za-z0-9_]+)\s*:\s*(\[[^\]]*)?$/.exec(prefix);
  const item = /^(\s*)-\s+$/.exec(prefix);
  if (inline) {
    keyLine = line;
    keyIndent = inline[1].length;
    key = inline[2];
  } else if (item) {
    const itemIndent = item[1].length;
    let found: { line: number; indent: number; key: string } | undefined;
    for (let l = line - 1; l >= 0; l--) {
      const text = lines[l];
      if (SKIP_LINE.test(text)) continue;
      const listItem = ITEM_LINE.exec(text);
      if (listItem && listItem[1].length === itemIndent) continue;
      const keyMatch = KEY_LINE.exec(text);
      if (keyMatch && keyMatch[1].length <= itemIndent && keyMatch[3].trim() === '')
        found = { line: l, indent: keyMatch[1].length, key: keyMatch[2] };
      break;
    }
    if (!found) return null;
    ({ line: keyLine, indent: keyIndent, key } = found);
  } else {
    return null;
  }

  if (!underTopLevelSpec(lines, keyLine, keyIndent)) return null;
  const doc = documentAround(lines, line);
  const kind = doc.map((l) => /^kind\s*:\s*["']?([A-Za-z]+)/.exec(l)?.[1]).find(Boolean);
  if (!kind) return null;
  const field = defaultKindForField(kind, key);
  if (!field.found) return null;
  const namespace =
    doc.map((l) => /^\s+namespace\s*:\s*["']?([A-Za-z0-9._-]+)/.exec(l)?.[1]).find(Boolean) ?? 'default';
  const selfName = doc.map((l) => /^\s+name\s*:\s*["']?([A-Za-z0-9._-]+)/.exec(l)?.[1]).find(Boolean);
  return {
    kind,
    namespace,
    field: key,
    defaultKind: field.defaultKind,
    tokenStart,
    tokenEnd,
    ...(selfName ? { selfName } : {}),
  };
}

function lastBoundary(before: string): number {
  for (let i = before.length - 1; i >= 0; i--) if (/[\s,[\]{}"']/.test(before[i])) return i + 1;
  return 0;
}

function underTopLevelSpec(lines: readonly string[], keyLine: number, keyIndent: number): boolean {
  if (keyIndent === 0) return false;
  for (let l = keyLine - 1; l >= 0; l--) {
    const text = lines[l];
    if (SKIP_LINE.test(text)) continue;
    const indent = text.length - text.trimStart().length;
    if (indent >= keyIndent) continue;
    return indent === 0 && /^spec\s*:\s*(#.*)?$/.test(text);
  }
  return false;
}

/** The lines of the YAML document (between `---` markers) holding `line`. */
function documentAround(lines: readonly string[], line: number): string[] {
  let start = line;
  while (start > 0 && !/^---/.test(lines[start - 1])) start--;
  let end = line;
  while (end + 1 < lines.length && !/^---/.test(lines[end + 1])) end++;
  return lines.slice(start, end + 1);
}
