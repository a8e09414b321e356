/**
 * What `wsctx` takes, command by command: each command's arguments, its own flags with their
 * defaults, and an example. `wsctx --help` and `wsctx <command> --help` are written from this
 * table, and a flag that is not a command's own or a common one is refused by name (args.ts).
 */

export interface FlagHelp {
  /** As typed, with its value: `--depth 1-3`. */
  flag: string;
  /** What it does and its default. */
  text: string;
}

export interface CommandHelp {
  name: string;
  /** The arguments after the command word: `"<question>"`, `<entity-ref>`, `[query]`. */
  args: string;
  /** One line for the list of commands. */
  summary: string;
  /** What it prints, a few sentences. */
  details: string;
  /** The command's own flags (option names as parseArgs knows them, without `--`), with help. */
  flags: readonly (FlagHelp & { name: string })[];
  examples: readonly string[];
}

const flag = (name: string, value: string, text: string) => ({
  name,
  flag: `--${name}${value ? ` ${value}` : ''}`,
  text,
});

/** How a store is read (every command that answers from `--store`; serve's and mcp's help lists them too). */
const STORE_MODE = flag(
  'store-mode',
  'MODE',
  'with --store, memory or per-question: load each namespace into memory and answer from there, following writes (the default of mcp and serve), or read the store for each question (the default of one-shot commands; for a reader too small to hold the index)',
);
const MAX_MEMORY = flag(
  'max-memory',
  'SIZE',
  'with --store in memory mode: say what each namespace will take before loading, and refuse past SIZE (8GB, 512MB), naming the namespaces',
);

/** Flags every command takes: where to read, how to print, and the settings of .wsctx.yaml. */
export const COMMON_FLAGS: readonly (FlagHelp & { name: string })[] = [
  {
    name: 'workspace',
    flag: '-w, --workspace DIR',
    text: 'a folder to serve (repeatable; default: the current folder)',
  },
  flag('json', '', 'print JSON instead of text'),
  flag(
    'cache-dir',
    'DIR',
    'where the index snapshot and vectors are kept (default $WSCTX_CACHE_DIR, else ~/.cache/wsctx)',
  ),
  flag('no-cache', '', 'neither read nor write a snapshot'),
  flag(
    'catalog-glob',
    'GLOB',
    'catalog files to start from (repeatable; replaces sources.catalog, default **/catalog-info.{yaml,yml})',
  ),
  flag('ignore', 'GLOB', 'paths never read (repeatable; replaces sources.ignore)'),
  flag(
    'embeddings',
    'off|local|openai',
    'meaning search: the packaged all-MiniLM-L6-v2 (local, the default, or $WSCTX_EMBEDDINGS), an OpenAI-compatible endpoint, or words only',
  ),
  flag('embeddings-model', 'NAME', 'local: minilm (default) or use-lite; openai: the model to ask for'),
  flag(
    'embeddings-url',
    'URL',
    'openai: the endpoint (default http://127.0.0.1:11434/v1); the key comes from $WSCTX_EMBEDDINGS_API_KEY',
  ),
  flag('judge', 'off|shadow|gate', "context's yes/no judge (default gate; heuristics without a model)"),
  flag(
    'model-url',
    'URL',
    "an OpenAI-compatible chat endpoint for context's model steps (key in $WSCTX_MODEL_API_KEY)",
  ),
  flag('model', 'NAME', 'the model to ask there (default gpt-4o-mini)'),
  flag('private-notes', 'DIR', 'your own Markdown notes, a folder outside the workspace: context searches them too'),
  flag('organization', 'NAME', 'the name in "Instructions from the NAME team" (default: the first folder\'s name)'),
  flag(
    'store',
    'URL',
    'a PostgreSQL store (postgresql://user@host/db): index writes there; ask, expand, toc, section, search, context, page, file, mcp and serve answer from it',
  ),
  STORE_MODE,
  MAX_MEMORY,
  { name: 'help', flag: '-h, --help', text: 'this text' },
];

