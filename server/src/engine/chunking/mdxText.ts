/**
 * MDX read as the Markdown a person sees (https://mdxjs.com/docs/what-is-mdx/): the text keeps
 * its lines, one for one, so line spans stay exact, and what is code of the page, not words of
 * it, is blanked:
 *
 * - `import` and `export` statements (ESM at the start of a line, to the end of the statement:
 *   its brackets closed and its `from '...'` read);
 * - JSX comments (`{/* ... *\/}`);
 * - components (a tag whose name starts with a capital or holds a dot: `<Tabs>`, `<Tabs.Item>`):
 *   a self-closing one is dropped with its props; an opening tag leaves its `label` or `title`
 *   (what a reader sees on a tab or a card), else nothing; a closing tag leaves nothing. The
 *   children stay: a `<TabItem>`'s text and code are the page's. Lines inside a component lose
 *   their indentation, as MDX reads them (it has no indented code blocks), so a fence indented
 *   under `<TabItem>` is still a fence;
 * - Docusaurus admonition fences (`:::tip Title` ... `:::`) become their kind and title.
 *
 * Front matter and fenced code are left as written: an `import` inside a code block is an example.
 * HTML written in lower case (`<details>`, `<h2 id="...">`) is Markdown's and stays.
 */

const FENCE = /^(\s*)(`{3,}|~{3,})/;
const ESM_START = /^(?:import|export)(?=[\s{*])/;
const COMPONENT_TAG = /^<\/?([A-Z][\w.]*|[a-z][\w]*\.[\w.]+)(?=[\s/>]|$)/;
const INLINE_COMPONENT = /<\/?(?:[A-Z][\w.]*|[a-z]\w*\.[\w.]+)(?:\s(?:[^<>{}"']|"[^"]*"|'[^']*'|\{[^{}]*\})*)?\/?>/g;
const ADMONITION = /^(\s*):::\s*([a-z]+)?(?:\[(.*)\]|\s+(.*))?\s*$/i;

/** MDX text as Markdown with the same lines (see the module notes). Never throws. */
export function mdxToMarkdown(text: string): string {
  const lines = text.split('\n');
  const out = [...lines];
  let i = frontMatterEnd(lines);
  let depth = 0;
  while (i < lines.length) {
    const raw = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    const line = depth > 0 ? raw.replace(/^\s+/, '') : raw;
    const fence = FENCE.exec(raw);
    if (fence) {
      i = copyFence(lines, out, i, fence, depth > 0);
      continue;
    }
    if (depth === 0 && ESM_START.test(raw)) {
      const end = statementEnd(lines, i);
      for (let j = i; j <= end; j++) out[j] = '';
      i = end + 1;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith('{/*')) {
      const end = lineHolding(lines, i, '*/}');
      for (let j = i; j <= end; j++) out[j] = '';
      i = end + 1;
      continue;
    }
    if (COMPONENT_TAG.test(trimmed)) {
      const tag = componentTag(lines, i);
      depth = Math.max(0, depth + tag.depthChange);
      for (let j = i; j <= tag.endLine; j++) out[j] = '';
      out[i] = tag.label;
      // Children written on the tag's own line (`<TabItem value="a">Text</TabItem>`) stay.
      if (tag.rest.trim()) out[tag.endLine] = [out[tag.endLine], tag.rest.trim()].filter(Boolean).join(' ');
      i = tag.endLine + 1;
      continue;
    }
    const admonition = ADMONITION.exec(line);
    if (admonition) {
      const kind = admonition[2] ? `${admonition[2][0].toUpperCase()}${admonition[2].slice(1).toLowerCase()}:` : '';
      const title = (admonition[3] ?? admonition[4] ?? '').trim();
      out[i] = [kind, title].filter(Boolean).join(' ');
      i++;
      continue;
    }
    out[i] = withoutInlineComponents(line);
    i++;
  }
  return out.join('\n');
}

/** The first line after a front matter block (0 when there is none). */
function frontMatterEnd(lines: readonly string[]): number {
  if (!/^\uFEFF?---\s*$/.test(lines[0] ?? '')) return 0;
  for (let i = 1; i < lines.length; i++) if (/^(?:---|\.\.\.)\s*$/.test(lines[i])) return i + 1;
  return 0;
}

/**
 * Copies a fenced code block as written (dedented by its opener's indentation inside a
 * component) and returns the line after it; an unclosed fence runs to the end, as in Markdown.
 */
function copyFence(
  lines: readonly string[],
  out: string[],
  start: number,
  open: RegExpExecArray,
  dedent: boolean,
): number {
  const indent = dedent ? open[1].length : 0;
  const strip = (line: string) => (indent > 0 ? line.replace(new RegExp(`^\\s{0,${indent}}`), '') : line);
  const marker = open[2];
  out[start] = strip(lines[start]);
  for (let i = start + 1; i < lines.length; i++) {
    out[i] = strip(lines[i]);
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[i]);
    if (close && close[1][0] === marker[0] && close[1].length >= marker.length) return i + 1;
  }
  return lines.length;
}

/**
 * The last line of the ESM statement starting at `start`: brackets balanced, no open string, and
 * for an `import` with a `from` clause, that clause read. A blank line always ends it.
 */
function statementEnd(lines: readonly string[], start: number): number {
  let depth = 0;
  const isImport = lines[start].startsWith('import');
  let text = '';
  for (let i = start; i < lines.length; i++) {
    if (i > start && lines[i].trim() === '') return i - 1;
    text += `${lines[i]}\n`;
    depth += bracketBalance(lines[i]);
    const line = lines[i].trim();
    const complete =
      depth <= 0 &&
      !/[,{([=+\-*/|&?:]$/.test(line) &&
      (!isImport || /\bfrom\s*['"][^'"]*['"]\s*;?\s*$/.test(text) || /^import\s*['"][^'"]*['"]/.test(text.trim()));
    if (complete) return i;
  }
  return lines.length - 1;
}

/** Opening minus closing brackets of one line, outside quoted strings. */
function bracketBalance(line: string): number {
  let balance = 0;
  let quote = '';
  for (let k = 0; k < line.length; k++) {
    const ch = line[k];
    if (quote) {
      if (ch === '\\') k++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '/' && line[k + 1] === '/') break;
    else if (ch === '{' || ch === '(' || ch === '[') balance++;
    else if (ch === '}' || ch === ')' || ch === ']') balance--;
  }
  return balance;
}

/** The line holding `marker` at or after `start` (the last line when none does). */
function lineHolding(lines: readonly string[], start: number, marker: string): number {
  for (let i = start; i < lines.length; i++) if (lines[i].includes(marker)) return i;
  return lines.length - 1;
}

interface ComponentTag {
  /** +1 for an opening tag, -1 for a closing one, 0 for a self-closing one. */
  depthChange: number;
  /** The last line of the tag (props may span lines). */
  endLine: number;
  /** What a reader sees of the tag: an opening tag's `label` or `title`, else ''. */
  label: string;
  /** Text after the tag on its last line (inline children), components stripped. */
  rest: string;
}

/** The component tag starting line `start` (after its indentation). */
function componentTag(lines: readonly string[], start: number): ComponentTag {
  let text = '';
  for (let i = start; i < lines.length; i++) {
    text += (i > start ? '\n' : '') + lines[i].replace(/^\s+/, '');
    const close = tagClose(text);
    if (close >= 0) {
      const tag = text.slice(0, close + 1);
      const closing = tag.startsWith('</');
      const selfClosing = !closing && /\/\s*>$/.test(tag);
      const label = closing || selfClosing ? '' : (attributeValue(tag, 'label') ?? attributeValue(tag, 'title') ?? '');
      const rest = text.slice(close + 1);
      return {
        depthChange: (closing ? -1 : selfClosing ? 0 : 1) + inlineDepthChange(rest),
        endLine: i,
        label,
        rest: withoutInlineComponents(rest),
      };
    }
    if (i > start && lines[i].trim() === '') break;
  }
  // A tag never closed: only its first line is blanked.
  return { depthChange: 0, endLine: start, label: '', rest: '' };
}

/** The index of the `>` closing the tag opening `text`, or -1: quotes and `{...}` props skipped. */
function tagClose(text: string): number {
  let braces = 0;
  let quote = '';
  for (let k = 1; k < text.length; k++) {
    const ch = text[k];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (braces > 0) {
      if (ch === '{') braces++;
      else if (ch === '}') braces--;
      else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{') braces++;
    else if (ch === '>') return k;
  }
  return -1;
}

function attributeValue(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|\\{\\s*["'\`]([^"'\`]*)["'\`]\\s*\\})`).exec(tag);
  const value = match?.[1] ?? match?.[2] ?? match?.[3];
  return value?.trim() || undefined;
}

/** Opening minus closing component tags written inline (`<TabItem>Text</TabItem>` is 0). */
function inlineDepthChange(text: string): number {
  let change = 0;
  for (const tag of text.match(INLINE_COMPONENT) ?? []) {
    if (tag.startsWith('</')) change--;
    else if (!/\/\s*>$/.test(tag)) change++;
  }
  return change;
}

/** A line with its inline component tags removed; inline code spans are left as written. */
function withoutInlineComponents(line: string): string {
  if (!line.includes('<')) return line;
  // Odd parts of a split on backtick runs are code spans (an unbalanced run is text anyway).
  const parts = line.split(/(`+[^`]*`+)/);
  return parts.map((part, i) => (i % 2 === 1 ? part : part.replace(INLINE_COMPONENT, ''))).join('');
}
