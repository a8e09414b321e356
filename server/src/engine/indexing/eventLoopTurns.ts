/**
 * Turns of the event loop during an index pass, so a host in the same process (the language
 * server answering hovers, an MCP server answering calls from the last index) keeps answering
 * while a pass parses thousands of files.
 *
 * Parsing a file already in memory awaits only resolved promises (microtasks), which never let a
 * request in: without turns a pass over a large workspace, or one slow file, holds the process
 * until it ends. A pass makes one `EventLoopTurns` and calls `maybe()` between files; after
 * {@link DEFAULT_SLICE_MS} of work it waits for one `setImmediate`, so requests are answered
 * between slices and a pass costs at most one turn per slice more.
 */

/** Work between two turns, in milliseconds. */
export const DEFAULT_SLICE_MS = 20;

export class EventLoopTurns {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = DEFAULT_SLICE_MS) {}

  /** Gives the event loop a turn when the current slice has run `sliceMs` or more. */
  async maybe(): Promise<void> {
    if (this.due()) await this.turn();
  }

  /**
   * True when the current slice has run `sliceMs` or more. Loops over thousands of items ask this
   * and await `turn()` only when it says so: awaiting `maybe()` costs a microtask hop per item even
   * when no turn is due, which at 100k sections is a few milliseconds of every update pass.
   */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Gives the event loop one turn and starts a new slice. */
  async turn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}
