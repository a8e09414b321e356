/**
 * Loads a workspace's Backstage catalog: the root catalog files, every file their `Location`
 * entities lead to, the entities in them, the relations between those entities and every problem
 * found on the way. Never throws on content; reads only through the given `FileSource`.
 *
 * Order and identity:
 * - Files are read breadth-first: the roots in the order given, then the targets of each file's
 *   Location entities in document order. A file is read once however many Locations name it, so
 *   loops (A -> B -> A) end by themselves; `files` records how each was first reached.
 * - "Path order" is the order of entities by workspace-relative path, compared code unit by code
 *   unit (JavaScript `<`, not locale order), then by line within the file. It does not depend on
 *   the order files happened to be reached in.
 * - Entities are identified by key (the lower-cased ref). When two declarations share a key, the
 *   first in path order is kept and each later one is a `catalog.duplicate-entity` problem at its
 *   own line, naming the kept one in `related`.
 * - With a `CatalogParseCache` kept between loads, a file whose text is unchanged is not parsed
 *   again; duplicates, relations and Location targets are still worked out over every file.
 */
import type { CatalogEntity, EntityKey, Problem, Relation } from '../../model';
import type { FileSource } from '../../workspace/fileSource';
import { formatFieldPath } from './fieldPath';
import { resolveLocationTarget } from './locationTargets';
import { parseCatalogFile, type CatalogFileParse, type ParsedEntity } from './parseCatalogFile';
import { deriveRelations } from './relations';

export { renderEntityText } from './renderEntityText';

/** How a catalog file came to be read. */
export type CatalogFileReason =
  | { kind: 'root' }
  | {
      kind: 'location';
      /** Ref of the Location entity whose target matched the file. */
      location: string;
      /** File and line where that target is written. */
      path: string;
      line: number;
      /** The target as written (relative path or glob). */
      target: string;
    };

export interface CatalogFileRead {
  path: string;
  reachedBy: CatalogFileReason;
}

export interface CatalogLoad {
  /** Kept entities, in path order. */
  entities: CatalogEntity[];
  /** Both directions of every relation (relations.ts), unresolved targets included. */
  relations: Relation[];
  /** Sorted by path, line, column, code. */
  problems: Problem[];
  /** Every catalog file read, in the order read. */
  files: CatalogFileRead[];
  /** Line of each field of each kept entity, keyed by entity key then printed field path. */
  fieldLines: Record<EntityKey, Record<string, number>>;
}

function comparePathOrder(a: ParsedEntity, b: ParsedEntity): number {
  const pa = a.entity.location.path;
  const pb = b.entity.location.path;
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a.entity.location.startLine - b.entity.location.startLine;
}

