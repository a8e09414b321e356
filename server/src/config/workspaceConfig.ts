/**
 * `.wsctx.yaml`: one configuration for every host (the CLI, `wsctx mcp`/`serve` and the language
 * server), at the root of the (first) workspace folder.
 *
 * Its keys are the editor's settings (shared/settings.ts) without the `workspaceContext.` prefix,
 * written nested or dotted:
 *
 * ```yaml
 * sources:
 *   catalog: ['**\/catalog-info.yaml', 'catalog/**\/*.yaml']
 *   ignore: ['**\/fixtures/**']
 * embeddings: { provider: off }
 * budgets.getContextMaxTokens: 8000
 * ```
 *
 * Every value is checked as the editor's settings are; an unknown key, a value of the wrong type
 * or out of range, or broken YAML is a problem naming the file, the line and the key, and that
 * key is not applied. Precedence, lowest first: built-in defaults, this file, then the host's own
 * settings (VS Code settings that differ from their default; CLI flags and environment).
 *
 * The file is read with `fs`, not through the engine (it decides what the engine reads), and a
 * symbolic link in its place is not followed: the configuration of a workspace lives in it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isMap, isScalar, LineCounter, type Node as YamlNode } from 'yaml';
import {
  MAX_SOURCE_GLOB_INSTRUCTIONS,
  parseDocumentBounded,
  resolveSourceGlobs,
  sourceGlobInstructions,
  type EngineSettings,
} from '../engine';
import { readConfigFileText } from './configFileRead';
import {
  checkSetting,
  DEFAULT_SETTINGS,
  flattenSettings,
  SETTING_SPECS,
  type SettingSpec,
  type SourceGlobSettings,
  type WorkspaceContextSettings,
} from '../../../shared/settings';

/** The file's name, at a workspace folder's root. */
export const CONFIG_FILE_NAME = '.wsctx.yaml';

export interface ConfigProblem {
  /** The config file's absolute path. */
  path: string;
  line: number;
  /** The dotted key concerned (`sources.catalog`), or '' for the file as a whole. */
  key: string;
  message: string;
}

export interface WorkspaceConfig {
  /** Absolute path of the file read, or null when there is none. */
  path: string | null;
  /** Checked values by dotted key, only the keys the file sets. */
  values: Readonly<Record<string, unknown>>;
  /** The line of each value in `values` (config/trust.ts names it when it refuses one). */
  lines?: Readonly<Record<string, number>>;
  problems: ConfigProblem[];
}

const SPEC_BY_KEY = new Map<string, SettingSpec>(SETTING_SPECS.map((spec) => [spec.key, spec]));
const TOP_LEVEL = [...new Set(SETTING_SPECS.map((spec) => spec.key.split('.')[0]))];

/** True when some setting's key starts with `prefix.`. */
function isGroup(prefix: string): boolean {
  return SETTING_SPECS.some((spec) => spec.key.startsWith(`${prefix}.`));
}

function keysUnder(prefix: string): string[] {
  const depth = prefix === '' ? 0 : prefix.split('.').length;
  const below = SETTING_SPECS.filter((spec) => prefix === '' || spec.key.startsWith(`${prefix}.`)).map(
    (spec) => spec.key.split('.')[depth],
  );
  return [...new Set(below)];
}

