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
import { GlobBudget } from '../../workspace/globBudget';
import {
  lineOfField,
  parseCatalogFile,
  toCatalogEntity,
  type CatalogFileParse,
  type ParsedEntity,
} from './parseCatalogFile';
import { resolveEntityPlaceholders, standInForPlaceholders } from './placeholders';
import { deriveRelations, RelationCache } from './relations';
import { validateEntity } from './validateEntity';

export { renderEntityText } from './renderEntityText';

/** How a catalog file came to be read. */
export type CatalogFileReason =
  | { kind: 'root' }
  /** Found by its content (Backstage apiVersion and a kind) among the candidates; see {@link looksLikeCatalogFile}. */
  | { kind: 'discovered' }
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

export function compareProblems(a: Problem, b: Problem): number {
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
  /** Relations per entity object (relations.ts), so unchanged entities' refs are parsed once. */
  readonly relations = new RelationCache();
  /** Resolved placeholders per parsed entity, valid while the files they read are unchanged. */
  readonly placeholders = new WeakMap<ParsedEntity, PlaceholderEntry>();
  /** The content check of each candidate file, for the text it was made on. */
  private checks = new Map<string, { text: string; catalog: boolean }>();
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

  /**
   * The parse of one file changed since the last load, kept with the others' (an update that
   * reads only that file, catalogUpdate.ts, has no load to end).
   */
  reparse(path: string, text: string): CatalogFileParse {
    const known = this.entries.get(path);
    if (known && known.text === text) {
      this.reuses++;
      return known.parse;
    }
    this.parses++;
    const parse = parseCatalogFile(path, text);
    this.entries.set(path, { text, parse });
    return parse;
  }

  /** {@link looksLikeCatalogFile} of `text`, remembered per path while the text is the same. */
  looksLikeCatalog(path: string, text: string): boolean {
    const known = this.checks.get(path);
    if (known && known.text === text) return known.catalog;
    const catalog = looksLikeCatalogFile(text);
    this.checks.set(path, { text, catalog });
    return catalog;
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
  /**
   * Other YAML files that may hold entities although no root or Location names them (every YAML
   * file of the workspace, by default). Each is read and checked cheaply
   * ({@link looksLikeCatalogFile}); those that pass are loaded, and those no Location names get a
   * `catalog.unregistered-file` info problem saying how to register them.
   */
  candidates?: readonly string[];
  /** Called between files: gives the host's requests a turn (indexing/eventLoopTurns.ts). */
  turns?: { maybe(): Promise<void> };
  /** The glob work Location targets may do (workspace/globBudget.ts); default: a fresh budget per load. */
  globBudget?: GlobBudget;
  /** Hears how the load was made, for updating it later file by file (catalogUpdate.ts). */
  onDetails?: (details: CatalogLoadDetails) => void;
}

/** In `placeholderPaths`: a placeholder failed before saying what it read. */
export const UNKNOWN_READS = '\u0000unknown';

/** How a load was made: what catalogUpdate.ts needs to patch it when one file changes. */
export interface CatalogLoadDetails {
  load: CatalogLoad;
  /** Each file's entities as loaded (placeholders resolved), by path. */
  parsedByFile: ReadonlyMap<string, readonly ParsedEntity[]>;
  /** The kept entities in path order, with their field lines. */
  kept: readonly ParsedEntity[];
  /** Where each kept entity's relations start in `load.relations` (relations.ts `starts`). */
  starts: readonly number[];
  /** Files holding an entity with placeholders, and every file a placeholder read. */
  placeholderPaths: ReadonlySet<string>;
}

// A top-level `apiVersion` in Backstage's API group (`backstage.io/v1alpha1`,
// `scaffolder.backstage.io/v1beta3`...) and a top-level `kind`, each at the start of a line.
const BACKSTAGE_API_VERSION = /^apiVersion:[ \t]*["']?(?:[a-z0-9-]+\.)*backstage\.io\//m;
const TOP_LEVEL_KIND = /^kind:[ \t]*["']?[A-Za-z]/m;

/**
 * True when YAML text may hold a Backstage entity: a block-style top-level `apiVersion` in
 * Backstage's group and a `kind`. Two regular expressions over the text, no YAML parse, so every
 * YAML file of a workspace can be checked for the price of reading it.
 */
export function looksLikeCatalogFile(text: string): boolean {
  return BACKSTAGE_API_VERSION.test(text) && TOP_LEVEL_KIND.test(text);
}

/** Resolved placeholders of one parsed entity, valid while the files read hold the same text. */
interface PlaceholderEntry {
  texts: Map<string, string | null>;
  entity: ParsedEntity | null;
  problems: Problem[];
}

/**
 * The entity with its placeholders resolved through `source` (placeholders.ts), re-validated as
 * Backstage validates after resolving; null when the resolved entity is invalid (its problems say
 * why). Cached per parse: an unchanged file whose targets are unchanged is not resolved again.
 */
async function withPlaceholders(
  parsed: ParsedEntity,
  source: FileSource,
  placeholderCache: WeakMap<ParsedEntity, PlaceholderEntry>,
): Promise<{ entity: ParsedEntity | null; problems: Problem[] }> {
  const known = placeholderCache.get(parsed);
  if (known) {
    let same = true;
    for (const [path, text] of known.texts) if ((await source.readText(path)) !== text) same = false;
    if (same) return known;
  }
  const { entity, lines, placeholders } = parsed;
  const path = entity.location.path;
  const lineOf = (field: readonly (string | number)[]) => lineOfField(field, lines, entity.location.startLine);
  const resolved = await resolveEntityPlaceholders(path, entity.raw, placeholders, source, lineOf, entity.ref);
  const texts = new Map<string, string | null>();
  for (const read of resolved.read) texts.set(read, await source.readText(read));
  const problems = [...resolved.problems];
  let result: ParsedEntity | null = parsed;
  if (resolved.raw !== entity.raw) {
    const validation = validateEntity(standInForPlaceholders(resolved.raw));
    if (validation.ok) {
      const resolvedEntity = toCatalogEntity(validation.entity, resolved.raw, entity.location);
      if (resolved.read.length > 0) resolvedEntity.placeholderFiles = [...new Set(resolved.read)];
      result = { ...parsed, entity: resolvedEntity };
    } else {
      result = null;
      for (const error of validation.errors) {
        problems.push({
          path,
          line: lineOf(error.path),
          severity: 'error',
          code: 'catalog.invalid-entity',
          message: `${error.message} once its placeholders are resolved (${entity.ref} is not indexed)`,
        });
      }
    }
  }
  const entry = { texts, entity: result, problems };
  placeholderCache.set(parsed, entry);
  return entry;
}

/** A failure no parser foresaw, as a problem of the file it happened in. */
function unforeseen(path: string, line: number, what: string, error: unknown): Problem {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    path,
    line,
    severity: 'error',
    code: 'catalog.unreadable-entity',
    message: `${what} (${reason}); it is not indexed`,
  };
}

/**
 * Reads the catalog starting from `roots` (workspace-relative paths of catalog files, typically
 * the discovered `catalog-info.yaml` files). A root the source does not have is a problem.
 */
export async function loadCatalog(
  source: FileSource,
  roots: readonly string[],
  options: LoadCatalogOptions = {},
): Promise<CatalogLoad> {
  const cache = options.parseCache;
  const globBudget = options.globBudget ?? new GlobBudget();
  const placeholderCache = cache?.placeholders ?? new WeakMap<ParsedEntity, PlaceholderEntry>();
  const problems: Problem[] = [];
  const files: CatalogFileRead[] = [];
  const parsed: ParsedEntity[] = [];
  const parsedByFile = new Map<string, ParsedEntity[]>();
  const placeholderPaths = new Set<string>();
  const queued = new Set<string>();
  const queue: CatalogFileRead[] = [];

  /** Files found by content, until a Location names them (then they are reached by that Location). */
  const discovered = new Map<string, CatalogFileRead>();
  const enqueue = (path: string, reachedBy: CatalogFileReason): void => {
    const found = discovered.get(path);
    if (found && reachedBy.kind === 'location') {
      found.reachedBy = reachedBy;
      discovered.delete(path);
    }
    if (queued.has(path)) return;
    queued.add(path);
    queue.push({ path, reachedBy });
  };
  for (const root of roots) enqueue(root, { kind: 'root' });

  const candidates = options.candidates ?? [];
  let nextCandidate = 0;
  const dequeue = async (): Promise<CatalogFileRead | undefined> => {
    const next = queue.shift();
    if (next) return next;
    // Roots and what their Locations lead to come first; then each candidate that passes the
    // content check, and what its Locations lead to, in path order.
    while (nextCandidate < candidates.length) {
      const path = candidates[nextCandidate++];
      if (queued.has(path)) continue;
      const text = await source.readText(path);
      if (text === null || !(cache ? cache.looksLikeCatalog(path, text) : looksLikeCatalogFile(text))) continue;
      queued.add(path);
      const read: CatalogFileRead = { path, reachedBy: { kind: 'discovered' } };
      discovered.set(path, read);
      return read;
    }
    return undefined;
  };

  for (let next = await dequeue(); next; next = await dequeue()) {
    await options.turns?.maybe();
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
    // Parsers return problems rather than throw; these guards are for what they did not foresee
    // (the YAML library, a placeholder's content): one file's failure is a problem at its line,
    // and every other entity and file still loads.
    let file: CatalogFileParse;
    try {
      file = cache ? cache.parse(path, text) : parseCatalogFile(path, text);
    } catch (error) {
      problems.push(unforeseen(path, 1, `${path} could not be parsed`, error));
      continue;
    }
    for (const problem of file.problems) problems.push(problem);
    const entities: ParsedEntity[] = [];
    for (const candidate of file.entities) {
      if (candidate.placeholders.length === 0) {
        entities.push(candidate);
        continue;
      }
      placeholderPaths.add(path);
      try {
        const resolved = await withPlaceholders(candidate, source, placeholderCache);
        for (const read of placeholderCache.get(candidate)?.texts.keys() ?? []) placeholderPaths.add(read);
        for (const problem of resolved.problems) problems.push(problem);
        if (resolved.entity) entities.push(resolved.entity);
      } catch (error) {
        // What it read is unknown: no update of this load may be patched (catalogUpdate.ts).
        placeholderPaths.add(UNKNOWN_READS);
        problems.push(
          unforeseen(
            path,
            candidate.entity.location.startLine,
            `The placeholders of ${candidate.entity.ref} could not be resolved`,
            error,
          ),
        );
      }
    }
    for (const entity of entities) parsed.push(entity);
    parsedByFile.set(path, entities);

    for (const { entity, lines } of entities) {
      if (entity.kind !== 'Location') continue;
      const spec = (entity.raw.spec ?? {}) as Record<string, unknown>;
      const optional = spec.presence === 'optional';
      for (const { target, field } of locationTargets(spec)) {
        // A catalog file may list thousands of targets: the host's requests get turns between them.
        await options.turns?.maybe();
        const line = lines[field] ?? entity.location.startLine;
        const resolution = resolveLocationTarget(path, target, source, optional, globBudget);
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
        {
          path: location.path,
          line: location.startLine,
          message: `First declaration of ${first.entity.ref}, which is kept`,
        },
      ],
    });
  }

  for (const file of files) {
    if (file.reachedBy.kind !== 'discovered') continue;
    problems.push({
      path: file.path,
      line: 1,
      severity: 'info',
      code: 'catalog.unregistered-file',
      message:
        `${file.path} holds Backstage entities but is not named catalog-info.yaml and no Location names it; ` +
        "it is indexed anyway. Backstage reads it only once registered: add it to a Location's spec.targets " +
        '(or to catalog.locations in app-config.yaml), or rename it catalog-info.yaml',
    });
  }

  cache?.endLoad();
  const derived = deriveRelations(kept, cache?.relations);
  problems.push(...derived.problems);
  const fieldLines: Record<EntityKey, Record<string, number>> = {};
  for (const { entity, lines } of kept) fieldLines[entity.key] = lines;

  const load: CatalogLoad = {
    entities: kept.map((p) => p.entity),
    relations: derived.relations,
    problems: problems.sort(compareProblems),
    files,
    fieldLines,
  };
  options.onDetails?.({ load, parsedByFile, kept, starts: derived.starts, placeholderPaths });
  return load;
}
