/**
 * Library namespaces: the first folder under `.context/` ('' for pages at its top and for the
 * instruction files agents keep elsewhere: AGENTS.md, CLAUDE.md, Copilot and Cursor files).
 *
 * A namespace is described by the `folder.yaml` at its root (`.context/<name>/folder.yaml`, or
 * `.context/folder.yaml` for the top): its description heads every map of it, and its `profile`
 * is the default of `search_instructions` for its documents. In a workspace with several
 * `.context` folders (one per repository), namespaces of the same name are one namespace; the
 * first description in path order wins and the `good_for` lists are merged.
 */
import type { Doc, FolderDescription } from '../../engine';
import { DEFAULT_PROFILE, type LibraryProfile } from './constants';

/** How the top namespace ('') is printed; `get_toc(namespace=".")` or `""` selects it. */
export const TOP_NAMESPACE_LABEL = '.';

export interface NamespaceInfo {
  /** '' for the top. */
  name: string;
  description?: string;
  goodFor: string[];
  profile: LibraryProfile;
  /** True when a `folder.yaml` set the profile. */
  profileDeclared: boolean;
  /** Ready documents in the namespace. */
  documentCount: number;
}

/** The printed name of a namespace. */
export function namespaceLabel(name: string): string {
  return name === '' ? TOP_NAMESPACE_LABEL : name;
}

/** The namespace a tool argument names: `.` and `''` are the top. */
export function namespaceFromArg(arg: string): string {
  const trimmed = arg
    .trim()
    .replace(/^\.context\//, '')
    .replace(/\/+$/, '');
  return trimmed === TOP_NAMESPACE_LABEL || trimmed === '.context' ? '' : trimmed;
}

/**
 * Every namespace that holds a ready document or has a description: the top first, then by name.
 * `docs` are the ready library documents.
 */
export function buildNamespaces(folders: readonly FolderDescription[], docs: readonly Doc[]): NamespaceInfo[] {
  const byName = new Map<string, NamespaceInfo>();
  const get = (name: string): NamespaceInfo => {
    let info = byName.get(name);
    if (!info) {
      info = { name, goodFor: [], profile: DEFAULT_PROFILE, profileDeclared: false, documentCount: 0 };
      byName.set(name, info);
    }
    return info;
  };
  const roots = [...folders].filter(isNamespaceRoot).sort((a, b) => compare(a.path, b.path));
  for (const folder of roots) {
    const info = get(folder.namespace);
    if (info.description === undefined && folder.description) info.description = folder.description;
    for (const phrase of folder.goodFor) if (!info.goodFor.includes(phrase)) info.goodFor.push(phrase);
    if (!info.profileDeclared && folder.profile) {
      info.profile = folder.profile;
      info.profileDeclared = true;
    }
  }
  for (const doc of docs) get(doc.library?.namespace ?? '').documentCount++;
  return [...byName.values()]
    .filter((info) => info.documentCount > 0 || info.description !== undefined)
    .sort((a, b) => (a.name === '' ? -1 : b.name === '' ? 1 : compare(a.name, b.name)));
}

/** A `folder.yaml` directly in `.context/` or in a first-level folder of it. */
function isNamespaceRoot(folder: FolderDescription): boolean {
  const segments = folder.folder.split('/');
  const last = segments[segments.length - 1];
  if (last === '.context') return folder.namespace === '';
  return segments[segments.length - 2] === '.context' && last === folder.namespace;
}

/** Code-unit order: the same on every machine and locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Title order: case-insensitive, runs of digits compared as numbers ("Card 2" before
 * "Card 10"), otherwise code-unit order, so it is the same on every machine and locale.
 */
export function naturalCompare(a: string, b: string): number {
  const x = a.toLowerCase().match(/\d+|\D+/g) ?? [];
  const y = b.toLowerCase().match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    const digits = /^\d/.test(x[i]) && /^\d/.test(y[i]);
    if (digits) {
      const diff = Number(x[i]) - Number(y[i]);
      if (diff !== 0) return diff;
    }
    return compare(x[i], y[i]);
  }
  return x.length - y.length;
}
