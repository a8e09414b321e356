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
 *   {@link MAX_PASS_GLOB_INSTRUCTIONS} instructions compiled and {@link MAX_PASS_GLOB_TESTS}
 *   paths tested; a target past it is not followed, and says so at its line.
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
 * Paths the Location targets of one pass may test in total: 2,000,000 (a target tests the files
 * under its literal folder, `services/` for `./services/*\/catalog-info.yaml`; 20 globs over a
 * folder of 100,000 files). Each test is one step per character of the path.
 */
export const MAX_PASS_GLOB_TESTS = 2_000_000;

/**
 * Instructions the source globs may compile to together: 16,384 (the defaults take 509). They
 * run as one automaton over every path of every pass, so a path costs at most its length times
 * this; measured in bench/RESULTS.md ("Globs at their caps").
 */
export const MAX_SOURCE_GLOB_INSTRUCTIONS = 16_384;

/** The glob work left to one pass's Location targets. */
export class GlobBudget {
  private instructions = 0;
  private tests = 0;

  constructor(
    readonly maxInstructions = MAX_PASS_GLOB_INSTRUCTIONS,
    readonly maxTests = MAX_PASS_GLOB_TESTS,
  ) {}

  /**
   * Charges a glob of `instructions` that will test `paths` paths; undefined when it fits, else
   * why not (and nothing is charged: a smaller glob after it may still fit).
   */
  charge(instructions: number, paths: number): string | undefined {
    if (this.instructions + instructions > this.maxInstructions)
      return `the Location globs of one pass may compile to ${this.maxInstructions.toLocaleString('en-US')} automaton instructions in all, and ${this.instructions.toLocaleString('en-US')} are taken (this one needs ${instructions.toLocaleString('en-US')}); name the files, or use fewer globs`;
    if (this.tests + paths > this.maxTests)
      return `the Location globs of one pass may test ${this.maxTests.toLocaleString('en-US')} paths in all, and ${this.tests.toLocaleString('en-US')} are tested (this one would test ${paths.toLocaleString('en-US')}); name the files, or start the glob with the folder that holds them`;
    this.instructions += instructions;
    this.tests += paths;
    return undefined;
  }
}
