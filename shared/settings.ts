/**
 * The extension's settings, declared once for both sides: the type, the defaults and a normaliser.
 *
 * `package.json` contributes each key below under the `workspaceContext.` prefix (shared/ids.ts
 * `SETTINGS_PREFIX`) with the same default; the client reads them with
 * `workspace.getConfiguration('workspaceContext')` and the language server pulls the same section
 * over `workspace/configuration`. Both hand what they read to {@link normalizeSettings}, so a
 * missing or mistyped value falls back to its default with a message naming the setting instead of
 * reaching the engine.
 *
 * Adding a setting: add it to {@link WorkspaceContextSettings}, {@link DEFAULT_SETTINGS} and
 * {@link SETTING_SPECS} here, contribute it in package.json with the same default, and map it in
 * the reader that uses it (server/src/lsp/settingsReader.ts for the server).
 *
 * Imports nothing: the client and the server both compile against this file.
 */

/** Source globs, one list per source role, as the engine's `SourceGlobs` names them. */
export interface SourceGlobSettings {
  catalog: string[];
  overview: string[];
  epics: string[];
  library: string[];
  agentsMd: string[];
  copilotInstructions: string[];
  instructionFiles: string[];
  claudeMd: string[];
  cursorRules: string[];
  windsurfRules: string[];
  techdocs: string[];
  docs: string[];
  siteNav: string[];
  markdown: string[];
  catalogTargets: string[];
  placeholderTargets: string[];
  runHealth: string[];
  ignore: string[];
}

export type EmbeddingsProvider = 'local' | 'openai' | 'off';
export type LocalEmbeddingModel = 'minilm' | 'use-lite';
/** `gate`: the judge's answers apply; `shadow`: logged only; `off`: heuristics only. */
export type JudgeMode = 'gate' | 'shadow' | 'off';

export interface WorkspaceContextSettings {
  sources: SourceGlobSettings;
  embeddings: {
    provider: EmbeddingsProvider;
    localModel: LocalEmbeddingModel;
    /** OpenAI-compatible endpoint, `POST {baseUrl}/embeddings`. */
    baseUrl: string;
    model: string;
  };
  judge: { mode: JudgeMode };
  budgets: {
    /** `get_context`'s default `max_tokens`. Default 12,000; range 1,000..30,000. */
    getContextMaxTokens: number;
    /** Passages the editor's search asks `workspace_context` for. Default 10; range 1..50. */
    contextPassages: number;
    /** Edges the editor's expand asks `workspace_expand` for. Default 50; range 1..100. */
    expandEdges: number;
  };
  mcp: { http: { enabled: boolean } };
  /**
   * The user's own Markdown notes, searched by get_context for the user's own connections only:
   * an absolute folder outside the workspace (`~/` for the home folder). '' (default): none.
   */
  privateNotes: { folder: string };
  /** The name in get_context's "Instructions from the <organization> team". '' (default): the first workspace folder's name. */
  organization: string;
  /**
   * The nearest-neighbour index over the section vectors: `hnsw` (default) the built-in HNSW graph
   * over the int8 vectors (each vector held once), `hnswlib` hnswlib-node (a float32 copy of every
   * vector besides), `exact` a cosine scan of every vector.
   */
  vectorIndex: VectorIndexSetting;
}

export type VectorIndexSetting = 'hnsw' | 'hnswlib' | 'exact';

/** The engine's own defaults (server/src/engine/workspace/globs.ts), repeated for the manifest. */
export const DEFAULT_SOURCE_GLOBS: Readonly<SourceGlobSettings> = Object.freeze({
  catalog: ['**/catalog-info.{yaml,yml}'],
  overview: ['overview.md', '**/README.md'],
  epics: ['**/epics/**/*.md', '**/*.epic.md'],
  library: ['**/.context/**'],
  agentsMd: ['**/AGENTS.md'],
  copilotInstructions: ['**/.github/copilot-instructions.md'],
  instructionFiles: ['**/.github/instructions/**/*.instructions.md'],
  claudeMd: ['**/CLAUDE.md'],
  cursorRules: ['**/.cursor/rules/**/*.mdc'],
  windsurfRules: ['**/.windsurf/rules/**/*.md'],
  techdocs: ['**/mkdocs.yml', '**/mkdocs.yaml'],
  docs: ['**/*.{md,markdown,mdx,rst,adoc}'],
  siteNav: [
    '**/sidebars.{js,cjs,mjs,ts,cts,mts,json}',
    '**/_category_.{json,yml,yaml}',
    '**/SUMMARY.md',
    '**/book.toml',
    '**/.gitbook.{yaml,yml}',
    '**/antora.{yml,yaml}',
    '**/modules/*/*.adoc',
    '**/.pages',
    '**/.pages.{yml,yaml}',
    '**/.nav.{yml,yaml}',
  ],
  markdown: ['**/*.md'],
  catalogTargets: ['**/*.{yaml,yml}'],
  placeholderTargets: ['**/*.{json,proto,graphql,gql,avsc,avdl,thrift,wsdl,raml}'],
  runHealth: ['.wsctx/run-health.json'],
  ignore: [],
});

