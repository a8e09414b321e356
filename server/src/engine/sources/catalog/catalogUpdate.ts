/**
 * A catalog load patched for changed catalog files, instead of loaded again: the changed files are
 * parsed, their entities replace the ones they held, and relations are made again only for those
 * entities and for the entities whose refs point at a key that appeared, disappeared or now prints
 * differently. Every other entity's relations are copied from the last load, so an edit of one
 * file at 100k costs that file's parse and a few copies of lists, not a walk of every ref.
 *
 * The result is exactly what `loadCatalog` would give (same entities, relations, problems and
 * order). Where that cannot be guaranteed cheaply, `update` answers null and the caller loads the
 * whole catalog as before: a changed file that holds or held a Location (it decides which files
 * are read), a file found by its content (the content check decides whether it is read), a file
 * with placeholders or one a placeholder reads, a file that cannot be read, an entity key declared
 * twice (which declaration is kept depends on every file), and a pair of relations both ends
 * declare (which declaration is kept depends on the order of every entity).
 */
import type { CatalogEntity, EntityKey, Problem, Relation } from '../../model';
import type { FileSource } from '../../workspace/fileSource';
import {
  compareProblems,
  UNKNOWN_READS,
  type CatalogLoad,
  type CatalogLoadDetails,
  type CatalogParseCache,
} from './loadCatalog';
import type { ParsedEntity } from './parseCatalogFile';
import { appendRelations, declaredTargets, repeatableIds, type RelationCache } from './relations';

/** What an update changed: enough for the graph, the entity documents and the counts to follow. */
export interface CatalogChange {
  from: CatalogLoad;
  to: CatalogLoad;
  /** Relations of `from` that are not in `to`, and those of `to` that were not in `from` (by object). */
  removed: Relation[];
  added: Relation[];
  /** Keys of the entities the changed files held before or hold now. */
  entities: ReadonlySet<EntityKey>;
  /**
   * The entities the changed files held in `from` and those they hold in `to`, each in path order:
   * every other entity is the same object at the same place in both.
   */
  before: readonly CatalogEntity[];
  after: readonly CatalogEntity[];
  /**
   * The relations of `to` starting at each of `keys` (in `to`'s order), found from the updater's
   * lookups without a walk over every relation; valid until the next update.
   */
  relationsFrom(keys: Iterable<EntityKey>): Map<EntityKey, Relation[]>;
}

/** The maps an update reads, built from a full load on the first update that needs them. */
interface Lookups {
  byKey: Map<EntityKey, CatalogEntity>;
  /** Key -> how many loaded declarations use it (kept or not). */
  keyCount: Map<EntityKey, number>;
  /** Target key -> keys of the kept entities whose relation fields name it. */
  referrers: Map<EntityKey, Set<EntityKey>>;
  /** Edge id both ends can declare -> how many kept entities declare it. */
  repeatCount: Map<string, number>;
  /** How each file read was reached (root, location, discovered). */
  reasons: Map<string, string>;
}

interface Made {
  load: CatalogLoad;
  parsedByFile: Map<string, readonly ParsedEntity[]>;
  kept: readonly ParsedEntity[];
  starts: readonly number[];
  placeholderPaths: ReadonlySet<string>;
  lookups?: Lookups;
}

/**
 * What `noteLoad` remembered, for a snapshot: the load itself (the snapshot writes it once, and
 * hands back the very object it restores) and the rest as one JSON string. A string because
 * entities hold the workspace's YAML, whose keys the snapshot's own markers (`$doc`, `$catalog`)
 * must never be read from; and it is parsed only when the first update after a restart needs it.
 */
export interface SavedCatalogUpdates {
  load: CatalogLoad;
  details: string;
}

/** `SavedCatalogUpdates.details` parsed: the kept entities stand for themselves by index in `load.entities`. */
interface SavedDetails {
  starts: number[];
  /** Each file read, with its entities: an index of a kept one, or a declaration that was not kept. */
  files: [string, (number | ParsedEntity)[]][];
  /** The placeholders of kept entities that had any, by index. */
  placeholders: [number, ParsedEntity['placeholders']][];
  placeholderPaths: string[];
}

export class CatalogUpdater {
  /** The last load and how it was made; undefined while an update is half applied. */
  private made: Made | undefined;

  constructor(private readonly relationCache: RelationCache) {}

