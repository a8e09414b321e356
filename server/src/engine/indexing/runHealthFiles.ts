/**
 * Each repository root's run-health file (sources/runHealth.ts) for an index pass: which file
 * holds it, found again only when the list of files or the roots changed, and its verdict read.
 */
import type { Problem } from '../model';
import { parseRunHealth, type RunHealth } from '../sources/runHealth';
import type { DiscoveredRoot, WorkspaceDiscovery } from '../workspace/discovery';
import { RootMap } from '../workspace/rootMap';
import type { FileTable } from './fileTable';

/**
 * Each repository root's last run verdict (sources/runHealth.ts): the first file in path order
 * that the `runHealth` globs matched in the repository (default `.wsctx/run-health.json`).
 */
export async function readRunHealth(
  roots: readonly DiscoveredRoot[],
  files: ReadonlyMap<string, string>,
  table: FileTable,
  problems: Problem[],
): Promise<Map<string, RunHealth>> {
  const health = new Map<string, RunHealth>();
  for (const root of roots) {
    const path = files.get(root.root);
    if (path === undefined) continue;
    const text = await table.readText(path);
    if (text === null) continue;
    const parsed = parseRunHealth(path, text);
    health.set(root.root, parsed.health);
    problems.push(...parsed.problems);
  }
  return health;
}

export interface RunHealthFiles {
  paths: readonly string[];
  roots: readonly DiscoveredRoot[];
  /** Root -> its run-health file. */
  files: Map<string, string>;
}

/**
 * Each root's run-health file: `last` again while the list of files and the roots are the same
 * (an update pass that adds or removes no file; a pass over every file costs ~8 ms at 100k).
 */
export function runHealthFiles(
  discovery: WorkspaceDiscovery,
  table: FileTable,
  last: RunHealthFiles | undefined,
): RunHealthFiles {
  const paths = table.list();
  if (last?.paths === paths && last.roots === discovery.roots) return last;
  const rootOf = new RootMap(discovery.roots);
  const files = new Map<string, string>();
  for (const path of paths) {
    if (!table.get(path)!.roles.includes('runHealth')) continue;
    const root = rootOf.innermost(path)?.root ?? '';
    if (!files.has(root)) files.set(root, path);
  }
  return { paths, roots: discovery.roots, files };
}
