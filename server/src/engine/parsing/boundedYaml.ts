/**
 * YAML from the workspace parsed in time and memory proportional to its size.
 *
 * The `yaml` package checks that a mapping's keys are unique by comparing each new key with every
 * earlier one: a catalog file of 130,000 keys took minutes. Its composer also recurses once per
 * level of nesting; tens of thousands of nested `[` in a small file exhaust V8's stack in a way
 * that can end the process. So every YAML parse of workspace text goes through here:
 *
 * - flow nesting is measured on the lexer's tokens first (linear), and a document nested deeper
 *   than {@link MAX_YAML_NESTING} levels is not composed at all;
 * - documents are composed with `uniqueKeys: false`, and duplicate keys are found afterwards with
 *   one set per mapping, reported exactly as `yaml` reports them (`DUPLICATE_KEY`, "Map keys must
 *   be unique", at the later key);
 * - a composed document nested deeper than the same limit (block nesting) gets an error too;
 * - a quoted string or a flow `[`/`{` that is never closed is reported where it opens: `yaml`
 *   reports it where the text ends, which for an unclosed quote is the end of the file.
 *
 * Callers read `doc.errors` as before: a document with an error is skipped with a problem at its
 * line. Nothing here throws on content.
 */
import {
  Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  parseAllDocuments,
  parseDocument,
  YAMLParseError,
  type DocumentOptions,
  type Node as YamlNode,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';

/** Deepest nesting of mappings and lists accepted in a YAML document (or in a `$json` value). */
export const MAX_YAML_NESTING = 100;

export type BoundedYamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

const DEPTH_MESSAGE = `Nested deeper than ${MAX_YAML_NESTING} levels of mappings and lists`;

/** Every document of `text` (as `yaml`'s parseAllDocuments), bounded as described above. */
export function parseAllDocumentsBounded(text: string, options: BoundedYamlOptions = {}): Document.Parsed[] {
  const lineCounter = options.lineCounter ?? new LineCounter();
  const tooDeep = flowOverflowOffset(text);
  if (tooDeep >= 0) return [refusedDocument(text, tooDeep, options, lineCounter)];
  const parsed = parseAllDocuments(text, { ...options, lineCounter, uniqueKeys: false });
  const docs = (Array.isArray(parsed) ? parsed : [parsed]) as Document.Parsed[];
  for (const doc of docs) {
    checkDocument(doc, options, lineCounter);
    placeUnclosed(doc, options, lineCounter);
  }
  return docs;
}

/** One document (as `yaml`'s parseDocument), bounded as described above. */
export function parseDocumentBounded(text: string, options: BoundedYamlOptions = {}): Document.Parsed {
  const lineCounter = options.lineCounter ?? new LineCounter();
  const tooDeep = flowOverflowOffset(text);
  if (tooDeep >= 0) return refusedDocument(text, tooDeep, options, lineCounter);
  const doc = parseDocument(text, { ...options, lineCounter, uniqueKeys: false }) as Document.Parsed;
  checkDocument(doc, options, lineCounter);
  placeUnclosed(doc, options, lineCounter);
  return doc;
}

/** The value of one YAML document, as `yaml`'s `parse`: throws the first error, if any. */
export function parseYamlValue(text: string, options: BoundedYamlOptions = {}): unknown {
  const doc = parseDocumentBounded(text, options);
  if (doc.errors.length > 0) throw doc.errors[0];
  return doc.toJS({ maxAliasCount: 100 });
}

/**
 * True when `value` (plain data: arrays and objects) is nested deeper than
 * {@link MAX_YAML_NESTING} levels. Iterative, and stops at the first path past the limit.
 */
export function exceedsNesting(value: unknown, limit = MAX_YAML_NESTING): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    const children = Array.isArray(item) ? item : Object.values(item as Record<string, unknown>);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Offset of the first flow `[` or `{` nested past the limit, or -1. Linear in the text. */
function flowOverflowOffset(text: string): number {
  // Fewer openers than the limit cannot nest past it: most files never reach the lexer here.
  let openers = 0;
  for (let i = 0; i < text.length && openers <= MAX_YAML_NESTING; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) openers++;
  }
  if (openers <= MAX_YAML_NESTING) return -1;
  let depth = 0;
  let offset = 0;
  let afterScalarMark = false;
  for (const token of new Lexer().lex(text)) {
    // The lexer's control tokens (document start, scalar mark...) are not source text.
    const control =
      token.length === 1 && token.charCodeAt(0) < 0x20 && token !== '\n' && token !== '\t' && token !== '\r';
    if (!afterScalarMark) {
      if (token === '[' || token === '{') {
        if (++depth > MAX_YAML_NESTING) return offset;
      } else if ((token === ']' || token === '}') && depth > 0) {
        depth--;
      }
    }
    afterScalarMark = token === '\u001f';
    if (!control) offset += token.length;
  }
  return -1;
}

/** A document that was not composed, with one error at `offset`. */
function refusedDocument(
  text: string,
  offset: number,
  options: BoundedYamlOptions,
  lineCounter: LineCounter,
): Document.Parsed {
  // The line counter must know the text's lines, as after a real parse.
  if (lineCounter.lineStarts.length === 0) {
    lineCounter.addNewLine(0);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
  }
  const doc = new Document(null, options) as Document.Parsed;
  doc.range = [0, text.length, text.length];
  doc.errors.push(
    positioned(new YAMLParseError([offset, offset + 1], 'IMPOSSIBLE', DEPTH_MESSAGE), options, lineCounter),
  );
  return doc;
}

