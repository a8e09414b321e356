/**
 * What `wsctx` runs with: the built-in defaults, the workspace's `.wsctx.yaml`
 * (config/workspaceConfig.ts) over them, and the command line's flags over both.
 *
 * The file is read from the first `--workspace` folder. A problem in it is bad input: the command
 * stops with exit code 1 and every problem on stderr as `file:line: key: message`, so a typo never
 * silently indexes the wrong files.
 */
import { checkSetting, type WorkspaceContextSettings } from '../../../shared/settings';
import { formatConfigProblem, layerSettings, readWorkspaceConfig, type WorkspaceConfig } from '../config/workspaceConfig';
import { UsageError, type CliOptions } from './args';

const resolved = new WeakMap<CliOptions, WorkspaceContextSettings>();

/** The settings for this command line (computed once per parsed command line). */
export function cliSettings(options: CliOptions): WorkspaceContextSettings {
  const known = resolved.get(options);
  if (known) return known;
  const { config, settings } = layeredCliSettings(options);
  if (config.problems.length > 0) {
    throw new UsageError(`${config.problems.length === 1 ? 'a problem' : `${config.problems.length} problems`} in the workspace configuration:\n${config.problems.map(formatConfigProblem).join('\n')}`);
  }
  resolved.set(options, settings);
  return settings;
}

/**
 * The config file as read, and the settings with only its valid values applied (a problem's key
 * keeps its default). `wsctx doctor` reports the problems as checks and runs the rest with these.
 */
export function layeredCliSettings(options: CliOptions): { config: WorkspaceConfig; settings: WorkspaceContextSettings } {
  const config = readWorkspaceConfig(options.workspaces[0]);
  const settings = layerSettings(config);
  if (options.catalogGlobs?.length) settings.sources.catalog = checkedGlobs('--catalog-glob', options.catalogGlobs);
  if (options.ignoreGlobs?.length) settings.sources.ignore = checkedGlobs('--ignore', options.ignoreGlobs);
  return { config, settings };
}

/** A glob flag's values, checked as `sources.*` in the file are (length, supported syntax). */
function checkedGlobs(flag: string, globs: readonly string[]): string[] {
  const checked = checkSetting({ key: flag, type: 'globs', description: flag }, [...globs]);
  if (!checked.ok) throw new UsageError(`${flag} ${checked.error}`);
  return checked.value as string[];
}
