/**
 * What `wsctx` runs with: the built-in defaults, the workspace's `.wsctx.yaml`
 * (config/workspaceConfig.ts) over them, and the command line's flags over both.
 *
 * The file is read from the first `--workspace` folder. A problem in it is bad input: the command
 * stops with exit code 1 and every problem on stderr as `file:line: key: message`, so a typo never
 * silently indexes the wrong files.
 */
import type { WorkspaceContextSettings } from '../../../shared/settings';
import { formatConfigProblem, layerSettings, readWorkspaceConfig } from '../config/workspaceConfig';
import { UsageError, type CliOptions } from './args';

const resolved = new WeakMap<CliOptions, WorkspaceContextSettings>();

/** The settings for this command line (computed once per parsed command line). */
export function cliSettings(options: CliOptions): WorkspaceContextSettings {
  const known = resolved.get(options);
  if (known) return known;
  const config = readWorkspaceConfig(options.workspaces[0]);
  if (config.problems.length > 0) {
    throw new UsageError(`${config.problems.length === 1 ? 'a problem' : `${config.problems.length} problems`} in the workspace configuration:\n${config.problems.map(formatConfigProblem).join('\n')}`);
  }
  const settings = layerSettings(config);
  if (options.catalogGlobs?.length) settings.sources.catalog = [...options.catalogGlobs];
  if (options.ignoreGlobs?.length) settings.sources.ignore = [...options.ignoreGlobs];
  resolved.set(options, settings);
  return settings;
}
