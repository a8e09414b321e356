/**
 * Comments and strings found by a small hand-written scanner: the fallback for a platform where
 * web-tree-sitter does not load, and the reader for languages that have no grammar here (C, C#,
 * SQL, shell, Terraform, YAML...). Same interface and same answers as syntaxTree.ts on ordinary
 * code (test/unit/engine/parsing checks both on the same samples).
 *
 * One scanner, configured per language family: line comments (`//`, `#`, `--`), block comments
 * (nested where the language nests them), strings with their escapes (backslash, or a doubled
 * quote), raw and triple-quoted strings, interpolations that are code (`${...}`, Kotlin's `$name`,
 * Python f-strings' `{...}`), JavaScript regular expression literals (so a quote inside one opens
 * nothing) and shell/Terraform here-documents. Where it must guess (a `/` after `}` in JavaScript,
 * a Rust `'` that may start a lifetime) it guesses as a reader would; a wrong guess can only move
 * a ref between counted and not counted, never throw.
 */
import { sourceLanguageOf, type CommentAndStringFinder, type SourceLanguage, type TextRange } from './languages';

type Holes = 'dollarBrace' | 'kotlin' | 'pythonBrace';

interface QuoteRule {
  open: string;
  /** Defaults to `open`. */
  close?: string;
  /** How a closing quote is kept inside: `\"`, a doubled quote (`''` in SQL), or not at all. */
  escapes: 'backslash' | 'double' | 'none';
  /** False: an unterminated string ends at the line's end. */
  multiline: boolean;
  holes?: Holes;
  /** Opens only where a token may start (YAML: `it's` is a plain word). */
  tokenStart?: boolean;
}

interface Family {
  lineComments: readonly string[];
  /** `#` opens a comment only at the start of a word (shell, YAML): `a#b` is one word. */
  hashAtWordStart?: boolean;
  blockComment?: readonly [string, string];
  nestedBlocks?: boolean;
  /** Longest opener first. */
  quotes: readonly QuoteRule[];
  regexLiterals?: boolean;
  pythonPrefixes?: boolean;
  rustLiterals?: boolean;
  heredocs?: boolean;
}

const q = (
  open: string,
  escapes: QuoteRule['escapes'],
  multiline: boolean,
  more: Partial<QuoteRule> = {},
): QuoteRule => ({ open, escapes, multiline, ...more });

const C_QUOTES = [q('"', 'backslash', false), q("'", 'backslash', false)];
const C: Family = { lineComments: ['//'], blockComment: ['/*', '*/'], quotes: C_QUOTES };
const HASH_QUOTES = [q('"', 'backslash', true), q("'", 'backslash', true)];

const FAMILIES: Readonly<Record<SourceLanguage, Family>> = {
  typescript: { ...C, quotes: [...C_QUOTES, q('`', 'backslash', true, { holes: 'dollarBrace' })], regexLiterals: true },
  tsx: { ...C, quotes: [...C_QUOTES, q('`', 'backslash', true, { holes: 'dollarBrace' })], regexLiterals: true },
  javascript: { ...C, quotes: [...C_QUOTES, q('`', 'backslash', true, { holes: 'dollarBrace' })], regexLiterals: true },
  python: {
    lineComments: ['#'],
    quotes: [
      q('"""', 'backslash', true),
      q("'''", 'backslash', true),
      q('"', 'backslash', false),
      q("'", 'backslash', false),
    ],
    pythonPrefixes: true,
  },
  go: { ...C, quotes: [...C_QUOTES, q('`', 'none', true)] },
  java: { ...C, quotes: [q('"""', 'backslash', true), ...C_QUOTES] },
  kotlin: {
    ...C,
    nestedBlocks: true,
    quotes: [
      q('"""', 'none', true, { holes: 'kotlin' }),
      q('"', 'backslash', false, { holes: 'kotlin' }),
      q("'", 'backslash', false),
    ],
  },
  rust: { ...C, nestedBlocks: true, quotes: [q('"', 'backslash', true)], rustLiterals: true },
  c: C,
  proto: C,
  csharp: { ...C, quotes: [q('@"', 'double', true, { close: '"' }), ...C_QUOTES] },
  scala: { ...C, nestedBlocks: true, quotes: [q('"""', 'none', true), ...C_QUOTES] },
  swift: { ...C, nestedBlocks: true, quotes: [q('"""', 'backslash', true), q('"', 'backslash', false)] },
  php: { ...C, lineComments: ['//', '#'], quotes: HASH_QUOTES },
  yaml: {
    lineComments: ['#'],
    hashAtWordStart: true,
    quotes: [q('"', 'backslash', true, { tokenStart: true }), q("'", 'double', true, { tokenStart: true })],
  },
  graphql: { lineComments: ['#'], quotes: [q('"""', 'backslash', true), q('"', 'backslash', false)] },
  sql: { lineComments: ['--'], blockComment: ['/*', '*/'], quotes: [q("'", 'double', true), q('"', 'double', true)] },
  shell: {
    lineComments: ['#'],
    hashAtWordStart: true,
    quotes: [q('"', 'backslash', true), q("'", 'none', true)],
    heredocs: true,
  },
  hcl: { lineComments: ['#', '//'], blockComment: ['/*', '*/'], quotes: [q('"', 'backslash', false)], heredocs: true },
  toml: {
    lineComments: ['#'],
    quotes: [q('"""', 'backslash', true), q("'''", 'none', true), q('"', 'backslash', false), q("'", 'none', false)],
  },
  ruby: { lineComments: ['#'], quotes: HASH_QUOTES },
};