/** Parses and checks the text of a config file; `file` names it in problems. Never throws. */
export function parseWorkspaceConfig(file: string, text: string): WorkspaceConfig {
  const lineCounter = new LineCounter();
  const values: Record<string, unknown> = {};
  const lines: Record<string, number> = {};
  const problems: ConfigProblem[] = [];
  const lineOf = (node: YamlNode | null | undefined, fallback = 1) =>
    node?.range ? lineCounter.linePos(node.range[0]).line : fallback;
  const doc = parseDocumentBounded(text, { lineCounter, merge: false, prettyErrors: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const line = error.linePos?.[0].line ?? 1;
    problems.push({
      path: file,
      line,
      key: '',
      message: `YAML error: ${error.message.split('\n')[0]}; the file is not applied`,
    });
    return { path: file, values, problems };
  }
  if (doc.contents === null) return { path: file, values, problems };
  if (!isMap(doc.contents)) {
    problems.push({
      path: file,
      line: lineOf(doc.contents as YamlNode),
      key: '',
      message: `expected a mapping of settings (${TOP_LEVEL.join(', ')})`,
    });
    return { path: file, values, problems };
  }
  // The source globs run as one automaton over every path (engine/workspace/globBudget.ts): a
  // key whose globs would take them past their budget, with the defaults of the keys left out,
  // is not applied, in the file's order.
  const sources: Record<string, string[]> = {};
  const withinGlobBudget = (key: string, globs: string[]): string | undefined => {
    const role = key.slice('sources.'.length);
    const total = sourceGlobInstructions(resolveSourceGlobs({ ...sources, [role]: globs }));
    if (total > MAX_SOURCE_GLOB_INSTRUCTIONS)
      return `these globs would take the source globs to ${total.toLocaleString('en-US')} automaton instructions, past the ${MAX_SOURCE_GLOB_INSTRUCTIONS.toLocaleString('en-US')} one pass may run over every file; write fewer alternatives, or fewer globs`;
    sources[role] = globs;
    return undefined;
  };
  const visit = (map: YamlNode, prefix: string): void => {
    if (!isMap(map)) return;
    for (const pair of map.items) {
      const keyNode = pair.key as YamlNode;
      const name = isScalar(keyNode) ? String(keyNode.value) : '';
      const key = prefix ? `${prefix}.${name}` : name;
      const line = lineOf(keyNode);
      const valueNode = pair.value as YamlNode | null;
      const spec = SPEC_BY_KEY.get(key);
      if (spec) {
        let checked = checkSetting(spec, valueNode ? (valueNode as { toJSON(): unknown }).toJSON() : null);
        if (checked.ok && spec.type === 'globs' && key.startsWith('sources.')) {
          const over = withinGlobBudget(key, checked.value as string[]);
          if (over) checked = { ok: false, error: over };
        }
        if (checked.ok) {
          values[key] = checked.value;
          lines[key] = lineOf(valueNode, line);
        } else
          problems.push({ path: file, line: lineOf(valueNode, line), key, message: `${checked.error}; not applied` });
        continue;
      }
      if (isGroup(key)) {
        if (isMap(valueNode)) visit(valueNode, key);
        else problems.push({ path: file, line, key, message: `expected a mapping of ${keysUnder(key).join(', ')}` });
        continue;
      }
      const known = keysUnder(prefix);
      problems.push({
        path: file,
        line,
        key,
        message: `unknown setting; ${prefix ? `${prefix} holds` : 'the file holds'} ${known.join(', ')}`,
      });
    }
  };
  visit(doc.contents, '');
  return { path: file, values, lines, problems };
}

/**
 * Reads `.wsctx.yaml` at `folder`'s root. No file: no values, no problems. A symbolic link or a
 * file that cannot be read is a problem.
 */
export function readWorkspaceConfig(folder: string): WorkspaceConfig {
  const file = path.join(folder, CONFIG_FILE_NAME);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return { path: null, values: {}, problems: [] };
  }
  if (!stat.isFile()) {
    const what = stat.isSymbolicLink() ? 'a symbolic link, which is not followed' : 'not a file';
    return {
      path: file,
      values: {},
      problems: [{ path: file, line: 1, key: '', message: `${CONFIG_FILE_NAME} is ${what}; it is not applied` }],
    };
  }
  try {
    return parseWorkspaceConfig(file, readConfigFileText(file));
  } catch (e) {
    return {
      path: file,
      values: {},
      problems: [{ path: file, line: 1, key: '', message: `could not be read: ${(e as Error).message}` }],
    };
  }
}

/** `file:line: key: message`, as hosts print config problems. */
export function formatConfigProblem(problem: ConfigProblem): string {
  return `${problem.path}:${problem.line}: ${problem.key ? `${problem.key}: ` : ''}${problem.message}`;
}

function setDotted(target: WorkspaceContextSettings, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = target as unknown as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts[parts.length - 1]] = value;
}

/**
 * The settings a host runs with: the defaults, the config file's values over them, then `host`'s
 * values over those. A host value equal to its default counts as not set (VS Code hands the
 * server every setting, defaults included), so the file decides it.
 */
export function layerSettings(config: WorkspaceConfig, host?: WorkspaceContextSettings): WorkspaceContextSettings {
  const out = JSON.parse(JSON.stringify(DEFAULT_SETTINGS)) as WorkspaceContextSettings;
  for (const [key, value] of Object.entries(config.values)) setDotted(out, key, value);
  if (host) {
    const defaults = flattenSettings(DEFAULT_SETTINGS);
    for (const [key, value] of Object.entries(flattenSettings(host))) {
      if (JSON.stringify(value) !== JSON.stringify(defaults[key])) setDotted(out, key, value);
    }
  }
  return out;
}

/** The engine's source globs from the settings' `sources.*`. */
export function engineGlobsFrom(settings: WorkspaceContextSettings): Partial<EngineSettings> {
  const globs: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(settings.sources) as [keyof SourceGlobSettings, string[]][])
    globs[key] = [...value];
  return { globs };
}
