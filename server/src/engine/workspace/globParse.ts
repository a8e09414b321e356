/**
 * Glob syntax (picomatch's, as globMatch.ts lists it) read into a tree of nodes: characters,
 * wildcards, sets, globstars and groups. Anything that does not close (`[a`, `{a,b`, `@(a`) is
 * literal, as in picomatch. The automaton that matches paths is built from the tree in
 * globAutomaton.ts.
 */

/** How a glob is matched. */
export interface GlobOptions {
  /** `*`, `?` and `**` match names that start with `.` too. Default false. */
  dot?: boolean;
  /** Letters match without regard to case. Default false. */
  nocase?: boolean;
}

/** Most values a `{1..N}` range may stand for; a wider range is taken literally. */
export const MAX_RANGE_VALUES = 1000;

/** A glob's syntax tree, one node per character, wildcard, set or group. */
export type Node =
  | { t: 'char'; c: number }
  | { t: 'any' }
  | { t: 'star' }
  | { t: 'globstar' }
  | { t: 'slash' }
  | { t: 'class'; negated: boolean; ranges: number[] }
  /** One of `alts`, repeated from `min` to `max` times (`max` 0: no limit). */
  | { t: 'alt'; alts: Node[][]; min: 0 | 1; max: 0 | 1 };

/** A leading `!` (negation, as many as written) and `./` taken off the glob. */
export function stripPrefix(glob: string): { negated: boolean; body: string } {
  let negated = false;
  let body = glob;
  while (body.startsWith('!') && !body.startsWith('!(')) {
    negated = !negated;
    body = body.slice(1);
  }
  while (body.startsWith('./')) body = body.slice(2);
  return { negated, body };
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7f',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-/:-@[-`{-~',
  space: ' \\t\\r\\n\\v\\f',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: 'A-Fa-f0-9',
};

/** Ranges [lo, hi, lo, hi...] of a POSIX class body such as `a-zA-Z` (with `\\xNN` escapes). */
function posixRanges(spec: string): number[] {
  const ranges: number[] = [];
  for (let i = 0; i < spec.length; ) {
    const [lo, next] = readPosixChar(spec, i);
    if (spec[next] === '-' && next + 1 < spec.length) {
      const [hi, after] = readPosixChar(spec, next + 1);
      ranges.push(lo, hi);
      i = after;
    } else {
      ranges.push(lo, lo);
      i = next;
    }
  }
  return ranges;
}

const ESCAPES: Record<string, number> = { t: 9, r: 13, n: 10, v: 11, f: 12 };

function readPosixChar(spec: string, i: number): [number, number] {
  if (spec[i] === '\\' && spec[i + 1] === 'x') return [parseInt(spec.slice(i + 2, i + 4), 16), i + 4];
  if (spec[i] === '\\') return [ESCAPES[spec[i + 1]] ?? spec.charCodeAt(i + 1), i + 2];
  return [spec.charCodeAt(i), i + 1];
}

/**
 * Parses a glob body (no leading `!` or `./`) into nodes. Anything that does not close (`[a`,
 * `{a,b`, `@(a`) is literal, as in picomatch. Iterative over the text except for nesting of
 * braces and groups, which is bounded by the glob's length cap.
 */
