/**
 * What each page of a library is about, read from what the page and the library say: the folders
 * it sits in below its format's root (`.cursor/rules/clerk-next/`, `.windsurf/rules/nextjs/`), its
 * file name, its title when it has one (front matter `title`, or its only level-1 heading), its
 * tags, and, when none of those names anything, its front matter `description`. The file name is
 * one signal among them: `best-practices.md` in every stack's folder of a Windsurf kit says what
 * kind of page it is, the folder says which stack.
 *
 * Words are compared as *subject keys*: lower-cased, punctuation dropped, stemmed as the index
 * stems words, with the spellings the analyser would cut restored ("C#" csharp, ".NET" dotnet)
 * and a trailing "js" dropped ("Next.js", "nextjs" and the folder `next-15` all say next). Numbers
 * ("15", "v4", the 3 of "vue3") are *versions*, kept apart: they tell Java 17 from Java 21, never
 * what a page is about.
 *
 * The library's own statistics and the page's own text then sort the words:
 * - a word held by more than {@link FRAME_MAX_PAGE_SHARE} of the pages is *frame*: the kind of
 *   page ("best practices", "coding standards", "setup", "add feature") or the format's own words;
 * - a word of the title that the page's text hardly uses ({@link TOPICAL_MIN} times below the
 *   title, or once in a heading), or that most pages' text uses ({@link COMMON_TEXT_SHARE}), says
 *   what kind of page it is, not what it is about: "Administration Guidelines" of a Linux
 *   distribution's page, "Upgrade Guide", "Coding Conventions"; the folders and the file name are
 *   the library's own labels and count as they are;
 * - every other word is one of the page's *names*; a name is an *axis* when the pages holding it
 *   differ in their other names (clerk with next, react and nuxt; "state management" with every
 *   stack of a kit): the library's recurring subjects, stacks, services and topics alike. A name
 *   on one page, or only on pages saying the same other names (the `15` of both next-15 pages),
 *   is a detail of that page.
 *
 * Built once per library view (contextIndex.ts); what a task makes of it is taskSubjects.ts.
 */
import { type Doc, analyzeWord } from '../../engine';
import { LastAnswer } from '../view/lastAnswer';
import { sectionBody } from '../view/summaries';

/**
 * A word held by more pages than this share (and by more than 2) is frame, not a name: on the
 * instructa library (45 pages) `add-feature-*` (10 pages) and `rule-*-coding-standards` (17)
 * are kinds of page, `clerk` (6) and `supabase` (6) are names; on the Windsurf kit (47 pages)
 * "best practices" (14) is a kind, "state management" (7) and "styling" (6) are topics.
 * Range 0..1; default 0.2.
 */
export const FRAME_MAX_PAGE_SHARE = 0.2;

/**
 * A word held by more than this share of the pages' folders, file names, titles and descriptions
 * together is frame too: "best practices" is in 11 of awesome-copilot's 54 titles but in 26 of its
 * pages' descriptions, "MCP" in 10 of either. Range 0..1; default 0.3.
 */
export const FRAME_MAX_SAID_SHARE = 0.3;

/**
 * A subject word is what a page is about when its text uses it at least this many times below
 * its title (or once in a heading of its own): "MCP" in an MCP server page, "state" in a state
 * management page, "Clerk" in a Clerk page, but not "Guidelines" or "Best Practices" in a title.
 * A page whose text uses none of its subject words (a stub of a title and a line) keeps them all.
 * Default 2.
 */
export const TOPICAL_MIN = 2;

/**
 * A title word the text of more than this share of the library's pages uses is a common word of
 * the library ("code" in 41 of awesome-copilot's 54 pages, "conventions" in 28), not a name.
 * Range 0..1; default 0.5.
 */
export const COMMON_TEXT_SHARE = 0.5;