  /** Remembers a full load (loadCatalog's `onDetails`). */
  noteLoad(details: CatalogLoadDetails): void {
    this.saved = undefined;
    this.made = {
      load: details.load,
      parsedByFile: new Map(details.parsedByFile),
      kept: details.kept,
      starts: details.starts,
      placeholderPaths: details.placeholderPaths,
    };
  }

  /** The last load and how it was made, for a snapshot; null when none is known. */
  save(): SavedCatalogUpdates | null {
    const made = this.made;
    if (!made) return this.saved ?? null;
    const index = new Map<ParsedEntity, number>();
    for (let i = 0; i < made.kept.length; i++) {
      // The load's entities are the kept ones, in order (loadCatalog.ts, and `update` below).
      if (made.load.entities[i] !== made.kept[i].entity) return null;
      index.set(made.kept[i], i);
    }
    const details: SavedDetails = {
      starts: [...made.starts],
      files: [...made.parsedByFile].map(([path, list]) => [path, list.map((p) => index.get(p) ?? p)]),
      placeholders: made.kept.flatMap((p, i) => (p.placeholders.length > 0 ? [[i, p.placeholders]] : [])),
      placeholderPaths: [...made.placeholderPaths],
    };
    return { load: made.load, details: JSON.stringify(details) };
  }

  /**
   * Takes back what `save` wrote, for the load a snapshot restored (the same object): the first
   * update after a restart then patches that load instead of loading the whole catalog. Parsed
   * on the first update that needs it.
   */
  restore(saved: SavedCatalogUpdates | null | undefined): void {
    this.made = undefined;
    this.saved = saved ?? undefined;
  }

  /** What `restore` took, until an update or a load makes it `made` (or a load replaces it). */
  private saved: SavedCatalogUpdates | undefined;

  /** `saved` parsed into what `noteLoad` would have remembered; undefined when it does not fit its load. */
  private revive(saved: SavedCatalogUpdates): Made | undefined {
    const details = JSON.parse(saved.details) as SavedDetails;
    const { load } = saved;
    const placeholders = new Map(details.placeholders);
    const kept: ParsedEntity[] = load.entities.map((entity, i) => ({
      entity,
      lines: load.fieldLines[entity.key] ?? {},
      placeholders: placeholders.get(i) ?? [],
    }));
    if (details.starts.length !== kept.length + 1 || details.starts[kept.length] !== load.relations.length)
      return undefined;
    const parsedByFile = new Map<string, readonly ParsedEntity[]>();
    for (const [path, list] of details.files) {
      const entities: ParsedEntity[] = [];
      for (const item of list) {
        if (typeof item !== 'number') entities.push(item);
        else if (kept[item]) entities.push(kept[item]);
        else return undefined;
      }
      parsedByFile.set(path, entities);
    }
    return { load, parsedByFile, kept, starts: details.starts, placeholderPaths: new Set(details.placeholderPaths) };
  }

