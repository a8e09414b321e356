/**
 * The "is it about a different stack or product than the task names?" question without a model
 * (docs/ARCHITECTURE.md, get_context's contract, step 7, docs/ARCHITECTURE.md, "Model steps are optional"), answered from the library itself.
 *
 * Every page has an identity: the words of its title, its file name, its tags and the file types
 * of its `applyTo`/`globs` (not its summary: "the window, fees and chargebacks" describes what a
 * refund page says, it names nothing another page could be about instead). A word is a
 * *name* when few pages' identities hold it ({@link NAME_MAX_PAGE_SHARE}): "kotlin", "sveltekit",
 * "17", "btp", "dunning" are names; "development", "best", "practices" are not.
 *
 * Two pages *read alike* when they play the same part: both are scoped to file types (`applyTo`
 * globs other than "everything"), or their titles (or titles and headings) share most of their words
 * ({@link READ_ALIKE_MIN}): the ten "X MCP Server Development" pages, the four Linux
 * distributions, three Java upgrade guides.
 *
 * A page P is about another one than the task names when some read-alike page Q has a name the
 * task says that P lacks, and none of the names P has beyond Q is in the task: for "add a tool to
 * our MCP server written in Go", the Python MCP page (its own names: python, pyproject) loses to
 * the Go one (go, go.mod). A page sharing the task's names with its rival, or adding one of its
 * own, stays: "Kubernetes deployment best practices" beside "Kubernetes manifests" for a task that
 * says deployment and manifest.
 */
import { type Doc, baseName, identityTerms } from '../../engine';

/**
 * A word is a name when at most this share of the library's pages hold it in their identity
 * (at least 2 pages always may). Range 0..1; default 0.2. Measured on the awesome-copilot set
 * (54 pages): "mcp" (10 pages) and "java" (6) are names, "develop" (22) and "best" (17) are not.
 */
export const NAME_MAX_PAGE_SHARE = 0.2;

/**
 * Two pages whose titles alone have at least this idf-weighted cosine read alike: "Java 11 to
 * Java 17 Upgrade Guide" beside "Java 17 to Java 21 Upgrade Guide" (0.6 and more). Stricter than
 * {@link READ_ALIKE_MIN}: at 0.3 "Refund policy" and "Issuing refunds" (0.5), two halves of one
 * topic, read alike and the eval lost a page both refund tasks need. Range 0..1; default 0.55.
 */
export const TITLE_ALIKE_MIN = 0.55;

/**
 * Two pages read alike when the idf-weighted cosine of their title-and-heading words is at least
 * this (or their titles alone reach {@link TITLE_ALIKE_MIN}). Range 0..1; default 0.3. On the example library no two pages reach it except templates;
 * the four Linux pages of awesome-copilot reach 0.8, the Go and Rust language pages 0.35.
 */
export const READ_ALIKE_MIN = 0.3;

/** Globs that scope a page to everything, not to a file type. */
const EVERYTHING = /^\s*(\*\*?|\*\*\/\*|\*\.\*)\s*$/;

/**
 * Proper names in a task the library never mentions: capitalised words past the first ("write a
 * Django view", "a Laravel Eloquent model") whose term no indexed section holds. A task naming
 * one is about something the library does not cover; a page about a stack of its own is then
 * about another one.
 */