/** Spellings the analyser would cut, as pages write them ("C#" -> csharp), capitalised as the names they are. */
const SPELLINGS: readonly [RegExp, string][] = [
  [/c#/gi, ' CSharp '],
  [/f#/gi, ' FSharp '],
  [/c\+\+/gi, ' Cpp '],
  [/(^|[^\p{L}\p{N}])\.net\b/giu, '$1 DotNet '],
];

/**
 * The folders a format reads its files from: what sits below them is the library's own
 * structure, what sits above is where the library is kept.
 */
const FORMAT_ROOT =
  /(?:^|\/)(?:\.cursor\/rules|\.windsurf\/rules|\.github\/instructions|\.github|\.context|\.clinerules)\//g;

/** File names that are a format, not a subject (instructionFormats.ts reads them by these names). */
const FORMAT_FILE_NAMES = new Set(['agents', 'claude', 'copilot-instructions', 'readme', 'index', 'instructions']);

/** One word of a subject: its key, whether it is a version, and the word it came from (lower case, unstemmed). */
export interface SubjectWord {
  key: string;
  version: boolean;
  surface: string;
}

/** The subject keys of one word as written ("Next.js", "vue3", "v4", "rule-next-coding-standards" is several). */
function keysOfToken(token: string): SubjectWord[] {
  const out: SubjectWord[] = [];
  const compact = token.toLowerCase().replace(/[^\p{L}\p{N}.]/gu, '');
  if (compact === '') return out;
  // "3.29", "v4", "15": a version.
  if (/^v?\d+(\.\d+)*$/.test(compact)) return [{ key: compact.replace(/^v/, ''), version: true, surface: compact }];
  let base = compact.replace(/\./g, '');
  if (base.length > 4 && base.endsWith('js')) base = base.slice(0, -2);
  // "java21", "python3", "angular19": a name and its version; "auth0", "vue3", "s3" stay one name.
  const digits = /^(\p{L}{3,})(\d{1,2})$/u.exec(base);
  if (digits && (digits[2].length > 1 || digits[1].length >= 5)) {
    base = digits[1];
    out.push({ key: digits[2], version: true, surface: digits[2] });
  }
  const key = analyzeWord(base);
  if (key) out.unshift({ key, version: false, surface: base });
  return out;
}

/** The subject words of a text, in order (spellings restored, words split at anything but letters, digits and dots). */
export function subjectWords(text: string): SubjectWord[] {
  let t = text;
  for (const [re, to] of SPELLINGS) t = t.replace(re, to);
  const out: SubjectWord[] = [];
  for (const raw of t.split(/[^\p{L}\p{N}.]+/u)) {
    const token = raw.replace(/^\.+|\.+$/g, '');
    if (token === '') continue;
    // "Next.js" is one name; "foo.bar.baz" (a file or package name) is its parts.
    const parts = /^[\p{L}\p{N}]+\.js$/iu.test(token) || /^v?\d+(\.\d+)+$/.test(token) ? [token] : token.split('.');
    for (const part of parts) {
      out.push(...keysOfToken(part));
      // "assertAll", "useState": an identifier, and the words it is made of.
      if (/^\p{Ll}+\p{Lu}/u.test(part))
        for (const word of part.split(/(?=\p{Lu})/u)) if (word.length > 2) out.push(...keysOfToken(word));
    }
  }
  return out;
}

/** The keys of two adjacent words written as one ("Spring Boot": springboot), for matching a page named that way. */
export function joinedKeys(text: string): string[] {
  let t = text;
  for (const [re, to] of SPELLINGS) t = t.replace(re, to);
  const words = t.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '' && !/^\d+$/.test(w));
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const key = analyzeWord(`${words[i]}${words[i + 1]}`.toLowerCase());
    if (key) out.push(key);
  }
  return out;
}

