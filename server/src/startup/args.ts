/**
 * Command-line parsing for `wsctx`: one command word, positional arguments, and options. Every
 * command takes `--workspace DIR` (repeatable; default the current folder) and `--json`.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const OPTIONS = {
  workspace: { type: 'string', multiple: true, short: 'w' },
  json: { type: 'boolean' },
  why: { type: 'boolean' },
  'cache-dir': { type: 'string' },
  'no-cache': { type: 'boolean' },
  'catalog-glob': { type: 'string', multiple: true },
  ignore: { type: 'string', multiple: true },
  embeddings: { type: 'string' },
  'embeddings-model': { type: 'string' },
  'embeddings-url': { type: 'string' },
  depth: { type: 'string' },
  direction: { type: 'string' },
  'edge-types': { type: 'string' },
  limit: { type: 'string' },
  'as-of': { type: 'string' },
  'source-kinds': { type: 'string' },
  format: { type: 'string' },
  document: { type: 'string' },
  'max-tokens': { type: 'string' },
  pack: { type: 'string' },
  tags: { type: 'string' },
  folder: { type: 'string' },
  in: { type: 'string' },
  judge: { type: 'string' },
  'model-url': { type: 'string' },
  model: { type: 'string' },
  namespace: { type: 'string' },
  profile: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
  store: { type: 'string' },
  'store-mode': { type: 'string' },
  'max-memory': { type: 'string' },
  config: { type: 'string' },
  'private-notes': { type: 'string' },
  organization: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

export type CliOptions = {
  workspaces: string[];
  /** True when `--workspace` was given (a store then answers for those folders only). */
  workspacesGiven: boolean;
  json: boolean;
  /** `ask`: every passage's why[] term by term instead of one line. */
  why: boolean;
  cacheDir?: string;
  noCache: boolean;
  /** `--catalog-glob` (repeatable): replaces `sources.catalog`. */
  catalogGlobs?: string[];
  /** `--ignore` (repeatable): replaces `sources.ignore`. */
  ignoreGlobs?: string[];
  embeddings?: string;
  embeddingsModel?: string;
  embeddingsUrl?: string;
  depth?: number;
  direction?: string;
  edgeTypes?: string[];
  limit?: number;
  asOf?: string;
  sourceKinds?: string[];
  format?: string;
  document?: string;
  maxTokens?: number;
  pack?: string;
  tags?: string[];
  folder?: string;
  /** `ask --in NAME`: answer from that served folder only (default: every served folder). */
  in?: string;
  judge?: string;
  modelUrl?: string;
  model?: string;
  namespace?: string;
  profile?: string;
  port?: number;
  token?: string;
  /** `--store`: a postgresql:// URL; index writes there, the other commands answer from there. */
  store?: string;
  /** `--store-mode memory|per-question`: hold the store's namespaces in memory, or read the store per question. */
  storeMode?: string;
  /** `--max-memory SIZE` (memory mode): refuse to load more than this (8GB, 512MB, bytes). */
  maxMemory?: string;
  /** `serve --config FILE` (with or without `--store`): the server's config file (access tokens and their folders). */
  config?: string;
  /** `--private-notes DIR`: the user's own notes folder (outside the workspace); over `privateNotes.folder`. */
  privateNotes?: string;
  /** `--organization NAME`: the name in "Instructions from the ... team"; over `organization`. */
  organization?: string;
  help: boolean;
  version: boolean;
};

export interface ParsedCommandLine {
  command: string | undefined;
  positionals: string[];
  options: CliOptions;
}

export function parseCommandLine(argv: string[]): ParsedCommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  const [command, ...positionals] = parsed.positionals;
  return {
    command,
    positionals,
    options: {
      workspaces: v.workspace?.length ? v.workspace : [process.cwd()],
      workspacesGiven: (v.workspace?.length ?? 0) > 0,
      json: v.json ?? false,
      why: v.why ?? false,
      cacheDir: v['cache-dir'],
      noCache: v['no-cache'] ?? false,
      catalogGlobs: v['catalog-glob'],
      ignoreGlobs: v.ignore,
      embeddings: v.embeddings,
      embeddingsModel: v['embeddings-model'],
      embeddingsUrl: v['embeddings-url'],
      depth: integer('--depth', v.depth),
      direction: v.direction,
      edgeTypes: list(v['edge-types']),
      limit: integer('--limit', v.limit),
      asOf: v['as-of'],
      sourceKinds: list(v['source-kinds']),
      format: v.format,
      document: v.document,
      maxTokens: integer('--max-tokens', v['max-tokens']),
      pack: v.pack,
      tags: list(v.tags),
      folder: v.folder,
      in: v.in,
      judge: v.judge,
      modelUrl: v['model-url'],
      model: v.model,
      namespace: v.namespace,
      profile: v.profile,
      port: integer('--port', v.port),
      token: v.token,
      store: v.store,
      storeMode: v['store-mode'],
      maxMemory: v['max-memory'],
      config: v.config,
      privateNotes: v['private-notes'],
      organization: v.organization,
      help: v.help ?? false,
      version: v.version ?? false,
    },
  };
}

