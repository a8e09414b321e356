/**
 * The tools' messages in the command line's words. The tools speak to agents in MCP terms
 * (`depth: must be...`, `max_tokens: ...`, `get_toc() lists them`); a person at the terminal typed
 * `--depth`, `--max-tokens` and `wsctx toc`. Refusals and notices are rewritten here, once, for
 * every command: the argument names of each tool become the flag or the positional argument
 * that set it, and tool calls become the commands that make them.
 */

/**
 * Each tool argument as the CLI command that fills it spells it: a flag, or '' for the positional
 * argument (the question, the ref, the id), whose messages then stand without a field name.
 */
const ARGUMENTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  ask: { question: '', workspace: '--in', limit: '--limit', asOf: '--as-of', sourceKinds: '--source-kinds' },
  expand: {
    entityRef: '',
    workspace: '--workspace',
    depth: '--depth',
    direction: '--direction',
    edgeTypes: '--edge-types',
    limit: '--limit',
    asOf: '--as-of',
  },
  context: { task: '', max_tokens: '--max-tokens', pack: '--pack', tags: '--tags', folder: '--folder' },
  toc: { query: '', document_id: '--document', namespace: '--namespace' },
  section: { id: '' },
  search: { plan: '', profile: '--profile' },
  try: { plan: '', profile: '--profile', namespace: '--namespace', limit: '--limit' },
  page: { page_id: '' },
  file: { page_id: '' },
};

/**
 * The library tools' calls as the commands that make them, with their arguments as the command
 * takes them: `get_toc(document_id="3f2a9c1e")` is `wsctx toc --document 3f2a9c1e`,
 * `get_toc(query="<your task>")` is `wsctx toc "<your task>"`, an argument named without a value
 * (`get_section(id)`) a placeholder (`wsctx section <id>`).
 */
const COMMANDS: Readonly<Record<string, { command: string; args: Readonly<Record<string, (v?: string) => string>> }>> =
  {
    get_toc: {
      command: 'wsctx toc',
      args: {
        query: (v) => `"${v ?? '<query>'}"`,
        document_id: (v) => `--document ${v ?? '<id>'}`,
        namespace: (v) => `--namespace ${v === undefined ? '<namespace>' : /^[\w./-]+$/.test(v) ? v : `"${v}"`}`,
      },
    },
    get_section: { command: 'wsctx section', args: { id: (v) => v ?? '<id>' } },
    search_instructions: { command: 'wsctx search', args: { plan: (v) => `"${v ?? '<plan>'}"` } },
    read_page: { command: 'wsctx page', args: { page_id: (v) => v ?? '<id>' } },
    get_file: { command: 'wsctx file', args: { page_id: (v) => v ?? '<id>' } },
  };

/** Tool names that stand alone in a message (not a call the command cannot make), and the commands that answer them. */
const NAMES: readonly [RegExp, string][] = [
  [/\bget_toc\b(?!\()/g, 'wsctx toc'],
  [/\bget_section\b(?!\()/g, 'wsctx section'],
  [/\bsearch_instructions\b(?!\()/g, 'wsctx search'],
  [/\bread_page\b(?!\()/g, 'wsctx page'],
  [/\bget_file\b(?!\()/g, 'wsctx file'],
  [/\bworkspace_expand\b(?!\()/g, 'wsctx expand'],
  [/\bget_context\b(?!\()/g, 'wsctx context'],
];

/** `name(a="x", b)` calls of the library tools, their arguments as written. */
const CALL = /\b(get_toc|get_section|search_instructions|read_page|get_file)\(([^()]*)\)/g;
const ARGUMENT = /^\s*([a-z_]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+)))?\s*$/;

/** One call in the command line's words, or the call unchanged when an argument is not one the command takes. */
function commandOf(tool: string, args: string): string | undefined {
  const known = COMMANDS[tool];
  const parts = [known.command];
  for (const raw of args.split(',').filter((a) => a.trim() !== '')) {
    const match = ARGUMENT.exec(raw);
    const render = match && known.args[match[1]];
    if (!match || !render) return undefined;
    const value = match[2] ?? match[3];
    parts.push(render(value === '...' ? undefined : value));
  }
  return parts.join(' ');
}

/** "get_file with page_id 3f2a9c1e returns it": the command that prints it. */
const FILE_WITH_ID = /\bget_file with page_id ([0-9a-f]{4,64}) returns it\b/g;
/** `page_id: 3f2a9c1e` and `page_id 3f2a9c1e` name a page by its id: `doc 3f2a9c1e`. */
const PAGE_ID = /\bpage_id:? ([0-9a-f]{4,64})\b/g;

/** Tool calls and tool names in `text`, as the commands that make them. */
export function commandsInCliTerms(text: string): string {
  let out = text
    .replace(FILE_WITH_ID, 'wsctx file $1 prints it')
    .replace(CALL, (whole, tool: string, args: string) => commandOf(tool, args) ?? whole)
    .replace(PAGE_ID, 'doc $1')
    .replace(/\ba page_id\b/g, 'an id')
    .replace(/\bpage_id\b/g, 'id');
  for (const [pattern, command] of NAMES) out = out.replace(pattern, command);
  return out;
}

/** The tool a command calls, as it names itself in "Invalid input for <tool>: ". */
const INVALID_INPUT = /^Invalid input for [a-z_]+: /;

/**
 * `message` (a tool's refusal or notice) in the words of `command`'s command line: `depth:` at the
 * start of a clause becomes `--depth:`, a positional argument is named as such, and a tool call
 * becomes the command that makes it.
 */
export function inCliTerms(message: string, command: string): string {
  const names = ARGUMENTS[command] ?? {};
  let text = message.replace(INVALID_INPUT, '');
  // A field at the start of the message or of a clause after "; " (describeZodError joins them so).
  text = text.replace(
    /(^|; )([A-Za-z_]+)(\[\d+\])?: /g,
    (whole, lead: string, field: string, index: string | undefined) => {
      const flag = names[field];
      if (flag === undefined) return whole;
      if (flag === '') return lead;
      return `${lead}${flag}${index ? ` (item ${Number(index.slice(1, -1)) + 1})` : ''}: `;
    },
  );
  return commandsInCliTerms(text);
}