/** The folders below a page's format root (`.cursor/rules/clerk-next/x.mdc`: clerk-next), dot-folders skipped. */
export function placeOf(path: string): string[] {
  const dir = path.slice(0, Math.max(0, path.lastIndexOf('/') + 1));
  let start = 0;
  for (const m of dir.matchAll(FORMAT_ROOT)) start = (m.index ?? 0) + m[0].length;
  return dir
    .slice(start)
    .split('/')
    .filter((s) => s !== '' && !s.startsWith('.'));
}

/** A page's file name without its extensions, or '' for a file named by its format (AGENTS.md, README.md). */
export function fileStemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const stem = name.replace(/\.(instructions\.md|md|mdc|markdown|mdx)$/i, '');
  return FORMAT_FILE_NAMES.has(stem.toLowerCase()) ? '' : stem;
}

/**
 * The page's own title: front matter `title`, or its only level-1 heading. A page with several
 * level-1 headings ("# Project Structure", "# Server Components", ...) has none: its first
 * heading is a section, not what the page is about.
 */
export function ownTitleOf(doc: Doc): string | undefined {
  const declared = doc.frontMatter?.title;
  if (typeof declared === 'string' && declared.trim() !== '') return declared.trim();
  const top = doc.sections.filter((s) => s.level === 1);
  if (top.length !== 1 || top[0].headingPath[0] !== doc.title) return undefined;
  // "# AGENTS.md", "# CLAUDE.md": the file's name, not a subject.
  const name = doc.path.slice(doc.path.lastIndexOf('/') + 1).toLowerCase();
  return doc.title.trim().toLowerCase() === name ? undefined : doc.title;
}

/** What one page is about. */
export interface PageSubject {
  doc: Doc;
  /** Its names: subject keys that are not frame and not versions. */
  names: ReadonlySet<string>;
  /** The names the library's own labels give it: its folders, tags and file name. */
  declared: ReadonlySet<string>;
  /** Its versions ("15", "21"). */
  versions: ReadonlySet<string>;
}

export interface LibrarySubjects {
  /** The subject of a page (undefined for pages the library was not built with). */
  of(doc: Doc): PageSubject | undefined;
  /** Pages holding a name (or version) key. */
  holding(key: string): readonly PageSubject[];
  /** A name some page holds. */
  isName(key: string): boolean;
  /** A name the library's pages hold with differing other names: a recurring subject. */
  isAxis(key: string): boolean;
  /**
   * A proper name: the text of the pages holding it writes it with a capital mid-sentence at least
   * as often as without ("Supabase", "MCP", "Next.js", "Go"), unlike "state management",
   * "styling" or "authentication". A word their text never writes mid-sentence is not one.
   */
  isProper(key: string): boolean;
  /**
   * Proper names that stand in each other's place: two pages whose names are the same but for
   * this one (Next.js and React best practices, Clerk on Next.js and Clerk on React, Clerk and
   * Supabase on Next.js).
   */
  rivals(key: string): ReadonlySet<string>;
  /** The page's `globs`/`applyTo` scope it to some file types, not to everything. */
  isScoped(doc: Doc): boolean;
  /**
   * Two capitalised words the library writes next to each other somewhere ("Next.js App",
   * "Spring Boot"): a name of two words it knows, where "React Native" is one it never writes.
   */
  writesPair(first: string, second: string): boolean;
  /** Every subject key the library's pages hold, frame words included (for joined words: "springboot"). */
  vocabulary: ReadonlySet<string>;
  /** Pages in library order. */
  pages: readonly PageSubject[];
}

/**
 * The raw subject words of a page, before the library's statistics sort them: `declared` are
 * the folders it sits in, its tags and its file name (the library's own labels for it), `titled`
 * its title (the page's text must bear its words out), `described` its description.
 */
function rawSubject(doc: Doc): RawSubject {
  return memoOf(rawSubjects, doc, () => ({
    declared: subjectWords([...placeOf(doc.path), ...(doc.library?.tags ?? []), fileStemOf(doc.path)].join('\n')),
    titled: subjectWords(ownTitleOf(doc) ?? ''),
    described: subjectWords(doc.library?.summary ?? ''),
  }));
}

