/**
 * Repository overviews (`repo_overview`): `overview.md`, in any letter case, at the root of a
 * repository (a git root or a workspace folder). The page describes the whole repository, so it
 * is attached to every entity declared in that repository; the caller knows which those are.
 */
import type { Doc, EntityKey, Problem } from '../model';
import type { FileSource } from '../workspace/fileSource';
import { buildDoc } from './docBuilder';
import { baseName, dirName } from './paths';

export interface OverviewInput {
  files: FileSource;
  /** Workspace-relative repository root ('' for the workspace folder itself). */
  repoRoot: string;
  /** Keys of every entity declared in the repository. */
  entityKeys: readonly EntityKey[];
  /** Workspace folder name. Default ''. */
  folder?: string;
}

export interface OverviewResult {
  /** Null when the repository has no overview. */
  doc: Doc | null;
  problems: Problem[];
}

/**
 * Which of a folder's overview files describes it: 0 for `overview.md`, 1 for any other (a
 * README), in any letter case. Lower wins; ties go to the first in path order.
 */
export function overviewPreference(path: string): number {
  return baseName(path).toLowerCase() === 'overview.md' ? 0 : 1;
}

/** True when `path` is an overview file directly in `repoRoot`. */
export function isOverviewPath(path: string, repoRoot: string): boolean {
  return dirName(path) === repoRoot && baseName(path).toLowerCase() === 'overview.md';
}

/**
 * Reads the repository's overview. When several files differ only in case (`Overview.md` and
 * `OVERVIEW.md`), the first in path order is read and the others are reported.
 */
export async function readRepoOverview(input: OverviewInput): Promise<OverviewResult> {
  const candidates = input.files.list().filter((path) => isOverviewPath(path, input.repoRoot));
  const problems: Problem[] = candidates.slice(1).map((path) => ({
    path,
    line: 1,
    severity: 'warning' as const,
    code: 'overview.duplicate',
    message: `Only one overview per repository is read; '${candidates[0]}' is used and this file is ignored.`,
    related: [{ path: candidates[0], line: 1, message: 'The overview in use' }],
  }));
  if (candidates.length === 0) return { doc: null, problems };
  const text = await input.files.readText(candidates[0]);
  if (text === null) return { doc: null, problems };
  const built = buildRepoOverview(candidates[0], text, input.entityKeys, input.folder);
  return { doc: built.doc, problems: [...problems, ...built.problems] };
}

/** Builds the overview document from text already read. */
export function buildRepoOverview(
  path: string,
  text: string,
  entityKeys: readonly EntityKey[],
  folder = '',
): { doc: Doc; problems: Problem[] } {
  return buildDoc({ path, text, sourceKind: 'repo_overview', format: 'markdown', folder, entityRefs: entityKeys });
}