// Words after which a `/` starts a regular expression rather than dividing.
const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);
const PYTHON_PREFIX = /(?:[rR][bBfF]?|[bBfF][rR]?|[uU])(?=["'])/y;
const RUST_RAW = /b?r(#*)"/y;
const RUST_CHAR = /b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n\r])'/uy;
const HEREDOC = /<<([-~]?)[ \t]*(["']?)([A-Za-z_][A-Za-z0-9_]*)\2/y;

function isWordChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 36 ||
    (code > 127 && /[\p{L}\p{N}]/u.test(String.fromCharCode(code)))
  );
}

function isIdentStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f' || char === '\v';
}

class Scanner {
  readonly out: TextRange[] = [];
  private readonly heredocs: Array<{ word: string }> = [];

  constructor(
    private readonly text: string,
    private readonly family: Family,
  ) {}

  /**
   * Reads code from `at` to the end, or, with `untilBrace`, to just past the `}` that closes an
   * interpolation (braces opened inside it are counted). Returns where it stopped.
   */
  code(at: number, untilBrace: boolean): number {
    const { text, family } = this;
    let depth = 0;
    let regexAllowed = true;
    while (at < text.length) {
      const char = text[at];
      const comment = this.commentAt(at);
      if (comment > at) {
        at = comment;
        continue;
      }
      const string = this.stringAt(at);
      if (string > at) {
        at = string;
        regexAllowed = false;
        continue;
      }
      if (family.regexLiterals && char === '/' && regexAllowed) {
        at = this.regexEnd(at);
        regexAllowed = false;
        continue;
      }
      if (family.heredocs && char === '<' && text[at - 1] !== '<') {
        HEREDOC.lastIndex = at;
        const heredoc = HEREDOC.exec(text);
        if (heredoc) {
          this.heredocs.push({ word: heredoc[3] });
          at = HEREDOC.lastIndex;
          continue;
        }
      }
      if (char === '\n' && this.heredocs.length > 0) {
        at = this.heredocBodies(at + 1);
        continue;
      }
      if (untilBrace && char === '{') depth++;
      if (untilBrace && char === '}' && depth-- === 0) return at + 1;
      const code = text.charCodeAt(at);
      if (isWordChar(code)) {
        const start = at;
        while (at < text.length && isWordChar(text.charCodeAt(at))) at++;
        regexAllowed = REGEX_AFTER_WORD.has(text.slice(start, at));
        continue;
      }
      if (!isSpace(char)) regexAllowed = char !== ')' && char !== ']';
      at++;
    }
    return at;
  }

  /** The end of a comment starting at `at`, or `at` when none starts there. */
  private commentAt(at: number): number {
    const { text, family } = this;
    for (const opener of family.lineComments) {
      if (!text.startsWith(opener, at)) continue;
      if (opener === '#' && family.hashAtWordStart && at > 0 && !isSpace(text[at - 1])) continue;
      const newline = text.indexOf('\n', at);
      const end = newline < 0 ? text.length : newline;
      this.out.push({ start: at, end, kind: 'comment' });
      return end;
    }
    const block = family.blockComment;
    if (block && text.startsWith(block[0], at)) {
      let depth = 1;
      let i = at + block[0].length;
      while (i < text.length) {
        if (text.startsWith(block[1], i)) {
          i += block[1].length;
          if (--depth === 0) break;
        } else if (family.nestedBlocks && text.startsWith(block[0], i)) {
          i += block[0].length;
          depth++;
        } else {
          i++;
        }
      }
      const end = Math.min(i, text.length);
      this.out.push({ start: at, end, kind: 'comment' });
      return end;
    }
    return at;
  }

