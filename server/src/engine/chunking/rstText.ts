/**
 * reStructuredText body lines -> the readable text of a section, as Markdown
 * (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html): what a reader of the
 * built page sees, and code kept as code so the key paths of its configuration blocks are found
 * (sectionKeyPaths.ts reads fenced blocks).
 *
 * - Directives (`.. name:: argument`, options, an indented body): code directives (`code-block`,
 *   `code`, `sourcecode`, `doctest`...) become fenced blocks tagged with their language;
 *   admonitions (`note`, `warning`...) their kind and body; `toctree`, `image`, `include`, `raw`
 *   and the like (navigation and files, not words of the page) are dropped; API descriptions
 *   (`autofunction`, `py:class`, `confval`...) keep their name and body; any other keeps its
 *   argument and body.
 * - Comments, hyperlink targets (`.. _label:`) and substitution definitions are dropped.
 * - A paragraph ending in `::` introduces a literal block: a fenced block in the language of the
 *   last `highlight` directive (untagged without one); `>>>` blocks are Python.
 * - Roles and interpreted text read as their text: `` :ref:`Title <target>` `` -> Title,
 *   `` :class:`~pkg.Session` `` -> `` `Session` ``; ``` ``literal`` ``` -> `` `literal` ``;
 *   `` `Text <url>`_ `` -> Text; `|name|` -> name.
 *
 * Line counts are not kept: a section's span is its lines in the source, its text what they say.
 */

/** Directives whose body is code, with the language they imply when they name none. */
const CODE_DIRECTIVES: Readonly<Record<string, string>> = {
  code: '',
  'code-block': '',
  sourcecode: '',
  'parsed-literal': '',
  doctest: 'python',
  testcode: 'python',
  testoutput: '',
  ipython: 'python',
  math: 'math',
  prompt: 'shell',
};

const ADMONITIONS = new Set([
  'note',
  'warning',
  'tip',
  'hint',
  'important',
  'attention',
  'caution',
  'danger',
  'error',
  'seealso',
  'todo',
]);

const VERSION_NOTES: Readonly<Record<string, string>> = {
  versionadded: 'Added in version',
  versionchanged: 'Changed in version',
  deprecated: 'Deprecated since version',
  versionremoved: 'Removed in version',
};

/** Directives that are navigation, layout or a file reference, not words of the page. */
const DROPPED_DIRECTIVES = new Set([
  'toctree',
  'image',
  'include',
  'literalinclude',
  'raw',
  'meta',
  'index',
  'contents',
  'sectnum',
  'highlight',
  'default-role',
  'role',
  'tabularcolumns',
  'currentmodule',
  'module',
  'py:currentmodule',
  'py:module',
  'title',
  'header',
  'footer',
  'target-notes',
  'spelling:word-list',
]);

/** Directives whose argument is a heading of what follows. */
const TITLED_DIRECTIVES = new Set([
  'rubric',
  'topic',
  'sidebar',
  'admonition',
  'centered',
  'table',
  'csv-table',
  'list-table',
]);

const DIRECTIVE = /^(\s*)\.\.\s+([\w:+.-]+)::(?:\s+(.*))?$/;
const SUBSTITUTION = /^(\s*)\.\.\s+\|[^|]+\|\s+[\w:+.-]+::/;
const EXPLICIT = /^(\s*)\.\.(?:\s|$)/;
const FOOTNOTE = /^(\s*)\.\.\s+\[([^\]]+)\]\s*(.*)$/;

/** What the renderer carries from block to block: the language of literal blocks. */
interface RenderState {
  highlight: string;
}