export function parse(glob: string): Node[] {
  let i = 0;

  /** Parses until one of `stops` (at depth 0) or the end; returns nodes and the stop found. */
  const sequence = (stops: string): { nodes: Node[]; stop: string | undefined } => {
    const nodes: Node[] = [];
    while (i < glob.length) {
      const ch = glob[i];
      if (stops.includes(ch)) return { nodes: collapseGlobstars(nodes), stop: ch };
      if (ch === '\\' && i + 1 < glob.length) {
        nodes.push({ t: 'char', c: glob.charCodeAt(i + 1) });
        i += 2;
        continue;
      }
      if (ch === '/') {
        nodes.push({ t: 'slash' });
        i++;
        continue;
      }
      if (ch === '!' && glob[i + 1] === '(') {
        // Not supported (globProblem): the two characters are literal, and so is what follows.
        nodes.push({ t: 'char', c: 33 }, { t: 'char', c: 40 });
        i += 2;
        continue;
      }
      const group = tryGroup();
      if (group) {
        nodes.push(group);
        continue;
      }
      if (ch === '*') {
        let end = i;
        while (glob[end] === '*') end++;
        // `**(a|b)`: a star, then the group `*(a|b)`.
        if (glob[end] === '(' && end - i >= 2) end--;
        const startsSegment = i === 0 || '/{,(|'.includes(glob[i - 1]);
        const endsSegment = end === glob.length || '/},)|'.includes(glob[end]);
        nodes.push(end - i >= 2 && startsSegment && endsSegment ? { t: 'globstar' } : { t: 'star' });
        i = end;
        continue;
      }
      if (ch === '?') {
        nodes.push({ t: 'any' });
        i++;
        continue;
      }
      if (ch === '[') {
        const set = tryClass();
        if (set) {
          nodes.push(set);
          continue;
        }
      }
      if (ch === '{') {
        const braces = tryBraces();
        if (braces) {
          nodes.push(...braces);
          continue;
        }
      }
      nodes.push({ t: 'char', c: glob.charCodeAt(i) });
      i++;
    }
    return { nodes: collapseGlobstars(nodes), stop: undefined };
  };

  /** `@(a|b)`, `?(..)`, `+(..)`, `*(..)` and a plain `(a|b)` group, or null (i unchanged). */
  const tryGroup = (): Node | null => {
    const ch = glob[i];
    const prefixed = '@?+*'.includes(ch) && glob[i + 1] === '(';
    if (!prefixed && ch !== '(') return null;
    const start = i;
    i += prefixed ? 2 : 1;
    const alts: Node[][] = [];
    for (;;) {
      const part = sequence('|)');
      if (part.stop === undefined) {
        i = start;
        return null;
      }
      alts.push(part.nodes);
      i++;
      if (part.stop === ')') break;
    }
    const kind = prefixed ? ch : '@';
    return { t: 'alt', alts, min: kind === '?' || kind === '*' ? 0 : 1, max: kind === '+' || kind === '*' ? 0 : 1 };
  };

  /** `[...]`, or null (i unchanged) when it does not close. */
  const tryClass = (): Node | null => {
    let j = i + 1;
    let negated = false;
    if (glob[j] === '!' || glob[j] === '^') {
      negated = true;
      j++;
    }
    const ranges: number[] = [];
    let first = true;
    while (j < glob.length && (glob[j] !== ']' || first)) {
      first = false;
      const posix = /^\[:([a-z]+):\]/.exec(glob.slice(j, j + 10));
      if (posix && POSIX_CLASSES[posix[1]]) {
        ranges.push(...posixRanges(POSIX_CLASSES[posix[1]]));
        j += posix[0].length;
        continue;
      }
      let lo = glob.charCodeAt(j);
      if (glob[j] === '\\' && j + 1 < glob.length) lo = glob.charCodeAt(++j);
      j++;
      if (glob[j] === '-' && j + 1 < glob.length && glob[j + 1] !== ']') {
        let hi = glob.charCodeAt(j + 1);
        if (glob[j + 1] === '\\' && j + 2 < glob.length) hi = glob.charCodeAt(++j + 1);
        j += 2;
        if (lo <= hi) ranges.push(lo, hi);
        continue;
      }
      ranges.push(lo, lo);
    }
    if (j >= glob.length) return null;
    i = j + 1;
    return { t: 'class', negated, ranges };
  };

  /** `{a,b}` as an alternative, `{a..e}` as a range, or null (i unchanged) when neither. */
  const tryBraces = (): Node[] | null => {
    const start = i;
    const range = /^\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])\}/.exec(glob.slice(i, i + 64));
    if (range) {
      const node = rangeNode(range[1], range[2]);
      if (node) {
        i += range[0].length;
        return [node];
      }
    }
    i++;
    const alts: Node[][] = [];
    for (;;) {
      const part = sequence(',}');
      if (part.stop === undefined) break;
      alts.push(part.nodes);
      i++;
      if (part.stop === '}') {
        if (alts.length >= 2) return [{ t: 'alt', alts, min: 1, max: 1 }];
        break;
      }
    }
    i = start;
    return null;
  };

  return sequence('').nodes;
}

