/**
 * The value a JavaScript or TypeScript module exports, read without running it: a conservative
 * static reader for configuration files that are object literals in practice (Docusaurus's
 * `sidebars.js` / `sidebars.ts`). The workspace is untrusted input, so nothing is evaluated.
 *
 * It reads `module.exports = ...`, `export default ...` and `export = ...`, and the `const` /
 * `let` / `var` declarations before them, so `const sidebars = {...}; export default sidebars;`
 * reads as the literal. Values it reads: object and array literals (spreads of declared literals
 * included), strings, templates without `${}`, numbers, booleans, `null`, `undefined`, and names
 * of declared literals. Type annotations, `as ...` and `satisfies ...` are skipped; imports are
 * skipped. Anything else (a call, a condition, `process.env`, a spread of something computed) is
 * a `Computed` value with its line: the caller gives up on that part and says so, and reads the
 * rest.
 */

/** A part of the value that would need the code to run: where it is and how it starts. */
export class Computed {
  constructor(
    /** 1-based line of the expression. */
    readonly line: number,
    /** Its first characters, for a message. */
    readonly text: string,
  ) {}
}

export type JsValue = string | number | boolean | null | undefined | JsValue[] | { [key: string]: JsValue } | Computed;

export interface ExportedValue {
  /** The exported value, or null when the module exports nothing this reader finds. */
  value: JsValue | null;
  /** 1-based line of the export. */
  line: number;
}

interface Token {
  kind: 'string' | 'template' | 'number' | 'name' | 'punct';
  text: string;
  /** A string's value. */
  value?: string;
  line: number;
}

/** The module's default export (see the module notes). Never throws. */
export function readExportedValue(source: string): ExportedValue {
  const tokens = tokenize(source);
  const reader = new Reader(tokens, source);
  return reader.readModule();
}

const STATEMENT_STARTS = new Set([
  'const',
  'let',
  'var',
  'export',
  'import',
  'module',
  'type',
  'interface',
  'function',
  'class',
  'declare',
]);
const PUNCTUATORS = ['...', '=>', '?.', '??', '===', '!==', '==', '!=', '<=', '>=', '&&', '||', '::'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const ch = source[i];
    if (ch === '\n') {
      line++;
      i++;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\uFEFF') {
      i++;
      continue;
    }
    if (ch === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (ch === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let k = i; k < stop; k++) if (source[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      const start = i;
      const startLine = line;
      let value = '';
      let hole = false;
      i++;
      while (i < n && source[i] !== ch) {
        if (source[i] === '\\' && i + 1 < n) {
          value += unescapeChar(source[i + 1]);
          i += 2;
          continue;
        }
        if (ch === '`' && source[i] === '$' && source[i + 1] === '{') hole = true;
        if (source[i] === '\n') {
          if (ch !== '`') break;
          line++;
        }
        value += source[i];
        i++;
      }
      i++;
      tokens.push({
        kind: ch === '`' && hole ? 'template' : 'string',
        text: source.slice(start, Math.min(i, n)),
        value,
        line: startLine,
      });
      continue;
    }
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const match = /^(?:0[xXbBoO][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+)/.exec(
        source.slice(i, i + 64),
      );
      const text = match ? match[0] : ch;
      tokens.push({ kind: 'number', text, line });
      i += text.length;
      continue;
    }
    if (/[A-Za-z_$]/.test(ch)) {
      const match = /^[A-Za-z_$][\w$]*/.exec(source.slice(i, i + 256))!;
      tokens.push({ kind: 'name', text: match[0], line });
      i += match[0].length;
      continue;
    }
    const punct = PUNCTUATORS.find((p) => source.startsWith(p, i)) ?? ch;
    tokens.push({ kind: 'punct', text: punct, line });
    i += punct.length;
  }
  return tokens;
}

function unescapeChar(ch: string): string {
  switch (ch) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case '\n':
      return '';
    default:
      return ch;
  }
}

class Reader {
  private pos = 0;
  private readonly declared = new Map<string, JsValue>();

  constructor(
    private readonly tokens: readonly Token[],
    private readonly source: string,
  ) {}

