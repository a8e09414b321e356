/**
 * The pages whose subject is a stack (or a tool) the task names, and the narrower pages of that
 * stack it does not ask for. "A Rust CLI config loader" names Rust: the page about Rust belongs in
 * the bundle even when the page about Rust MCP servers matches the task's other words better, and
 * that narrower page, about MCP servers the task never mentions, does not.
 *
 * A page's subject is what its file name says it is about, word by word (`rust-mcp-server`:
 * rust, mcp, server; `nextjs`: nextjs; `dart-n-flutter`: dart, flutter). Libraries of
 * instructions name their files by their subject; titles mix in the kind of guidance ("Coding
 * Conventions and Best Practices") and the organisation's name, which say nothing about what the
 * page is for. A generic file name (`AGENTS.md`, `README.md`, `instructions.md`) gives no subject.
 *
 * A task names a stack with a proper name: a word written with a capital or a digit ("Rust",
 * "Next.js 15", "C#", "JUnit 5", "Spring Boot"). For each such name the library's pages whose
 * subject holds it are compared by what else their subject says that the task does not:
 *
 * - the pages with the least of it are the stack's own pages, and come (`forced`), unless that
 *   rest is a *topic* several other pages share (`mcp`, `server`: the Kotlin MCP server page is
 *   not the Kotlin page, and a Ktor task gets neither) or outweighs what the task says of it
 *   ("REST" does not make `aspnet-rest-apis` the page of a Quarkus REST task; "Flutter" makes
 *   `dart-n-flutter` the page of a Flutter task);
 * - a page sharing a named word with a forced page, whose subject adds to the forced page's only
 *   words the task does not say, is a narrower page of the stack or another stack's version of
 *   it (`narrower`: Rust MCP servers beside Rust, Next.js + Tailwind beside Next.js, Playwright
 *   for TypeScript beside Playwright for Python, the Java MCP server page beside the Python one);
 * - a page of a named stack whose subject says more that the task does not than it says that the
 *   task does, a shared topic among it, is about that topic, not the task's (`narrower` too): the
 *   Kotlin MCP server page for "a Ktor route in our Kotlin service", the Python MCP server page
 *   for "Playwright tests in Python"; the JUnit 5 assertions page (java, junit5, assertions) stays
 *   for "JUnit 5 assertions in our Spring Boot tests".
 *
 * Deterministic, no model; the judge, when on, still decides each section (focus.ts).
 */
import { type Doc, baseName, analyzeWord, identityTerms } from '../../engine';

/** File-name words that say what kind of file it is, not what it is about (as keys: stemmed). */
const GENERIC_FILE_WORDS = new Set(['instruct', 'readm', 'index', 'agent', 'claud', 'copilot', 'rule', 'md', 'mdc']);

/**
 * A subject word is a topic when at least this many pages' subjects hold it: mcp and server (ten
 * MCP server pages), tailwind, playwright, java on the awesome-copilot library; ruby (two pages)
 * is not. Default 3.
 */
export const TOPIC_MIN_PAGES = 3;

