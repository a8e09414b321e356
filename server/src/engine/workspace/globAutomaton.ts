/**
 * Parsed globs (globParse.ts) compiled into one Thompson NFA (Thompson 1968, "Regular expression
 * search algorithm") and run as a DFA built lazily as paths need it, the way RE2 runs one (Cox,
 * "Regular Expression Matching in the Wild", 2010): each character of a path costs one table
 * step, or one closure over the NFA the first time a state meets that character. No
 * backtracking, so a match costs at most (path length) x (program size).
 */
import type { GlobOptions, Node } from './globParse';

const SLASH = 47;
const DOT = 46;
/** Most DFA states one matcher keeps; past it the table is dropped and rebuilt as needed. */
const MAX_DFA_STATES = 4096;

const enum Op {
  Char,
  Class,
  /** Any character but `/`. */
  Any,
  Split,
  Jump,
  /** Zero-width: the next character is not `.` (a name that starts with `.` is not matched). */
  NotDot,
  Match,
}

export interface Program {
  op: Op[];
  /** Char: the code unit; Class: index into `classes`; Split/Jump: first target. */
  a: number[];
  /** Split: second target. */
  b: number[];
  classes: { negated: boolean; ranges: number[] }[];
  start: number;
}

/** Thrown inside compileProgram when the program would pass its size limit. */
class TooLarge extends Error {}

/**
 * Compiles the parsed globs (any of them) into one program, or undefined when it would hold more
 * than `maxInstructions` instructions: building stops at the limit, so a refused glob costs no
 * more than an accepted one.
 */
export function compileProgram(
  globs: Node[][],
  options: GlobOptions,
  maxInstructions = Number.POSITIVE_INFINITY,
): Program | undefined {
  try {
    return buildProgram(globs, options, maxInstructions);
  } catch (error) {
    if (error instanceof TooLarge) return undefined;
    throw error;
  }
}

function buildProgram(globs: Node[][], options: GlobOptions, maxInstructions: number): Program {
  const p: Program = { op: [], a: [], b: [], classes: [], start: 0 };
  const emit = (op: Op, a = 0, b = 0): number => {
    if (p.op.length >= maxInstructions) throw new TooLarge();
    p.op.push(op);
    p.a.push(a);
    p.b.push(b);
    return p.op.length - 1;
  };
  const nocase = options.nocase === true;
  const dot = options.dot === true;

  /** One segment's worth of any characters but `/`, at least one; not a dot name unless `dot`. */
  const segment = (): void => {
    if (!dot) emit(Op.NotDot);
    emit(Op.Any);
    const loop = emit(Op.Split);
    p.a[loop] = loop + 1;
    emit(Op.Any);
    emit(Op.Jump, loop);
    p.b[loop] = p.op.length;
  };
  /** Zero or more `segment/`. */
  const segmentsWithSlash = (): void => {
    const loop = emit(Op.Split);
    p.a[loop] = loop + 1;
    segment();
    emit(Op.Char, SLASH);
    emit(Op.Jump, loop);
    p.b[loop] = p.op.length;
  };
  /** Zero or more `/segment`. */
  const slashSegments = (): void => {
    const loop = emit(Op.Split);
    p.a[loop] = loop + 1;
    emit(Op.Char, SLASH);
    segment();
    emit(Op.Jump, loop);
    p.b[loop] = p.op.length;
  };

  const sequence = (nodes: readonly Node[], atSegmentStart: boolean): void => {
    let segmentStart = atSegmentStart;
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k];
      const next = nodes[k + 1];
      switch (node.t) {
        case 'char':
          emit(Op.Char, nocase ? lower(node.c) : node.c);
          break;
        case 'slash':
          // `a/**` at the end also matches `a`: the slash and what follows are optional together
          // (as in picomatch, not after a star: `*\/**` needs something below the folder).
          if (next?.t === 'globstar' && k + 2 === nodes.length) {
            const optional = nodes[k - 1]?.t !== 'star';
            const skip = optional ? emit(Op.Split) : -1;
            if (optional) p.a[skip] = skip + 1;
            emit(Op.Char, SLASH);
            segment();
            slashSegments();
            if (optional) p.b[skip] = p.op.length;
            k++;
            break;
          }
          emit(Op.Char, SLASH);
          break;
        case 'globstar':
          if (next?.t === 'slash') {
            segmentsWithSlash();
            k++;
          } else {
            segment();
            slashSegments();
          }
          break;
        case 'any':
          if (segmentStart && !dot) emit(Op.NotDot);
          emit(Op.Any);
          break;
        case 'star': {
          if (segmentStart && !dot) emit(Op.NotDot);
          const loop = emit(Op.Split);
          p.a[loop] = loop + 1;
          emit(Op.Any);
          emit(Op.Jump, loop);
          p.b[loop] = p.op.length;
          break;
        }
        case 'class':
          // A negated set does not match the dot of a dot name either (as `?` does not).
          if (segmentStart && !dot && node.negated) emit(Op.NotDot);
          p.classes.push({ negated: node.negated, ranges: node.ranges });
          emit(Op.Class, p.classes.length - 1);
          break;
        case 'alt':
          alternatives(node, segmentStart);
          break;
      }
      segmentStart = node.t === 'slash' || (node.t === 'globstar' && next?.t === 'slash');
    }
  };

  /** One of `node.alts`, from `min` to `max` (0: any number of) times. */
  const alternatives = (node: Extract<Node, { t: 'alt' }>, atSegmentStart: boolean): void => {
    let skip = -1;
    if (node.min === 0) skip = emit(Op.Split);
    const bodyStart = p.op.length;
    const ends: number[] = [];
    node.alts.forEach((alt, index) => {
      let split = -1;
      if (index < node.alts.length - 1) split = emit(Op.Split);
      if (split >= 0) p.a[split] = split + 1;
      sequence(alt, atSegmentStart);
      ends.push(emit(Op.Jump));
      if (split >= 0) p.b[split] = p.op.length;
    });
    const after = p.op.length;
    if (node.max === 0) {
      // Repeat: back to the start of the body, or on.
      const again = emit(Op.Split, bodyStart);
      for (const end of ends) p.a[end] = again;
      p.b[again] = p.op.length;
    } else {
      for (const end of ends) p.a[end] = after;
    }
    if (skip >= 0) {
      p.a[skip] = bodyStart;
      p.b[skip] = p.op.length;
    }
  };

  // Any of the globs: a chain of splits, each branch ending at the one match state.
  const ends: number[] = [];
  globs.forEach((nodes, index) => {
    let split = -1;
    if (index < globs.length - 1) split = emit(Op.Split);
    if (split >= 0) p.a[split] = split + 1;
    sequence(nodes, true);
    ends.push(emit(Op.Jump));
    if (split >= 0) p.b[split] = p.op.length;
  });
  const match = emit(Op.Match);
  for (const end of ends) p.a[end] = match;
  return p;
}