/** `**\/**` is `**`: the first (with its slash) is dropped. */
function collapseGlobstars(nodes: Node[]): Node[] {
  const out: Node[] = [];
  for (let k = 0; k < nodes.length; k++) {
    if (nodes[k].t === 'globstar' && nodes[k + 1]?.t === 'slash' && nodes[k + 2]?.t === 'globstar') k++;
    else out.push(nodes[k]);
  }
  return out;
}

/**
 * The node `{from..to}` stands for, or null for a range taken literally (leading zeros, a
 * descending or mixed range, more than {@link MAX_RANGE_VALUES} values). A letter range is one
 * set (`{a..e}` is `[a-e]`, either direction); a numeric range is the few alternatives of digits
 * and digit sets that match exactly its numbers' decimal forms (`{1..1000}` is `[1-9]`,
 * `[1-9][0-9]`, `[1-9][0-9][0-9]` or `1000`), as picomatch's regular expressions read it: never
 * one alternative per value, so a range costs the automaton a few states per digit, not a
 * thousand literals.
 */
function rangeNode(from: string, to: string): Node | null {
  const numeric = /^-?\d+$/.test(from);
  if (numeric !== /^-?\d+$/.test(to)) return null;
  if (!numeric) {
    const a = from.charCodeAt(0);
    const b = to.charCodeAt(0);
    return { t: 'class', negated: false, ranges: a <= b ? [a, b] : [b, a] };
  }
  if (/^-?0\d/.test(from) || /^-?0\d/.test(to)) return null;
  const a = Number(from);
  const b = Number(to);
  if (a > b || b - a + 1 > MAX_RANGE_VALUES) return null;
  const alts: Node[][] = [];
  // Negative values: a minus sign, then the magnitudes.
  if (a < 0) for (const alt of magnitudes(Math.max(1, -b), -a)) alts.push([{ t: 'char', c: MINUS }, ...alt]);
  if (b >= 0) for (const alt of magnitudes(Math.max(0, a), b)) alts.push(alt);
  return { t: 'alt', alts, min: 1, max: 1 };
}

const MINUS = 45;
const ZERO = 48;
const NINE = 57;

/** Alternatives matching the decimal forms of lo..hi (0 <= lo <= hi), one digit count at a time. */
function magnitudes(lo: number, hi: number): Node[][] {
  const alts: Node[][] = [];
  for (let digits = String(lo).length; digits <= String(hi).length; digits++) {
    const floor = digits === 1 ? 0 : 10 ** (digits - 1);
    const ceiling = 10 ** digits - 1;
    alts.push(...sameLength(String(Math.max(lo, floor)), String(Math.min(hi, ceiling))));
  }
  return alts;
}

/**
 * Alternatives matching every string of digits from `lo` to `hi` (same length, lo <= hi): a shared
 * first digit, then the rest; else the first digit's own tail, the full digits between, and the
 * last digit's own tail (the usual range-to-pattern split, O(length^2) nodes).
 */
function sameLength(lo: string, hi: string): Node[][] {
  if (lo.length === 0) return [[]];
  const first = lo.charCodeAt(0);
  const last = hi.charCodeAt(0);
  const digit = (c: number): Node => ({ t: 'char', c });
  if (first === last) return sameLength(lo.slice(1), hi.slice(1)).map((alt) => [digit(first), ...alt]);
  const rest = lo.length - 1;
  const anyDigits = (): Node[] =>
    Array.from({ length: rest }, () => ({ t: 'class', negated: false, ranges: [ZERO, NINE] }));
  const out: Node[][] = [];
  const lowTailFull = /^0*$/.test(lo.slice(1));
  const highTailFull = /^9*$/.test(hi.slice(1));
  if (!lowTailFull) for (const alt of sameLength(lo.slice(1), '9'.repeat(rest))) out.push([digit(first), ...alt]);
  const from = lowTailFull ? first : first + 1;
  const to = highTailFull ? last : last - 1;
  if (from <= to) out.push([{ t: 'class', negated: false, ranges: [from, to] }, ...anyDigits()]);
  if (!highTailFull) for (const alt of sameLength('0'.repeat(rest), hi.slice(1))) out.push([digit(last), ...alt]);
  return out;
}