  readModule(): ExportedValue {
    let exported: ExportedValue = { value: null, line: 1 };
    while (this.pos < this.tokens.length) {
      const token = this.tokens[this.pos];
      if (token.kind === 'name' && (token.text === 'const' || token.text === 'let' || token.text === 'var')) {
        this.pos++;
        this.readDeclarations();
        continue;
      }
      if (token.kind === 'name' && token.text === 'export') {
        const next = this.tokens[this.pos + 1];
        if (next?.text === 'default' || next?.text === '=') {
          this.pos += 2;
          exported = { value: this.readValue(), line: token.line };
          continue;
        }
        this.pos++;
        continue;
      }
      if (
        token.kind === 'name' &&
        token.text === 'module' &&
        this.peekText(1) === '.' &&
        this.peekText(2) === 'exports' &&
        this.peekText(3) === '='
      ) {
        this.pos += 4;
        exported = { value: this.readValue(), line: token.line };
        continue;
      }
      this.skipStatement();
    }
    return exported;
  }

  /** `name [: Type] = value, ...` after `const`/`let`/`var`. */
  private readDeclarations(): void {
    for (;;) {
      const name = this.tokens[this.pos];
      if (name?.kind !== 'name') return this.skipStatement();
      this.pos++;
      if (this.peekText(0) === ':') this.skipType(['=', ',', ';']);
      if (this.peekText(0) !== '=') return this.skipStatement();
      this.pos++;
      this.declared.set(name.text, this.readValue());
      if (this.peekText(0) !== ',') return;
      this.pos++;
    }
  }

  private readValue(): JsValue {
    const token = this.tokens[this.pos];
    if (!token) return undefined;
    let value: JsValue;
    if (token.text === '{' && token.kind === 'punct') value = this.readObject();
    else if (token.text === '[' && token.kind === 'punct') value = this.readArray();
    else if (token.text === '(' && token.kind === 'punct') {
      this.pos++;
      value = this.readValue();
      if (this.peekText(0) === ')') this.pos++;
      else value = this.computedFrom(token);
    } else if (token.kind === 'string') {
      this.pos++;
      value = token.value ?? '';
    } else if (token.kind === 'number') {
      this.pos++;
      value = Number(token.text.replace(/_/g, ''));
    } else if (token.kind === 'name' && ['true', 'false', 'null', 'undefined'].includes(token.text)) {
      this.pos++;
      value = token.text === 'true' ? true : token.text === 'false' ? false : token.text === 'null' ? null : undefined;
    } else if (token.kind === 'name' && this.declared.has(token.text) && this.endsValue(this.tokens[this.pos + 1])) {
      this.pos++;
      value = this.declared.get(token.text);
    } else {
      return this.computedFrom(token);
    }
    // `as const`, `as Type`, `satisfies Type`: types say nothing of the value.
    while (this.peekText(0) === 'as' || this.peekText(0) === 'satisfies') {
      this.pos++;
      this.skipType([',', ';', '}', ']', ')']);
    }
    if (!this.endsValue(this.tokens[this.pos])) return this.computedFrom(token);
    return value;
  }

  private readObject(): JsValue {
    const open = this.tokens[this.pos];
    this.pos++;
    const object: { [key: string]: JsValue } = {};
    while (this.pos < this.tokens.length && this.peekText(0) !== '}') {
      const token = this.tokens[this.pos];
      if (token.text === '...' && token.kind === 'punct') {
        this.pos++;
        const spread = this.readValue();
        if (spread !== null && typeof spread === 'object' && !Array.isArray(spread) && !(spread instanceof Computed))
          Object.assign(object, spread);
        else object[`...${token.line}`] = spread instanceof Computed ? spread : new Computed(token.line, '...');
      } else if (token.kind === 'name' || token.kind === 'string' || token.kind === 'number') {
        const key = token.kind === 'string' ? (token.value ?? '') : token.text;
        this.pos++;
        if (this.peekText(0) === ':') {
          this.pos++;
          object[key] = this.readValue();
        } else if (this.peekText(0) === ',' || this.peekText(0) === '}') {
          object[key] = this.declared.has(key) ? this.declared.get(key) : new Computed(token.line, key);
        } else {
          // A method or an accessor: code.
          object[key] = this.computedFrom(token);
        }
      } else {
        object[`?${token.line}`] = this.computedFrom(token);
      }
      if (this.peekText(0) === ',') this.pos++;
      else if (this.peekText(0) !== '}') return this.computedFrom(open, true);
    }
    this.pos++;
    return object;
  }