/** Lower case of one UTF-16 code unit (unchanged when lower-casing would change its length). */
function lower(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  const s = String.fromCharCode(c).toLowerCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}

function upper(c: number): number {
  if (c < 128) return c >= 97 && c <= 122 ? c - 32 : c;
  const s = String.fromCharCode(c).toUpperCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}

interface DfaState {
  /** NFA states before their closure (their closure depends on the next character). */
  kernel: Int32Array;
  /** Next state by code unit below 128. */
  ascii: (DfaState | undefined)[];
  other: Map<number, DfaState>;
  /** Whether the path may end here (computed on first need). */
  accepts?: boolean;
  dead: boolean;
}

/**
 * The program run as a DFA built as paths need it: a state is a set of NFA states, a transition
 * is computed once (a closure and a step over the NFA) and then looked up. The table is bounded:
 * once it holds {@link MAX_DFA_STATES} states (globs whose DFA is exponential, like
 * `**\/*a????????????`, fill it on every path), it is dropped for good and paths are matched by
 * running the NFA directly, a set of states stepped per character with nothing built or keyed:
 * memory stays bounded, and the cost per character is at most one closure over the states alive.
 */
export class LazyDfa {
  private states = new Map<string, DfaState>();
  /** True once the table has filled: matching runs the NFA directly from then on. */
  private direct = false;
  private start: DfaState;
  // Scratch for closures: a generation mark per NFA state and a stack.
  private readonly mark: Int32Array;
  private generation = 0;
  private readonly stack: number[] = [];
  /** What a closure reached (scratch), and the live and next lists of the direct simulation. */
  private readonly reached: Int32Array;
  private live: Int32Array;
  private next: Int32Array | undefined;
  /**
   * Steps taken so far: one per character looked up in the table, one per NFA state a closure
   * visits. A caller reads it to charge what matching cost (globBudget.ts).
   */
  work = 0;

  constructor(
    private readonly program: Program,
    private readonly nocase: boolean,
  ) {
    this.mark = new Int32Array(program.op.length);
    this.reached = new Int32Array(program.op.length + 1);
    this.live = new Int32Array(program.op.length + 1);
    this.start = this.state(Int32Array.of(program.start));
  }

  /** True once the table has filled and paths are matched state by state. */
  get runsDirectly(): boolean {
    return this.direct;
  }

