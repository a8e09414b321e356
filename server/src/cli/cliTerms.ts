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

/** Tool calls named in messages, and the commands that make them. */
const CALLS: readonly [RegExp, string][] = [
  [/\bget_toc\(\)/g, "'wsctx toc'"],
  [/\bget_toc\b/g, "'wsctx toc'"],
  [/\bsearch_instructions\(plan\)/g, `'wsctx search "<plan>"'`],
  [/\bsearch_instructions\b/g, "'wsctx search'"],
  [/\bread_page\(page_id\)/g, "'wsctx page <id>'"],
  [/\bget_file\(page_id\)/g, "'wsctx file <id>'"],
  [/\bget_section\(id\)/g, "'wsctx section <id>'"],
  [/\bworkspace_expand\b/g, "'wsctx expand'"],
];

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
  for (const [pattern, replacement] of CALLS) text = text.replace(pattern, replacement);
  return text;
}