/** Duplicate keys and block nesting past the limit, as errors of `doc`. */
function checkDocument(doc: Document.Parsed, options: BoundedYamlOptions, lineCounter: LineCounter): void {
  const found: YAMLParseError[] = [];
  const stack: [unknown, number][] = [[doc.contents, 0]];
  let deep = false;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (isAlias(node) || !(isMap(node) || isSeq(node))) continue;
    if (depth >= MAX_YAML_NESTING && !deep) {
      deep = true;
      const at = (node as YamlNode).range?.[0] ?? 0;
      found.push(positioned(new YAMLParseError([at, at + 1], 'IMPOSSIBLE', DEPTH_MESSAGE), options, lineCounter));
      continue;
    }
    if (deep) continue;
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        if (isScalar(key) && !(typeof key.value === 'number' && Number.isNaN(key.value))) {
          const identity = scalarIdentity(key.value);
          if (seen.has(identity)) {
            const at = key.range?.[0] ?? 0;
            found.push(
              positioned(
                new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'),
                options,
                lineCounter,
              ),
            );
          } else {
            seen.add(identity);
          }
        } else if (key) {
          stack.push([key, depth + 1]);
        }
        stack.push([pair.value, depth + 1]);
      }
    } else {
      for (const item of node.items) stack.push([isPair(item) ? item.value : item, depth + 1]);
    }
  }
  if (found.length === 0) return;
  // In the order of the text, among the parser's own errors, as `yaml` reports them.
  const all = [...doc.errors, ...found].sort((a, b) => a.pos[0] - b.pos[0]);
  doc.errors.splice(0, doc.errors.length, ...all);
}

/** `yaml`'s message for a quote it never found closed ("Missing closing "quote"). */
const UNCLOSED_QUOTE = /^Missing closing (["'])quote/;
/** `yaml`'s message for a flow collection whose closing bracket it never found. */
const UNCLOSED_FLOW = /^Flow (sequence|map) in block collection must be sufficiently indented and end with a ([\]}])/;

/**
 * Moves the errors of unclosed quoted strings and flow collections to where they open. `yaml`
 * puts them where the scalar or collection it composed ends: an unclosed quote swallows the rest
 * of the document, so the error lands on the last line, far from the mistake. The composed node
 * still starts at the opening quote or bracket, and ends exactly where the error is reported.
 */
function placeUnclosed(doc: Document.Parsed, options: BoundedYamlOptions, lineCounter: LineCounter): void {
  const unclosed = doc.errors.filter(
    (e) =>
      (e.code === 'MISSING_CHAR' && UNCLOSED_QUOTE.test(e.message)) ||
      (e.code === 'BAD_INDENT' && UNCLOSED_FLOW.test(e.message)),
  );
  if (unclosed.length === 0) return;
  // Where each quoted scalar and flow collection ends -> where it starts (the last to end there wins: the innermost).
  const quotedEnds = new Map<number, { start: number; quote: string }>();
  const flowEnds = new Map<number, number>();
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isPair(node)) {
      stack.push(node.key, node.value);
    } else if (isScalar(node)) {
      const range = node.range;
      if (range && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'))
        quotedEnds.set(range[1], { start: range[0], quote: node.type === 'QUOTE_DOUBLE' ? '"' : "'" });
    } else if (isMap(node) || isSeq(node)) {
      if (node.flow && node.range) flowEnds.set(node.range[1], node.range[0]);
      for (const item of node.items) stack.push(item);
    }
  }
  const placed = doc.errors.map((error) => {
    if (!unclosed.includes(error)) return error;
    const end = error.pos[0];
    const quote = UNCLOSED_QUOTE.exec(error.message);
    if (quote) {
      const opened = quotedEnds.get(end);
      if (!opened || opened.quote !== quote[1]) return error;
      return positioned(
        new YAMLParseError(
          [opened.start, opened.start + 1],
          error.code,
          `Missing closing ${quote[1]}quote: the string that opens here is never closed`,
        ),
        options,
        lineCounter,
      );
    }
    const flow = UNCLOSED_FLOW.exec(error.message);
    const start = flowEnds.get(end);
    if (!flow || start === undefined) return error;
    return positioned(
      new YAMLParseError(
        [start, start + 1],
        error.code,
        `Missing closing ${flow[2]}: the flow ${flow[1]} that opens here is never closed`,
      ),
      options,
      lineCounter,
    );
  });
  doc.errors.splice(0, doc.errors.length, ...placed.sort((a, b) => a.pos[0] - b.pos[0]));
}

/**
 * What `yaml` compares keys by (`===` on the scalar's value): strings and other values apart,
 * so the key `1` and the key `"1"` stay different as they do there.
 */
function scalarIdentity(value: unknown): unknown {
  return typeof value === 'string' ? `s:${value}` : value;
}

/** The error with its line and column, and the position in its message when `prettyErrors`. */
function positioned(error: YAMLParseError, options: BoundedYamlOptions, lineCounter: LineCounter): YAMLParseError {
  error.linePos = [lineCounter.linePos(error.pos[0]), lineCounter.linePos(error.pos[1])];
  if (options.prettyErrors !== false)
    error.message += ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`;
  return error;
}
