/**
 * The user's own configuration file: `$XDG_CONFIG_HOME/wsctx/config.yaml`, else
 * `~/.config/wsctx/config.yaml`. Same keys and checks as `.wsctx.yaml` (workspaceConfig.ts), for
 * every workspace the user serves, and the one file that may hold the settings a workspace may
 * not choose (trust.ts): embeddings endpoints and models, the private notes folder.
 *
 * Precedence, lowest first: built-in defaults, this file, the workspace's `.wsctx.yaml` (less
 * what trust.ts refuses), then the host's own settings (flags and environment; the editor's).
 * A relative `privateNotes.folder` here is read from this file's folder.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readConfigFileText } from './configFileRead';
import { parseWorkspaceConfig, type WorkspaceConfig } from './workspaceConfig';

/** Where the user's configuration file is, for this environment. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(os.homedir(), '.config');
  return path.join(base, 'wsctx', 'config.yaml');
}

/** The user's configuration file as read and checked; no file, no values. Never throws. */
export function readUserConfig(env: NodeJS.ProcessEnv = process.env): WorkspaceConfig {
  const file = userConfigPath(env);
  if (!fs.existsSync(file)) return { path: null, values: {}, problems: [] };
  let text: string;
  try {
    text = readConfigFileText(file, { followLinks: true });
  } catch (error) {
    return {
      path: file,
      values: {},
      problems: [{ path: file, line: 1, key: '', message: `could not be read: ${(error as Error).message}` }],
    };
  }
  const config = parseWorkspaceConfig(file, text);
  const notes = config.values['privateNotes.folder'];
  if (
    typeof notes === 'string' &&
    notes !== '' &&
    notes !== '~' &&
    !notes.startsWith('~/') &&
    !path.isAbsolute(notes)
  ) {
    return { ...config, values: { ...config.values, 'privateNotes.folder': path.resolve(path.dirname(file), notes) } };
  }
  return config;
}

/** The user's file with the workspace's over it: one config for `layerSettings`. */
export function overUserConfig(user: WorkspaceConfig, workspace: WorkspaceConfig): WorkspaceConfig {
  return {
    path: workspace.path ?? user.path,
    values: { ...user.values, ...workspace.values },
    lines: { ...user.lines, ...workspace.lines },
    problems: [...user.problems, ...workspace.problems],
  };
}