export function unknownNames(task: string, df: (term: string) => number): string[] {
  const out: string[] = [];
  const words = task.match(/[\p{L}\p{N}][\p{L}\p{N}.+#-]*/gu) ?? [];
  words.forEach((word, i) => {
    if (i === 0 || !/^\p{Lu}/u.test(word)) return;
    const terms = [...identityTerms(word)];
    if (terms.length > 0 && terms.every((t) => df(t) === 0) && !out.includes(word)) out.push(word);
  });
  return out;
}

interface PageIdentity {
  doc: Doc;
  /** Every identity term. */
  terms: ReadonlySet<string>;
  /** The identity terms that are names. */
  names: ReadonlySet<string>;
  /** Title and heading terms, for reading alike. */
  frame: ReadonlySet<string>;
  /** Title terms alone ("Java 11 to Java 17 Upgrade Guide" beside "Java 17 to Java 21 ..."). */
  title: ReadonlySet<string>;
  /** Scoped to file types by `applyTo`/`globs`. */
  fileScoped: boolean;
}

export interface StackNames {
  /** The names of a page (empty for pages the index does not know). */
  namesOf(doc: Doc): ReadonlySet<string>;
  /**
   * The name that makes `doc` about another one than the task, or undefined. `taskTerms` are
   * {@link identityTerms} of the task. `complementary(a, b)`: two pages that go together rather
   * than compete (siblings in a folder about one thing, coherence.ts: "Greetings" and "Closings"
   * of a tone folder); never each other's rival.
   */
  otherThanTask(
    doc: Doc,
    taskTerms: ReadonlySet<string>,
    complementary?: (a: Doc, b: Doc) => boolean,
  ): string | undefined;
}

export function buildStackNames(docs: readonly Doc[]): StackNames {
  const raw = docs.map((doc) => {
    const globs = doc.library?.applyTo ?? [];
    const fileTypes = globs
      .filter((g) => !EVERYTHING.test(g))
      .map((g) => g.replace(/\*/g, ' ').replace(/[/{},]/g, ' '));
    const text = [
      doc.title,
      baseName(doc.path)
        .replace(/\.(instructions\.md|md|mdc)$/i, '')
        .replace(/[-_]/g, ' '),
      ...(doc.library?.tags ?? []),
      ...fileTypes,
    ].join('\n');
    const frameText = [doc.title, ...doc.sections.map((s) => s.headingPath[s.headingPath.length - 1] ?? '')].join('\n');
    return {
      doc,
      terms: identityTerms(text),
      frame: identityTerms(frameText),
      title: identityTerms(doc.title),
      fileScoped: fileTypes.length > 0 && fileTypes.length === globs.length,
    };
  });
  const df = new Map<string, number>();
  for (const p of raw) for (const t of p.terms) df.set(t, (df.get(t) ?? 0) + 1);
  const maxPages = Math.max(2, Math.floor(NAME_MAX_PAGE_SHARE * docs.length));
  const frameDf = new Map<string, number>();
  for (const p of raw) for (const t of p.frame) frameDf.set(t, (frameDf.get(t) ?? 0) + 1);
  const n = Math.max(1, docs.length);
  const frameIdf = (t: string) => Math.log(1 + (n - (frameDf.get(t) ?? 0) + 0.5) / ((frameDf.get(t) ?? 0) + 0.5));
  const pages = new Map<string, PageIdentity>();
  const byName = new Map<string, PageIdentity[]>();
  for (const p of raw) {
    const names = new Set([...p.terms].filter((t) => (df.get(t) ?? 0) <= maxPages));
    const identity: PageIdentity = { ...p, names };
    pages.set(p.doc.id, identity);
    for (const name of names) {
      const list = byName.get(name);
      if (list) list.push(identity);
      else byName.set(name, [identity]);
    }
  }
  const cosine = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (const t of a) {
      const w = frameIdf(t) ** 2;
      na += w;
      if (b.has(t)) dot += w;
    }
    for (const t of b) nb += frameIdf(t) ** 2;
    return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
  };
  const alike = new Map<string, boolean>();
  const readAlike = (a: PageIdentity, b: PageIdentity): boolean => {
    if (a.fileScoped && b.fileScoped) return true;
    const key = a.doc.id < b.doc.id ? `${a.doc.id}|${b.doc.id}` : `${b.doc.id}|${a.doc.id}`;
    let is = alike.get(key);
    if (is === undefined) {
      is = cosine(a.frame, b.frame) >= READ_ALIKE_MIN || cosine(a.title, b.title) >= TITLE_ALIKE_MIN;
      alike.set(key, is);
    }
    return is;
  };

  return {
    namesOf: (doc) => pages.get(doc.id)?.names ?? new Set(),
    otherThanTask(doc, taskTerms, complementary = () => false) {
      const p = pages.get(doc.id);
      if (!p || p.names.size === 0) return undefined;
      // The rivals: pages holding a name the task says.
      const rivals = new Set<PageIdentity>();
      for (const t of taskTerms) for (const q of byName.get(t) ?? []) if (q !== p) rivals.add(q);
      for (const q of rivals) {
        let theirs = false;
        for (const t of q.names) if (taskTerms.has(t) && !p.names.has(t)) theirs = true;
        if (!theirs) continue;
        let own: string | undefined;
        let ownInTask = false;
        for (const t of p.names) {
          if (q.names.has(t)) continue;
          own ??= t;
          if (taskTerms.has(t)) ownInTask = true;
        }
        if (own === undefined || ownInTask || !readAlike(p, q) || complementary(p.doc, q.doc)) continue;
        return own;
      }
      return undefined;
    },
  };
}
