/**
 * The library's flags as every surface shows them: which flags the authors have settled, and
 * which conflicts a passage or page carries where an agent or a person reads it (`wsctx ask`,
 * `search_instructions`, `get_context`, the editor's results hovers and diagnostics).
 *
 * A flag is settled in the library itself, by the people who write it: a page's front matter
 * names the other page under `conflicts_resolved` (a title, a `[[Title]]` link or a
 * workspace-relative path), and every conflict and duplicate flag between the two pages is then
 * resolved. Either page may name the other. The tool never writes a file to remember it.
 *
 *   ---
 *   title: Issuing refunds
 *   conflicts_resolved:
 *     - Refund policy   # 30 days is the gateway's limit; merchants are promised 14
 *   ---
 *
 * A name that matches no library page, names the page itself, or settles nothing (no flag
 * between the two pages is found any more) is a problem naming the file, the key's line and the
 * field, so a stale entry cannot silently hide a new disagreement.
 */
import { type Doc, type Problem, CONFLICTS_RESOLVED_KEY } from '../../engine';
import { libraryFlags, type FlagPlace, type FlagSource, type LibraryFlag } from './conflicts';
import type { LibraryView } from './libraryView';

/** Longest wording a flag quotes, in characters (a table row can be long). Default 240. */
export const FLAG_WORDING_CHARS = 240;

/** A flag as seen from one of its two places. */
export interface PassageFlag {
  kind: LibraryFlag['kind'];
  by: LibraryFlag['by'];
  /** What differs ("30 days vs 14 days"). */
  what: string;
  /** This passage's place and wording. */
  here: FlagPlace;
  /** The other page's place and wording. */
  other: FlagPlace;
}

export interface LibrarySoundness {
  /** Flags no page has settled: conflicts first (deterministic, then the model's), then duplicates. */
  readonly flags: readonly LibraryFlag[];
  /** Flags settled by a `conflicts_resolved` entry. */
  readonly resolved: readonly LibraryFlag[];
  /** Problems of the `conflicts_resolved` entries (unknown page, the page itself, nothing to settle). */
  readonly problems: readonly Problem[];
  /** Unsettled conflicts one of whose places is this section. */
  sectionConflicts(sectionId: string): PassageFlag[];
  /** Unsettled conflicts one of whose places is a section of this page. */
  pageConflicts(docId: string): PassageFlag[];
}

/**
 * The soundness of `view`: its flags ({@link libraryFlags}, with `sources`' flags) split into
 * settled and unsettled by the pages' `conflicts_resolved` entries, and those entries' problems.
 */
export function librarySoundness(view: LibraryView, sources: readonly FlagSource[] = []): LibrarySoundness {
  const all = libraryFlags(view, sources);
  const { pairs, entries, problems } = resolutions(view);
  const used = new Set<ResolutionEntry>();
  const flags: LibraryFlag[] = [];
  const resolved: LibraryFlag[] = [];
  for (const flag of all) {
    const settledBy = pairs.get(pairKey(flag.places[0].docId, flag.places[1].docId));
    if (settledBy) {
      resolved.push(flag);
      for (const e of settledBy) used.add(e);
    } else {
      flags.push(flag);
    }
  }
  for (const e of entries) {
    if (used.has(e)) continue;
    problems.push({
      path: e.doc.path,
      line: e.line,
      severity: 'info',
      code: 'library.conflicts-resolved-unused',
      message: `Front matter field '${CONFLICTS_RESOLVED_KEY}' names '${e.written}', but no conflict or duplicate between "${e.doc.title}" and "${e.target.title}" is found. Remove the entry, or it will hide the next disagreement between them.`,
    });
  }
  const bySection = new Map<string, PassageFlag[]>();
  const byDoc = new Map<string, PassageFlag[]>();
  const add = <K>(map: Map<K, PassageFlag[]>, key: K, flag: PassageFlag) => {
    const list = map.get(key);
    if (list) list.push(flag);
    else map.set(key, [flag]);
  };
  for (const flag of flags) {
    if (flag.kind !== 'conflict') continue;
    for (const [here, other] of [flag.places, [flag.places[1], flag.places[0]]] as const) {
      const seen: PassageFlag = {
        kind: flag.kind,
        by: flag.by,
        what: here === flag.places[0] ? flag.what : reversed(flag),
        here,
        other,
      };
      add(bySection, here.sectionId, seen);
      add(byDoc, here.docId, seen);
    }
  }
  return {
    flags,
    resolved,
    problems: problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)),
    sectionConflicts: (id) => bySection.get(id) ?? [],
    pageConflicts: (id) => byDoc.get(id) ?? [],
  };
}