function compareProblems(a: Problem, b: Problem): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return (
    a.line - b.line ||
    (a.column ?? 0) - (b.column ?? 0) ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/** `spec.target` then `spec.targets[i]`, with the field path each is written at. */
function locationTargets(spec: Record<string, unknown>): { target: string; field: string }[] {
  const out: { target: string; field: string }[] = [];
  if (typeof spec.target === 'string') out.push({ target: spec.target, field: 'spec.target' });
  if (Array.isArray(spec.targets)) {
    spec.targets.forEach((t, i) => {
      if (typeof t === 'string') out.push({ target: t, field: formatFieldPath(['spec', 'targets', i]) });
    });
  }
  return out;
}

/**
 * Parses of catalog files kept between loads, so a load after an edit parses only the files whose
 * text changed. A parse is reused only for the same path with the same text (`parseCatalogFile`
 * is a function of both); callers must not change the parses they get back.
 */
export class CatalogParseCache {
  private entries = new Map<string, { text: string; parse: CatalogFileParse }>();
  private next = new Map<string, { text: string; parse: CatalogFileParse }>();
  /** Parses run and reused since the cache was made (tests count them). */
  parses = 0;
  reuses = 0;

  /** The parse of `path` holding `text`, from the cache or parsed now. */
  parse(path: string, text: string): CatalogFileParse {
    const known = this.next.get(path) ?? this.entries.get(path);
    // Unchanged files hand back the very string they were read as: equal at pointer cost.
    if (known && known.text === text) {
      this.reuses++;
      this.next.set(path, known);
      return known.parse;
    }
    this.parses++;
    const parse = parseCatalogFile(path, text);
    this.next.set(path, { text, parse });
    return parse;
  }

  /** Ends a load: files it did not read are forgotten. */
  endLoad(): void {
    this.entries = this.next;
    this.next = new Map();
  }
}

export interface LoadCatalogOptions {
  /** Reuses the parses of files unchanged since an earlier load with the same cache. */
  parseCache?: CatalogParseCache;
}

/**
 * Reads the catalog starting from `roots` (workspace-relative paths of catalog files, typically
 * the discovered `catalog-info.yaml` files). A root the source does not have is a problem.
 */
export async function loadCatalog(source: FileSource, roots: readonly string[], options: LoadCatalogOptions = {}): Promise<CatalogLoad> {
  const cache = options.parseCache;
  const problems: Problem[] = [];
  const files: CatalogFileRead[] = [];
  const parsed: ParsedEntity[] = [];
  const queued = new Set<string>();
  const queue: CatalogFileRead[] = [];

  const enqueue = (path: string, reachedBy: CatalogFileReason): void => {
    if (queued.has(path)) return;
    queued.add(path);
    queue.push({ path, reachedBy });
  };
  for (const root of roots) enqueue(root, { kind: 'root' });

  for (let next = queue.shift(); next; next = queue.shift()) {
    const { path } = next;
    if (!source.has(path)) {
      const message = `Catalog file ${path} does not exist in the workspace`;
      problems.push({ path, line: 1, severity: 'error', code: 'catalog.missing-file', message });
      continue;
    }
    let text: string | null;
    try {
      text = await source.readText(path);
    } catch {
      // FileSource promises null on failure; a source that throws is treated the same way.
      text = null;
    }
    if (text === null) {
      const message = `Catalog file ${path} could not be read`;
      problems.push({ path, line: 1, severity: 'error', code: 'catalog.unreadable-file', message });
      continue;
    }
    files.push(next);
    const file = cache ? cache.parse(path, text) : parseCatalogFile(path, text);
    problems.push(...file.problems);
    parsed.push(...file.entities);

    for (const { entity, lines } of file.entities) {
      if (entity.kind !== 'Location') continue;
      const spec = (entity.raw.spec ?? {}) as Record<string, unknown>;
      const optional = spec.presence === 'optional';
      for (const { target, field } of locationTargets(spec)) {
        const line = lines[field] ?? entity.location.startLine;
        const resolution = resolveLocationTarget(path, target, source, optional);
        if (resolution.kind === 'problem') {
          problems.push({
            path,
            line,
            severity: resolution.severity,
            code: resolution.code,
            message: `${resolution.message} (${field} of ${entity.ref})`,
          });
        } else if (resolution.kind === 'files') {
          for (const found of resolution.paths) {
            enqueue(found, { kind: 'location', location: entity.ref, path, line, target });
          }
        }
      }
    }
  }

  const kept: ParsedEntity[] = [];
  const firstByKey = new Map<EntityKey, ParsedEntity>();
  for (const candidate of [...parsed].sort(comparePathOrder)) {
    const first = firstByKey.get(candidate.entity.key);
    if (!first) {
      firstByKey.set(candidate.entity.key, candidate);
      kept.push(candidate);
      continue;
    }
    const { location } = first.entity;
    problems.push({
      path: candidate.entity.location.path,
      line: candidate.entity.location.startLine,
      severity: 'error',
      code: 'catalog.duplicate-entity',
      message:
        `Entity ${candidate.entity.ref} is already declared at ${location.path}:${location.startLine}; ` +
        'this declaration is ignored',
      related: [
        { path: location.path, line: location.startLine, message: `First declaration of ${first.entity.ref}, which is kept` },
      ],
    });
  }

  cache?.endLoad();
  const derived = deriveRelations(kept);
  problems.push(...derived.problems);
  const fieldLines: Record<EntityKey, Record<string, number>> = {};
  for (const { entity, lines } of kept) fieldLines[entity.key] = lines;

  return {
    entities: kept.map((p) => p.entity),
    relations: derived.relations,
    problems: problems.sort(compareProblems),
    files,
    fieldLines,
  };
}
