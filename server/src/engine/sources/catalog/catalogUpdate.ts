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

export class CatalogUpdater {
  /** The last load and how it was made; undefined while an update is half applied. */
  private made: Made | undefined;

  constructor(private readonly relationCache: RelationCache) {}

  /** Remembers a full load (loadCatalog's `onDetails`). */
  noteLoad(details: CatalogLoadDetails): void {
    this.made = {
      load: details.load,
      parsedByFile: new Map(details.parsedByFile),
      kept: details.kept,
      starts: details.starts,
      placeholderPaths: details.placeholderPaths,
    };
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
    for (const key of keys) {
      if (oldRefs.get(key) === newRefs.get(key)) continue;
      for (const referrer of lookups.referrers.get(key) ?? []) {
        if (keys.has(referrer) || remade.has(referrer)) continue;
        const entity = byKey.get(referrer);
        if (!entity) return null;
        const known = this.relationCache.declarations(entity, from.fieldLines[referrer] ?? {});
        if (repeatableIds(known).some((id) => (lookups.repeatCount.get(id) ?? 0) > 1)) return null;
        remade.add(referrer);
      }
    }

    // From here on the lookups change: the load they describe is `to` once this returns.
    this.made = undefined;
    for (const key of oldRefs.keys()) byKey.delete(key);
    for (const { now } of files.values()) for (const p of now) byKey.set(p.entity.key, p.entity);

    const problems: Problem[] = from.problems.filter((p) => !files.has(p.path));
    const kept: ParsedEntity[] = [];
    const starts: number[] = [];
    const relations: Relation[] = [];
    const removed: Relation[] = [];
    const added: Relation[] = [];
    const remake = (parsed: ParsedEntity) => {
      starts.push(relations.length);
      kept.push(parsed);
      const known = this.relationCache.declarations(parsed.entity, parsed.lines);
      const at = relations.length;
      appendRelations(parsed.entity, known, byKey, new Set(), relations);
      for (let i = at; i < relations.length; i++) added.push(relations[i]);
      return known;
    };
    const inserts = [...files.entries()];
    let next = 0;
    const flushBefore = (path: string | undefined) => {
      while (next < inserts.length && (path === undefined || inserts[next][0] < path)) {
        const [, file] = inserts[next++];
        for (const problem of file.problems) problems.push(problem);
        for (const parsed of file.now) for (const problem of remake(parsed).problems) problems.push(problem);
      }
    };
    made.kept.forEach((parsed, i) => {
      const path = parsed.entity.location.path;
      flushBefore(path);
      const start = made.starts[i];
      const end = made.starts[i + 1];
      if (files.has(path)) {
        for (let r = start; r < end; r++) removed.push(from.relations[r]);
        return;
      }
      if (remade.has(parsed.entity.key)) {
        for (let r = start; r < end; r++) removed.push(from.relations[r]);
        remake(parsed);
        return;
      }
      starts.push(relations.length);
      kept.push(parsed);
      for (let r = start; r < end; r++) relations.push(from.relations[r]);
    });
    flushBefore(undefined);
    starts.push(relations.length);

    const fieldLines: CatalogLoad['fieldLines'] = {};
    for (const { entity, lines } of kept) fieldLines[entity.key] = lines;
    const to: CatalogLoad = {
      entities: kept.map((p) => p.entity),
      relations,
      problems: problems.sort(compareProblems),
      files: from.files,
      fieldLines,
    };
    this.updateLookups(lookups, files);
    for (const [path, file] of files) made.parsedByFile.set(path, file.now);
    this.made = { ...made, load: to, kept, starts };
    const [gone, come] = withoutCommon(removed, added);
    return { from, to, removed: gone, added: come, entities: keys };
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
    for (const { old, now } of files.values()) {
      for (const p of old) {
        this.declare(lookups, p, -1);
        const count = (lookups.keyCount.get(p.entity.key) ?? 1) - 1;
        if (count > 0) lookups.keyCount.set(p.entity.key, count);
        else lookups.keyCount.delete(p.entity.key);
      }
      for (const p of now) {
        this.declare(lookups, p, 1);
        lookups.keyCount.set(p.entity.key, (lookups.keyCount.get(p.entity.key) ?? 0) + 1);
      }
    }
  }
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