  /**
   * `from` with the files at `changed` read again from `source`, or null when only a full load
   * can say (see the module comment). `changed` are paths whose content differs since `from`.
   */
  async update(
    from: CatalogLoad,
    changed: readonly string[],
    source: FileSource,
    parseCache: CatalogParseCache,
  ): Promise<CatalogChange | null> {
    if (!this.made && this.saved?.load === from) {
      // The first update after a restart: what the snapshot kept of the last load.
      const saved = this.saved;
      this.saved = undefined;
      this.made = this.revive(saved);
    }
    const made = this.made;
    if (!made || made.load !== from || made.placeholderPaths.has(UNKNOWN_READS) || changed.length === 0) return null;
    const lookups = (made.lookups ??= this.lookupsOf(made));
    const files = new Map<string, { old: readonly ParsedEntity[]; now: ParsedEntity[]; problems: Problem[] }>();
    for (const path of [...new Set(changed)].sort(compareCodeUnits)) {
      const reason = lookups.reasons.get(path);
      if ((reason !== 'root' && reason !== 'location') || made.placeholderPaths.has(path)) return null;
      const old = made.parsedByFile.get(path) ?? [];
      if (old.some((p) => p.entity.kind === 'Location')) return null;
      const text = source.has(path) ? await source.readText(path) : null;
      if (text === null) return null;
      let parse: ReturnType<CatalogParseCache['reparse']>;
      try {
        parse = parseCache.reparse(path, text);
      } catch {
        return null;
      }
      if (parse.entities.some((p) => p.placeholders.length > 0 || p.entity.kind === 'Location')) return null;
      files.set(path, { old, now: parse.entities, problems: parse.problems });
    }
    if (!this.unambiguous(files, lookups)) return null;

    const { byKey } = lookups;
    const oldRefs = new Map<EntityKey, string>();
    const newRefs = new Map<EntityKey, string>();
    for (const { old, now } of files.values()) {
      for (const p of old) oldRefs.set(p.entity.key, p.entity.ref);
      for (const p of now) newRefs.set(p.entity.key, p.entity.ref);
    }
    const keys = new Set([...oldRefs.keys(), ...newRefs.keys()]);
    // Entities naming a key that prints differently now (gone, new, or renamed in case) have
    // their relations made again; unless one of them shares a pair with another entity (its
    // kept halves then depend on the order of both), only its own halves are in question.
    const remade = new Set<EntityKey>();
    /** Where the entities of the changed files, and those remade, are in the last load's order. */
    const steps: Step[] = [];
    for (const path of files.keys()) {
      const at = lowerBound(made.kept, path);
      let end = at;
      while (end < made.kept.length && made.kept[end].entity.location.path === path) end++;
      steps.push({ at, end, path });
    }
    for (const key of keys) {
      if (oldRefs.get(key) === newRefs.get(key)) continue;
      for (const referrer of lookups.referrers.get(key) ?? []) {
        if (keys.has(referrer) || remade.has(referrer)) continue;
        const entity = byKey.get(referrer);
        if (!entity) return null;
        const known = this.relationCache.declarations(entity, from.fieldLines[referrer] ?? {});
        if (repeatableIds(known).some((id) => (lookups.repeatCount.get(id) ?? 0) > 1)) return null;
        const at = indexOfKept(made.kept, entity);
        if (at < 0) return null;
        remade.add(referrer);
        steps.push({ at, end: at + 1 });
      }
    }

    // From here on the lookups change: the load they describe is `to` once this returns.
    this.made = undefined;
    for (const key of oldRefs.keys()) byKey.delete(key);
    for (const { now } of files.values()) for (const p of now) byKey.set(p.entity.key, p.entity);

    const problems: Problem[] = from.problems.filter((p) => !files.has(p.path));
    // The new order is the last one with the changed files' runs replaced and the remade entities
    // made again: every run in between is copied whole (a slice), not entity by entity, so an
    // update costs the changes plus a few copies of arrays, whatever the catalog's size.
    const keptParts: ParsedEntity[][] = [];
    const entityParts: CatalogEntity[][] = [];
    const relationParts: Relation[][] = [];
    const startParts: number[][] = [];
    let total = 0;
    const removed: Relation[] = [];
    const added: Relation[] = [];
    const copy = (a: number, b: number) => {
      if (a >= b) return;
      const r0 = made.starts[a];
      const r1 = made.starts[b];
      keptParts.push(made.kept.slice(a, b));
      entityParts.push(from.entities.slice(a, b));
      relationParts.push(from.relations.slice(r0, r1));
      const shift = total - r0;
      const runStarts = made.starts.slice(a, b);
      if (shift !== 0) for (let i = 0; i < runStarts.length; i++) runStarts[i] += shift;
      startParts.push(runStarts);
      total += r1 - r0;
    };
    const drop = (a: number, b: number) => {
      for (let r = made.starts[a]; r < made.starts[b]; r++) removed.push(from.relations[r]);
    };
    const remake = (parsed: ParsedEntity) => {
      keptParts.push([parsed]);
      entityParts.push([parsed.entity]);
      startParts.push([total]);
      const known = this.relationCache.declarations(parsed.entity, parsed.lines);
      const own: Relation[] = [];
      appendRelations(parsed.entity, known, byKey, new Set(), own);
      for (const relation of own) added.push(relation);
      relationParts.push(own);
      total += own.length;
      return known;
    };
    // A file's new entities go where its old ones were (path order), before a remade entity there.
    steps.sort(
      (x, y) =>
        x.at - y.at ||
        (x.path === undefined ? 1 : 0) - (y.path === undefined ? 1 : 0) ||
        compareCodeUnits(x.path ?? '', y.path ?? ''),
    );
    let cursor = 0;
    for (const step of steps) {
      copy(cursor, step.at);
      drop(step.at, step.end);
      if (step.path !== undefined) {
        const file = files.get(step.path)!;
        for (const problem of file.problems) problems.push(problem);
        for (const parsed of file.now) for (const problem of remake(parsed).problems) problems.push(problem);
      } else {
        remake(made.kept[step.at]);
      }
      cursor = step.end;
    }
    copy(cursor, made.kept.length);
    const kept = concatParts(keptParts);
    const relations = concatParts(relationParts);
    const starts = concatParts(startParts);
    starts.push(total);

    const fieldLines: CatalogLoad['fieldLines'] = {};
    for (const { entity, lines } of kept) fieldLines[entity.key] = lines;
    const to: CatalogLoad = {
      entities: concatParts(entityParts),
      relations,
      problems: problems.sort(compareProblems),
      files: from.files,
      fieldLines,
    };
    this.updateLookups(lookups, files);
    for (const [path, file] of files) made.parsedByFile.set(path, file.now);
    this.made = { ...made, load: to, kept, starts };
    const [gone, come] = withoutCommon(removed, added);
    const relationsFrom = (only: Iterable<EntityKey>) =>
      relationsStartingAt(only, kept, starts, relations, lookups.referrers, byKey);
    const before: CatalogEntity[] = [];
    const after: CatalogEntity[] = [];
    for (const { old, now } of files.values()) {
      for (const p of old) before.push(p.entity);
      for (const p of now) after.push(p.entity);
    }
    return { from, to, removed: gone, added: come, entities: keys, before, after, relationsFrom };
  }

