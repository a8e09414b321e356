/**
 * The HNSW graph over the int8 store's slots (Malkov & Yashunin, "Efficient and robust
 * approximate nearest neighbor search using Hierarchical Navigable Small World graphs", 2016):
 * the graph holds links only, and every distance it takes is the store's int8 cosine (the SIMD
 * dot product, int8Dot.ts), so the vectors live once in memory, in the store, shared with the
 * ranker's cosines and the exact scan (issue 12, item 5). hnswlib-node, the other HNSW backend,
 * keeps a float32 copy of its own beside them (1,676 bytes a window at 384 dimensions against 32 x
 * 4 + 1 here for level 0).
 *
 * Layout, in typed arrays indexed by the store's slot:
 * - level 0: `links0`, one Uint32Array of slots x 2M neighbour slots, `count0` the used length;
 * - upper levels (a slot reaches level l with probability M^-l, so ~1/15 of slots have any):
 *   `upperAt[slot]` is where the slot's blocks start in `upper` (-1 when it has none), one block
 *   of 1 + M u32 (count, then neighbours) per level 1..`levels[slot]`.
 *
 * Insertion is the paper's algorithm 1 with the neighbour-selection heuristic (algorithm 4,
 * without extending candidates or keeping pruned ones, as hnswlib does); a neighbour whose list
 * is full is pruned back to its size by the same heuristic. Levels come from a seeded generator,
 * so the same additions in the same order build the same graph. Dead slots (removed labels) stay
 * in the graph as waypoints: searched through, never returned.
 *
 * Its file layout is hnswGraphFile.ts. The search loop allocates nothing: visited marks are a Uint32Array compared with a generation
 * counter, the candidate and result lists are binary heaps over typed arrays (scoredHeap.ts).
 */
import { ScoredHeap } from './scoredHeap';
import type { Int8VectorStore } from './vectorStore';

export interface HnswGraphParams {
  /** Links per slot on levels >= 1; level 0 has 2M. */
  m: number;
  /** Candidate list while inserting. */
  efConstruction: number;
  /** Seed of the level generator. */
  seed: number;
}

/** The highest level a slot can get (levels are stored as bytes). */
const MAX_LEVEL = 64;

export class HnswGraph {
  readonly m: number;
  /** Links per slot on level 0. */
  readonly m0: number;
  readonly efConstruction: number;
  /** 1 / ln(M): the level distribution's scale. */
  private readonly levelScale: number;
  links0: Uint32Array;
  count0: Uint8Array;
  /** Each slot's top level (0 for most). */
  levels: Uint8Array;
  /** Start of the slot's level-1 block in `upper`, or -1. */
  upperAt: Int32Array;
  upper: Uint32Array;
  /** u32s of `upper` in use. */
  upperUsed = 0;
  /** The slot every search starts from (the first slot that reached the top level), -1 when empty. */
  entry = -1;
  maxLevel = -1;
  /** Mulberry32 state of the level generator (saved, so additions after a load stay reproducible). */
  rngState: number;

  private visited: Uint32Array;
  private generation = 0;
  private readonly candidates = new ScoredHeap('max');
  private readonly results = new ScoredHeap('min');
  /** The query's row in the store's memory (byte offset) and 1 / |codes|, for `score`. */
  private queryBase = 0;
  private queryInverseNorm = 0;
  /** What `greedy` found (fields, so the walk returns no array). */
  private greedySlot = 0;
  private greedyScore = 0;
  /** Scratch for neighbour selection: candidates best first, then the selected ones. */
  private pickSlots = new Uint32Array(64);
  private pickScores = new Float64Array(64);
  private chosen = new Uint32Array(64);
  private chosenScores = new Float64Array(64);

  constructor(
    private readonly store: Int8VectorStore,
    params: HnswGraphParams,
    capacity: number,
  ) {
    this.m = params.m;
    this.m0 = 2 * params.m;
    this.efConstruction = params.efConstruction;
    this.levelScale = 1 / Math.log(params.m);
    this.rngState = params.seed >>> 0;
    const cap = Math.max(1, capacity);
    this.links0 = new Uint32Array(cap * this.m0);
    this.count0 = new Uint8Array(cap);
    this.levels = new Uint8Array(cap);
    this.upperAt = new Int32Array(cap).fill(-1);
    this.upper = new Uint32Array(Math.max(64, Math.ceil(cap / 8) * (1 + this.m)));
    this.visited = new Uint32Array(cap);
  }

