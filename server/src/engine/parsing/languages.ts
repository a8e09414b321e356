/**
 * Which source language a file is, by its name, and the shape of the answer both comment-and-string
 * finders give (the tree-sitter one in syntaxTree.ts and the plain scanner in plainComments.ts).
 *
 * Prose (Markdown, plain text, reStructuredText, AsciiDoc, MDX) and files whose values are
 * unquoted (INI) have no language here: every word of them is text, so callers read them whole.
 */

/** A language whose comments and strings can be told apart from its code. */
export type SourceLanguage =
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'python'
  | 'go'
  | 'java'
  | 'kotlin'
  | 'rust'
  | 'yaml'
  | 'c'
  | 'csharp'
  | 'scala'
  | 'swift'
  | 'php'
  | 'proto'
  | 'graphql'
  | 'sql'
  | 'shell'
  | 'hcl'
  | 'toml'
  | 'ruby';

/** A comment or a string literal's text: UTF-16 offsets into the text passed, end exclusive. */
export interface TextRange {
  start: number;
  end: number;
  kind: 'comment' | 'string';
}

/**
 * Finds comments and strings. Ranges come in text order and never overlap; a string's
 * interpolations (`${...}` in a JavaScript template, `{...}` in a Python f-string) are code and
 * split it into several ranges. A character literal counts as a string. Delimiters are included
 * (`//`, `/*`, quotes, a Python string's prefix).
 */
export interface CommentAndStringFinder {
  /** The ranges, or null when the file's language is unknown to this finder (or it cannot run). */
  commentAndStringRanges(path: string, text: string): Promise<TextRange[] | null>;
}

const BY_EXTENSION: Readonly<Record<string, SourceLanguage>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  rs: 'rust',
  yaml: 'yaml',
  yml: 'yaml',
  c: 'c',
  h: 'c',
  cc: 'c',
  cpp: 'c',
  cxx: 'c',
  hpp: 'c',
  cs: 'csharp',
  scala: 'scala',
  swift: 'swift',
  php: 'php',
  proto: 'proto',
  graphql: 'graphql',
  gql: 'graphql',
  sql: 'sql',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  tf: 'hcl',
  hcl: 'hcl',
  toml: 'toml',
  rb: 'ruby',
};

/** The language of a file by its extension (`Dockerfile` reads as shell), or null. */
export function sourceLanguageOf(path: string): SourceLanguage | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/^dockerfile$|\.dockerfile$|^dockerfile\./i.test(base)) return 'shell';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null;
}

/** True when `[start, end)` lies inside one of `ranges` (sorted by start, not overlapping). */
export function insideRanges(ranges: readonly TextRange[], start: number, end: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = ranges[mid];
    if (range.end <= start) lo = mid + 1;
    else if (range.start > start) hi = mid - 1;
    else return end <= range.end;
  }
  return false;
}