  /**
   * True when the changed files' entities are each the only declaration of their key, before and
   * after, and share no pair both ends can declare with another entity: then which declaration is
   * kept, and which half of a pair, does not depend on the rest of the catalog.
   */
  private unambiguous(
    files: ReadonlyMap<string, { old: readonly ParsedEntity[]; now: readonly ParsedEntity[] }>,
    lookups: Lookups,
  ): boolean {
    const keyDelta = new Map<EntityKey, number>();
    const idDelta = new Map<string, number>();
    for (const { old, now } of files.values()) {
      for (const p of old) {
        keyDelta.set(p.entity.key, (keyDelta.get(p.entity.key) ?? 0) - 1);
        for (const id of repeatableIds(this.relationCache.declarations(p.entity, p.lines)))
          idDelta.set(id, (idDelta.get(id) ?? 0) - 1);
      }
      for (const p of now) {
        keyDelta.set(p.entity.key, (keyDelta.get(p.entity.key) ?? 0) + 1);
        for (const id of repeatableIds(this.relationCache.declarations(p.entity, p.lines)))
          idDelta.set(id, (idDelta.get(id) ?? 0) + 1);
      }
    }
    for (const [key, delta] of keyDelta) {
      const before = lookups.keyCount.get(key) ?? 0;
      if (before > 1 || before + delta > 1) return false;
    }
    for (const [id, delta] of idDelta) {
      const before = lookups.repeatCount.get(id) ?? 0;
      if (before > 1 || before + delta > 1) return false;
    }
    return true;
  }

  private lookupsOf(made: Made): Lookups {
    const byKey = new Map<EntityKey, CatalogEntity>();
    const keyCount = new Map<EntityKey, number>();
    const referrers = new Map<EntityKey, Set<EntityKey>>();
    const repeatCount = new Map<string, number>();
    for (const entities of made.parsedByFile.values())
      for (const { entity } of entities) keyCount.set(entity.key, (keyCount.get(entity.key) ?? 0) + 1);
    const lookups = { byKey, keyCount, referrers, repeatCount, reasons: new Map<string, string>() };
    for (const file of made.load.files) lookups.reasons.set(file.path, file.reachedBy.kind);
    for (const parsed of made.kept) {
      byKey.set(parsed.entity.key, parsed.entity);
      this.declare(lookups, parsed, 1);
    }
    return lookups;
  }

