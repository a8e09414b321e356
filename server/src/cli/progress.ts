/**
 * `wsctx index`'s progress line: how fast sections are being embedded lately, and so how long
 * the rest will take.
 */

/**
 * The embedding rate over the last {@link RATE_WINDOW_MS}, for the time left: the first batches
 * are slow (the model loads, the ONNX graph is built) and a rate from the start misjudged an 85 s
 * run as 52 minutes. No rate until {@link MIN_RATE_MS} of embedding and {@link MIN_RATE_SHARE}
 * of the sections are behind it.
 */
export class MovingRate {
  private readonly samples: { at: number; done: number }[] = [];

  add(at: number, done: number): void {
    this.samples.push({ at, done });
    while (this.samples.length > 2 && at - this.samples[1].at >= RATE_WINDOW_MS) this.samples.shift();
  }

  /** Sections a second lately, or null while too little is done to say. */
  perSecond(elapsedMs: number, done: number, total: number): number | null {
    if (elapsedMs < MIN_RATE_MS || done < Math.max(1, total * MIN_RATE_SHARE) || this.samples.length < 2) return null;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const span = last.at - first.at;
    return span >= MIN_RATE_MS / 2 && last.done > first.done ? ((last.done - first.done) * 1000) / span : null;
  }
}

export const RATE_WINDOW_MS = 15_000;
export const MIN_RATE_MS = 5_000;
export const MIN_RATE_SHARE = 0.03;