function integer(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${flag} must be a whole number (got "${value}")`);
  return Number(value);
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const USAGE = `wsctx: the workspace's own knowledge, ranked and explained

Usage: wsctx <command> [arguments] [--workspace DIR]... [--json]

Commands:
  index                       index the workspace; print counts, problems and timing
  ask "<question>"            ranked passages from every served folder, why[] on one line (--why
                              for every term; --limit N, --as-of T, --source-kinds a,b; --in NAME
                              for one served folder); fits $COLUMNS (default 100)
  expand <entity-ref>         walk the component graph (--depth 1-3, --direction out|in|both:
                              out what it depends on or points to, in what depends on or points
                              to it; --edge-types a,b, --limit N, --as-of T)
  graph                       export the whole component graph (--format json|dot)
  toc [query]                 the rules library's map; with words, the documents matching them
                              (--document ID for one document's sections, --namespace NS)
  section <id>                one whole library section (8-character id or a 4+ prefix)
  search "<plan>"             the library sections that apply to a plan (--profile focused|catalog)
  try "<plan>"                a library search with each section's signals, score and size
                              (--profile, --namespace NS, --limit N)
  context "<task>"            the budgeted bundle get_context hands an agent (--max-tokens 1000-30000,
                              --pack P, --tags a,b, --folder F; --json for every page's reason)
  page <id>                   a whole library page (read_page)
  file <id>                   a library page's attached file (get_file)
  diagnostics                 every tool call: latency, empty answers, library sections never
                              returned, near-duplicate sections
  doctor                      check Node, git, native modules, the embedding model, the cache folder
                              and each served folder; one line each, exit 1 when one fails
  mcp                         serve the MCP tools over stdio
  serve                       serve the MCP tools over HTTP on 127.0.0.1 (--port N, --token T)

Options:
  -w, --workspace DIR         a workspace folder to serve (repeatable; default: the current folder)
  --json                      print JSON instead of text
  --cache-dir DIR             where the index snapshot and vectors are kept
  --no-cache                  neither read nor write a snapshot
  --catalog-glob GLOB         catalog files to start from (repeatable; replaces sources.catalog,
                              default **/catalog-info.{yaml,yml})
  --ignore GLOB               paths never read (repeatable; replaces sources.ignore)
  --embeddings off|local|openai
                              meaning search (default local, or $WSCTX_EMBEDDINGS): the packaged
                              all-MiniLM-L6-v2, an OpenAI-compatible endpoint, or words only
  --embeddings-model NAME     local: minilm (default) or use-lite; openai: the model to ask for
  --embeddings-url URL        openai: the endpoint's base URL (default http://127.0.0.1:11434/v1);
                              the key comes from $WSCTX_EMBEDDINGS_API_KEY
  --judge off|shadow|gate     get_context's yes/no judge (default gate; heuristics without a model)
  --model-url URL             an OpenAI-compatible chat endpoint for get_context's model steps
  --model NAME                the model to ask there (key in $WSCTX_MODEL_API_KEY)
  --store URL                 a PostgreSQL store (postgresql://user@host/db): index writes each
                              --workspace folder there as its own namespace; ask, expand, mcp and
                              serve answer from it (--workspace picks namespaces by folder name)
  --store-mode memory|per-question
                              with --store: load each namespace into memory and answer from there,
                              following writes (default for mcp and serve), or read the store for
                              each question (default for one-shot commands)
  --max-memory SIZE           with --store-mode memory: refuse to load more than SIZE (8GB, 512MB)
  --config FILE               serve: the server's config file (its tokens, each for every folder
                              or limited to some; with or without --store)
  --private-notes DIR         your own Markdown notes, a folder outside the workspace: context
                              searches them too and labels them as yours (not with serve)
  --organization NAME         the name in "Instructions from the NAME team" (default: the first
                              workspace folder's name)
  -h, --help                  this text

Settings (source globs, ignores, embeddings, judge, budgets, privateNotes.folder, organization)
also come from your own ~/.config/wsctx/config.yaml ($XDG_CONFIG_HOME) and from .wsctx.yaml at
the first workspace folder's root, with the editor's setting names; flags and $WSCTX_* win over
both. A workspace's .wsctx.yaml never chooses embeddings endpoints or models (provider local or
off only) nor privateNotes.folder: it is warned about, and yours stand.

Exit codes: 0 ok, 1 bad input, 2 internal error. Errors go to stderr.`;
