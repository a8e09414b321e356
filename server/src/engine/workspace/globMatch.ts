/**
 * Glob matching in time linear in the path, whatever the glob.
 *
 * Globs come from the workspace (catalog `Location` targets, `.wsctx.yaml`'s `sources.*`) and the
 * user's settings. A glob library that turns `*a*a*a*a*a*a*a*b` into a backtracking regular
 * expression spends minutes of CPU on one long file name; here a glob is parsed (globParse.ts)
 * into a Thompson NFA run as a lazily built DFA (globAutomaton.ts), so the cost of a match is at
 * most (path length) x (glob length), with no backtracking.
 *
 * The syntax is picomatch's, which this replaces, for everything the engine's globs use:
 * - `*` any run of characters but `/`; `?` one character but `/`; `[abc]`, `[a-z]`, `[!a]`,
 *   `[^a]`, `[[:alpha:]]` one character of (or not of) a set, never `/`; `\x` a literal `x`.
 * - `**` as a whole segment: any number of whole segments (`a/**` also matches `a`, `**\/x` also
 *   `x`); anywhere else it is `*`.
 * - `{a,b}` either (nested, and alternatives may hold `/`); `{a..e}`, `{1..20}` a range of single
 *   letters or of whole numbers (at most 1,000 values); `(a|b)` a group;
 *   `@(a|b)` one of, `?(a|b)` at most one, `+(a|b)` one or more, `*(a|b)` any number.
 * - A leading `!` negates the whole glob; a leading `./` is dropped; a path equal to the glob
 *   as written matches it (a file named `a[1].yaml` matches the glob `a[1].yaml`).
 * - Unless `dot` is set, `*`, `?`, a negated set and `**` do not match a name that starts with
 *   `.` (a segment that starts with a wildcard does not match `.github`; `.github/*` still does).
 * - `!(a|b)` inside a glob is not supported (picomatch's reading of it is not a regular language
 *   in general): {@link globProblem} says so, and such a glob is taken literally.
 * Differences from picomatch 4 (deliberate): `[!a]` is a negated set as in every shell (picomatch
 * reads it as `!` or `a`); a set never matches `/`; a negated set at a name's start never matches
 * its dot (picomatch answers both ways, depending on what follows the set).
 * `test/unit/engine/workspace/globMatch.test.ts` compares the two on thousands of generated globs.
 */
import { compileProgram, LazyDfa } from './globAutomaton';
import { parse, stripPrefix, type GlobOptions } from './globParse';

export type { GlobOptions } from './globParse';

/** Longest glob matched, in characters; a longer one matches nothing ({@link globProblem} says why). */
export const MAX_GLOB_LENGTH = 1024;

/** Why a glob cannot be used as written, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_LENGTH)
    return `a glob may be at most ${MAX_GLOB_LENGTH} characters long (this one has ${glob.length})`;
  if (/(^|[^\\])!\(/.test(glob.replace(/^!+(?!\()/, '')))
    return '"!(...)" inside a glob is not supported; list the names to match instead, or negate the whole glob with a leading "!"';
  return undefined;
}

/** True when `glob` holds any wildcard, set, alternative or group (not only literal characters). */
export function isGlobPattern(glob: string): boolean {
  if (glob.length > MAX_GLOB_LENGTH) return true;
  return parse(stripPrefix(glob).body).some((node) => node.t !== 'char' && node.t !== 'slash');
}

/** A compiled glob: true when a path (posix separators, no leading `./`) matches. */
export type GlobMatcher = (path: string) => boolean;

/** Compiles one glob. Never throws: a glob {@link globProblem} refuses matches nothing. */
export function compileGlob(glob: string, options: GlobOptions = {}): GlobMatcher {
  return compileGlobs([glob], options);
}

/**
 * Compiles globs into one matcher that is true when any of them matches: the globs without a
 * leading `!` run as one automaton, each negated one on its own.
 */
export function compileGlobs(globs: readonly string[], options: GlobOptions = {}): GlobMatcher {
  const positives: string[] = [];
  const negatives: GlobMatcher[] = [];
  const literal = new Set<string>();
  for (const glob of globs) {
    if (glob.length > MAX_GLOB_LENGTH) continue;
    const { negated, body } = stripPrefix(glob);
    if (negated) {
      const inner = compileGlobs([body], options);
      negatives.push((path) => !inner(path));
    } else {
      positives.push(body);
      literal.add(glob);
    }
  }
  const program =
    positives.length > 0
      ? compileProgram(
          positives.map((body) => parse(body)),
          options,
        )
      : undefined;
  const dfa = program && new LazyDfa(program, options.nocase === true);
  if (!dfa && negatives.length === 0) return () => false;
  return (path) => literal.has(path) || dfa?.matches(path) || negatives.some((match) => match(path));
}
