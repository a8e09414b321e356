/**
 * The key paths a section shows in its configuration blocks: YAML, JSON and TOML code blocks of
 * Markdown (fenced, tagged `yaml`/`yml`, `json`/`jsonc`/`json5`, `toml`; untagged and indented
 * blocks when they read as YAML), and whole `.yaml`/`.yml`/`.json`/`.toml` files.
 *
 *   ```yaml
 *   spec:                      -> spec
 *     privateKey:              -> spec.privateKey
 *       rotationPolicy: Always -> spec.privateKey.rotationPolicy
 *   ```
 *
 * Documentation blocks are examples, not files a parser must accept: they hold comments,
 * `...` for "the rest", template expressions (`{{ .Version }}`) and site shortcodes. So the readers
 * here are lenient and line-based: YAML by indentation (a `- ` item's keys sit under the list's
 * key: `archives: - format_overrides: - formats:` is `archives.format_overrides.formats`), JSON by
 * its brackets and `"key":` pairs, TOML by its `[table]` headers and `key =` lines. A line they
 * cannot read is skipped, never an error. Keys that are not plain names (`cert-manager.io/issuer`,
 * quoted keys with spaces) end a path: nothing is read below them.
 *
 * Only paths of two or more keys are reported; the analyzer indexes a single key as a word anyway.
 */
import { MAX_PATH_SEGMENTS } from '../text/keyPaths';

export type ConfigLanguage = 'yaml' | 'json' | 'toml';

/** Visits one key path: its keys as written, outermost first. */
export type KeyPathVisitor = (segments: readonly string[]) => void;

/** A key that can be a path segment. */
const PLAIN_KEY = /^[A-Za-z_][\w-]*$/;
/** A key that ends a path (`cert-manager.io/issuer`, `"my key"`): kept in the stack, never a segment. */
const OPAQUE = '\u0000';

/** Calls `visit` with the key paths of every configuration block of a Markdown text. */
export function forEachCodeKeyPath(markdown: string, visit: KeyPathVisitor): void {
  // Most sections hold no block at all.
  if (!markdown.includes('```') && !markdown.includes('~~~') && !markdown.includes('\n    ')) return;
  for (const block of configBlocks(markdown)) forEachConfigKeyPath(block.language, block.text, visit);
}

/** The language of a file by its name, when it is a configuration file this module reads. */
export function configLanguageOf(path: string): ConfigLanguage | undefined {
  const dot = path.lastIndexOf('.');
  switch (dot < 0 ? '' : path.slice(dot + 1).toLowerCase()) {
    case 'yaml':
    case 'yml':
      return 'yaml';
    case 'json':
      return 'json';
    case 'toml':
      return 'toml';
    default:
      return undefined;
  }
}

/** Calls `visit` with the key paths of one configuration text. */
export function forEachConfigKeyPath(language: ConfigLanguage, text: string, visit: KeyPathVisitor): void {
  const emit = (stack: readonly string[]) => {
    if (stack.length < 2 || stack.length > MAX_PATH_SEGMENTS || stack.includes(OPAQUE)) return;
    visit(stack);
  };
  if (language === 'yaml') yamlKeyPaths(text, emit);
  else if (language === 'json') jsonKeyPaths(text, emit);
  else tomlKeyPaths(text, emit);
}

interface ConfigBlock {
  language: ConfigLanguage;
  text: string;
}

const FENCE_OPEN = /^( {0,12})((?:>\s?)*)(`{3,}|~{3,})\s*([^\s`{]*)/;
const TAGS: Readonly<Record<string, ConfigLanguage>> = {
  yaml: 'yaml',
  yml: 'yaml',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  toml: 'toml',
};

/**
 * The configuration blocks of a Markdown text: fenced blocks tagged with a configuration language,
 * and untagged fenced or indented blocks that read as YAML. A fence inside a list item or a quote
 * is read with its indentation and `>` marks taken off.
 */