/** Spellings the analyser would cut, as pages write them in file names (stackNames.ts has the same for terms). */
const SPELLINGS: readonly [RegExp, string][] = [
  [/c#/gi, 'csharp'],
  [/f#/gi, 'fsharp'],
  [/c\+\+/gi, 'cpp'],
  [/(^|\s)\.net\b/gi, '$1dotnet'],
];

export interface StackPages {
  /** Pages whose subject is a stack the task names, in library order. */
  forced: Doc[];
  /** Pages narrower than the task, with the subject word the task does not say. */
  narrower: Map<string, string>;
}

/** A word's key: its spelling fixed, lower-cased, stripped of punctuation, stemmed as the index stems words. */
function keyOf(word: string): string | null {
  let w = word;
  for (const [re, to] of SPELLINGS) w = w.replace(re, to);
  const compact = w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  if (compact === '') return null;
  return analyzeWord(compact);
}

/** The subject words of a page (keys) from its file name; empty for a generic name. */
export function subjectOf(doc: Doc): Set<string> {
  const stem = baseName(doc.path).replace(/\.(instructions\.md|md|mdc|markdown)$/i, '');
  const keys: string[] = [];
  for (const w of stem.split(/[-_.\s]+/)) {
    const k = keyOf(w);
    if (k && !GENERIC_FILE_WORDS.has(k) && !keys.includes(k)) keys.push(k);
  }
  // One letter is a joining word (`dart-n-flutter`), unless it is the whole name (`r`).
  return new Set(keys.length > 1 ? keys.filter((k) => k.length > 1) : keys);
}

/**
 * The task's words, their keys, and the keys of each word with the next ("Spring Boot": springboot).
 * `identity`: the task's identity terms when the caller has them (getContext.ts analyses the task once).
 */
function taskWords(
  task: string,
  identity?: ReadonlySet<string>,
): { words: string[]; said: Set<string>; names: Set<string> } {
  let text = task;
  for (const [re, to] of SPELLINGS) text = text.replace(re, ` ${to.trim()} `);
  const words = (text.match(/[\p{L}\p{N}][\p{L}\p{N}.+#'’-]*/gu) ?? []).map((w) =>
    w.replace(/['’]s$/i, '').replace(/[.]+$/, ''),
  );
  const said = new Set<string>(identity ?? identityTerms(task));
  const names = new Set<string>();
  words.forEach((word, i) => {
    const keys = [keyOf(word), i + 1 < words.length ? keyOf(word + words[i + 1]) : null].filter(
      (k): k is string => k !== null,
    );
    for (const k of keys) said.add(k);
    // A proper name: a capital anywhere ("iOS" too) or letters with digits ("v4", "Java21"); never a bare number.
    if (/\p{Lu}/u.test(word) || (/\p{N}/u.test(word) && /\p{L}/u.test(word))) {
      for (const k of keys) names.add(k);
    }
  });
  return { words, said, names };
}

/** The stack pages of `task` among `docs` (the pages it may draw from); `identity`, its identity terms when known. */
export function stackPages(task: string, docs: readonly Doc[], identity?: ReadonlySet<string>): StackPages {
  const { said, names } = taskWords(task, identity);
  if (names.size === 0) return { forced: [], narrower: new Map() };
  const subjects = new Map<Doc, Set<string>>();
  const pagesOf = new Map<string, number>();
  for (const doc of docs) {
    const subject = subjectOf(doc);
    if (subject.size === 0) continue;
    subjects.set(doc, subject);
    for (const k of subject) pagesOf.set(k, (pagesOf.get(k) ?? 0) + 1);
  }
  const isTopic = (k: string) => (pagesOf.get(k) ?? 0) >= TOPIC_MIN_PAGES;
  const rest = (subject: ReadonlySet<string>) => [...subject].filter((k) => !said.has(k));

  const forced = new Set<Doc>();
  for (const name of names) {
    const holders = [...subjects].filter(([, subject]) => subject.has(name));
    if (holders.length === 0) continue;
    const least = Math.min(...holders.map(([, subject]) => rest(subject).length));
    for (const [doc, subject] of holders) {
      const unsaid = rest(subject);
      if (unsaid.length === least && unsaid.length <= subject.size - unsaid.length && !unsaid.some(isTopic))
        forced.add(doc);
    }
  }

  const narrower = new Map<string, string>();
  for (const [doc, subject] of subjects) {
    if (forced.has(doc)) continue;
    const unsaid = rest(subject);
    if (unsaid.length === 0 || ![...subject].some((k) => names.has(k))) continue;
    // Beside a forced page it shares a named word with, it adds only words the task does not say.
    const beside = [...forced].find((q) => {
      const qs = subjects.get(q)!;
      return (
        [...qs].some((k) => names.has(k) && subject.has(k)) && [...subject].every((k) => qs.has(k) || !said.has(k))
      );
    });
    if (beside) {
      narrower.set(doc.id, [...subject].find((k) => !subjects.get(beside)!.has(k)) ?? unsaid[0]);
      continue;
    }
    // Mostly about what the task does not say, a shared topic among it.
    const topic = unsaid.length > subject.size - unsaid.length ? unsaid.find(isTopic) : undefined;
    if (topic !== undefined) narrower.set(doc.id, topic);
  }
  return { forced: docs.filter((d) => forced.has(d)), narrower };
}