  /** Counts (`sign` 1) or uncounts (-1) what one kept entity declares in the lookups. */
  private declare(lookups: Lookups, parsed: ParsedEntity, sign: 1 | -1): void {
    const known = this.relationCache.declarations(parsed.entity, parsed.lines);
    const key = parsed.entity.key;
    for (const target of declaredTargets(known)) {
      let set = lookups.referrers.get(target);
      if (sign > 0) {
        if (!set) lookups.referrers.set(target, (set = new Set()));
        set.add(key);
      } else if (set) {
        set.delete(key);
        if (set.size === 0) lookups.referrers.delete(target);
      }
    }
    for (const id of repeatableIds(known)) {
      const count = (lookups.repeatCount.get(id) ?? 0) + sign;
      if (count > 0) lookups.repeatCount.set(id, count);
      else lookups.repeatCount.delete(id);
    }
  }

  private updateLookups(
    lookups: Lookups,
    files: ReadonlyMap<string, { old: readonly ParsedEntity[]; now: readonly ParsedEntity[] }>,
  ): void {
    // Every old declaration is taken out before any new one goes in: an entity that moved from
    // one file to another would otherwise lose its place among its targets' referrers (a set,
    // not a count) when the file it left comes after the one it moved to.
    for (const { old } of files.values()) {
      for (const p of old) {
        this.declare(lookups, p, -1);
        const count = (lookups.keyCount.get(p.entity.key) ?? 1) - 1;
        if (count > 0) lookups.keyCount.set(p.entity.key, count);
        else lookups.keyCount.delete(p.entity.key);
      }
    }
    for (const { now } of files.values()) {
      for (const p of now) {
        this.declare(lookups, p, 1);
        lookups.keyCount.set(p.entity.key, (lookups.keyCount.get(p.entity.key) ?? 0) + 1);
      }
    }
  }
}

/**
 * The relations starting at each of `keys`, in catalog order. A relation starts at `key` when
 * `key`'s entity declares it (its forward halves, in its own run of `relations`) or when an entity
 * naming `key` does (the reverse halves, in that entity's run): so only the runs of the entity and
 * of its referrers are read, in the order of `kept` (path order, found by binary search).
 */
function relationsStartingAt(
  keys: Iterable<EntityKey>,
  kept: readonly ParsedEntity[],
  starts: readonly number[],
  relations: readonly Relation[],
  referrers: ReadonlyMap<EntityKey, ReadonlySet<EntityKey>>,
  byKey: ReadonlyMap<EntityKey, CatalogEntity>,
): Map<EntityKey, Relation[]> {
  const out = new Map<EntityKey, Relation[]>();
  for (const key of keys) {
    if (out.has(key)) continue;
    const runs = new Set<number>();
    for (const owner of [key, ...(referrers.get(key) ?? [])]) {
      const entity = byKey.get(owner);
      const at = entity ? indexOfKept(kept, entity) : -1;
      if (at >= 0) runs.add(at);
    }
    const list: Relation[] = [];
    for (const at of [...runs].sort((a, b) => a - b))
      for (let r = starts[at]; r < starts[at + 1]; r++) if (relations[r].source === key) list.push(relations[r]);
    if (list.length > 0) out.set(key, list);
  }
  return out;
}

/** Index of `entity` in `kept` (path order: path by code unit, then first line), or -1. */
function indexOfKept(kept: readonly ParsedEntity[], entity: CatalogEntity): number {
  const { path, startLine } = entity.location;
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = kept[mid].entity.location;
    if (at.path < path || (at.path === path && at.startLine < startLine)) lo = mid + 1;
    else hi = mid;
  }
  return lo < kept.length && kept[lo].entity === entity ? lo : -1;
}

/** A changed file's run of the last load's order (`path`), or one remade entity (no `path`). */
interface Step {
  at: number;
  end: number;
  path?: string;
}

/** The parts one after the other, copied in bulk. */
function concatParts<T>(parts: readonly T[][]): T[] {
  if (parts.length === 1) return parts[0];
  return ([] as T[]).concat(...parts);
}

/** Index of the first entity of `kept` (path order) whose path is not before `path`. */
function lowerBound(kept: readonly ParsedEntity[], path: string): number {
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (kept[mid].entity.location.path < path) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Both lists less the objects they share (relations an update made again as they were). */
function withoutCommon(removed: readonly Relation[], added: readonly Relation[]): [Relation[], Relation[]] {
  const inAdded = new Set(added);
  const inRemoved = new Set(removed);
  return [removed.filter((r) => !inAdded.has(r)), added.filter((r) => !inRemoved.has(r))];
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
