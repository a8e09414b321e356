/**
 * Which pages a task's subjects bring and which they keep out (docs/ARCHITECTURE.md, get_context's
 * contract, steps 5 and 7), from the pages' subjects (subjects.ts) and what the task says:
 *
 * - the task **names** a subject with a proper name ("Next.js 15", "Clerk", "SvelteKit", "C#":
 *   a capital or letters with digits) that pages of the library hold; a named subject other pages
 *   stand in the place of is a **stack**; the task **says** every word it has, proper or not
 *   ("shared state"); a proper name no page is about and no section holds (or two capitalised
 *   words the library never writes together, "React Native") is **unknown**;
 * - a page all of whose names the task says, one of them named (or two named and nothing proper
 *   unsaid), is the task's **own** page (Clerk on Next.js for "Clerk middleware in our Next.js
 *   app"); for each stack it names, the page the library's labels put on that stack with the
 *   fewest other names (proper names first, then recurring topics) is the stack's **general**
 *   page: both come like pages matched by what they are for, whatever the search finds;
 * - a page about **another** subject stays out: a page about a stack or recurring subject none of
 *   whose proper names the task says, when it names anything; with an unknown name, any page none
 *   of whose names it says; a page whose proper name stands where a name the task says stands
 *   (React's pages for a Next.js task, Clerk on React beside Clerk on Next.js, Java 11 to 17
 *   beside Java 17 to 21); a file-scoped page none of whose names the task says when it says
 *   another's; and, on a named stack, a page about another of its topics than the one the task
 *   says (the styling page beside the state page for a state question);
 * - a page **narrower** than the task stays out: a page of a named stack with a proper name the
 *   task does not say, when another page of the stack goes without it (Supabase on Next.js for a
 *   Next.js task, Rust MCP servers for a Rust CLI), or when that name is a recurring subject and
 *   most of the page is unsaid (the Kotlin MCP server page for a Ktor route);
 * - a page of a named stack about a topic the task does not say at all is **off topic**: it may
 *   come through the search, never by what it is for.
 *
 * A page the task's files match through its `globs` or `applyTo` (globEvidence.ts) is its own
 * page too, when few pages match them.
 */
import { type Doc, analyzeQuery } from '../../engine';
import { GLOB_SPECIFIC_MAX_SHARE } from './constants';
import { globEvidence, pathsIn } from './globEvidence';
import { joinedKeys, subjectWords, type LibrarySubjects, type PageSubject } from './subjects';

export interface TaskSubjects {
  /** Every subject key the task says (versions included), and adjacent words joined where the library writes them as one. */
  said: ReadonlySet<string>;
  /** Keys of the task's proper names that pages of the library hold as names. */
  named: ReadonlySet<string>;
  /** Proper names in the task that the library never mentions. */
  unknown: readonly string[];
  /** The task's own pages and the general page of each stack it names, in library order. */
  forced: Doc[];
  /** Pages about another subject than the task names, with the name that makes them so. */
  other: ReadonlyMap<string, string>;
  /** Pages narrower than the task, with the name the task does not say. */
  narrower: ReadonlyMap<string, string>;
  /**
   * Pages of a stack the task names about a topic it does not say (and no rival topic it does):
   * they may come through the search, not by what they are for.
   */
  offTopic: ReadonlyMap<string, string>;
  /** Pages whose globs match files the task names, with those files. */
  globs: ReadonlyMap<string, readonly string[]>;
}

/** A proper name: a capital anywhere ("iOS", "Next.js") or letters with digits ("vue3", "Java21"); never a bare number. */
const isProper = (word: string) => /\p{Lu}/u.test(word) || (/\p{N}/u.test(word) && /\p{L}/u.test(word));