  matches(path: string): boolean {
    if (this.direct) return this.simulate(path);
    this.work += path.length + 1;
    let state = this.start;
    for (let i = 0; i < path.length; i++) {
      let c = path.charCodeAt(i);
      if (this.nocase) c = lower(c);
      let next = c < 128 ? state.ascii[c] : state.other.get(c);
      if (next === undefined) {
        next = this.step(state, c);
        // The table filled while stepping: this path and every later one run the NFA directly.
        if (this.direct) return this.simulate(path);
      }
      if (next.dead) return false;
      state = next;
    }
    if (state.accepts === undefined)
      state.accepts = this.reachesMatch(this.closure(state.kernel, state.kernel.length, -1));
    return state.accepts;
  }

  private state(kernel: Int32Array): DfaState {
    const key = kernel.join(',');
    const known = this.states.get(key);
    if (known) return known;
    if (this.states.size >= MAX_DFA_STATES) {
      // Filled: a DFA this large would be rebuilt on every path; run the NFA directly instead.
      this.direct = true;
      this.states = new Map();
    }
    const created: DfaState = { kernel, ascii: new Array(128), other: new Map(), dead: kernel.length === 0 };
    this.states.set(key, created);
    return created;
  }

  private step(from: DfaState, c: number): DfaState {
    const next: number[] = [];
    const count = this.closure(from.kernel, from.kernel.length, c);
    for (let k = 0; k < count; k++) if (this.consumes(this.reached[k], c)) next.push(this.reached[k] + 1);
    next.sort((x, y) => x - y);
    const unique = next.filter((pc, k) => k === 0 || next[k - 1] !== pc);
    const target = this.state(Int32Array.from(unique));
    if (c < 128) from.ascii[c] = target;
    else from.other.set(c, target);
    return target;
  }

  /**
   * Runs the NFA over `path` directly (Thompson's simulation): the live states stepped one
   * character at a time, each character costing one closure over them, with nothing allocated
   * (the closure counts the states it visits in {@link work}).
   */
  private simulate(path: string): boolean {
    this.next ??= new Int32Array(this.program.op.length + 1);
    let live = this.live;
    let next = this.next;
    live[0] = this.program.start;
    let liveLength = 1;
    for (let i = 0; i < path.length; i++) {
      let c = path.charCodeAt(i);
      if (this.nocase) c = lower(c);
      const count = this.closure(live, liveLength, c);
      let nextLength = 0;
      for (let k = 0; k < count; k++) if (this.consumes(this.reached[k], c)) next[nextLength++] = this.reached[k] + 1;
      if (nextLength === 0) return false;
      [live, next] = [next, live];
      liveLength = nextLength;
    }
    return this.reachesMatch(this.closure(live, liveLength, -1));
  }

  private inClass(set: { negated: boolean; ranges: number[] }, c: number): boolean {
    const within = (x: number) => {
      for (let k = 0; k < set.ranges.length; k += 2) if (x >= set.ranges[k] && x <= set.ranges[k + 1]) return true;
      return false;
    };
    const found = within(c) || (this.nocase && (within(upper(c)) || within(lower(c))));
    return found !== set.negated;
  }

  /**
   * The NFA states reachable from the first `length` states of `kernel` without consuming, given
   * the next code unit (-1: the end), written to the scratch list {@link reached}; returns how
   * many. Nothing is allocated: the table-free path runs this for every character.
   */
  private closure(kernel: ArrayLike<number>, length: number, c: number): number {
    const { op, a, b } = this.program;
    const out = this.reached;
    let count = 0;
    const gen = ++this.generation;
    const stack = this.stack;
    for (let k = length - 1; k >= 0; k--) stack.push(kernel[k]);
    while (stack.length > 0) {
      const pc = stack.pop()!;
      if (this.mark[pc] === gen) continue;
      this.mark[pc] = gen;
      this.work++;
      switch (op[pc]) {
        case Op.Split:
          stack.push(b[pc], a[pc]);
          break;
        case Op.Jump:
          stack.push(a[pc]);
          break;
        case Op.NotDot:
          if (c !== DOT) stack.push(pc + 1);
          break;
        default:
          out[count++] = pc;
      }
    }
    return count;
  }

  /** Whether the state at `pc` (a closure's) consumes the code unit `c`. */
  private consumes(pc: number, c: number): boolean {
    const { op, a, classes } = this.program;
    switch (op[pc]) {
      case Op.Char:
        return a[pc] === c;
      case Op.Any:
        return c >= 0 && c !== SLASH;
      case Op.Class:
        return c >= 0 && c !== SLASH && this.inClass(classes[a[pc]], c);
      default:
        return false;
    }
  }

  /** Whether a closure of `count` states (in {@link reached}) holds the match state. */
  private reachesMatch(count: number): boolean {
    for (let k = 0; k < count; k++) if (this.program.op[this.reached[k]] === Op.Match) return true;
    return false;
  }
}
