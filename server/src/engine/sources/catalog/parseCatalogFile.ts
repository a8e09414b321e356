/**
 * One catalog file -> the entities it declares, where each one and each of its fields is written,
 * and problems. Never throws.
 *
 * A file holds any number of YAML documents. As Backstage's `parseEntityYaml` does, a document with
 * a YAML error is dropped (one problem, at the error's line), an empty document (a stray `---`, a
 * file of comments) is ignored, and a document that is not a mapping is a problem. Each remaining
 * document is validated (validateEntity.ts); an invalid one becomes one problem per broken field,
 * at that field's line, and is skipped. The other documents of the file load either way.
 */
import { isCollection, isMap, isScalar, isSeq, LineCounter, type Document, type Node as YamlNode } from 'yaml';
import type { CatalogEntity, Problem } from '../../model';
import { parseAllDocumentsBounded } from '../../parsing/boundedYaml';
import { entityKey, printEntityRef } from './entityRef';
import { describeValue, formatFieldPath, type FieldPath } from './fieldPath';
import { findPlaceholders, standInForPlaceholders, type Placeholder } from './placeholders';
import { validateEntity, type ValidEntity } from './validateEntity';

/** An entity as read from its file. */
export interface ParsedEntity {
  entity: CatalogEntity;
  /**
   * Line of every field in the document, keyed by printed path (`spec.owner`,
   * `spec.dependsOn[1]`, `metadata.annotations["backstage.io/techdocs-ref"]`). A scalar or flow
   * value's line is where the value starts; a block mapping's or list's is its key's line.
   */
  lines: Record<string, number>;
  /**
   * Placeholders (`$text`, `$openapi`...) still in `entity.raw`, in document order; loadCatalog.ts
   * resolves them against the workspace. Validation here used stand-ins for them.
   */
  placeholders: Placeholder[];
}

export interface CatalogFileParse {
  entities: ParsedEntity[];
  problems: Problem[];
}

/** Walks a document's node tree and records the line of every field. */
function collectLines(root: unknown, lineCounter: LineCounter): Record<string, number> {
  const lines: Record<string, number> = {};
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;
  const visit = (node: unknown, path: FieldPath): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key) || !pair.key.range) continue;
        const childPath = [...path, String(pair.key.value)];
        const value = pair.value as YamlNode | null;
        const inline = value?.range && (isScalar(value) || (isCollection(value) && value.flow));
        lines[formatFieldPath(childPath)] = lineAt(inline ? value.range![0] : pair.key.range[0]);
        visit(value, childPath);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const childPath = [...path, i];
        const range = (item as YamlNode | null)?.range;
        if (range) lines[formatFieldPath(childPath)] = lineAt(range[0]);
        visit(item, childPath);
      });
    }
  };
  visit(root, []);
  return lines;
}

/** Most alias expansions a document may make (the `yaml` package's default). */
const MAX_ALIAS_COUNT = 100;