  private readArray(): JsValue {
    const open = this.tokens[this.pos];
    this.pos++;
    const array: JsValue[] = [];
    while (this.pos < this.tokens.length && this.peekText(0) !== ']') {
      const token = this.tokens[this.pos];
      if (token.text === '...' && token.kind === 'punct') {
        this.pos++;
        const spread = this.readValue();
        if (Array.isArray(spread)) for (const item of spread) array.push(item);
        else array.push(spread instanceof Computed ? spread : new Computed(token.line, '...'));
      } else {
        array.push(this.readValue());
      }
      if (this.peekText(0) === ',') this.pos++;
      else if (this.peekText(0) !== ']') return this.computedFrom(open, true);
    }
    this.pos++;
    return array;
  }

  /**
   * A `Computed` for the expression starting at `token`, moving past it: to the `,`, `;` or
   * closing bracket that ends it at its own depth. `enclosing`: the token opened a literal the
   * reader could not finish; skip to its own closing bracket.
   */
  private computedFrom(token: Token, enclosing = false): Computed {
    const start = this.tokens.indexOf(token);
    this.pos = start;
    let depth = 0;
    for (; this.pos < this.tokens.length; this.pos++) {
      const t = this.tokens[this.pos];
      if (t.kind !== 'punct') continue;
      if (t.text === '{' || t.text === '[' || t.text === '(') depth++;
      else if (t.text === '}' || t.text === ']' || t.text === ')') {
        if (depth === 0) break;
        depth--;
        if (enclosing && depth === 0) {
          this.pos++;
          break;
        }
      } else if (depth === 0 && (t.text === ',' || t.text === ';')) break;
    }
    const text = this.source.split('\n')[token.line - 1]?.trim().slice(0, 60) ?? token.text;
    return new Computed(token.line, text);
  }

  /** True when `token` can follow a complete value (so `a.b`, `f()` and `a ? b : c` are not values). */
  private endsValue(token: Token | undefined): boolean {
    return (
      token === undefined ||
      (token.kind === 'punct' && [',', ';', '}', ']', ')'].includes(token.text)) ||
      STATEMENT_STARTS.has(token.text) ||
      token.text === 'as' ||
      token.text === 'satisfies'
    );
  }

  /** Skips a type: to one of `stops` at depth 0 (brackets and angle brackets counted). */
  private skipType(stops: readonly string[]): void {
    let depth = 0;
    if (this.peekText(0) === ':') this.pos++;
    for (; this.pos < this.tokens.length; this.pos++) {
      const t = this.tokens[this.pos];
      if (t.kind !== 'punct') {
        if (
          depth === 0 &&
          t.kind === 'name' &&
          STATEMENT_STARTS.has(t.text) &&
          this.tokens[this.pos - 1]?.line !== t.line
        )
          return;
        continue;
      }
      if (depth === 0 && stops.includes(t.text)) return;
      if ('{[(<'.includes(t.text)) depth++;
      else if ('}])>'.includes(t.text)) {
        if (depth === 0) return;
        depth--;
      }
    }
  }

  /** Skips to the end of a statement: a `;` at depth 0, or the next statement keyword at depth 0 on a new line. */
  private skipStatement(): void {
    let depth = 0;
    const startLine = this.tokens[this.pos]?.line ?? 0;
    this.pos++;
    for (; this.pos < this.tokens.length; this.pos++) {
      const t = this.tokens[this.pos];
      if (t.kind === 'punct') {
        if ('{[('.includes(t.text)) depth++;
        else if ('}])'.includes(t.text)) depth = Math.max(0, depth - 1);
        else if (t.text === ';' && depth === 0) {
          this.pos++;
          return;
        }
      } else if (depth === 0 && t.kind === 'name' && STATEMENT_STARTS.has(t.text) && t.line !== startLine) {
        const previous = this.tokens[this.pos - 1];
        if (previous && previous.text !== '.' && previous.line !== t.line) return;
      }
    }
  }

  private peekText(offset: number): string | undefined {
    return this.tokens[this.pos + offset]?.text;
  }
}
