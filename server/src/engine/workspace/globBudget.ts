/**
 * How much glob work the workspace can make one index pass do.
 *
 * One glob costs little (globMatch.ts: its automaton is capped at MAX_GLOB_PROGRAM instructions
 * before it is built, and a match is linear in the path), but the workspace chooses how many:
 * a catalog file may list thousands of `Location` targets, each a glob tested against the
 * workspace's files, and `.wsctx.yaml` may list hundreds of source globs, which run as one
 * automaton over every file of every pass. So the total is bounded too:
 *
 * - Location targets: one {@link GlobBudget} per catalog load (one per pass) of
 *   {@link MAX_PASS_GLOB_INSTRUCTIONS} instructions compiled and {@link MAX_PASS_GLOB_WORK}
 *   matching steps; a target past it is not followed, and says so at its line.
 * - Source globs (`sources.*`, the settings' and the defaults together): at most
 *   {@link MAX_SOURCE_GLOB_INSTRUCTIONS} instructions (globs.ts drops the ones past it;
 *   config/workspaceConfig.ts refuses them first, naming the file and line).
 *
 * Ignore files (`.gitignore`, `info/exclude`) are read by the `ignore` library, whose patterns
 * hold no braces or ranges and are tested per path without backtracking; each file is capped at
 * 1 MiB (readGuard.ts MAX_RULES_BYTES).
 */

/**
 * Instructions the Location targets of one pass may compile to in total: 65,536 (the example
 * workspace's take 60; a glob of 1,024 characters about 3,000 at most).
 */
export const MAX_PASS_GLOB_INSTRUCTIONS = 65_536;

/**
 * Matching steps the Location targets of one pass may take in total: 50,000,000 (about a second:
 * a step is a character looked up in a glob's automaton, or an automaton state visited where a
 * glob's automaton is too large to tabulate). A target tests only the files under its literal
 * folder (`services/` for `./services/*\/catalog-info.yaml`): 80 targets over folders of 10,000
 * files of 60 characters.
 */
export const MAX_PASS_GLOB_WORK = 50_000_000;

/**
 * Instructions the source globs may compile to together: 2,048 (the defaults take 485, a glob
 * such as `services/*\/docs/**\/*.md` about 40, a glob naming one file exactly nothing: it is
 * compared as a string). They run as one automaton over every path of every pass: ordinary globs
 * stay a small table (a step per character), while globs written to be its worst case
 * (`**\/*a????????????` repeated) are run state by state, each path costing up to its length
 * times the states alive (bench/RESULTS.md, "A hostile workspace at the caps", has the figures).
 */
export const MAX_SOURCE_GLOB_INSTRUCTIONS = 2048;

/** The glob work left to one pass's Location targets. */
export class GlobBudget {
  private instructions = 0;
  private steps = 0;

  constructor(
    readonly maxInstructions = MAX_PASS_GLOB_INSTRUCTIONS,
    readonly maxWork = MAX_PASS_GLOB_WORK,
  ) {}

  /**
   * Charges a glob of `instructions` about to be compiled; undefined when it fits, else why not
   * (nothing is charged then: a smaller glob after it may still fit).
   */
  compile(instructions: number): string | undefined {
    if (this.steps > this.maxWork) return this.spent();
    if (this.instructions + instructions > this.maxInstructions)
      return `the Location globs of one pass may compile to ${this.maxInstructions.toLocaleString('en-US')} automaton instructions in all, and ${this.instructions.toLocaleString('en-US')} are taken (this one needs ${instructions.toLocaleString('en-US')}); name the files, or use fewer globs`;
    this.instructions += instructions;
    return undefined;
  }

  /** Charges `steps` of matching; undefined while the pass's steps last, else why the glob stops. */
  work(steps: number): string | undefined {
    this.steps += steps;
    return this.steps > this.maxWork ? this.spent() : undefined;
  }

  private spent(): string {
    return `the Location globs of one pass may take ${this.maxWork.toLocaleString('en-US')} matching steps in all, and they are spent; name the files, or start the glob with the folder that holds them`;
  }
}