interface RawSubject {
  readonly declared: readonly SubjectWord[];
  readonly titled: readonly SubjectWord[];
  readonly described: readonly SubjectWord[];
}

/**
 * What one page's own text gives, kept by the page: a document is never changed once made, and
 * an index state after an edit holds the same objects for every page the edit left alone. Each
 * new state then reads only the pages that changed; the library's statistics over them (frame
 * words, axes, rivals) are still counted per state. At 100k sections reading every page's text
 * again was about 0.7 s of each new state's preparation.
 */
const rawSubjects = new WeakMap<Doc, RawSubject>();
const textUses = new WeakMap<Doc, ReadonlyMap<string, number>>();
const capitalUses = new WeakMap<Doc, ReadonlyMap<string, { readonly upper: number; readonly lower: number }>>();
const docCapitalPairs = new WeakMap<Doc, ReadonlySet<string>>();

function memoOf<V>(memo: WeakMap<Doc, V>, doc: Doc, make: () => V): V {
  let value = memo.get(doc);
  if (value === undefined) memo.set(doc, (value = make()));
  return value;
}

/**
 * How often the page's text uses each subject key below its title: the bodies of its sections
 * and, counted {@link TOPICAL_MIN} times, the headings under its title.
 */
function textUse(doc: Doc): ReadonlyMap<string, number> {
  return memoOf(textUses, doc, () => countTextUse(doc, ownTitleOf(doc)));
}

function countTextUse(doc: Doc, title: string | undefined): Map<string, number> {
  const uses = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const w of subjectWords(text)) uses.set(w.key, (uses.get(w.key) ?? 0) + weight);
  };
  for (const section of doc.sections) {
    add(sectionBody(section), 1);
    const heading = section.headingPath[section.headingPath.length - 1];
    if (heading !== undefined && !(section.level === 1 && heading === title)) add(heading, TOPICAL_MIN);
  }
  return uses;
}

/**
 * How the library's running text writes each word mid-sentence (by its unstemmed surface, so
 * "nested" says nothing about "NestJS"): with a capital, or not.
 * Headings (title case), code and the first word of a line or sentence are not counted.
 */
function capitalUse(doc: Doc): ReadonlyMap<string, { readonly upper: number; readonly lower: number }> {
  return memoOf(capitalUses, doc, () => countCapitalUse(doc));
}