  get capacity(): number {
    return this.count0.length;
  }

  /** Bytes of the graph's arrays (allocated capacity). */
  get bytes(): number {
    return (
      this.links0.byteLength +
      this.count0.byteLength +
      this.levels.byteLength +
      this.upperAt.byteLength +
      this.upper.byteLength +
      this.visited.byteLength
    );
  }

  /** Makes room for slots below `capacity` (the store's capacity: the two grow together). */
  ensureCapacity(capacity: number): void {
    if (capacity <= this.capacity) return;
    const links0 = new Uint32Array(capacity * this.m0);
    links0.set(this.links0);
    this.links0 = links0;
    this.count0 = grown(this.count0, new Uint8Array(capacity));
    this.levels = grown(this.levels, new Uint8Array(capacity));
    this.upperAt = grown(this.upperAt, new Int32Array(capacity).fill(-1));
    this.visited = grown(this.visited, new Uint32Array(capacity));
  }

  /**
   * Links a new slot (its codes already in the store) into the graph. `slot` must be the next
   * one not yet linked: slots are inserted in order.
   */
  insert(slot: number): void {
    const level = this.randomLevel();
    this.levels[slot] = level;
    if (level > 0) {
      const need = this.upperUsed + level * (1 + this.m);
      if (need > this.upper.length)
        this.upper = grown(this.upper, new Uint32Array(Math.max(need, this.upper.length * 2)));
      this.upperAt[slot] = this.upperUsed;
      this.upper.fill(0, this.upperUsed, need);
      this.upperUsed = need;
    }
    if (this.entry < 0) {
      this.entry = slot;
      this.maxLevel = level;
      return;
    }
    this.link(slot, level);
    if (level > this.maxLevel) {
      this.entry = slot;
      this.maxLevel = level;
    }
  }

  /**
   * Links a slot again after its vector changed (a label given a new vector): new neighbour
   * lists on each of its levels, found from the entry point as for an insertion. Links other slots
   * hold to it stay (they lead to a point that moved, as in hnswlib's update).
   */
  relink(slot: number): void {
    if (this.entry === slot) {
      // The entry point cannot search for itself: start from one of its neighbours, if any.
      const other = this.firstNeighbour(slot);
      if (other < 0) return;
      this.link(slot, this.levels[slot], other);
      return;
    }
    this.link(slot, this.levels[slot]);
  }

  /**
   * Up to `k` slots nearest the query quantized in the store's scratch row (`setQuery` done by
   * the caller), best first, into `outSlots`/`outScores`; returns how many. `ef` is the candidate
   * list (at least `k`); `accept` says which slots may be returned (all are walked through).
   */
  search(
    k: number,
    ef: number,
    accept: (slot: number) => boolean,
    outSlots: Uint32Array,
    outScores: Float64Array,
  ): number {
    if (this.entry < 0 || k <= 0) return 0;
    this.queryBase = 0;
    this.queryInverseNorm = this.store.queryInverseNorm;
    let current = this.entry;
    let currentScore = this.score(current);
    for (let level = this.maxLevel; level > 0; level--) {
      this.greedy(current, currentScore, level);
      current = this.greedySlot;
      currentScore = this.greedyScore;
    }
    this.searchLevel(current, currentScore, Math.max(ef, k), 0, accept, -1);
    const results = this.results;
    while (results.size > k) results.pop();
    const n = results.size;
    for (let i = n - 1; i >= 0; i--) {
      outScores[i] = results.topScore;
      outSlots[i] = results.pop();
    }
    return n;
  }

  /** The slot's neighbours on `level` (a copy; for tests and checks). */
  neighbours(slot: number, level: number): number[] {
    if (level === 0) return Array.from(this.links0.subarray(slot * this.m0, slot * this.m0 + this.count0[slot]));
    if (level > this.levels[slot]) return [];
    const base = this.upperAt[slot] + (level - 1) * (1 + this.m);
    return Array.from(this.upper.subarray(base + 1, base + 1 + this.upper[base]));
  }

