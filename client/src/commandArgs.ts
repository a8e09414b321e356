/**
 * What the two commands that trusted Markdown and code lenses run may be given.
 *
 * Hovers and code lenses are built from workspace text, and VS Code runs their `command:` links
 * with the arguments written in the link. Shared/markdown.ts keeps workspace text from writing a
 * link; these checks are the second wall: `expandEntity` takes an entity ref, a direction and a
 * depth, and `showEntityDocs` an entity ref and workspace-relative paths, never a URI, so no
 * argument can open a file outside the served folders or anything that is not a file.
 *
 * Imports no `vscode`: commands.ts runs these before acting, and unit tests run them as they are.
 */
import type { ExpandEntityArgs, ShowEntityDocsArgs } from '../../shared/protocol';

/** Longest entity ref accepted (the tools' published maximum). */
const MAX_REF_LENGTH = 512;
/** Most documents one `showEntityDocs` lists. */
const MAX_DOCS = 500;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** An entity ref as written: `[kind:][namespace/]name`, one line, no URI scheme of its own. */
export function isEntityRef(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_REF_LENGTH &&
    /^(?:[A-Za-z][\w-]*:)?(?:[\w.-]+\/)?[\w.-]+$/.test(value)
  );
}

/**
 * A path relative to a workspace folder that stays inside it: forward slashes, no empty, `.` or
 * `..` segment, no drive letter, no scheme, no control character.
 */
export function isWorkspaceRelativePath(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || value.length > 4096) return false;
  if (value.startsWith('/') || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) return false;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
  return value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function checkExpandArgs(value: unknown): Checked<ExpandEntityArgs> {
  const args = value as Partial<ExpandEntityArgs> | undefined;
  if (!args || typeof args !== 'object') return { ok: false, error: 'expected the entity to expand' };
  if (!isEntityRef(args.entityRef)) return { ok: false, error: 'entityRef: expected an entity ref' };
  if (args.direction !== 'out' && args.direction !== 'in' && args.direction !== 'both')
    return { ok: false, error: 'direction: expected out, in or both' };
  if (!Number.isInteger(args.depth) || args.depth! < 1 || args.depth! > 3)
    return { ok: false, error: 'depth: expected 1, 2 or 3' };
  if (
    args.edgeTypes !== undefined &&
    !(
      Array.isArray(args.edgeTypes) &&
      args.edgeTypes.length <= 40 &&
      args.edgeTypes.every((t) => typeof t === 'string' && /^[A-Za-z]{1,40}$/.test(t))
    )
  ) {
    return { ok: false, error: 'edgeTypes: expected relation names' };
  }
  return {
    ok: true,
    value: {
      entityRef: args.entityRef,
      direction: args.direction,
      depth: args.depth!,
      ...(args.edgeTypes ? { edgeTypes: [...args.edgeTypes] } : {}),
    },
  };
}

export function checkEntityDocsArgs(value: unknown): Checked<ShowEntityDocsArgs> {
  const args = value as Partial<ShowEntityDocsArgs> | undefined;
  if (!args || typeof args !== 'object' || !isEntityRef(args.entityRef))
    return { ok: false, error: 'entityRef: expected an entity ref' };
  if (!Array.isArray(args.docs) || args.docs.length > MAX_DOCS)
    return { ok: false, error: 'docs: expected a list of documents' };
  const docs: ShowEntityDocsArgs['docs'] = [];
  for (const doc of args.docs as unknown[]) {
    const d = doc as Partial<ShowEntityDocsArgs['docs'][number]> | null;
    if (!d || typeof d.title !== 'string' || typeof d.sourceKind !== 'string')
      return { ok: false, error: 'docs: expected a title and a kind for each document' };
    if (!isWorkspaceRelativePath(d.path))
      return {
        ok: false,
        error: `docs: ${JSON.stringify(String(d.path).slice(0, 80))} is not a path inside the workspace`,
      };
    docs.push({ title: d.title.slice(0, 300), path: d.path, sourceKind: d.sourceKind.slice(0, 40) });
  }
  return { ok: true, value: { entityRef: args.entityRef, docs } };
}