export const DEFAULT_SETTINGS: Readonly<WorkspaceContextSettings> = Object.freeze({
  sources: DEFAULT_SOURCE_GLOBS,
  embeddings: {
    provider: 'local',
    localModel: 'minilm',
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'nomic-embed-text',
  },
  judge: { mode: 'gate' },
  budgets: { getContextMaxTokens: 12_000, contextPassages: 10, expandEdges: 50 },
  mcp: { http: { enabled: true } },
  privateNotes: { folder: '' },
  organization: '',
  vectorIndex: 'hnsw',
} as WorkspaceContextSettings);

/** How one setting is checked; `key` is its dotted path under the prefix. */
export type SettingSpec =
  | { key: string; type: 'globs'; description: string }
  | { key: string; type: 'enum'; values: readonly string[]; description: string }
  /** `allowEmpty`: '' is a value (the setting's "none"); `singleLine`: no line breaks, at most 200 characters. */
  | { key: string; type: 'string'; description: string; allowEmpty?: boolean; singleLine?: boolean }
  | { key: string; type: 'integer'; minimum: number; maximum: number; description: string }
  | { key: string; type: 'boolean'; description: string };

const SOURCE_DESCRIPTIONS: Record<keyof SourceGlobSettings, string> = {
  catalog: 'Backstage catalog files, matched against the path relative to each repository root.',
  overview:
    "Overviews, matched without regard to case: at a repository root the repository's (overview.md, else README.md); elsewhere the overview of the package whose catalog file is in that folder or the nearest one above.",
  epics: 'Epic specs.',
  library: 'The rules-and-instructions library: each matching Markdown file is a library page.',
  agentsMd: 'AGENTS.md files (library pages of type instructions).',
  copilotInstructions: "Copilot's repository instructions (a library page of type instructions).",
  instructionFiles: "Copilot's path-specific instruction files (library pages of type instructions).",
  claudeMd: 'CLAUDE.md files (library pages of type instructions).',
  cursorRules: 'Cursor rules (library pages of type instructions).',
  windsurfRules: 'Windsurf rules (library pages of type instructions).',
  techdocs:
    'Documentation sites (mkdocs.yml): each is read, in nav order, whether or not a catalog entity points at it.',
  docs: 'Documentation, by content: every Markdown, MDX, reStructuredText and AsciiDoc file no site, overview, library page or epic reads, wherever it sits (vendored, generated and template files are left out). Narrow it to read less.',
  siteNav:
    "Site navigation read for the order and menu titles of documentation pages, never run: Docusaurus sidebars and _category_ files, mdBook and GitBook SUMMARY.md (book.toml, .gitbook.yaml), Antora's antora.yml and nav files, awesome-pages .pages and awesome-nav .nav.yml.",
  markdown: 'Markdown read so TechDocs pages and front-matter epics can be followed.',
  catalogTargets:
    'YAML a catalog Location entity may name as a target, and YAML checked for Backstage entities no Location names. Empty reads only catalog files.',
  placeholderTargets:
    'Files a catalog placeholder ($text, $json, $openapi, $asyncapi) may name besides YAML and Markdown. Read only when a placeholder names them.',
  runHealth: "The last CI run's verdict at a repository root.",
  ignore: 'Extra paths never read, on top of .gitignore, node_modules and .git.',
};