/** The readable text of a run of reStructuredText body lines (see the module notes). */
export function renderRstBlocks(lines: readonly string[], state: RenderState = { highlight: '' }): string[] {
  const out: string[] = [];
  let i = 0;
  let literalNext = false;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      out.push('');
      i++;
      continue;
    }
    const indent = indentOf(line);
    if (indent > 0 && literalNext) {
      const end = blockEnd(lines, i, -1);
      pushFence(out, state.highlight, dedent(lines.slice(i, end)));
      literalNext = false;
      i = end;
      continue;
    }
    literalNext = false;
    if (EXPLICIT.test(line)) {
      const end = blockEnd(lines, i + 1, indent);
      renderExplicit(lines.slice(i, end), state, out);
      i = end;
      continue;
    }
    if (indent > 0) {
      // A block quote: its own blocks, dedented.
      const end = blockEnd(lines, i, -1);
      for (const rendered of renderRstBlocks(dedent(lines.slice(i, end)), state)) out.push(rendered);
      i = end;
      continue;
    }
    if (line.startsWith('>>>')) {
      let end = i;
      while (end < lines.length && lines[end].trim() !== '') end++;
      pushFence(out, 'python', lines.slice(i, end));
      i = end;
      continue;
    }
    // A paragraph: to the next blank line or a line that starts another block.
    let end = i + 1;
    while (
      end < lines.length &&
      lines[end].trim() !== '' &&
      indentOf(lines[end]) <= indent &&
      !EXPLICIT.test(lines[end])
    )
      end++;
    const paragraph = lines.slice(i, end);
    const last = paragraph[paragraph.length - 1].trimEnd();
    if (last.endsWith('::')) {
      literalNext = true;
      paragraph[paragraph.length - 1] =
        last === '::' ? '' : last.endsWith(' ::') ? last.slice(0, -3) : last.slice(0, -1);
    }
    for (const text of paragraph) {
      const rendered = renderRstLine(text);
      if (rendered !== '' || text.trim() !== '::') out.push(rendered);
    }
    i = end;
  }
  return out;
}

/** One line of text: line-block bars dropped, inline markup read (see the module notes). */
export function renderRstLine(line: string): string {
  const text = line.replace(/^(\s*)\| /, '$1');
  return rstInline(text);
}