export const COMMANDS: readonly CommandHelp[] = [
  {
    name: 'index',
    args: '',
    summary: 'index the workspace and embed it; print counts, problems and timing',
    details:
      'Reads every source (catalog, docs, overviews, epics, the rules library), embeds the sections that have no vector yet (a progress line on stderr) and leaves a warm snapshot in the cache folder. Prints documents by source kind, entities by kind, edges by type, unresolved refs, repositories and problems; a problem repeated more than 3 times is printed once with its count.',
    flags: [
      flag('verbose', '', 'list every problem and every unresolved ref, not only a count and one example of each kind'),
    ],
    examples: [
      'wsctx index --workspace ~/src/platform',
      'wsctx index --workspace ~/src/billing --workspace ~/src/payments --json',
    ],
  },
  {
    name: 'ask',
    args: '"<question>"',
    summary: 'ranked passages that answer a question, each with its source and why it ranked',
    details:
      'The passages workspace_context ranks, best first (always in score order): each with its heading path, its full path:lines and a file: link, the entity it belongs to with its owner and nearest neighbours, its why[] (every term with --why) and an excerpt around the matched words. Lines fit $COLUMNS (default 100); a path or a name longer than the line is never cut.',
    flags: [
      flag('limit', 'N', 'passages to return, 1-50 (default 10, or budgets.contextPassages)'),
      flag('in', 'NAME', 'answer from one served folder, by its directory name (default: every served folder)'),
      flag('source-kinds', 'a,b', 'only these kinds: catalog_entity, catalog_doc, repo_overview, epic_doc, library'),
      flag('as-of', 'DATE|COMMIT', 'the workspace as it was at a date or a commit'),
      flag('why', '', "every passage's why[] term by term, instead of one line"),
    ],
    examples: [
      'wsctx ask "how do I roll back billing-worker?"',
      'wsctx ask "who owns the invoice API?" --limit 3 --why',
      'wsctx ask "refund window" --in payments --source-kinds library',
    ],
  },
  {
    name: 'why-not',
    args: '"<question>"',
    summary: 'why a page you expected did not come back for a question (or where it ranked)',
    details:
      'Explains the page, section or entity --expect names for the question as ask ranks it (explain_result), by its best section for the question (the one holding the most of its terms): not indexed (outside the served folders, no source glob reads it, ignored, unreadable with its problem), not a candidate (the question terms no section holds), below the floor (its score and why[]), the fact buried in a big section, ranked past the limit (the passages above it and the terms that put them there) or held back by the per-document rule; each with the fix.',
    flags: [
      flag(
        'expect',
        'PAGE',
        'the page expected: a path as answers print it, a document or section id, or an entity ref (required)',
      ),
      flag('limit', 'N', "the limit the question was asked with, 1-50 (default: ask's, 10 or budgets.contextPassages)"),
      flag('in', 'NAME', 'the served folder the question was asked in (default: every served folder)'),
      flag('source-kinds', 'a,b', 'the kinds the question was asked for'),
      flag(
        'task',
        '',
        "the words are a get_context task: look for the page in the bundle, in what did not fit and in what focus dropped (with context's --max-tokens, --pack, --tags, --folder)",
      ),
      flag('max-tokens', 'N', 'with --task: the budget it was asked with (default 12,000)'),
      flag('pack', 'NAME', 'with --task: the pack it was asked with'),
      flag('tags', 'a,b', 'with --task: the tags it was asked with'),
      flag('folder', 'PATH', 'with --task: the library folder it was asked with'),
    ],
    examples: [
      'wsctx why-not "roll back billing-worker" --expect docs/deploy.md',
      'wsctx why-not "write a postmortem" --task --expect .context/templates/pm.md',
      'wsctx why-not "who owns the invoice API?" --expect api:default/invoices --json',
    ],
  },
  {
    name: 'check',
    args: '[file]',
    summary:
      "run the team's expectations (.wsctx/expectations.yaml): which questions must bring which pages; exit 1 when one fails",
    details:
      'Asks every question of the expectations file (default .wsctx/expectations.yaml in the first served folder) and prints a table, one row per expected or excluded page, then each failure explained as why-not explains it, and any problem in the file with its line and field. Exit 0 when every check passes, 1 when one fails or the file has a problem. --json for CI.',
    flags: [],
    examples: [
      'wsctx check',
      'wsctx check --workspace ~/src/platform --json',
      'wsctx check ci/expectations.yaml --embeddings off',
    ],
  },
  {
    name: 'expand',
    args: '<entity-ref>',
    summary: 'walk the component graph from an entity',
    details:
      "The entity's facts, then each relation once, read from the entity walked from: out what it depends on or points to, in what depends on it or points to it. Refs lose the default/ namespace (--json keeps full refs); a ref is never cut, and where the table would not fit $COLUMNS each edge gets its own lines.",
    flags: [
      flag('depth', '1-3', 'hops to walk (default 1; deeper is refused)'),
      flag('direction', 'out|in|both', 'which way to walk (default both)'),
      flag('edge-types', 'a,b', 'only these relations, e.g. dependsOn,consumesApi'),
      flag('limit', 'N', 'edges to return, 1-100 (default 50, or budgets.expandEdges)'),
      flag('as-of', 'DATE|COMMIT', 'the catalog as it was at a date or a commit'),
    ],
    examples: [
      'wsctx expand billing-worker',
      'wsctx expand component:default/billing-worker --depth 2',
      'wsctx expand billing-worker --direction out --edge-types dependsOn,consumesApi',
    ],
  },
  {
    name: 'graph',
    args: '',
    summary: 'the whole component graph: every entity with its relations',
    details:
      'Text by default: each entity with where it is declared and the relations it declares (one line per relation type). --json gives every entity and both halves of every relation as Backstage stores them, with type, resolved state and declaration place; --format dot draws it with Graphviz (one arrow per pair).',
    flags: [flag('format', 'text|json|dot', 'text (default), json (the same as --json) or Graphviz dot')],
    examples: ['wsctx graph', 'wsctx graph --json > graph.json', 'wsctx graph --format dot | dot -Tsvg > graph.svg'],
  },
  {
    name: 'toc',
    args: '[words]',
    summary: "the rules library's table of contents; with words, the documents matching them",
    details: 'The map get_toc gives an agent, headed by the pinned documents, kept to about 8,000 tokens.',
    flags: [
      flag('document', 'ID', "one document's sections"),
      flag('namespace', 'NS', 'one namespace (folder) of the library'),
    ],
    examples: ['wsctx toc', 'wsctx toc migrations', 'wsctx toc --document 3f2a9c1e'],
  },
  {
    name: 'section',
    args: '<id>',
    summary: 'one whole library section',
    details: 'Ids are printed by toc, search and context: 8 characters, or a unique prefix of 4 or more.',
    flags: [],
    examples: ['wsctx section 3f2a9c1e'],
  },
  {
    name: 'search',
    args: '"<plan>"',
    summary: 'the library sections that apply to what you are about to do',
    details: 'Whole sections grouped by document, about 4,000 tokens from at most 6 documents (search_instructions).',
    flags: [flag('profile', 'focused|catalog', 'focused (default) or catalog (wider, for browsing)')],
    examples: ['wsctx search "writing a migration for billing-worker"'],
  },
  {
    name: 'try',
    args: '"<plan>"',
    summary: "a library search with each section's signals, fused score and size",
    details:
      'The same search as search, shown as the ranker saw it: each signal, the fused score and the size in tokens.',
    flags: [
      flag('profile', 'focused|catalog', 'as for search'),
      flag('namespace', 'NS', 'one namespace of the library'),
      flag('limit', 'N', 'sections to show'),
    ],
    examples: ['wsctx try "writing a migration for billing-worker" --limit 5'],
  },
  {
    name: 'context',
    args: '["<task>"]',
    summary: 'the budgeted bundle get_context hands an agent for a task or a change',
    details:
      "Team instructions, rules in full, pinned and matching pages, the best excerpts, then excerpts of the named services' own docs, inside the budget. For a change (--changed or --diff, with or without a task): the entities owning the changed files with their owner and lifecycle, what depends on them, their runbooks, docs and epics, and the instruction files whose globs or folders cover the changed paths, each with its reason. Git runs read-only. --json gives every page's reason and each section's similarity (and the change's items).",
    flags: [
      flag('max-tokens', 'N', 'the budget, 1,000-30,000 (default 12,000, or budgets.getContextMaxTokens)'),
      flag('pack', 'NAME', 'a pack of pages to apply'),
      flag('tags', 'a,b', 'only sections with these tags (rules, pinned pages and instructions still come)'),
      flag('folder', 'PATH', 'everything from this folder of the library and its subfolders only'),
      flag(
        'changed',
        'PATH...',
        'the context for a change to these files (relative to a served folder; every word up to the next flag, so put a task before it)',
      ),
      flag(
        'diff',
        '[RANGE]',
        'the context for the change git shows: the working tree against HEAD (with untracked files), or a range such as main...HEAD or HEAD~3',
      ),
      flag('staged', '', 'with --diff: the staged changes against HEAD'),
    ],
    examples: [
      'wsctx context "add a retry to the dunning schedule in billing-worker"',
      'wsctx context "write a postmortem" --max-tokens 4000 --json',
      'wsctx context --changed services/billing-worker/src/worker.ts --json',
      'wsctx context --diff main...HEAD',
      'wsctx context "review for PCI scope" --diff --staged',
    ],
  },
  {
    name: 'page',
    args: '<id>',
    summary: 'a whole library page',
    details: 'The page as read_page returns it; ids as context and toc print them.',
    flags: [],
    examples: ['wsctx page 3f2a9c1e'],
  },
  {
    name: 'file',
    args: '<id>',
    summary: "a library page's attached file",
    details: 'The file a page names in its front matter (get_file); text, or base64 for binary files.',
    flags: [],
    examples: ['wsctx file 3f2a9c1e'],
  },
  {
    name: 'diagnostics',
    args: '',
    summary: 'every tool call made here: latency, empty answers, sections never returned, conflicts',
    details:
      'Reads the call log in the cache folder: latency percentiles per tool, empty answers, library sections never returned, nothing-found requests, near-duplicate and conflicting pages, and the flags pages settle with conflicts_resolved.',
    flags: [],
    examples: ['wsctx diagnostics'],
  },
  {
    name: 'doctor',
    args: '',
    summary: 'check Node, git, native modules, the model, the cache and each folder; exit 1 when one fails',
    details:
      'One line per check, ok, warn (a fallback runs) or fail, each saying what to do: Node, git, the vector index, tree-sitter, ONNX Runtime, the embedding model (loaded and timed), the cache folder, .wsctx.yaml, and each served folder with what indexing found in it.',
    flags: [],
    examples: ['wsctx doctor --workspace /absolute/path/to/your/workspace'],
  },
  {
    name: 'mcp',
    args: '',
    summary: 'serve the MCP tools over stdio (for an agent to start)',
    details:
      'Indexes, watches the folders and answers until the client disconnects; logs go to stderr. With --store it loads the namespaces from the store instead and follows their writes.',
    flags: [STORE_MODE, MAX_MEMORY],
    examples: ['wsctx mcp --workspace /absolute/path/to/your/workspace'],
  },
  {
    name: 'serve',
    args: '',
    summary: 'serve the MCP tools over HTTP on 127.0.0.1, with a bearer token',
    details:
      "Prints the URL and the token on stderr. A session idle for 30 minutes is closed. --config gives the callers' tokens instead, each for every folder or limited to some. With --store it is a reader: it prints the memory each namespace will take, loads them from the store, answers from memory and follows every write; GET /status says its mode and each namespace's generation.",
    flags: [
      flag('port', 'N', 'the port, 0-65535 (default 0: a free one)'),
      flag('token', 'T', 'the bearer token, 32 characters or more (default: a random one)'),
      flag(
        'config',
        'FILE',
        "the server's config file: its tokens, the folders each may read, and with --store the namespaces this server serves (a `namespaces` list, names or patterns with *)",
      ),
      STORE_MODE,
      MAX_MEMORY,
    ],
    examples: [
      'wsctx serve --workspace ~/src/platform --port 8931',
      'wsctx serve --store postgresql://wsctx@db/wsctx --config reader-a.yaml',
      'wsctx serve --store postgresql://wsctx@db/wsctx --max-memory 8GB',
      'wsctx serve --store postgresql://wsctx@db/wsctx --store-mode per-question',
    ],
  },
];