  /** The insertion's search and linking for `slot` on levels `top`..0, entered at `start`. */
  private link(slot: number, top: number, start = this.entry): void {
    this.queryBase = (slot + 1) * this.store.stride;
    this.queryInverseNorm = this.store.inverseNorms[slot];
    let current = start;
    let currentScore = this.score(current);
    for (let level = this.maxLevel; level > top; level--) {
      this.greedy(current, currentScore, level);
      current = this.greedySlot;
      currentScore = this.greedyScore;
    }
    const acceptAll = () => true;
    for (let level = Math.min(top, this.maxLevel); level >= 0; level--) {
      this.searchLevel(current, currentScore, this.efConstruction, level, acceptAll, slot);
      // The results, best first, into the pick scratch; the best is the next level's entry.
      const n = this.drainResults();
      if (n === 0) continue;
      current = this.pickSlots[0];
      currentScore = this.pickScores[0];
      const max = level === 0 ? this.m0 : this.m;
      const chosen = this.selectByHeuristic(n, this.m);
      this.setNeighbours(slot, level, this.chosen, chosen);
      // `chosen` is overwritten by the pruning below: keep this level's choice aside.
      const mine = this.chosen.slice(0, chosen);
      const mineScores = this.chosenScores.slice(0, chosen);
      for (let i = 0; i < chosen; i++) this.addLink(mine[i], slot, mineScores[i], level, max);
    }
  }

  /** Cosine of the current query with a slot. */
  private score(slot: number): number {
    const store = this.store;
    return (
      store.dotCodes(this.queryBase, (slot + 1) * store.stride, store.stride) *
      this.queryInverseNorm *
      store.inverseNorms[slot]
    );
  }

  /** Cosine of two slots' vectors. */
  private pairScore(a: number, b: number): number {
    const store = this.store;
    return (
      store.dotCodes((a + 1) * store.stride, (b + 1) * store.stride, store.stride) *
      store.inverseNorms[a] *
      store.inverseNorms[b]
    );
  }

  /** Walks `level` greedily towards the query from `start`; leaves the closest slot found and its score in `greedySlot`/`greedyScore`. */
  private greedy(start: number, startScore: number, level: number): void {
    let current = start;
    let best = startScore;
    const width = 1 + this.m;
    for (let changed = true; changed; ) {
      changed = false;
      const base = this.upperAt[current] + (level - 1) * width;
      const count = this.upper[base];
      for (let i = 1; i <= count; i++) {
        const next = this.upper[base + i];
        const s = this.score(next);
        if (s > best) {
          best = s;
          current = next;
          changed = true;
        }
      }
    }
    this.greedySlot = current;
    this.greedyScore = best;
  }

  /**
   * The paper's SEARCH-LAYER: the `ef` slots nearest the query on `level` reachable from `start`,
   * left in `results` (weakest on top). Slots `accept` refuses are walked through but not kept;
   * `skip` (the slot being linked) is neither.
   */
  private searchLevel(
    start: number,
    startScore: number,
    ef: number,
    level: number,
    accept: (slot: number) => boolean,
    skip: number,
  ): void {
    const visited = this.visited;
    if (++this.generation === 0xffffffff) {
      visited.fill(0);
      this.generation = 1;
    }
    const gen = this.generation;
    const candidates = this.candidates;
    const results = this.results;
    candidates.clear();
    results.clear();
    visited[start] = gen;
    if (skip >= 0) visited[skip] = gen;
    candidates.push(startScore, start);
    if (start !== skip && accept(start)) results.push(startScore, start);
    const links0 = this.links0;
    const count0 = this.count0;
    const upper = this.upper;
    const m0 = this.m0;
    const width = 1 + this.m;
    while (candidates.size > 0) {
      const score = candidates.topScore;
      if (results.size >= ef && score < results.topScore) break;
      const current = candidates.pop();
      let base: number;
      let count: number;
      if (level === 0) {
        base = current * m0;
        count = count0[current];
      } else {
        const block = this.upperAt[current] + (level - 1) * width;
        count = upper[block];
        base = block + 1;
      }
      const list = level === 0 ? links0 : upper;
      for (let i = 0; i < count; i++) {
        const next = list[base + i];
        if (visited[next] === gen) continue;
        visited[next] = gen;
        const s = this.score(next);
        if (results.size < ef || s > results.topScore) {
          candidates.push(s, next);
          if (accept(next)) {
            results.push(s, next);
            if (results.size > ef) results.pop();
          }
        }
      }
    }
  }

