/**
 * mocha's configuration for `npm test` (test/npmTest.mjs; `npm run test:file` passes --no-config
 * and names its files).
 *
 * The files run two at a time (mocha's `parallel`, two jobs: many suites wait on the programs they
 * start, so two files share two cores well), each handed to the first worker that is free, in the
 * order of `spec`. The run cannot end before the file that starts last has run, so the longest
 * files start first and the short ones fill in behind them: in the order of the folders, the
 * store suites and the conformance suite (five of the six longest files) came last, and one
 * worker ran the last of them alone.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const SUITES = ['test/unit', 'test/cli', 'test/mcp', 'test/lsp', 'test/store', 'test/conformance'];

/**
 * The longest files, longest first: each file's own time, one file at a time (a run of the whole
 * suite with a reporter of each file's time, 2026-12-06, load about 2, in seconds): 167, 164,
 * 147, 133 and 89 (the two halves of the store's equality suite, 222 together), 114, then 73-45.
 * A file missing from this list only starts later; one listed and since removed is skipped.
 */
const LONGEST_FIRST = [
  'test/store/cliPglite.test.ts',
  'test/store/cliPostgres.test.ts',
  'test/conformance/conformance.test.ts',
  'test/store/storeEqualityHybrid.test.ts',
  'test/unit/bench/bench.smoke.test.ts',
  // Embeds the rclone copies for the run; storeCopies.test.ts, much later, reads them back.
  'test/unit/engine/ranking/meaningCopies.test.ts',
  'test/store/storeEquality.test.ts',
  'test/cli/help.test.ts',
  'test/cli/realRepositories.test.ts',
  'test/store/memoryReader.test.ts',
  'test/store/readersPglite.test.ts',
  'test/cli/columns.test.ts',
  'test/store/storeLibrary.test.ts',
  'test/unit/engine/ranking/meaningAdds.test.ts',
  'test/unit/engine/embeddings/localEmbedder.test.ts',
  'test/unit/engine/ranking/meaningEvidence.test.ts',
  'test/cli/hostileGitConfig.test.ts',
  'test/cli/check.test.ts',
  'test/cli/userSettings.test.ts',
];

/** Every `*.test.ts` under `dir`, in name order. */
function testFiles(dir) {
  return fs
    .readdirSync(path.join(__dirname, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const file = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) return testFiles(file);
      return entry.name.endsWith('.test.ts') ? [file] : [];
    });
}

// One folder for the whole run, which both workers inherit: what one test file makes that another
// may reuse (test/helpers/runVectors.ts), removed when the run ends.
if (!process.env.WSCTX_TEST_RUN_DIR) {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-test-run-'));
  process.env.WSCTX_TEST_RUN_DIR = runDir;
  process.on('exit', () => fs.rmSync(runDir, { recursive: true, force: true }));
}

const files = SUITES.flatMap(testFiles);
const first = LONGEST_FIRST.filter((file) => files.includes(file));

module.exports = {
  // expose-gc: the tests of what a structure keeps alive collect before they measure
  // (test/helpers/heapAfterGc.ts).
  'node-option': ['import=tsx', 'expose-gc'],
  require: ['test/helpers/testEnv.ts'],
  spec: [...first, ...files.filter((file) => !first.includes(file))],
  parallel: true,
  jobs: 2,
  timeout: 60000,
  reporter: 'spec',
};
