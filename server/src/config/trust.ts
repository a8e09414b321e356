/**
 * Which settings a workspace may choose for itself.
 *
 * The workspace is untrusted input: a cloned repository's `.wsctx.yaml` was written by whoever
 * wrote the repository. Settings that send data off the machine (where embeddings are computed,
 * and with them every section, every question and the user's API key) or read outside the served
 * folders (the private notes folder) are the user's to choose: they come from the user's own
 * settings (`~/.config/wsctx/config.yaml`, the editor's user settings), flags or environment,
 * never from the workspace's file. A workspace file that sets one gets a warning naming the key,
 * and its value is not used; the user's value, if any, stands.
 *
 * What a workspace may still set: everything that stays on the machine and inside the served
 * folders (source globs, the judge, budgets, the vector index, the organisation's name), and
 * `embeddings.provider: local` or `off` (which send nothing anywhere).
 */
import type { ConfigProblem, WorkspaceConfig } from './workspaceConfig';

/** A setting only the user may choose (or, for `refuses`, only some of its values). */
interface UserOnlySetting {
  key: string;
  /** True when a workspace may not set this value. */
  refuses(value: unknown): boolean;
  /** What the value would make the tool do, for the warning. */
  why: string;
  /** Where the user sets it instead. */
  instead: string;
}

export const USER_ONLY_SETTINGS: readonly UserOnlySetting[] = [
  {
    key: 'embeddings.provider',
    refuses: (value) => value === 'openai',
    why: 'openai sends every section and every question to an embeddings endpoint',
    instead: '--embeddings openai or $WSCTX_EMBEDDINGS',
  },
  {
    key: 'embeddings.baseUrl',
    refuses: () => true,
    why: 'it names the endpoint sections, questions and your API key are sent to',
    instead: '--embeddings-url',
  },
  {
    key: 'embeddings.model',
    refuses: () => true,
    why: 'it chooses the model an embeddings endpoint runs on your data',
    instead: '--embeddings-model',
  },
  {
    key: 'privateNotes.folder',
    refuses: (value) => value !== '',
    why: 'it reads a folder outside the workspace as your own private notes',
    instead: '--private-notes',
  },
];

const BY_KEY = new Map(USER_ONLY_SETTINGS.map((setting) => [setting.key, setting]));

/**
 * The workspace's config without the values it may not set, and one warning (as a config
 * problem: file, line, key, message) per value left out. `userFile` names the user's own
 * configuration file in the warning.
 */
export function withoutUserOnlySettings(
  config: WorkspaceConfig,
  userFile: string,
): { config: WorkspaceConfig; refused: ConfigProblem[] } {
  const refused: ConfigProblem[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config.values)) {
    const setting = BY_KEY.get(key);
    if (!setting?.refuses(value)) {
      values[key] = value;
      continue;
    }
    refused.push({
      path: config.path ?? '',
      line: config.lines?.[key] ?? 1,
      key,
      message: `not used: a workspace's own file may not set it (${setting.why}); set it in your own settings instead (${userFile}, ${setting.instead}, or the editor's user settings)`,
    });
  }
  return { config: { ...config, values }, refused };
}
