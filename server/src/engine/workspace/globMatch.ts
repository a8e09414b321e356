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
 *   letters or of whole numbers (at most 1,000 values, compiled to a few digit sets, never one
 *   alternative per value); `(a|b)` a group;
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
 *
 * A glob's program is bounded before it is built: {@link MAX_GLOB_PROGRAM} instructions, checked
 * while compiling (the build stops there), so no glob costs more to refuse than to accept. How
 * many globs one pass may compile and run is globBudget.ts's concern.
 */
import { compileProgram, LazyDfa } from './globAutomaton';
import { parse, stripPrefix, type GlobOptions, type Node } from './globParse';

export type { GlobOptions } from './globParse';

/** Longest glob matched, in characters; a longer one matches nothing ({@link globProblem} says why). */
export const MAX_GLOB_LENGTH = 1024;

/**
 * Most instructions one glob's automaton may hold: 4,096. The default globs take 13 to 71; a
 * `{1..1000}` range 19; a glob of 1,024 characters about 3,000 at most (a star and a slash are 5, a character 1),
 * so the cap holds whatever the length check lets through. Matching a path costs at most its
 * length times the program's size.
 */
export const MAX_GLOB_PROGRAM = 4096;

/** What one glob costs: the instructions of its automaton, or why it cannot be used. */
export type GlobSize = { ok: true; instructions: number } | { ok: false; problem: string };

/**
 * The size of a glob's automaton (for the budgets of globBudget.ts), or why it cannot be used.
 * Costs at most {@link MAX_GLOB_PROGRAM} instructions of work, whatever the glob.
 */
export function globSize(glob: string, options: GlobOptions = {}): GlobSize {
  if (glob.length > MAX_GLOB_LENGTH)
    return {
      ok: false,
      problem: `a glob may be at most ${MAX_GLOB_LENGTH} characters long (this one has ${glob.length})`,
    };
  if (/(^|[^\\])!\(/.test(glob.replace(/^!+(?!\()/, '')))
    return {
      ok: false,
      problem:
        '"!(...)" inside a glob is not supported; list the names to match instead, or negate the whole glob with a leading "!"',
    };
  const program = compileProgram([parse(stripPrefix(glob).body)], options, MAX_GLOB_PROGRAM);
  if (!program)
    return {
      ok: false,
      problem: `a glob may compile to at most ${MAX_GLOB_PROGRAM.toLocaleString('en-US')} automaton instructions (this one needs more); write fewer alternatives, or name the files`,
    };
  return { ok: true, instructions: program.op.length };
}

/** Why a glob cannot be used as written, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  const size = globSize(glob);
  return size.ok ? undefined : size.problem;
}

/** True when `glob` holds any wildcard, set, alternative or group (not only literal characters). */
export function isGlobPattern(glob: string): boolean {
  if (glob.length > MAX_GLOB_LENGTH) return true;
  return parse(stripPrefix(glob).body).some((node) => node.t !== 'char' && node.t !== 'slash');
}

/**
 * The folder every path a glob matches lies in, from its leading literal segments (`services`
 * for `services/*\/catalog-info.yaml`, '' for `**\/x` or a negated glob), so a caller can test
 * only the files under it. A path equal to the folder itself may match too (`a/**` matches `a`).
 */
export function globLiteralFolder(glob: string): string {
  const { negated, body } = stripPrefix(glob);
  if (negated || glob.length > MAX_GLOB_LENGTH) return '';
  let folder = '';
  let segment = '';
  for (const node of parse(body)) {
    if (node.t === 'slash') {
      folder = folder === '' ? segment : `${folder}/${segment}`;
      segment = '';
    } else if (node.t === 'char') segment += String.fromCharCode(node.c);
    else break;
  }
  return folder;
}

/** A compiled glob: true when a path (posix separators, no leading `./`) matches. */
export type GlobMatcher = (path: string) => boolean;

/** Compiles one glob. Never throws: a glob {@link globProblem} refuses matches nothing. */
export function compileGlob(glob: string, options: GlobOptions = {}): GlobMatcher {
  return compileGlobs([glob], options);
}

/**
 * True when `glob` names one path exactly (no wildcard, set, alternative, group, escape or
 * negation, and `nocase` off): it is matched by comparing strings, costing its automaton nothing
 * (and the source globs' budget nothing: a long list of files is no threat).
 */
export function isPlainPath(glob: string, options: GlobOptions = {}): boolean {
  return (
    options.nocase !== true &&
    !glob.startsWith('!') &&
    !glob.startsWith('./') &&
    !glob.includes('\\') &&
    !isGlobPattern(glob)
  );
}

/**
 * Compiles globs into one matcher that is true when any of them matches: the globs without a
 * leading `!` run as one automaton, each negated one on its own. A glob {@link globProblem}
 * refuses is left out (it matches nothing).
 */
export function compileGlobs(globs: readonly string[], options: GlobOptions = {}): GlobMatcher {
  return compileGlobsMetered(globs, options).matches;
}

/** A matcher and the automaton steps it has taken so far (for a caller that budgets them). */
export interface MeteredGlobMatcher {
  matches: GlobMatcher;
  /** Steps taken over every path matched so far (one per character or NFA state visited). */
  work(): number;
}

/** {@link compileGlobs}, with the work its matching does counted. */
export function compileGlobsMetered(globs: readonly string[], options: GlobOptions = {}): MeteredGlobMatcher {
  const positives: Node[][] = [];
  const negatives: MeteredGlobMatcher[] = [];
  const literal = new Set<string>();
  for (const glob of globs) {
    if (glob.length > MAX_GLOB_LENGTH) continue;
    if (isPlainPath(glob, options)) {
      literal.add(glob);
      continue;
    }
    const { negated, body } = stripPrefix(glob);
    const nodes = parse(body);
    // Past the size cap a glob matches nothing; the cap is checked before the program is whole.
    if (!compileProgram([nodes], options, MAX_GLOB_PROGRAM)) continue;
    if (negated) negatives.push(compileGlobsMetered([body], options));
    else {
      positives.push(nodes);
      literal.add(glob);
    }
  }
  const program = positives.length > 0 ? compileProgram(positives, options) : undefined;
  const dfa = program && new LazyDfa(program, options.nocase === true);
  const work = () => (dfa?.work ?? 0) + negatives.reduce((sum, n) => sum + n.work(), 0);
  if (!dfa && negatives.length === 0) return { matches: (path) => literal.has(path), work };
  return {
    matches: (path) =>
      literal.has(path) || dfa?.matches(path) === true || negatives.some((negative) => !negative.matches(path)),
    work,
  };
}