export function findCommand(name: string): CommandHelp | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** The option names (parseArgs's, without `--`) a command accepts: its own and the common ones. */
export function acceptedOptions(command: CommandHelp): Set<string> {
  return new Set([...COMMON_FLAGS.map((f) => f.name), ...command.flags.map((f) => f.name), 'version']);
}

/** Lines `  flag  text`, the text wrapped to `width` under its own column. */
function flagLines(flags: readonly FlagHelp[], width: number): string[] {
  const column = Math.min(30, Math.max(...flags.map((f) => f.flag.length)) + 4);
  const lines: string[] = [];
  for (const f of flags) {
    const text = wrapText(f.text, Math.max(30, width - column));
    const head = `  ${f.flag}`;
    if (head.length + 2 > column) lines.push(head, ...text.map((t) => `${' '.repeat(column)}${t}`));
    else lines.push(`${head.padEnd(column)}${text[0]}`, ...text.slice(1).map((t) => `${' '.repeat(column)}${t}`));
  }
  return lines;
}

function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** `wsctx --help`: every command in one line, the common flags, where settings come from. */
export function usage(width = 100): string {
  const commands = COMMANDS.map((c) => ({ flag: `${c.name}${c.args ? ` ${c.args}` : ''}`, text: c.summary }));
  return [
    "wsctx: the workspace's own knowledge, ranked and explained",
    '',
    'Usage: wsctx <command> [arguments] [flags]',
    "       wsctx <command> --help     that command's flags, defaults and examples",
    '',
    'Commands:',
    ...flagLines(commands, width),
    '',
    'Flags every command takes:',
    ...flagLines(COMMON_FLAGS, width),
    '  --version                 the version',
    '',
    ...wrapText(
      "Settings (source globs, ignores, embeddings, judge, budgets, privateNotes.folder, organization) also come from your own ~/.config/wsctx/config.yaml and from .wsctx.yaml at the first folder's root, with the editor's setting names; flags and $WSCTX_* win over both. A workspace's .wsctx.yaml never chooses an embeddings endpoint or model, nor privateNotes.folder.",
      width,
    ),
    '',
    ...wrapText('Exit codes: 0 ok, 1 bad input (one line on stderr naming the flag), 2 internal error.', width),
  ].join('\n');
}

/** `wsctx <command> --help`. */
export function commandUsage(command: CommandHelp, width = 100): string {
  return [
    `wsctx ${command.name}${command.args ? ` ${command.args}` : ''} [flags]`,
    '',
    ...wrapText(`${command.summary[0].toUpperCase()}${command.summary.slice(1)}. ${command.details}`, width),
    '',
    ...(command.flags.length ? ['Flags:', ...flagLines(command.flags, width), ''] : []),
    ...wrapText(
      'Flags every command takes: --workspace DIR (repeatable), --json, --cache-dir DIR, --no-cache, --embeddings off|local|openai, --store URL and the others `wsctx --help` lists.',
      width,
    ),
    '',
    'Examples:',
    ...command.examples.map((e) => `  ${e}`),
  ].join('\n');
}