/** The task's words as written (a trailing possessive or full stop dropped). */
function wordsOf(task: string): string[] {
  return (task.match(/[\p{L}\p{N}.#+][\p{L}\p{N}.+#'’/@-]*/gu) ?? []).map((w) =>
    w.replace(/['’]s$/i, '').replace(/[.]+$/, ''),
  );
}

export interface TaskSubjectsInput {
  task: string;
  subjects: LibrarySubjects;
  /** The pages the request may draw from. */
  docs: readonly Doc[];
  /** How many indexed sections hold an index term (a proper name no section holds is unknown). */
  df: (term: string) => number;
  /**
   * Two pages that go together rather than compete (siblings in a folder about one thing,
   * coherence.ts: "Greetings" and "Closings" of a tone folder): never each other's rival.
   */
  complementary?: (a: Doc, b: Doc) => boolean;
}

export function taskSubjects(input: TaskSubjectsInput): TaskSubjects {
  const { task, subjects, docs } = input;
  const words = wordsOf(task);
  const said = new Set<string>();
  for (const w of subjectWords(task)) said.add(w.key);
  for (const key of joinedKeys(task)) if (subjects.vocabulary.has(key)) said.add(key);
  const named = new Set<string>();
  const unknown: string[] = [];
  words.forEach((word, i) => {
    if (!isProper(word)) return;
    const keys = subjectWords(word)
      .filter((w) => !w.version)
      .map((w) => w.key);
    const next = words[i + 1];
    if (next !== undefined && isProper(next))
      for (const key of joinedKeys(`${word} ${next}`)) if (subjects.isName(key)) named.add(key);
    for (const key of keys) if (subjects.isName(key)) named.add(key);
    // The first word is a capital by grammar; a name no page is about and no section holds is unknown.
    const whole = analyzeQuery(word)[0]?.key;
    if (
      i > 0 &&
      whole !== undefined &&
      input.df(whole) === 0 &&
      !keys.some((k) => subjects.isName(k)) &&
      !unknown.includes(word)
    )
      unknown.push(word);
  });
  // Nothing named, but a name of two capitalised words the library never writes together
  // ("React Native", where the library writes React but never React Native): unknown too.
  if (named.size === 0)
    words.forEach((word, i) => {
      const next = words[i + 1];
      if (i === 0 || next === undefined || !/^\p{Lu}/u.test(word) || !/^\p{Lu}/u.test(next)) return;
      if (!subjects.writesPair(word, next) && !unknown.includes(`${word} ${next}`)) unknown.push(`${word} ${next}`);
    });

  const pages = docs.map((doc) => subjects.of(doc)).filter((p): p is PageSubject => p !== undefined);
  const complementary = input.complementary ?? (() => false);
  // Each page's names and versions as one set, made once per task rather than once per rival pair.
  const keySets = new Map<PageSubject, ReadonlySet<string>>();
  const keysOf = (page: PageSubject) => {
    let keys = keySets.get(page);
    if (!keys) keySets.set(page, (keys = new Set([...page.names, ...page.versions])));
    return keys;
  };
  const other = new Map<string, string>();
  const narrower = new Map<string, string>();
  const own = new Set<string>();
  // Pages scoped to file types by their globs whose names the task says (the Copilot and Cursor
  // convention: a file per stack, every one a rival of the others).
  const stacks = [...named].filter((n) => subjects.rivals(n).size > 0);
  const scopedSaid = pages.some((p) => subjects.isScoped(p.doc) && [...p.names].some((n) => said.has(n)));
  const reading: TaskReading = { said, named, unknown, stacks, scopedSaid, subjects, complementary, keysOf };
  for (const p of pages) {
    if (p.names.size === 0) continue;
    const names = [...p.names];
    const unsaid = names.filter((n) => !said.has(n));
    const proper = names.filter((n) => subjects.isProper(n));
    const unsaidProper = unsaid.filter((n) => subjects.isProper(n));
    const why = otherReason(p, { names, unsaid, proper, unsaidProper }, reading);
    if (why !== undefined) {
      other.set(p.doc.id, why);
      continue;
    }
    const about = names.filter((n) => named.has(n));
    if (about.length === 0) continue;
    if (unsaidProper.length > 0) {
      // A proper name the task does not say, on a page of a stack it names: about something else
      // on that stack when another page of the stack goes without it and the page is as much about
      // what the task does not say as about what it does (Supabase on Next.js beside Next.js; not
      // Astro's content patterns for Astro content collections), or when most of the page is what
      // the task does not say and that is one of the library's recurring subjects (the Kotlin MCP
      // server page for a Ktor route).
      const mostly = unsaid.length >= names.length - unsaid.length;
      const broader = unsaidProper.find((n) => hasBroader(p, about, n, pages));
      const recurring = unsaidProper.find((n) => subjects.isAxis(n));
      if (broader !== undefined && mostly) narrower.set(p.doc.id, broader);
      else if (recurring !== undefined && unsaid.length > names.length - unsaid.length)
        narrower.set(p.doc.id, recurring);
      continue;
    }
    // Every proper name said: the task's own page when nothing else is unsaid, or when it is about
    // two subjects the task names (Next.js with shadcn/ui for a shadcn dashboard in Next.js).
    if (unsaid.length === 0 || about.length >= 2) own.add(p.doc.id);
  }

  // Each named stack's general page: of its pages about no other named subject, the one with the
  // fewest other names: proper names first, then the library's recurring subjects (state
  // management, testing), then any. A page with nothing else is general however many there are;
  // one with a recurring subject only when it is the stack's only page; when several tie with
  // other names, none is.
  const general = new Set<string>();
  // A stack: a name other pages stand in the place of ("API" in one page's tags is not one).
  for (const stack of stacks) {
    const ranked: { p: PageSubject; rank: [number, number, number] }[] = [];
    for (const p of subjects.holding(stack)) {
      // The library's own labels (folder, file name, tags) say the page is about the stack.
      if (!p.declared.has(stack) || other.has(p.doc.id) || narrower.has(p.doc.id)) continue;
      if ([...p.names].some((n) => n !== stack && named.has(n))) continue;
      // What else the page is about, said or not: "Routes in Laravel 12" is about routes, however
      // much the task asks about them; the general page is about the stack.
      const extras = [...p.names].filter((n) => n !== stack);
      ranked.push({
        p,
        rank: [
          extras.filter((n) => subjects.isProper(n)).length,
          extras.filter((n) => subjects.isAxis(n)).length,
          extras.length,
        ],
      });
    }
    if (ranked.length === 0) continue;
    const before = (a: readonly number[], b: readonly number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    const best = ranked.reduce((a, b) => (before(b.rank, a.rank) < 0 ? b : a));
    const chosen = ranked.filter((r) => before(r.rank, best.rank) === 0);
    const [, recurring, all] = best.rank;
    if (all === 0 || (chosen.length === 1 && (recurring === 0 || ranked.length === 1)))
      for (const r of chosen) general.add(r.p.doc.id);
  }

  // On a stack the task names, a page about another of its topics than the one the task says
  // (the styling page beside the state page of Next.js, for a state question): another subject.
  // A page of the stack about a topic the task does not say at all is off its topic: it may come
  // through the search, never by what it is for.
  const offTopic = new Map<string, string>();
  for (const p of pages) {
    const id = p.doc.id;
    if (other.has(id) || narrower.has(id) || own.has(id) || general.has(id)) continue;
    const about = [...p.names].filter((n) => named.has(n));
    const topics = [...p.names].filter((n) => !named.has(n));
    if (about.length === 0 || topics.length === 0 || topics.some((n) => said.has(n))) continue;
    const rival = topicRival(p, about, said, pages, subjects, complementary);
    if (rival !== undefined) other.set(id, rival);
    else offTopic.set(id, topics[0]);
  }

  // Files the task names: the pages whose globs match them, when few do.
  const globs = globEvidence(docs, pathsIn(task));
  const byPath = new Map<string, number>();
  for (const files of globs.values()) for (const f of files) byPath.set(f, (byPath.get(f) ?? 0) + 1);
  const specific = Math.max(1, Math.floor(GLOB_SPECIFIC_MAX_SHARE * docs.length));
  for (const [id, files] of globs)
    if (!other.has(id) && files.some((f) => (byPath.get(f) ?? 0) <= specific)) {
      own.add(id);
      narrower.delete(id);
    }

  return {
    said,
    named,
    unknown,
    forced: docs.filter((d) => own.has(d.id) || general.has(d.id)),
    other,
    narrower,
    offTopic,
    globs,
  };
}

/** What {@link otherReason} reads of the task, made once per task. */
interface TaskReading {
  said: ReadonlySet<string>;
  named: ReadonlySet<string>;
  unknown: readonly string[];
  stacks: readonly string[];
  /** A file-scoped page's names are said. */
  scopedSaid: boolean;
  subjects: LibrarySubjects;
  complementary: (a: Doc, b: Doc) => boolean;
  keysOf: (page: PageSubject) => ReadonlySet<string>;
}

/** A page's names, split as {@link otherReason} reads them. */
interface PageNames {
  names: readonly string[];
  unsaid: readonly string[];
  proper: readonly string[];
  unsaidProper: readonly string[];
}

/**
 * Why page `p` is about another subject than the task's (the word that says it), or undefined.
 * A module function rather than one declared in the loop over pages: a task reads hundreds.
 */
function otherReason(p: PageSubject, page: PageNames, task: TaskReading): string | undefined {
  const { names, unsaid, proper, unsaidProper } = page;
  const { said, named, unknown, stacks, scopedSaid, subjects, complementary, keysOf } = task;
  // The task names a subject or a tool the library never mentions: a page about one of the
  // library's stacks or recurring subjects (a proper name other pages stand in the place of,
  // or one pages about different things share) none of whose proper names it says ("install"
  // does not make the Tailwind page one for a Debian task); when it names a tool the library
  // never mentions, any page none of whose names it says; when it names a stack, any page
  // about one of the recurring subjects none of whose names it says (a kit's global pages for
  // a Laravel task; not a guide to discovery calls for a task naming a competitor).
  const onStack = proper.some((n) => subjects.rivals(n).size > 0 || subjects.isAxis(n));
  if ((named.size > 0 || unknown.length > 0) && onStack && proper.every((n) => !said.has(n))) return proper[0];
  if (
    unsaid.length === names.length &&
    (unknown.length > 0 || (stacks.length > 0 && names.some((n) => subjects.isAxis(n))))
  )
    return unsaid[0];
  // A tool the library never mentions: a page about one of the library's recurring subjects
  // the task does not say is about another one.
  if (unknown.length > 0) {
    const recurring = unsaidProper.find((n) => subjects.isAxis(n));
    if (recurring !== undefined) return recurring;
  }
  // A proper name standing in the place of one the task names (React where the task says Next.js).
  for (const w of unsaidProper) for (const v of subjects.rivals(w)) if (named.has(v) && !p.names.has(v)) return w;
  // A file-scoped page none of whose names the task says, when it says those of another.
  if (scopedSaid && subjects.isScoped(p.doc) && unsaid.length === names.length) return unsaid[0];
  return rivalName(p, said, subjects, complementary, keysOf);
}

/** Another page of the subjects `p` is about (`about`) that does not have `w`: the broader page `p` narrows. */
function hasBroader(p: PageSubject, about: readonly string[], w: string, pages: readonly PageSubject[]): boolean {
  return pages.some((q) => q !== p && !q.names.has(w) && about.every((n) => q.names.has(n)));
}

/**
 * The word that makes `p` another subject's page than the task's: some page `q` holds a word the
 * task says that `p` lacks, and reads like `p` with `p`'s own word in its place (they share a
 * name, or each has just one name the other lacks), while nothing `p` has beyond `q` is said.
 * Versions stand in for versions, names for names.
 */
function rivalName(
  p: PageSubject,
  said: ReadonlySet<string>,
  subjects: LibrarySubjects,
  complementary: (a: Doc, b: Doc) => boolean,
  keysOf: (page: PageSubject) => ReadonlySet<string>,
): string | undefined {
  const mine = keysOf(p);
  // Whether `q` can be a rival at all does not depend on the said word that reached it: its
  // names `p` holds alone, or null when it cannot, once per page however many said words it holds.
  const rivals = new Map<PageSubject, string[] | null>();
  for (const v of said) {
    if (mine.has(v)) continue;
    for (const q of subjects.holding(v)) {
      if (q === p) continue;
      // What `v` is on `q` first (two set lookups): a said word that is neither a proper name nor
      // a version of `q` never makes a rival, so most pages holding it are passed over unread.
      const wanted = wordKind(subjects, q, v);
      if (wanted === undefined) continue;
      let onlyMine = rivals.get(q);
      if (onlyMine === undefined) rivals.set(q, (onlyMine = rivalNames(p, mine, q, keysOf(q), said)));
      if (onlyMine === null) continue;
      const w = onlyMine.find((k) => wordKind(subjects, p, k) === wanted);
      if (w === undefined) continue;
      // Siblings in a folder about one thing go together, unless the word is one of the library's recurring subjects.
      if (complementary(p.doc, q.doc) && !subjects.isAxis(w)) continue;
      return w;
    }
  }
  return undefined;
}

/**
 * What a word stands for on `page`: a proper name for a proper name, a version for a version.
 * (Module functions, not closures made per page: a task reads hundreds of pages.)
 */
function wordKind(subjects: LibrarySubjects, page: PageSubject, k: string): 'version' | 'proper' | undefined {
  return page.versions.has(k) && !page.names.has(k) ? 'version' : subjects.isProper(k) ? 'proper' : undefined;
}

/** The names `p` (names and versions `mine`) holds that `q` (`theirs`) lacks, when `q` reads like `p` with them in its place; else null. */
function rivalNames(
  p: PageSubject,
  mine: ReadonlySet<string>,
  q: PageSubject,
  theirs: ReadonlySet<string>,
  said: ReadonlySet<string>,
): string[] | null {
  const onlyMine = [...mine].filter((k) => !theirs.has(k));
  if (onlyMine.length === 0 || onlyMine.some((k) => said.has(k))) return null;
  const common = [...mine].filter((k) => theirs.has(k));
  const onlyTheirs = [...theirs].filter((k) => !mine.has(k));
  const alike =
    common.some((k) => p.names.has(k)) ||
    (onlyMine.length === 1 && onlyTheirs.length === 1 && p.names.has(onlyMine[0]) && q.names.has(onlyTheirs[0]));
  return alike ? onlyMine : null;
}

/**
 * The topic that makes `p`, a page of the stacks the task names (`about`), another one than the
 * task's: another page of the same stacks holds a topic the task says (not a proper name) that
 * `p` lacks, while none of `p`'s own topics is said. Siblings in a folder about one thing go
 * together, unless the topic is one of the library's recurring subjects.
 */
function topicRival(
  p: PageSubject,
  about: readonly string[],
  said: ReadonlySet<string>,
  pages: readonly PageSubject[],
  subjects: LibrarySubjects,
  complementary: (a: Doc, b: Doc) => boolean,
): string | undefined {
  for (const q of pages) {
    if (q === p || !about.every((n) => q.names.has(n))) continue;
    const v = [...q.names].find((n) => said.has(n) && !p.names.has(n) && !subjects.isProper(n));
    if (v === undefined) continue;
    const w = [...p.names].find((n) => !q.names.has(n) && !about.includes(n));
    if (w === undefined) continue;
    if (complementary(p.doc, q.doc) && !subjects.isAxis(w)) continue;
    return w;
  }
  return undefined;
}
