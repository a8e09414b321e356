/**
 * Where a `Location` entity's `spec.target` / `spec.targets` point, within the workspace.
 *
 * Backstage reads a file location's target relative to the Location's own file when it starts
 * with `.`, expands it as a glob, and reports "does not exist" when nothing matches (unless the
 * Location says `presence: optional`). Here every relative target (with or without `./`) is read
 * relative to the Location's file, since a workspace has no other sensible base; matching is
 * against the files the `FileSource` lists, so a file excluded by discovery counts as missing.
 * Remote targets (`https://...`, `url:...`) and absolute paths are never fetched or read: they are
 * reported as warnings.
 */
import { posix } from 'node:path';
import { filesUnder, type FileSource } from '../../workspace/fileSource';
import type { GlobBudget } from '../../workspace/globBudget';
import { compileGlobsMetered, globLiteralFolder, globSize, isGlobPattern } from '../../workspace/globMatch';

export type TargetResolution =
  /** Workspace-relative paths of the matched files, sorted. */
  | { kind: 'files'; paths: string[] }
  /** Nothing to read and nothing wrong with that (an optional target that is absent). */
  | { kind: 'none' }
  /** Not followed; `severity` says whether that is an error (a missing file) or a warning. */
  | { kind: 'problem'; severity: 'error' | 'warning'; code: string; message: string };

// Two or more scheme characters, so a Windows drive letter (`C:`) is not taken for a URL.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const ABSOLUTE = /^([\\/]|[A-Za-z]:[\\/])/;

/**
 * Resolves one target written in the Location declared in `fromPath`.
 * @param optional - the Location's `spec.presence` is `optional`: a missing target is no problem.
 * @param budget - the glob work left to this pass (globBudget.ts); a glob past it is not followed.
 */
export function resolveLocationTarget(
  fromPath: string,
  target: string,
  source: FileSource,
  optional = false,
  budget?: GlobBudget,
): TargetResolution {
  const quoted = JSON.stringify(target);
  if (SCHEME.test(target)) {
    return {
      kind: 'problem',
      severity: 'warning',
      code: 'catalog.location-remote-target',
      message: `Location target ${quoted} is remote; it is not fetched, only files in the workspace are read`,
    };
  }
  if (ABSOLUTE.test(target)) {
    return {
      kind: 'problem',
      severity: 'warning',
      code: 'catalog.location-absolute-target',
      message: `Location target ${quoted} is an absolute path; it is not read, write it relative to ${fromPath}`,
    };
  }
  const joined = posix.normalize(posix.join(posix.dirname(fromPath), target));
  if (joined === '..' || joined.startsWith('../')) {
    return {
      kind: 'problem',
      severity: 'warning',
      code: 'catalog.location-outside-workspace',
      message: `Location target ${quoted} points outside the workspace (${joined}); it is not read`,
    };
  }
  const isGlob = isGlobPattern(joined);
  const refuse = (why: string): TargetResolution => ({
    kind: 'problem',
    severity: 'warning',
    code: 'catalog.location-glob-refused',
    message: `Location target ${quoted.length > 120 ? `${quoted.slice(0, 117)}...` : quoted} is not read: ${why}`,
  });
  let paths: string[];
  if (isGlob) {
    // Sized before it is built, and linear in each path (globMatch.ts); tested only against the
    // files under its literal folder, within what this pass may still spend (globBudget.ts).
    const size = globSize(joined, { dot: false });
    if (!size.ok) return refuse(size.problem);
    const overBudget = budget?.compile(size.instructions);
    if (overBudget) return refuse(overBudget);
    const folder = globLiteralFolder(joined);
    const candidates = [...filesUnder(source, folder)];
    if (folder !== '' && source.has(folder)) candidates.push(folder);
    const glob = compileGlobsMetered([joined], { dot: false });
    paths = [];
    let charged = 0;
    for (const path of candidates) {
      if (glob.matches(path)) paths.push(path);
      const spent = budget?.work(glob.work() - charged);
      charged = glob.work();
      if (spent) return refuse(spent);
    }
    paths.sort();
  } else {
    paths = source.has(joined) ? [joined] : [];
  }
  if (paths.length > 0) return { kind: 'files', paths };
  if (optional) return { kind: 'none' };
  return {
    kind: 'problem',
    severity: 'error',
    code: 'catalog.location-missing-target',
    message: isGlob
      ? `Location target ${quoted} (${joined}) matches no file in the workspace`
      : `Location target ${quoted} (${joined}) does not exist in the workspace`,
  };
}
