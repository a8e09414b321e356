/**
 * Globs as evidence: a Cursor rule's `globs` or a Copilot instruction's `applyTo` say which files a
 * page is for, so a page whose globs match the files a task names (or, for a change, the files it
 * changed) is a page for that work. A glob that matches everything (`**`, `**\/*`, `*`) says
 * nothing about the files and is not evidence.
 *
 * {@link globEvidence} takes any list of paths: the files a task's text names ({@link pathsIn}),
 * or the changed files of a change.
 */
import { type Doc, compileGlobs } from '../../engine';

/** Globs that scope a page to every file. */
const EVERYTHING = /^\s*(\*\*?|\*\*\/\*|\*\.\*|\*\*\/\*\.\*)\s*$/;

type Matcher = (path: string) => boolean;
const matchers = new WeakMap<Doc, Matcher | null>();

/** A page's glob matcher (null when it has no globs, or only globs matching everything), cached per page. */
function matcherOf(doc: Doc): Matcher | null {
  let m = matchers.get(doc);
  if (m === undefined) {
    const globs = (doc.library?.applyTo ?? [])
      .map((g) => g.trim().replace(/^["']|["']$/g, ''))
      .filter((g) => g !== '' && !EVERYTHING.test(g));
    m = globs.length > 0 ? compileGlobs(globs, { dot: true }) : null;
    matchers.set(doc, m);
  }
  return m;
}

/**
 * The pages whose `globs`/`applyTo` match any of `paths` (workspace- or repository-relative, `/`
 * separators), each with the paths it matches, in the order given. A glob written for the
 * repository root (`src/**\/*.ts`) is also tried against each path's tail, since a task may name
 * `web/src/app.ts` in a multi-repository workspace.
 */
export function globEvidence(docs: readonly Doc[], paths: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const clean = [...new Set(paths.map((p) => p.trim().replace(/^\.\//, '')).filter((p) => p !== ''))];
  if (clean.length === 0) return out;
  for (const doc of docs) {
    const match = matcherOf(doc);
    if (!match) continue;
    const hits = clean.filter((p) => tails(p).some((t) => match(t)));
    if (hits.length > 0) out.set(doc.id, hits);
  }
  return out;
}

/** A path and each of its tails (`a/b/c.ts`, `b/c.ts`, `c.ts`). */
function tails(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(i).join('/'));
}

/**
 * The file paths a task's text names: words with a file extension (`page.tsx`, `Cart.vue`,
 * `src/app/layout.tsx`) or with a folder and a file (`app/api/route.ts`); not URLs, versions
 * ("v4.2") or abbreviations ("e.g.").
 */
export function pathsIn(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[\s"'`(),;]+/)) {
    const word = raw.replace(/[.:!?]+$/, '');
    if (word === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(word) || word.startsWith('@')) continue;
    const name = word.slice(word.lastIndexOf('/') + 1);
    const ext = /\.([A-Za-z][A-Za-z0-9]{0,9})$/.exec(name);
    if (!ext || /^v?\d/.test(name) || /^\w\.\w\.?$/.test(word) || /^(js|ts)$/i.test(name)) continue;
    // "Next.js", "vue.js", "Node.js": a name, not a file (a file named so comes with its folder).
    if (/^js$/i.test(ext[1]) && /^[A-Za-z]+\.js$/.test(name) && !word.includes('/')) continue;
    if (!out.includes(word)) out.push(word);
  }
  return out;
}
