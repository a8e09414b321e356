/**
 * Command-line parsing for `wsctx`: one command word, positional arguments, and options. Every
 * command takes the common flags (`--workspace DIR`, repeatable, default the current folder;
 * `--json`; the settings); a command's own flags (commands.ts) are refused on any other command,
 * by name, so a mistyped command line never runs with a flag silently ignored.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { acceptedOptions, findCommand } from './commands';

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
  expect: { type: 'string' },
  task: { type: 'boolean' },
  changed: { type: 'string', multiple: true },
  diff: { type: 'string' },
  staged: { type: 'boolean' },
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
  verbose: { type: 'boolean' },
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
  /** `why-not --expect PAGE`: the page, section or entity expected. */
  expect?: string;
  /** `why-not --task`: the words are a get_context task, not a question. */
  task: boolean;
  /** `context --changed PATH...`: the changed files (every word after the flag up to the next flag). */
  changed?: string[];
  /** `context --diff [RANGE]`: the range ('' for the working tree against HEAD); undefined without the flag. */
  diff?: string;
  /** `context --staged`: the staged changes against HEAD. */
  staged: boolean;
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
  /** `index --verbose`: every problem and unresolved ref, not grouped. */
  verbose: boolean;
  help: boolean;
  version: boolean;
};

export interface ParsedCommandLine {
  command: string | undefined;
  positionals: string[];
  options: CliOptions;
}

export function parseCommandLine(argv: string[]): ParsedCommandLine {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true; tokens: true }>
  >;
  try {
    parsed = parseArgs({
      args: listFlags(argv),
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(parseErrorLine(error as Error));
  }
  const v = parsed.values;
  const [command, ...positionals] = parsed.positionals;
  const known = command === undefined ? undefined : findCommand(command);
  if (known && !v.help) {
    if (known.args === '' && positionals.length > 0) {
      throw new UsageError(
        `${known.name} takes no arguments (got "${positionals.join(' ')}"); wsctx ${known.name} --help lists its flags`,
      );
    }
    const accepted = acceptedOptions(known);
    for (const token of parsed.tokens ?? []) {
      if (token.kind === 'option' && !accepted.has(token.name)) {
        throw new UsageError(
          `--${token.name} is not a flag of wsctx ${known.name} (wsctx ${known.name} --help lists its flags)`,
        );
      }
    }
  }
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
      expect: v.expect,
      task: v.task ?? false,
      ...(v.changed ? { changed: v.changed } : {}),
      ...(v.diff !== undefined ? { diff: v.diff } : {}),
      staged: v.staged ?? false,
      judge: v.judge,
      modelUrl: v['model-url'],
      model: v.model,
      namespace: v.namespace,
      profile: v.profile,
      port: port(v.port),
      token: v.token,
      store: v.store,
      storeMode: v['store-mode'],
      maxMemory: v['max-memory'],
      config: v.config,
      privateNotes: v['private-notes'],
      organization: v.organization,
      verbose: v.verbose ?? false,
      help: v.help ?? false,
      version: v.version ?? false,
    },
  };
}

/**
 * The two flags whose values parseArgs cannot read as written: `--changed a.ts b.ts` takes every
 * word up to the next flag (each becomes `--changed=<word>`), and `--diff` takes a range only
 * when one follows it (`--diff main...HEAD`; a bare `--diff` is the working tree, `--diff=`).
 * A word after `--diff` that starts with `-` or holds a space is not a range: it stays where it is.
 * Nothing after a lone `--` is touched.
 */
export function listFlags(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (arg === '--changed') {
      let taken = 0;
      while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) {
        out.push(`--changed=${argv[++i]}`);
        taken++;
      }
      if (taken === 0) out.push(arg); // parseArgs then says the flag needs a value
      continue;
    }
    if (arg === '--diff') {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-') && !/\s/.test(next)) {
        out.push(`--diff=${next}`);
        i++;
      } else out.push('--diff=');
      continue;
    }
    out.push(arg);
  }
  return out;
}

function integer(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${flag} must be a whole number (got "${value}")`);
  return Number(value);
}

/** `--port`: a TCP port, 0 (any free one) to 65535. */
function port(value: string | undefined): number | undefined {
  const n = integer('--port', value);
  if (n !== undefined && (n < 0 || n > 65535))
    throw new UsageError(`--port must be from 0 to 65535 (got ${n}); 0 picks a free port`);
  return n;
}

/** Node's parseArgs messages, on one line and in our words where they are long. */
function parseErrorLine(error: Error): string {
  const code = (error as Error & { code?: string }).code;
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown)
    return `${unknown[1]} is not a flag of wsctx (wsctx --help lists them)`;
  const needsValue = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(
    error.message,
  );
  if (needsValue) return `${needsValue[1]} needs a value`;
  return error.message.split('\n')[0];
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