/** Every setting, in the order the manifest lists them. */
export const SETTING_SPECS: readonly SettingSpec[] = [
  ...(Object.keys(SOURCE_DESCRIPTIONS) as (keyof SourceGlobSettings)[]).map(
    (key): SettingSpec => ({ key: `sources.${key}`, type: 'globs', description: SOURCE_DESCRIPTIONS[key] }),
  ),
  {
    key: 'embeddings.provider',
    type: 'enum',
    values: ['local', 'openai', 'off'],
    description:
      "Where sentence embeddings come from: the packaged local model, an OpenAI-compatible endpoint, or off (words only). A workspace's .wsctx.yaml may choose local or off, never openai.",
  },
  {
    key: 'embeddings.localModel',
    type: 'enum',
    values: ['minilm', 'use-lite'],
    description: 'Which packaged model `local` runs.',
  },
  {
    key: 'embeddings.baseUrl',
    type: 'string',
    description:
      "OpenAI-compatible endpoint for `openai` (POST {baseUrl}/embeddings). Yours to set: never taken from a workspace's .wsctx.yaml.",
  },
  {
    key: 'embeddings.model',
    type: 'string',
    description:
      "Model name sent to the endpoint for `openai`. Yours to set: never taken from a workspace's .wsctx.yaml.",
  },
  {
    key: 'judge.mode',
    type: 'enum',
    values: ['gate', 'shadow', 'off'],
    description: "get_context's judge: gate (its answers apply), shadow (logged only) or off (heuristics only).",
  },
  {
    key: 'budgets.getContextMaxTokens',
    type: 'integer',
    minimum: 1000,
    maximum: 30000,
    description: "get_context's default token budget.",
  },
  {
    key: 'budgets.contextPassages',
    type: 'integer',
    minimum: 1,
    maximum: 50,
    description: 'Passages the editor search asks for.',
  },
  {
    key: 'budgets.expandEdges',
    type: 'integer',
    minimum: 1,
    maximum: 100,
    description: 'Edges the editor expand asks for.',
  },
  {
    key: 'mcp.http.enabled',
    type: 'boolean',
    description: 'Serve the MCP tools over HTTP on 127.0.0.1 for Copilot and agent chat.',
  },
  {
    key: 'privateNotes.folder',
    type: 'string',
    allowEmpty: true,
    singleLine: true,
    description:
      "A folder of your own Markdown notes, outside the workspace (absolute, or ~/...). get_context searches them for your own connections (the editor, its MCP endpoint) and labels them as your private notes; nobody else's connection gets them. Empty: none. Ignored in an untrusted workspace, and never taken from a workspace's .wsctx.yaml.",
  },
  {
    key: 'organization',
    type: 'string',
    allowEmpty: true,
    singleLine: true,
    description:
      'The name in get_context\'s "Instructions from the <organization> team". Empty: the first workspace folder\'s name.',
  },
  {
    key: 'vectorIndex',
    type: 'enum',
    values: ['hnsw', 'hnswlib', 'exact'],
    description:
      'The nearest-neighbour index over the section vectors: hnsw, the built-in HNSW graph over the int8 vectors (each held once); hnswlib, hnswlib-node (a float32 copy of every vector besides); exact, a scan of every vector.',
  },
];

/** The dotted keys of every setting (without the prefix). */
export const SETTING_KEYS: readonly string[] = SETTING_SPECS.map((s) => s.key);

export interface NormalizedSettings {
  settings: WorkspaceContextSettings;
  /** One line per value that was ignored, naming the setting and what it should be. */
  problems: string[];
}

/**
 * Reads settings from what `getConfiguration('workspaceContext')` or `workspace/configuration`
 * returns: nested objects (`{ mcp: { http: { enabled } } }`) or dotted keys (`'mcp.http.enabled'`),
 * with or without the `workspaceContext.` prefix. Unknown keys are ignored; a value of the wrong
 * type or out of range keeps the default and adds a problem.
 */
export function normalizeSettings(raw: unknown): NormalizedSettings {
  const settings = cloneDefaults();
  const problems: string[] = [];
  for (const spec of SETTING_SPECS) {
    const value = lookup(raw, spec.key);
    if (value === undefined || value === null) continue;
    const checked = check(spec, value);
    if (checked.ok) assign(settings, spec.key, checked.value);
    else problems.push(`workspaceContext.${spec.key}: ${checked.error}; using the default.`);
  }
  return { settings, problems };
}

/** Settings as `key -> value` pairs (dotted keys without the prefix), in manifest order. */
export function flattenSettings(settings: WorkspaceContextSettings): Record<string, unknown> {
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, lookup(settings, key)]));
}

/**
 * The `contributes.configuration` block package.json must hold, derived from {@link SETTING_SPECS}
 * and {@link DEFAULT_SETTINGS}; a test compares the manifest with it, so the two never drift.
 */
export function manifestConfiguration(): { title: string; properties: Record<string, Record<string, unknown>> } {
  const defaults = flattenSettings(DEFAULT_SETTINGS);
  const properties: Record<string, Record<string, unknown>> = {};
  for (const spec of SETTING_SPECS) {
    const property: Record<string, unknown> = { default: defaults[spec.key], description: spec.description };
    if (spec.type === 'globs') Object.assign(property, { type: 'array', items: { type: 'string' } });
    else if (spec.type === 'enum') Object.assign(property, { type: 'string', enum: [...spec.values] });
    else if (spec.type === 'integer')
      Object.assign(property, { type: 'integer', minimum: spec.minimum, maximum: spec.maximum });
    else Object.assign(property, { type: spec.type });
    // One engine serves every folder with one set of settings, so no setting is per folder.
    property.scope = 'window';
    properties[`workspaceContext.${spec.key}`] = property;
  }
  return { title: 'Workspace Context', properties };
}

