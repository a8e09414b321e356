/**
 * Reading a YAML mapping (front matter, `mkdocs.yml`, `folder.yaml`, packs) into plain data plus
 * problems that point at lines of the original file.
 *
 * Syntax errors make the whole mapping unusable (`data` is empty, `ok` false) because a partly
 * recovered mapping could silently drop or misplace fields. Warnings such as unknown tags
 * (`!!python/name:...` in mkdocs configs) are not problems: the value is still read.
 */
import { type Document, LineCounter, isMap, isScalar } from 'yaml';
import { parseDocumentBounded } from '../parsing/boundedYaml';
import type { Problem, Severity } from '../model';

export interface YamlMapOptions {
  /** Workspace-relative path, used in problems. */
  path: string;
  /** Lines of the file before the YAML text (front matter starts after its `---` line). Default 0. */
  lineOffset?: number;
  /** Problem code prefix, e.g. `frontmatter` gives `frontmatter.yaml` and `frontmatter.not-a-map`. */
  codePrefix: string;
  /** What the YAML is, for messages ("front matter", "mkdocs.yml"). */
  what: string;
  /** Severity of syntax problems. Default `warning`: the file is still used without this YAML. */
  severity?: Severity;
}

export interface YamlMap {
  /** The top-level mapping as plain JS; empty when missing, invalid or not a mapping. */
  data: Record<string, unknown>;
  /** False when the YAML had syntax errors or was not a mapping. */
  ok: boolean;
  /** 1-based line in the original file of each top-level key. */
  keyLines: Record<string, number>;
  problems: Problem[];
  /** Line in the original file of a character offset into the YAML text. */
  lineAt(offset: number): number;
  /** The parsed document, for callers that need positions of nested nodes. */
  document: Document.Parsed;
}

export function parseYamlMap(text: string, options: YamlMapOptions): YamlMap {
  const lineOffset = options.lineOffset ?? 0;
  const lineCounter = new LineCounter();
  const document = parseDocumentBounded(text, { lineCounter, prettyErrors: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + lineOffset;
  const problems: Problem[] = [];
  const result: YamlMap = { data: {}, ok: false, keyLines: {}, problems, lineAt, document };

  if (document.errors.length > 0) {
    for (const error of document.errors) {
      const pos = lineCounter.linePos(error.pos[0]);
      problems.push({
        path: options.path,
        line: pos.line + lineOffset,
        column: pos.col,
        severity: options.severity ?? 'warning',
        code: `${options.codePrefix}.yaml`,
        message: `Invalid YAML in ${options.what}: ${error.message}`,
      });
    }
    return result;
  }
  const contents = document.contents;
  if (contents === null || (isScalar(contents) && (contents.value === null || contents.value === ''))) {
    result.ok = true;
    return result;
  }
  if (!isMap(contents)) {
    problems.push({
      path: options.path,
      line: lineAt(contents.range?.[0] ?? 0),
      severity: options.severity ?? 'warning',
      code: `${options.codePrefix}.not-a-map`,
      message: `The ${options.what} must be a mapping of keys to values.`,
    });
    return result;
  }
  for (const pair of contents.items) {
    if (isScalar(pair.key) && pair.key.range) result.keyLines[String(pair.key.value)] = lineAt(pair.key.range[0]);
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // Alias bombs and similar: refuse the value rather than let the parser throw.
    problems.push({
      path: options.path,
      line: lineAt(0),
      severity: options.severity ?? 'warning',
      code: `${options.codePrefix}.yaml`,
      message: `Unreadable YAML in ${options.what}: ${error instanceof Error ? error.message : String(error)}`,
    });
    return result;
  }
  result.data = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  result.ok = true;
  return result;
}