function countCapitalUse(doc: Doc): Map<string, { upper: number; lower: number }> {
  const use = new Map<string, { upper: number; lower: number }>();
  const texts = [doc.library?.summary ?? '', ...doc.sections.map((section) => sectionBody(section))];
  for (const raw of texts) {
    let text = raw.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`[^`\n]*`/g, ' ');
    for (const [re, to] of SPELLINGS) text = text.replace(re, to);
    for (const line of text.split('\n'))
      for (const m of line.matchAll(/(?<=[\p{L}\p{N},;)]\s+)\p{L}[\p{L}\p{N}.+#-]*/gu)) {
        const word = m[0].replace(/\.+$/, '');
        // "python-dotenv", "mcp-server": a package or file name, written as its ecosystem writes it.
        if (word.includes('-')) continue;
        const upper = /^\p{Lu}/u.test(word);
        // In a run of capitalised words ("the Repository Pattern", "on Arch Linux") a capital may
        // be title case as much as a name's spelling: it counts half.
        const index = m.index ?? 0;
        const inRun =
          /(\p{Lu}[\p{L}\p{N}.+#]*)\s+$/u.test(line.slice(0, index)) ||
          /^\s+\p{Lu}/u.test(line.slice(index + m[0].length));
        const weight = upper && inRun ? 0.5 : 1;
        for (const w of subjectWords(word)) {
          if (w.version) continue;
          let u = use.get(w.surface);
          if (!u) use.set(w.surface, (u = { upper: 0, lower: 0 }));
          if (upper) u.upper += weight;
          else u.lower += weight;
        }
      }
  }
  return use;
}

/** A capitalised word as a pair key (lower case, letters and digits). */
const pairWord = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Every pair of adjacent capitalised words the pages write (titles, headings, text, descriptions). */
function capitalPairs(docs: readonly Doc[]): Set<string> {
  const pairs = new Set<string>();
  for (const doc of docs) for (const pair of memoOf(docCapitalPairs, doc, () => pairsOf(doc))) pairs.add(pair);
  return pairs;
}

/** The adjacent capitalised words of one page. */
function pairsOf(doc: Doc): Set<string> {
  const pairs = new Set<string>();
  const texts = [doc.title, doc.library?.summary ?? '', ...doc.sections.map((section) => section.text)];
  for (const raw of texts)
    for (const line of raw.replace(/```[\s\S]*?(```|$)/g, ' ').split('\n')) {
      const words = line.split(/[^\p{L}\p{N}.+#-]+/u).filter((w) => w !== '');
      for (let i = 0; i + 1 < words.length; i++)
        if (/^\p{Lu}/u.test(words[i]) && /^\p{Lu}/u.test(words[i + 1]))
          pairs.add(`${pairWord(words[i])} ${pairWord(words[i + 1])}`);
    }
  return pairs;
}

/** Globs that scope a page to every file. */
const EVERYTHING = /^\s*["']?(\*\*?|\*\*\/\*|\*\.\*|\*\*\/\*\.\*)["']?\s*$/;

/**
 * The subjects of `docs`. The answer depends on the pages alone: the same pages in the same order
 * (the same objects, as a new index state after an edit outside the library holds them) give
 * the last answer again.
 */
export function buildLibrarySubjects(docs: readonly Doc[]): LibrarySubjects {
  return lastSubjects.get([docs], () => subjectsOf(docs));
}

const lastSubjects = new LastAnswer<LibrarySubjects>();

function subjectsOf(docs: readonly Doc[]): LibrarySubjects {
  const raw = docs.map((doc) => ({ doc, ...rawSubject(doc) }));
  const count = (lists: readonly SubjectWord[][]) => {
    const df = new Map<string, number>();
    for (const words of lists)
      for (const key of new Set(words.filter((w) => !w.version).map((w) => w.key))) df.set(key, (df.get(key) ?? 0) + 1);
    return df;
  };
  const df = count(raw.map((r) => [...r.declared, ...r.titled]));
  const dfSaid = count(raw.map((r) => [...r.declared, ...r.titled, ...r.described]));
  const uses = docs.map((doc) => textUse(doc));
  const dfText = new Map<string, number>();
  for (const u of uses) for (const key of u.keys()) dfText.set(key, (dfText.get(key) ?? 0) + 1);
  const maxText = Math.max(2, Math.floor(COMMON_TEXT_SHARE * docs.length));
  const maxPages = Math.max(2, Math.floor(FRAME_MAX_PAGE_SHARE * docs.length));
  const maxSaid = Math.max(2, Math.floor(FRAME_MAX_SAID_SHARE * docs.length));
  const isFrame = (key: string) => (df.get(key) ?? 0) > maxPages || (dfSaid.get(key) ?? 0) > maxSaid;
  const vocabulary = new Set<string>();
  const surfaces = new Map<string, Set<string>>();
  const pages: PageSubject[] = raw.map(({ doc, declared, titled, described }, i) => {
    for (const w of [...declared, ...titled, ...described]) {
      vocabulary.add(w.key);
      let forms = surfaces.get(w.key);
      if (!forms) surfaces.set(w.key, (forms = new Set()));
      forms.add(w.surface);
    }
    const keys = (words: readonly SubjectWord[]) =>
      new Set(words.filter((w) => !w.version && !isFrame(w.key)).map((w) => w.key));
    const titleKeys = keys(titled);
    const topical = (k: string) => (uses[i].get(k) ?? 0) >= TOPICAL_MIN && (dfText.get(k) ?? 0) <= maxText;
    const labels = keys(declared);
    let names = new Set([...labels, ...[...titleKeys].filter(topical)]);
    // A stub whose text bears out none of its title's words keeps them all; a page with nothing
    // but frame in its folders, file name and title says what it is about in its description.
    if (names.size === 0) names = titleKeys;
    let words = [...declared, ...titled];
    if (names.size === 0) {
      names = keys(described);
      words = [...words, ...described];
    }
    return { doc, names, declared: labels, versions: new Set(words.filter((w) => w.version).map((w) => w.key)) };
  });
  const byKey = new Map<string, PageSubject[]>();
  const byId = new Map<string, PageSubject>();
  for (const p of pages) {
    byId.set(p.doc.id, p);
    for (const key of [...p.names, ...p.versions]) {
      const list = byKey.get(key);
      if (list) list.push(p);
      else byKey.set(key, [p]);
    }
  }
  const axis = new Map<string, boolean>();
  const isAxis = (key: string): boolean => {
    let is = axis.get(key);
    if (is === undefined) {
      const holders = (byKey.get(key) ?? []).filter((p) => p.names.has(key));
      const others = new Set(
        holders.map((p) =>
          [...p.names]
            .filter((n) => n !== key)
            .sort()
            .join(' '),
        ),
      );
      is = holders.length >= 2 && others.size >= 2;
      axis.set(key, is);
    }
    return is;
  };
  const proper = new Map<string, boolean>();
  const isProper = (key: string): boolean => {
    let is = proper.get(key);
    if (is === undefined) {
      let upper = 0;
      let lower = 0;
      const holders = (byKey.get(key) ?? []).filter((p) => p.names.has(key));
      const count = (among: readonly PageSubject[]) => {
        for (const p of among)
          for (const form of surfaces.get(key) ?? []) {
            const u = capitalUse(p.doc).get(form);
            upper += u?.upper ?? 0;
            lower += u?.lower ?? 0;
          }
      };
      count(holders);
      // Their text never writes it mid-sentence: how the rest of the library writes it.
      if (upper + lower === 0) count(pages);
      is = upper > 0 && upper >= lower;
      proper.set(key, is);
    }
    return is;
  };
  // Pages whose names are the same but for one proper name: those names are rivals.
  const rivalSets = new Map<string, Set<string>>();
  const bySignature = new Map<string, Set<string>>();
  for (const p of pages)
    for (const w of p.names) {
      if (!isProper(w)) continue;
      const signature = [...p.names]
        .filter((n) => n !== w)
        .sort()
        .join(' ');
      let list = bySignature.get(signature);
      if (!list) bySignature.set(signature, (list = new Set()));
      list.add(w);
    }
  for (const words of bySignature.values())
    for (const w of words)
      for (const v of words) {
        if (w === v) continue;
        let set = rivalSets.get(w);
        if (!set) rivalSets.set(w, (set = new Set()));
        set.add(v);
      }
  const scoped = (doc: Doc) => {
    const globs = doc.library?.applyTo ?? [];
    return globs.length > 0 && globs.every((g) => !EVERYTHING.test(g));
  };
  let pairs: Set<string> | undefined;
  return {
    writesPair: (first, second) => (pairs ??= capitalPairs(docs)).has(`${pairWord(first)} ${pairWord(second)}`),
    rivals: (key) => rivalSets.get(key) ?? new Set(),
    isScoped: scoped,
    of: (doc) => byId.get(doc.id),
    isProper,
    holding: (key) => byKey.get(key) ?? [],
    isName: (key) => (byKey.get(key) ?? []).some((p) => p.names.has(key)),
    isAxis,
    vocabulary,
    pages,
  };
}