function configBlocks(markdown: string): ConfigBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: ConfigBlock[] = [];
  let i = 0;
  let previousBlank = true;
  while (i < lines.length) {
    const open = FENCE_OPEN.exec(lines[i]);
    if (open) {
      const indent = open[1].length;
      const quotes = (open[2].match(/>/g) ?? []).length;
      const fence = open[3];
      const tag = open[4].toLowerCase();
      const body: string[] = [];
      i++;
      for (; i < lines.length; i++) {
        const line = unquote(lines[i], quotes);
        if (line.trimStart().startsWith(fence[0].repeat(fence.length)) && line.trim().replace(/[`~]/g, '') === '')
          break;
        body.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
      }
      i++;
      const language = TAGS[tag] ?? (tag === '' && readsAsYaml(body) ? 'yaml' : undefined);
      if (language) blocks.push({ language, text: body.join('\n') });
      previousBlank = false;
      continue;
    }
    if (previousBlank && /^( {4}|\t)\S/.test(lines[i])) {
      // An indented code block: lines indented by four or more (blank lines inside it kept).
      const body: string[] = [];
      for (; i < lines.length && (/^( {4}|\t)/.test(lines[i]) || lines[i].trim() === ''); i++)
        body.push(lines[i].replace(/^( {4}|\t)/, ''));
      if (readsAsYaml(body)) blocks.push({ language: 'yaml', text: body.join('\n') });
      previousBlank = false;
      continue;
    }
    previousBlank = lines[i].trim() === '';
    i++;
  }
  return blocks;
}

/** The line without `quotes` leading `>` marks. */
function unquote(line: string, quotes: number): string {
  let out = line;
  for (let q = 0; q < quotes; q++) out = out.replace(/^\s*>\s?/, '');
  return out;
}

const YAML_KEY_LINE = /^\s*(?:-\s+)*(?:"[^"]*"|'[^']*'|[^\s#'"{}[\],:][^#:]*?)\s*:(?:\s|$)/;

/**
 * True when an untagged block reads as YAML: at least two lines of `key:` (or `- key:`), and
 * such lines, list items and comments make up at least three quarters of its non-blank lines
 * (a shell session or a log has few).
 */
function readsAsYaml(lines: readonly string[]): boolean {
  let keys = 0;
  let yamlish = 0;
  let nonBlank = 0;
  for (const line of lines) {
    const t = line.trim();
    if (!t) continue;
    nonBlank++;
    if (YAML_KEY_LINE.test(line) && !/^\s*(?:\$|#!|https?:)/.test(line)) {
      keys++;
      yamlish++;
    } else if (t.startsWith('- ') || t.startsWith('#') || t === '---' || t === '...') yamlish++;
  }
  return keys >= 2 && yamlish * 4 >= nonBlank * 3;
}

/** `key:` at the start of a YAML line's content, with the indentation of the key. */
const YAML_KEY = /^((?:-\s+)*)("([^"]*)"|'([^']*)'|([^\s#'"{}[\],:&*!|>%@`][^#:]*?))\s*:(?:\s+(.*))?$/;

/**
 * YAML by indentation. Each `key:` line pops the keys at its indentation or deeper and pushes
 * itself; a `- ` item's keys are indented where the item's content starts. A key whose value is a
 * block scalar (`|`, `>`) skips the lines indented under it.
 */
function yamlKeyPaths(text: string, emit: (stack: readonly string[]) => void): void {
  const stack: { indent: number; key: string }[] = [];
  let scalarIndent = -1;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\t/g, '  ');
    const content = line.trimStart();
    const indent = line.length - content.length;
    if (scalarIndent >= 0) {
      if (content === '' || indent > scalarIndent) continue;
      scalarIndent = -1;
    }
    if (content === '' || content.startsWith('#')) continue;
    if (content === '---' || (content === '...' && indent === 0)) {
      stack.length = 0;
      continue;
    }
    const m = YAML_KEY.exec(content);
    if (!m) continue;
    const keyIndent = indent + m[1].length;
    const written = m[3] ?? m[4] ?? m[5] ?? '';
    const key = PLAIN_KEY.test(written) ? written : OPAQUE;
    while (stack.length && stack[stack.length - 1].indent >= keyIndent) stack.pop();
    stack.push({ indent: keyIndent, key });
    emit(stack.map((s) => s.key));
    const value = (m[6] ?? '').trim();
    if (/^[|>][+-]?\d*\s*(?:#.*)?$/.test(value)) scalarIndent = keyIndent;
  }
}

/**
 * JSON (with comments, trailing commas and `...` tolerated) by its brackets: a string followed by
 * `:` inside an object is a key; an object or array value sits under the key before it.
 */
function jsonKeyPaths(text: string, emit: (stack: readonly string[]) => void): void {
  // Each open bracket's key (undefined at the top, or for an array's item).
  const frames: { object: boolean; key: string | undefined }[] = [];
  let pendingKey: string | undefined;
  const path = (last?: string): string[] => {
    const keys = frames.map((f) => f.key).filter((k): k is string => k !== undefined);
    return last === undefined ? keys : [...keys, last];
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const value = text.slice(i + 1, j);
      i = j + 1;
      let k = i;
      while (k < n && /\s/.test(text[k])) k++;
      const top = frames[frames.length - 1];
      if (text[k] === ':' && top?.object) {
        const key = PLAIN_KEY.test(value) ? value : OPAQUE;
        emit(path(key));
        pendingKey = key;
        i = k + 1;
      }
    } else if (c === '{' || c === '[') {
      frames.push({ object: c === '{', key: pendingKey });
      pendingKey = undefined;
      i++;
    } else if (c === '}' || c === ']') {
      frames.pop();
      pendingKey = undefined;
      i++;
    } else {
      if (c === ',') pendingKey = undefined;
      i++;
    }
  }
}

/** TOML by its `[table]` / `[[array.of.tables]]` headers and `key = value` lines (dotted keys split). */
function tomlKeyPaths(text: string, emit: (stack: readonly string[]) => void): void {
  let table: string[] = [];
  let inString: string | undefined;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (inString) {
      if (line.includes(inString)) inString = undefined;
      continue;
    }
    if (!line || line.startsWith('#')) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header) {
      table = tomlKeys(header[1]);
      if (table.length) emit(table);
      continue;
    }
    const pair =
      /^((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=\s*(.*)$/.exec(line);
    if (!pair) continue;
    const keys = tomlKeys(pair[1]);
    for (let k = 1; k <= keys.length; k++) emit([...table, ...keys.slice(0, k)]);
    const value = pair[2];
    for (const quote of ['"""', "'''"]) {
      if (value.startsWith(quote) && value.indexOf(quote, 3) < 0) inString = quote;
    }
  }
}

/** The keys of a TOML dotted key or table name, unquoted; a key that is not a plain name ends the path. */
function tomlKeys(dotted: string): string[] {
  return dotted.split('.').map((k) => {
    const key = k.trim().replace(/^(["'])(.*)\1$/, '$2');
    return PLAIN_KEY.test(key) ? key : OPAQUE;
  });
}