/** Inline markup read as text (see the module notes). */
export function rstInline(text: string): string {
  if (!/[`|_\\:]/.test(text)) return text;
  return text
    .replace(
      /``(.+?)``|(:[\w:.+-]+:)?`([^`]+)`(:[\w:.+-]+:)?(__?)?/g,
      (
        _all,
        literal: string | undefined,
        before: string | undefined,
        body: string,
        after: string | undefined,
        link: string | undefined,
      ) => {
        if (literal !== undefined) return `\`${literal}\``;
        const role = before ?? after;
        if (link !== undefined || body.startsWith('_')) return titleOf(body.replace(/^_/, ''));
        if (!role) return `\`${body}\``;
        const shown = titleOf(body);
        return CODE_ROLES.test(role) ? `\`${shown}\`` : shown;
      },
    )
    .replace(/\|([^|\s][^|]*[^|\s]|[^|\s])\|(?:__?)?/g, '$1')
    .replace(/\b([A-Za-z0-9]+)__?(?=[\s.,;:!?)\]]|$)/g, '$1')
    .replace(/\\ /g, '')
    .replace(/\\([*`_|\\])/g, '$1');
}

/** Roles whose text is a name in code, shown as code. */
const CODE_ROLES =
  /^:(?:(?:py|c|cpp|js|rst|std):)?(?:code|file|samp|command|program|envvar|option|kbd|class|func|meth|attr|mod|data|exc|obj|const|var|type|member|macro|struct|enum|function|method|attribute|module|exception|directive|confval|makevar):$/;

/** The text a role or a reference shows: an explicit `Title <target>`, else the target as written. */
function titleOf(body: string): string {
  const explicit = /^([\s\S]*?)\s*<([^<>]+)>$/.exec(body);
  if (explicit && explicit[1] !== '') return explicit[1];
  const target = explicit ? explicit[2] : body;
  if (target.startsWith('~')) return target.slice(target.lastIndexOf('.') + 1);
  return target.replace(/^!/, '');
}

/** Renders an explicit markup block (directive, comment, target, footnote) into `out`. */
function renderExplicit(block: readonly string[], state: RenderState, out: string[]): void {
  const first = block[0];
  if (SUBSTITUTION.test(first)) return;
  const directive = DIRECTIVE.exec(first);
  if (directive) {
    renderDirective(directive[2].toLowerCase(), (directive[3] ?? '').trim(), block.slice(1), state, out);
    return;
  }
  const footnote = FOOTNOTE.exec(first);
  if (footnote) {
    out.push(`[${footnote[2]}] ${rstInline(footnote[3])}`.trimEnd());
    for (const rendered of renderRstBlocks(dedent(block.slice(1)), state)) out.push(rendered);
  }
  // Anything else is a comment or a hyperlink target: not words of the page.
}

function renderDirective(
  name: string,
  argument: string,
  rest: readonly string[],
  state: RenderState,
  out: string[],
): void {
  const { argumentLines, options, body } = directiveParts(rest);
  const fullArgument = [argument, ...argumentLines].join(' ').trim();
  if (name === 'highlight') {
    state.highlight = fullArgument.split(/\s+/)[0] ?? '';
    return;
  }
  if (DROPPED_DIRECTIVES.has(name)) return;
  if (name === 'figure') {
    for (const rendered of renderRstBlocks(body, state)) out.push(rendered);
    return;
  }
  if (Object.hasOwn(CODE_DIRECTIVES, name)) {
    const language = fullArgument.split(/\s+/)[0] || CODE_DIRECTIVES[name] || options.language || state.highlight;
    pushFence(out, name === 'math' ? 'math' : language, body);
    return;
  }
  const heading = ADMONITIONS.has(name)
    ? `**${name === 'seealso' ? 'See also' : name[0].toUpperCase() + name.slice(1)}:**${fullArgument ? ` ${rstInline(fullArgument)}` : ''}`
    : Object.hasOwn(VERSION_NOTES, name)
      ? `*${VERSION_NOTES[name]} ${fullArgument.split(/\s+/)[0] ?? ''}*${fullArgument.includes(' ') ? ` ${rstInline(fullArgument.slice(fullArgument.indexOf(' ') + 1))}` : ''}`
      : TITLED_DIRECTIVES.has(name)
        ? fullArgument
          ? `**${rstInline(fullArgument)}**`
          : ''
        : fullArgument
          ? `\`${fullArgument}\``
          : '';
  if (heading) out.push(heading);
  const rendered = renderRstBlocks(body, state);
  // An admonition's first paragraph reads on from its kind, as it does on the page.
  if (heading && rendered.length > 0 && rendered[0] === '') rendered.shift();
  for (const line of rendered) out.push(line);
}

/**
 * A directive's block after its first line: argument continuation lines (before any option or
 * blank line), options (`:name: value`), then the body after a blank line, dedented.
 */
function directiveParts(rest: readonly string[]): {
  argumentLines: string[];
  options: Record<string, string>;
  body: string[];
} {
  const argumentLines: string[] = [];
  const options: Record<string, string> = {};
  let i = 0;
  let inOptions = false;
  for (; i < rest.length; i++) {
    const line = rest[i].trim();
    if (line === '') break;
    const option = /^:([\w-]+):(?:\s+(.*))?$/.exec(line);
    if (option) {
      inOptions = true;
      options[option[1]] = (option[2] ?? '').trim();
    } else if (!inOptions) argumentLines.push(line);
    else break;
  }
  return { argumentLines, options, body: dedent(rest.slice(i)) };
}

function pushFence(out: string[], language: string, lines: readonly string[]): void {
  const body = trimBlankEdges(lines);
  if (body.length === 0) return;
  const longest = Math.max(0, ...body.map((l) => /^\s*(`{3,})/.exec(l)?.[1].length ?? 0));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  out.push(`${fence}${language === 'none' || language === 'text' ? '' : language}`);
  for (const line of body) out.push(line);
  out.push(fence);
}

/** The end (exclusive) of the block starting at `start` whose lines are indented more than `indent`, blank lines inside it included. */
function blockEnd(lines: readonly string[], start: number, indent: number): number {
  let end = start;
  let last = start - 1;
  for (; end < lines.length; end++) {
    if (lines[end].trim() === '') continue;
    if (indentOf(lines[end]) <= indent || (indent < 0 && indentOf(lines[end]) === 0)) break;
    last = end;
  }
  return last + 1;
}

function indentOf(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width++;
    else if (ch === '\t') width += 8 - (width % 8);
    else break;
  }
  return width;
}

function dedent(lines: readonly string[]): string[] {
  const widths = lines.filter((l) => l.trim() !== '').map(indentOf);
  const least = widths.length > 0 ? Math.min(...widths) : 0;
  return lines.map((l) =>
    l.trim() === '' ? '' : l.replace(/^[ \t]+/, (lead) => ' '.repeat(Math.max(0, indentOf(lead) - least))),
  );
}

function trimBlankEdges(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  return lines.slice(start, end);
}
