/**
 * Long texts are embedded as overlapping windows, never truncated.
 *
 * A section longer than the model's input is cut into windows of at most `maxTokens` estimated
 * tokens (characters / 4). Windows are packed from whole sentences and end at the strongest
 * boundary in their second half (a paragraph break over a line break over a sentence end); each
 * repeats the previous window's trailing sentences that fit in `overlapTokens`, so context that
 * straddles a cut is whole in one of them. Every window keeps its own vector with the
 * ordinal of the section it came from; at query time a section's meaning is its best window
 * (the highest cosine), so a long page matches on its most relevant part instead of on the blur
 * of its average.
 */
import type { Embedder } from './embedder';
import { dot } from './vectorMath';

/** Characters per estimated token (docs/ARCHITECTURE.md, "Text analysis and candidates"). */
export const CHARS_PER_TOKEN = 4;

export interface WindowOptions {
  /** Window length in estimated tokens; usually the embedder's `maxInputTokens`. Minimum 8. */
  maxTokens: number;
  /** Overlap between consecutive windows. Default `maxTokens / 8` (32 for 256); range 0..maxTokens/2. */
  overlapTokens?: number;
  /**
   * Windows kept per text; the rest of a huge text is not embedded (it still matches on words).
   * Default 64 (~64k characters at 256 tokens); minimum 1.
   */
  maxWindows?: number;
}

export interface TextWindow {
  /** Character offsets into the original text, end exclusive. */
  start: number;
  end: number;
  text: string;
}

/** One window of one section, ready to embed. */
export interface SectionWindow {
  /** The section's ordinal: its position in the list given to `planWindows`. */
  ordinal: number;
  /** 0-based window number within the section. */
  window: number;
  text: string;
}

export const DEFAULT_MAX_WINDOWS = 64;

/**
 * Window options that fit an embedder's input. An embedder's `maxInputTokens` already allows for
 * its own tokenizer: MiniLM's is 160 estimated tokens because its word pieces are shorter than
 * 4 characters (see `MINILM_MAX_INPUT_TOKENS` in `localModels.ts`).
 */
export function windowOptionsFor(embedder: Pick<Embedder, 'maxInputTokens'>): WindowOptions {
  return { maxTokens: embedder.maxInputTokens };
}

/** Splits one text into windows; a text that fits (or is blank) is one window. */
export function splitWindows(text: string, options: WindowOptions): TextWindow[] {
  const maxTokens = Math.max(8, Math.floor(options.maxTokens));
  const size = maxTokens * CHARS_PER_TOKEN;
  const overlapTokens = Math.min(
    Math.floor(maxTokens / 2),
    Math.max(0, Math.floor(options.overlapTokens ?? maxTokens / 8)),
  );
  const overlap = overlapTokens * CHARS_PER_TOKEN;
  const maxWindows = Math.max(1, Math.floor(options.maxWindows ?? DEFAULT_MAX_WINDOWS));
  if (text.length <= size) return [{ start: 0, end: text.length, text }];

  const segs = segments(text, size);
  const windows: TextWindow[] = [];
  let first = 0;
  while (first < segs.length && windows.length < maxWindows) {
    let last = first;
    while (last + 1 < segs.length && segs[last + 1].end - segs[first].start <= size) last++;
    if (last + 1 < segs.length) last = bestCut(segs, first, last, size);
    const start = segs[first].start;
    const end = segs[last].end;
    windows.push({ start, end, text: text.slice(start, end) });
    if (last === segs.length - 1) break;
    // The next window repeats the trailing sentences that fit in the overlap.
    let next = last + 1;
    while (next - 1 > first && end - segs[next - 1].start <= overlap) next--;
    first = next;
  }
  return windows;
}

interface Segment {
  start: number;
  end: number;
  /** Strength of the boundary before it: 3 paragraph, 2 line, 1 sentence, 0 word or hard cut. */
  rank: number;
}

/**
 * Where to end a window that cannot take everything from `first` to the text's end: among the
 * cuts that keep at least half a window, the strongest boundary (paragraph over line over
 * sentence), the latest one on ties.
 */
function bestCut(segs: Segment[], first: number, last: number, size: number): number {
  let best = last;
  for (let k = last; k > first; k--) {
    if (segs[k].end - segs[first].start < size / 2) break;
    if (segs[k + 1].rank > segs[best + 1].rank) best = k;
  }
  return best;
}

/** Paragraphs, lines and sentences, with runs of words (or hard cuts) for any still too long. */
function segments(text: string, size: number): Segment[] {
  const out: Segment[] = [];
  const levels = [/\n[ \t]*\n\s*/g, /\n\s*/g, /(?<=[.!?;:])\s+/g];
  // `rank` is the boundary before the range; pieces after a split get their level's rank.
  const split = (from: number, to: number, level: number, rank: number): void => {
    if (level === levels.length) return words(from, to, rank);
    const re = new RegExp(levels[level].source, 'g');
    re.lastIndex = from;
    let pieceStart = from;
    let pieceRank = rank;
    for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
      split(pieceStart, m.index, level + 1, pieceRank);
      pieceStart = Math.min(to, m.index + m[0].length);
      pieceRank = 3 - level;
    }
    split(pieceStart, to, level + 1, pieceRank);
  };
  const words = (from: number, to: number, rank: number): void => {
    if (to - from <= size) {
      if (text.slice(from, to).trim()) out.push({ start: from, end: to, rank });
      return;
    }
    let chunk = -1;
    let chunkEnd = -1;
    let chunkRank = rank;
    const re = /\S+/g;
    re.lastIndex = from;
    for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
      const end = Math.min(to, m.index + m[0].length);
      if (chunk >= 0 && end - chunk <= size) {
        chunkEnd = end;
        continue;
      }
      if (chunk >= 0) {
        out.push({ start: chunk, end: chunkEnd, rank: chunkRank });
        chunkRank = 0;
      }
      // A word longer than a window is cut hard.
      let s = m.index;
      while (end - s > size) {
        out.push({ start: s, end: s + size, rank: chunkRank });
        chunkRank = 0;
        s += size;
      }
      chunk = s;
      chunkEnd = end;
    }
    if (chunk >= 0) out.push({ start: chunk, end: chunkEnd, rank: chunkRank });
  };
  split(0, text.length, 0, 3);
  return out;
}

/** Windows for many texts, flattened, each tagged with its text's ordinal. */
export function planWindows(texts: readonly string[], options: WindowOptions): SectionWindow[] {
  const out: SectionWindow[] = [];
  texts.forEach((text, ordinal) => {
    splitWindows(text, options).forEach((w, window) => out.push({ ordinal, window, text: w.text }));
  });
  return out;
}

/** A section's score against a query: the best cosine over its windows' (normalized) vectors. */
export function bestWindowScore(query: Float32Array, windows: readonly Float32Array[]): number {
  let best = -Infinity;
  for (const w of windows) best = Math.max(best, dot(query, w));
  return best;
}

/**
 * Folds window hits (from a vector index whose labels are windows) into one score per section:
 * the best window wins. Labels `ordinalOf` does not know are skipped. The map iterates in order of
 * each section's best hit when `hits` is sorted best first, as index searches return them.
 */
export function bestWindowScores(
  hits: readonly { label: number; score: number }[],
  ordinalOf: (label: number) => number | undefined,
): Map<number, number> {
  const best = new Map<number, number>();
  for (const { label, score } of hits) {
    const ordinal = ordinalOf(label);
    if (ordinal === undefined) continue;
    const prev = best.get(ordinal);
    if (prev === undefined || score > prev) best.set(ordinal, score);
  }
  return best;
}