function cloneDefaults(): WorkspaceContextSettings {
  return JSON.parse(JSON.stringify(DEFAULT_SETTINGS)) as WorkspaceContextSettings;
}

function lookup(raw: unknown, key: string): unknown {
  if (!raw || typeof raw !== 'object') return undefined;
  const record = raw as Record<string, unknown>;
  const root =
    record.workspaceContext && typeof record.workspaceContext === 'object'
      ? (record.workspaceContext as Record<string, unknown>)
      : record;
  if (key in root) return root[key];
  if (`workspaceContext.${key}` in record) return record[`workspaceContext.${key}`];
  let node: unknown = root;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function assign(target: WorkspaceContextSettings, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = target as unknown as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts[parts.length - 1]] = value;
}

/**
 * Longest glob a setting may hold. The engine's matcher (server/src/engine/workspace/globMatch.ts,
 * MAX_GLOB_LENGTH) takes time proportional to path length x glob length and ignores longer
 * globs; a test keeps the two numbers equal.
 */
export const MAX_SETTING_GLOB_LENGTH = 1024;

/** Why a glob cannot be a setting's value (the engine's globProblem, said to the user first). */
function globError(glob: string): string | undefined {
  if (glob.length > MAX_SETTING_GLOB_LENGTH)
    return `a glob may be at most ${MAX_SETTING_GLOB_LENGTH} characters long (this one has ${glob.length})`;
  if (/(^|[^\\])!\(/.test(glob.replace(/^!+(?!\()/, '')))
    return '"!(...)" inside a glob is not supported; list the names to match instead, or negate the whole glob with a leading "!"';
  return undefined;
}

export type Checked = { ok: true; value: unknown } | { ok: false; error: string };

/** Checks one value against its setting's spec: the value to use (trimmed, cleaned) or why not. */
export function checkSetting(spec: SettingSpec, value: unknown): Checked {
  return check(spec, value);
}

/**
 * Why a source glob could never match anything, or null. Globs are matched against paths relative
 * to a repository root, written with `/`, that never leave it: an absolute glob, one reaching
 * above the root with `..`, or one written with `\\` between folders would be accepted and match
 * nothing, so it is refused instead. (A leading `./` is dropped, since it means the root.)
 */
export function unmatchableGlob(glob: string): string | null {
  if (glob.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(glob))
    return `'${glob}' is an absolute path; source globs match paths relative to each repository root (write it without the leading '/')`;
  if (glob.split('/').includes('..'))
    return `'${glob}' reaches above the repository root with '..'; source globs match files inside each repository`;
  if (/\\[^*?[\]{}()!+@,\\]/.test(glob) || glob.endsWith('\\'))
    return `'${glob}' separates folders with '\\'; write '/' between folders`;
  return null;
}

function check(spec: SettingSpec, value: unknown): Checked {
  switch (spec.type) {
    case 'globs': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        return { ok: false, error: 'expected a list of glob strings' };
      const globs = value.map((v: string) => v.trim().replace(/^(\.\/)+/, '')).filter((v) => v !== '');
      for (const glob of globs) {
        // A glob that can never match, or one the matcher refuses (globMatch.ts), is not applied.
        const error = unmatchableGlob(glob);
        if (error) return { ok: false, error };
        const why = globError(glob);
        if (why)
          return { ok: false, error: `${JSON.stringify(glob.length > 60 ? `${glob.slice(0, 57)}...` : glob)}: ${why}` };
      }
      return { ok: true, value: globs };
    }
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value)
        ? { ok: true, value }
        : { ok: false, error: `expected one of ${spec.values.join(', ')} (got ${JSON.stringify(value)})` };
    case 'string': {
      if (typeof value !== 'string' || (value.trim() === '' && !spec.allowEmpty))
        return { ok: false, error: spec.allowEmpty ? 'expected a string' : 'expected a non-empty string' };
      if (spec.singleLine && (/[\r\n]/.test(value) || value.trim().length > 200))
        return { ok: false, error: 'expected one line of at most 200 characters' };
      return { ok: true, value: value.trim() };
    }
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= spec.minimum && value <= spec.maximum
        ? { ok: true, value }
        : {
            ok: false,
            error: `expected a whole number from ${spec.minimum} to ${spec.maximum} (got ${JSON.stringify(value)})`,
          };
    case 'boolean':
      return typeof value === 'boolean'
        ? { ok: true, value }
        : { ok: false, error: `expected true or false (got ${JSON.stringify(value)})` };
  }
}