const SKIPPED_LINE = /^(\s*|---\s*(#.*)?|\.\.\.\s*|%.*)$/;

/**
 * First and last line of a document: from its first line that is not blank, a `---` marker or a
 * directive (comments right above the entity count as the entity's) to the last line of its
 * content.
 */
function documentLines(
  doc: Document.Parsed,
  spanStart: number,
  text: string,
  textLines: readonly string[],
  lineCounter: LineCounter,
): { startLine: number; endLine: number } {
  const contentEnd = doc.contents?.range?.[1] ?? doc.range[1];
  let end = Math.min(contentEnd, text.length) - 1;
  while (end > spanStart && /\s/.test(text[end])) end--;
  const endLine = lineCounter.linePos(Math.max(end, spanStart)).line;
  let startLine = lineCounter.linePos(spanStart).line;
  while (startLine < endLine && SKIPPED_LINE.test(textLines[startLine - 1] ?? '')) startLine++;
  return { startLine, endLine };
}

/** The first line of a `yaml` error message, without the position it repeats. */
function yamlMessage(error: { message: string }): string {
  return error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

/** Line of a field, or of its nearest ancestor that is written, or of the document. */
export function lineOfField(path: FieldPath, lines: Record<string, number>, fallback: number): number {
  for (let n = path.length; n > 0; n--) {
    const line = lines[formatFieldPath(path.slice(0, n))];
    if (line !== undefined) return line;
  }
  return fallback;
}

function stringRecord(value: unknown): Record<string, string> {
  return typeof value === 'object' && value !== null ? { ...(value as Record<string, string>) } : {};
}

/** The engine's entity for a validated one; `raw` is the document as read (placeholders resolved). */
export function toCatalogEntity(
  valid: ValidEntity,
  raw: Record<string, unknown>,
  location: CatalogEntity['location'],
): CatalogEntity {
  const { metadata, spec } = valid;
  const ref = printEntityRef(valid);
  const entity: CatalogEntity = {
    ref,
    key: entityKey(valid),
    kind: valid.kind,
    namespace: valid.namespace,
    name: valid.name,
    apiVersion: valid.apiVersion,
    tags: Array.isArray(metadata.tags) ? [...(metadata.tags as string[])] : [],
    annotations: stringRecord(metadata.annotations),
    labels: stringRecord(metadata.labels),
    raw,
    location,
  };
  if (typeof metadata.title === 'string') entity.title = metadata.title;
  if (typeof metadata.description === 'string') entity.description = metadata.description;
  if (typeof spec.type === 'string') entity.type = spec.type;
  if (typeof spec.lifecycle === 'string') entity.lifecycle = spec.lifecycle;
  return entity;
}

/** What to call an entity in a problem before it is known to be valid. */
function entityLabel(data: Record<string, unknown>, startLine: number): string {
  const metadata = data.metadata as Record<string, unknown> | undefined;
  const name = typeof metadata?.name === 'string' ? metadata.name : undefined;
  const kind = typeof data.kind === 'string' ? data.kind : undefined;
  if (kind && name) return `${kind} "${name}"`;
  return `the entity at line ${startLine}`;
}

/**
 * Parses one catalog file. `path` is the workspace-relative path used in entities and problems.
 * YAML merge keys (`<<`) are off, as in Backstage's default parser.
 */
export function parseCatalogFile(path: string, text: string): CatalogFileParse {
  const lineCounter = new LineCounter();
  const entities: ParsedEntity[] = [];
  const problems: Problem[] = [];
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocumentsBounded(text, { lineCounter, merge: false, prettyErrors: true });
  } catch (e) {
    // The parser reports syntax errors per document; this only guards against the unexpected.
    const message = `YAML error: ${(e as Error).message}; the file is skipped`;
    problems.push({ path, line: 1, severity: 'error', code: 'yaml.syntax', message });
    return { entities, problems };
  }
  const textLines = text.split('\n');

  docs.forEach((doc, index) => {
    // The first document owns the file's leading comments; later ones start at their `---`.
    const spanStart = index === 0 ? 0 : doc.range[0];
    if (doc.errors.length > 0) {
      const error = doc.errors[0];
      const pos = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
      problems.push({
        path,
        line: pos.line,
        column: pos.col,
        severity: 'error',
        code: 'yaml.syntax',
        message: `YAML error: ${yamlMessage(error)}; this document is skipped`,
      });
      return;
    }
    for (const warning of doc.warnings) {
      const pos = warning.linePos?.[0] ?? lineCounter.linePos(warning.pos[0]);
      problems.push({
        path,
        line: pos.line,
        column: pos.col,
        severity: 'warning',
        code: 'yaml.warning',
        message: `YAML warning: ${yamlMessage(warning)}`,
      });
    }
    const { startLine, endLine } = documentLines(doc, spanStart, text, textLines, lineCounter);
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      // Only alias expansion can fail here (a "billion laughs" document); keep the rest of the file.
      const message = `YAML error: ${(e as Error).message}; this document is skipped`;
      problems.push({ path, line: startLine, severity: 'error', code: 'yaml.syntax', message });
      return;
    }
    if (data === null || data === undefined) return;
    if (typeof data !== 'object' || Array.isArray(data)) {
      problems.push({
        path,
        line: startLine,
        severity: 'error',
        code: 'catalog.not-an-entity',
        message:
          'Expected an entity (a mapping with apiVersion, kind, metadata, spec) at the document root, ' +
          `found ${describeValue(data)}`,
      });
      return;
    }
    const raw = data as Record<string, unknown>;
    const lines = collectLines(doc.contents, lineCounter);
    // Placeholders are resolved before validation in Backstage; validate with stand-ins for them.
    const result = validateEntity(standInForPlaceholders(raw));
    for (const warning of result.warnings) {
      problems.push({
        path,
        line: lineOfField(warning.path, lines, startLine),
        severity: 'warning',
        code: 'catalog.kind-case',
        message: warning.message,
      });
    }
    if (!result.ok) {
      const label = entityLabel(raw, startLine);
      for (const error of result.errors) {
        problems.push({
          path,
          line: lineOfField(error.path, lines, startLine),
          severity: 'error',
          code: 'catalog.invalid-entity',
          message: `${error.message} (${label} is not indexed)`,
        });
      }
      return;
    }
    entities.push({
      entity: toCatalogEntity(result.entity, raw, { path, startLine, endLine }),
      lines,
      placeholders: findPlaceholders(raw),
    });
  });
  return { entities, problems };
}