  /** The end of a string literal starting at `at` (prefix included), or `at` when none starts there. */
  private stringAt(at: number): number {
    const { text, family } = this;
    const before = at > 0 ? text.charCodeAt(at - 1) : -1;
    const wordStart = before < 0 || !isWordChar(before);
    if (family.pythonPrefixes && wordStart) {
      PYTHON_PREFIX.lastIndex = at;
      const prefix = PYTHON_PREFIX.exec(text);
      if (prefix) {
        const after = at + prefix[0].length;
        const rule = family.quotes.find((r) => text.startsWith(r.open, after));
        if (rule)
          return this.string(at, after + rule.open.length, rule, /f/i.test(prefix[0]) ? 'pythonBrace' : undefined);
      }
    }
    if (family.rustLiterals && wordStart) {
      RUST_RAW.lastIndex = at;
      const raw = RUST_RAW.exec(text);
      if (raw) {
        const close = `"${raw[1]}`;
        const end = text.indexOf(close, RUST_RAW.lastIndex);
        const stop = end < 0 ? text.length : end + close.length;
        this.out.push({ start: at, end: stop, kind: 'string' });
        return stop;
      }
      if (text.startsWith('b"', at)) return this.string(at, at + 2, family.quotes[0], undefined);
      if (text[at] === "'" || text.startsWith("b'", at)) {
        RUST_CHAR.lastIndex = at;
        // Not a character literal: a lifetime (`'a`), which is code.
        if (!RUST_CHAR.exec(text)) return at;
        this.out.push({ start: at, end: RUST_CHAR.lastIndex, kind: 'string' });
        return RUST_CHAR.lastIndex;
      }
    }
    for (const rule of family.quotes) {
      if (!text.startsWith(rule.open, at)) continue;
      if (rule.tokenStart && at > 0 && !isSpace(text[at - 1]) && !'[{,:-'.includes(text[at - 1])) continue;
      return this.string(at, at + rule.open.length, rule, rule.holes);
    }
    return at;
  }

  /** Reads a string's body from `bodyStart` to its closing quote; interpolations are code. */
  private string(start: number, bodyStart: number, rule: QuoteRule, holes: Holes | undefined): number {
    const { text } = this;
    const close = rule.close ?? rule.open;
    let segment = start;
    let i = bodyStart;
    const pushSegment = (end: number) => {
      if (end > segment) this.out.push({ start: segment, end, kind: 'string' });
    };
    while (i < text.length) {
      const char = text[i];
      if (text.startsWith(close, i)) {
        if (rule.escapes === 'double' && text.startsWith(close, i + close.length)) {
          i += 2 * close.length;
          continue;
        }
        pushSegment(i + close.length);
        return i + close.length;
      }
      if (char === '\\' && rule.escapes === 'backslash') {
        // `\{` in an f-string escapes nothing: the brace still opens an interpolation.
        i += holes === 'pythonBrace' && text[i + 1] === '{' ? 1 : 2;
        continue;
      }
      if (char === '\n' && !rule.multiline) break;
      if ((holes === 'dollarBrace' || holes === 'kotlin') && text.startsWith('${', i)) {
        pushSegment(i);
        i = this.code(i + 2, true);
        segment = i;
        continue;
      }
      if (holes === 'kotlin' && char === '$' && isIdentStart(text.charCodeAt(i + 1))) {
        pushSegment(i);
        i += 1;
        while (i < text.length && isWordChar(text.charCodeAt(i)) && text[i] !== '$') i++;
        segment = i;
        continue;
      }
      if (holes === 'pythonBrace' && char === '{') {
        if (text[i + 1] === '{') {
          i += 2;
          continue;
        }
        pushSegment(i);
        i = this.code(i + 1, true);
        segment = i;
        continue;
      }
      i++;
    }
    const end = Math.min(i, text.length);
    pushSegment(end);
    return end;
  }

  /** The end of a regular expression literal at `at`, or just past the `/` when it is not one. */
  private regexEnd(at: number): number {
    const { text } = this;
    let inClass = false;
    for (let i = at + 1; i < text.length; i++) {
      const char = text[i];
      if (char === '\n') break;
      if (char === '\\') i++;
      else if (char === '[') inClass = true;
      else if (char === ']') inClass = false;
      else if (char === '/' && !inClass) {
        i++;
        while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
        return i;
      }
    }
    return at + 1;
  }

  /** Skips the bodies of the here-documents opened on the line just ended; returns where code resumes. */
  private heredocBodies(at: number): number {
    const { text } = this;
    for (const { word } of this.heredocs.splice(0)) {
      const bodyStart = at;
      let lineStart = at;
      while (lineStart < text.length) {
        const newline = text.indexOf('\n', lineStart);
        const lineEnd = newline < 0 ? text.length : newline;
        if (text.slice(lineStart, lineEnd).trim() === word) {
          if (lineStart > bodyStart) this.out.push({ start: bodyStart, end: lineStart, kind: 'string' });
          at = lineEnd;
          break;
        }
        lineStart = lineEnd + 1;
      }
      if (lineStart >= text.length) {
        if (text.length > bodyStart) this.out.push({ start: bodyStart, end: text.length, kind: 'string' });
        return text.length;
      }
    }
    return at;
  }
}

/** The comments and strings of `text` in `language`, in text order. Never throws. */
export function scanCommentsAndStrings(language: SourceLanguage, text: string): TextRange[] {
  const scanner = new Scanner(text, FAMILIES[language]);
  scanner.code(0, false);
  return scanner.out;
}

/** The plain scanner's answer for a file: null when its language is unknown (prose, INI, ...). */
export function plainCommentAndStringRanges(path: string, text: string): TextRange[] | null {
  const language = sourceLanguageOf(path);
  return language ? scanCommentsAndStrings(language, text) : null;
}

/** The plain scanner behind the same interface as the tree-sitter service. */
export const plainComments: CommentAndStringFinder = {
  commentAndStringRanges: (path, text) => Promise.resolve(plainCommentAndStringRanges(path, text)),
};