  /** Empties `results` into the pick scratch, best first; returns how many. */
  private drainResults(): number {
    const results = this.results;
    const n = results.size;
    this.ensureScratch(n);
    for (let i = n - 1; i >= 0; i--) {
      this.pickScores[i] = results.topScore;
      this.pickSlots[i] = results.pop();
    }
    return n;
  }

  /**
   * The paper's heuristic over the first `n` pick entries (best first, scores to the point being
   * linked): a candidate is kept when it is nearer that point than to every one kept before it,
   * up to `max`. Leaves them in `chosen`/`chosenScores`; returns how many.
   */
  private selectByHeuristic(n: number, max: number): number {
    let kept = 0;
    for (let i = 0; i < n && kept < max; i++) {
      const candidate = this.pickSlots[i];
      const toPoint = this.pickScores[i];
      let good = true;
      for (let j = 0; j < kept; j++) {
        if (this.pairScore(candidate, this.chosen[j]) > toPoint) {
          good = false;
          break;
        }
      }
      if (good) {
        this.chosen[kept] = candidate;
        this.chosenScores[kept] = toPoint;
        kept++;
      }
    }
    return kept;
  }

  /** Adds `from` -> `to` on `level`; a full list is pruned back to `max` by the heuristic. */
  private addLink(from: number, to: number, score: number, level: number, max: number): void {
    const list = level === 0 ? this.links0 : this.upper;
    let base: number;
    let count: number;
    if (level === 0) {
      base = from * this.m0;
      count = this.count0[from];
    } else {
      const block = this.upperAt[from] + (level - 1) * (1 + this.m);
      base = block + 1;
      count = this.upper[block];
    }
    for (let i = 0; i < count; i++) if (list[base + i] === to) return;
    if (count < max) {
      list[base + count] = to;
      this.setCount(from, level, count + 1);
      return;
    }
    // Full: the old neighbours and the new one, best first by cosine with `from`, then the heuristic.
    this.ensureScratch(count + 1);
    const slots = this.pickSlots;
    const scores = this.pickScores;
    let n = 0;
    const insertSorted = (slot: number, s: number) => {
      let i = n++;
      while (i > 0 && scores[i - 1] < s) {
        scores[i] = scores[i - 1];
        slots[i] = slots[i - 1];
        i--;
      }
      scores[i] = s;
      slots[i] = slot;
    };
    for (let i = 0; i < count; i++) insertSorted(list[base + i], this.pairScore(from, list[base + i]));
    insertSorted(to, score);
    const kept = this.selectByHeuristic(n, max);
    this.setNeighbours(from, level, this.chosen, kept);
  }

  private setNeighbours(slot: number, level: number, from: Uint32Array, n: number): void {
    if (level === 0) this.links0.set(from.subarray(0, n), slot * this.m0);
    else this.upper.set(from.subarray(0, n), this.upperAt[slot] + (level - 1) * (1 + this.m) + 1);
    this.setCount(slot, level, n);
  }

  private setCount(slot: number, level: number, n: number): void {
    if (level === 0) this.count0[slot] = n;
    else this.upper[this.upperAt[slot] + (level - 1) * (1 + this.m)] = n;
  }

  /** A neighbour of `slot` on any of its levels, or -1. */
  private firstNeighbour(slot: number): number {
    for (let level = this.levels[slot]; level >= 0; level--) {
      const list = this.neighbours(slot, level);
      if (list.length > 0) return list[0];
    }
    return -1;
  }

  private ensureScratch(n: number): void {
    if (n <= this.pickSlots.length) return;
    const size = Math.max(n, this.pickSlots.length * 2);
    this.pickSlots = new Uint32Array(size);
    this.pickScores = new Float64Array(size);
    this.chosen = new Uint32Array(size);
    this.chosenScores = new Float64Array(size);
  }

  /** floor(-ln(u) / ln(M)) for a seeded uniform u in (0, 1]: level l with probability ~M^-l. */
  private randomLevel(): number {
    // Mulberry32.
    this.rngState = (this.rngState + 0x6d2b79f5) >>> 0;
    let t = this.rngState;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967296;
    return Math.min(MAX_LEVEL, Math.floor(-Math.log(u) * this.levelScale));
  }
}

function grown<T extends Uint8Array | Uint32Array | Int32Array>(old: T, into: T): T {
  into.set(old as never);
  return into;
}