/**
 * One conflict as a sentence: the other page (with `otherId`, its printed id), both wordings and
 * what differs, e.g. `"Refund policy" (0135930a) › Refund window says "…14 days…", where this
 * says "…30 days…" (30 days vs 14 days). Check which holds before relying on either.`
 */
export function describeConflict(flag: PassageFlag, otherId: string): string {
  return `"${flag.other.title}" (${otherId}) › ${flag.other.heading} says "${clipWording(flag.other.wording)}", where this says "${clipWording(flag.here.wording)}" (${flag.what}). Check which holds before relying on either.`;
}

/** A flag's wording on one line, at most {@link FLAG_WORDING_CHARS} characters. */
export function clipWording(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > FLAG_WORDING_CHARS ? `${one.slice(0, FLAG_WORDING_CHARS - 1)}…` : one;
}

interface ResolutionEntry {
  doc: Doc;
  target: Doc;
  written: string;
  line: number;
}

/** Every `conflicts_resolved` entry resolved to a library page, by page pair; and the entries' problems. */
function resolutions(view: LibraryView): {
  pairs: Map<string, ResolutionEntry[]>;
  entries: ResolutionEntry[];
  problems: Problem[];
} {
  const pairs = new Map<string, ResolutionEntry[]>();
  const entries: ResolutionEntry[] = [];
  const problems: Problem[] = [];
  const writers = view.docs.filter((d) => d.library?.conflictsResolved);
  if (writers.length === 0) return { pairs, entries, problems };
  // Names are looked up among every library page, drafts and expired ones too: naming one is not a typo.
  const byTitle = new Map<string, Doc[]>();
  const byPath = new Map<string, Doc>();
  for (const doc of view.state.docs.values()) {
    if (doc.sourceKind !== 'library') continue;
    const key = doc.title.trim().toLowerCase();
    const list = byTitle.get(key);
    if (list) list.push(doc);
    else byTitle.set(key, [doc]);
    byPath.set(doc.path.toLowerCase(), doc);
  }
  for (const doc of writers) {
    const { pages, line } = doc.library!.conflictsResolved!;
    for (const written of pages) {
      const name = written.toLowerCase().replace(/^\.\//, '');
      const targets = byPath.has(name) ? [byPath.get(name)!] : (byTitle.get(name) ?? []);
      const field = `Front matter field '${CONFLICTS_RESOLVED_KEY}'`;
      if (targets.length === 0) {
        problems.push({
          path: doc.path,
          line,
          severity: 'warning',
          code: 'library.conflicts-resolved-unknown',
          message: `${field} names '${written}', which is no page of the library (write the other page's title or its workspace-relative path).`,
        });
        continue;
      }
      for (const target of targets) {
        if (target.id === doc.id) {
          problems.push({
            path: doc.path,
            line,
            severity: 'warning',
            code: 'library.conflicts-resolved-self',
            message: `${field} names '${written}', which is this page itself; name the page it disagrees with.`,
          });
          continue;
        }
        const entry: ResolutionEntry = { doc, target, written, line };
        entries.push(entry);
        const key = pairKey(doc.id, target.id);
        const list = pairs.get(key);
        if (list) list.push(entry);
        else pairs.set(key, [entry]);
      }
    }
  }
  return { pairs, entries, problems };
}

/** A numbers or dates flag's "a vs b" seen from its second place ("b vs a"); a model's wording as it is. */
function reversed(flag: LibraryFlag): string {
  const parts = flag.what.split(' vs ');
  return flag.by !== 'model' && parts.length === 2 ? `${parts[1]} vs ${parts[0]}` : flag.what;
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
