/**
 * A change as `get_context` takes it (`changes`: `changedPaths`, or a unified `diff`) turned into
 * the workspace paths it touches, as every answer prints them: relative to the served folder,
 * with the folder's name in front when several are served.
 *
 * A path may be given relative to its folder or with the folder's name in front; with several
 * folders an unprefixed path is placed in the one folder whose indexed files start as it does.
 * A path that is absolute, leaves its folder (`..`) or cannot be placed is refused with an error
 * naming the field (`changes.changedPaths[2]`, `changes.diff`, with the diff's line).
 */
import { InputError, type IndexState, usesFolderPrefix } from '../../../engine';
import { parseUnifiedDiff, type ChangeStatus } from './unifiedDiff';

/** The most paths one change may name (a diff's files count too). */
export const MAX_CHANGED_PATHS = 5000;
/** The longest diff accepted, in characters (about 2 MB); past it, pass changedPaths instead. */
export const MAX_DIFF_CHARS = 2_000_000;
/** The longest path accepted, in characters. */
export const MAX_PATH_CHARS = 1024;

export interface ChangeRequest {
  changedPaths?: readonly string[];
  diff?: string;
}

export interface ChangedFile {
  /** Workspace-relative path. */
  path: string;
  /** `changed` when only the path was given. */
  status: ChangeStatus | 'changed';
  /** For a rename: the path it had (also listed as a file of its own, `deleted`). */
  oldPath?: string;
  added?: number;
  removed?: number;
  binary?: boolean;
  /** Lines added (new side) and removed (old side), from a diff; absent for a path alone. */
  lines?: { added: [number, number][]; removed: [number, number][] };
}

export interface ReadChange {
  files: ChangedFile[];
  /** What the diff held that could not be read (it still counted what it could). */
  problems: string[];
  /** Which input it came from. */
  from: 'changedPaths' | 'diff';
}

/** The files of a change, each on its workspace path. Throws {@link InputError} naming the field. */
export function readChange(request: ChangeRequest, state: IndexState): ReadChange {
  const hasPaths = request.changedPaths !== undefined;
  const hasDiff = request.diff !== undefined;
  if (hasPaths && hasDiff)
    throw new InputError('changes: give changedPaths or diff, not both (a diff already names its files)');
  if (!hasPaths && !hasDiff)
    throw new InputError('changes: give changedPaths (paths relative to a served folder) or diff (a unified diff)');
  const place = pathPlacer(state);
  if (hasPaths) {
    const given = request.changedPaths ?? [];
    if (given.length === 0) throw new InputError('changes.changedPaths: name at least one changed path');
    if (given.length > MAX_CHANGED_PATHS)
      throw new InputError(
        `changes.changedPaths: at most ${MAX_CHANGED_PATHS.toLocaleString('en-US')} paths (got ${given.length.toLocaleString('en-US')})`,
      );
    const files = new Map<string, ChangedFile>();
    given.forEach((raw, i) => {
      const path = place(raw, `changes.changedPaths[${i}]`);
      if (!files.has(path)) files.set(path, { path, status: 'changed' });
    });
    return { files: [...files.values()], problems: [], from: 'changedPaths' };
  }
  const diff = request.diff ?? '';
  if (diff.length > MAX_DIFF_CHARS)
    throw new InputError(
      `changes.diff: at most ${MAX_DIFF_CHARS.toLocaleString('en-US')} characters (got ${diff.length.toLocaleString('en-US')}); pass the changed files as changes.changedPaths instead`,
    );
  const parsed = parseUnifiedDiff(diff);
  if (parsed.files.length === 0)
    throw new InputError(
      `changes.diff: names no file; pass a unified diff as git diff prints it${parsed.problems.length > 0 ? ` (${parsed.problems[0]})` : ''}`,
    );
  if (parsed.files.length > MAX_CHANGED_PATHS)
    throw new InputError(`changes.diff: changes at most ${MAX_CHANGED_PATHS.toLocaleString('en-US')} files`);
  const files = new Map<string, ChangedFile>();
  for (const f of parsed.files) {
    const path = place(f.path, `changes.diff (file ${f.path})`);
    const file: ChangedFile = {
      path,
      status: f.status,
      added: f.added,
      removed: f.removed,
      ...(f.binary ? { binary: true } : {}),
      lines: { added: f.addedLines, removed: f.removedLines },
    };
    if (f.oldPath !== undefined) {
      const oldPath = place(f.oldPath, `changes.diff (file ${f.oldPath})`);
      file.oldPath = oldPath;
      if (!files.has(oldPath))
        files.set(oldPath, { path: oldPath, status: 'deleted', lines: { added: [], removed: f.removedLines } });
    }
    files.set(path, file);
  }
  return { files: [...files.values()], problems: parsed.problems, from: 'diff' };
}

/** Puts a given path on its workspace path, or throws naming `field`. */
function pathPlacer(state: IndexState): (raw: string, field: string) => string {
  const folders = state.folders;
  const prefixed = usesFolderPrefix(folders);
  const topNames = topSegments(state);
  return (raw, field) => {
    if (typeof raw !== 'string' || raw.trim() === '') throw new InputError(`${field}: a path is required`);
    if (raw.length > MAX_PATH_CHARS) throw new InputError(`${field}: at most ${MAX_PATH_CHARS} characters`);
    let path = raw
      .trim()
      .replace(/\\/g, '/')
      .replace(/^(\.\/)+/, '');
    if (path.startsWith('/') || /^[A-Za-z]:\//.test(path))
      throw new InputError(`${field}: "${raw}" is absolute; give it relative to a served folder`);
    path = path.replace(/\/+/g, '/').replace(/\/$/, '');
    if (path.split('/').some((s) => s === '..' || s === '.'))
      throw new InputError(`${field}: "${raw}" leaves its folder; give it relative to a served folder`);
    const [first] = path.split('/');
    if (!prefixed) {
      // `fernhill/x` on a served folder named fernhill: the folder's own name in front.
      const own = folders[0]?.name;
      if (own !== undefined && first === own && path.includes('/') && !topNames.has(first))
        return path.slice(own.length + 1);
      return path;
    }
    if (folders.some((f) => f.name === first) && path.includes('/')) return path;
    const holders = folders.filter((f) => topNames.has(`${f.name}/${first}`));
    if (holders.length === 1) return `${holders[0].name}/${path}`;
    const names = folders.map((f) => f.name).join(', ');
    throw new InputError(
      holders.length > 1
        ? `${field}: "${raw}" could be in ${holders.map((f) => f.name).join(' or ')}; put the folder's name in front (served: ${names})`
        : `${field}: "${raw}" is in no served folder; put the folder's name in front (served: ${names})`,
    );
  };
}

const tops = new WeakMap<IndexState, Set<string>>();

/** The first segment of every indexed path, and (with several folders) `folder/segment` too. */
function topSegments(state: IndexState): Set<string> {
  let set = tops.get(state);
  if (!set) {
    set = new Set<string>();
    const prefixed = usesFolderPrefix(state.folders);
    for (const path of state.fileDigests.keys()) {
      const parts = path.split('/');
      set.add(parts[0]);
      if (prefixed && parts.length > 1) set.add(`${parts[0]}/${parts[1]}`);
    }
    tops.set(state, set);
  }
  return set;
}
