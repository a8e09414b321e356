/**
 * What `wsctx` runs with: the built-in defaults, the user's own configuration file
 * (config/userConfig.ts), the workspace's `.wsctx.yaml` (config/workspaceConfig.ts) over them less
 * what a workspace may not choose (config/trust.ts), and the command line's flags over all.
 *
 * The workspace file is read from the first `--workspace` folder. A problem in either file is bad
 * input: the command stops with exit code 1 and every problem on stderr as
 * `file:line: key: message`, so a typo never silently indexes the wrong files. A setting the
 * workspace may not choose is a warning on stderr in the same form, and the command goes on
 * without it.
 */
import { checkSetting, type WorkspaceContextSettings } from '../../../shared/settings';
import { withoutUserOnlySettings } from '../config/trust';
import { overUserConfig, readUserConfig, userConfigPath } from '../config/userConfig';
import {
  formatConfigProblem,
  layerSettings,
  readWorkspaceConfig,
  type ConfigProblem,
  type WorkspaceConfig,
} from '../config/workspaceConfig';
import { UsageError, type CliOptions } from './args';

const resolved = new WeakMap<CliOptions, WorkspaceContextSettings>();

/** The settings for this command line (computed once per parsed command line). */
export function cliSettings(options: CliOptions): WorkspaceContextSettings {
  const known = resolved.get(options);
  if (known) return known;
  const { config, user, refused, settings } = layeredCliSettings(options);
  const problems = [...user.problems, ...config.problems];
  if (problems.length > 0) {
    const which = user.problems.length > 0 ? 'the configuration' : 'the workspace configuration';
    throw new UsageError(
      `${problems.length === 1 ? 'a problem' : `${problems.length} problems`} in ${which}:\n${problems.map(formatConfigProblem).join('\n')}`,
    );
  }
  for (const warning of refused) process.stderr.write(`wsctx: warning: ${formatConfigProblem(warning)}\n`);
  resolved.set(options, settings);
  return settings;
}

/**
 * The workspace's config file as read (less the values it may not set, which are `refused`), the
 * user's own, and the settings with only their valid values applied (a problem's key keeps its
 * default). `wsctx doctor` reports the problems as checks and runs the rest with these.
 */
export function layeredCliSettings(options: CliOptions): {
  config: WorkspaceConfig;
  user: WorkspaceConfig;
  refused: ConfigProblem[];
  settings: WorkspaceContextSettings;
} {
  const user = readUserConfig();
  const { config, refused } = withoutUserOnlySettings(readWorkspaceConfig(options.workspaces[0]), userConfigPath());
  const settings = layerSettings(overUserConfig(user, config));
  if (options.catalogGlobs?.length) settings.sources.catalog = checkedGlobs('--catalog-glob', options.catalogGlobs);
  if (options.ignoreGlobs?.length) settings.sources.ignore = checkedGlobs('--ignore', options.ignoreGlobs);
  return { config, user, refused, settings };
}

/** A glob flag's values, checked as `sources.*` in the file are (length, supported syntax). */
function checkedGlobs(flag: string, globs: readonly string[]): string[] {
  const checked = checkSetting({ key: flag, type: 'globs', description: flag }, [...globs]);
  if (!checked.ok) throw new UsageError(`${flag} ${checked.error}`);
  return checked.value as string[];
}
