/**
 * A process that disposes its engine while the local model embeds the workspace ends cleanly: a
 * host shutting down (an editor window closed, an MCP client gone) while the index embeds. One
 * worker's thread ending while another ran an ONNX Runtime session aborted the whole process
 * ("terminate called after throwing an instance of 'Napi::Error'", exit 134) in three runs of four
 * before the pool quiesced every worker before closing any (embeddings/workerPool.ts `dispose`).
 * Each run is a process of its own, since the abort takes the process with it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const ENGINE = path.resolve(__dirname, '../../../../server/src/engine/engine.ts');

/** Indexes `dir` with the local model, waits for the embedding job's first chunk, disposes, and returns. */
const SCRIPT = (dir: string, cache: string) => `
const { Engine } = require(${JSON.stringify(ENGINE)});
(async () => {
  const engine = new Engine({
    folders: [{ name: 'ws', absPath: ${JSON.stringify(dir)} }],
    cacheDir: ${JSON.stringify(cache)},
    embeddings: { provider: 'local', workers: 1 },
    log: () => undefined,
  });
  await engine.waitForIndex();
  while ((engine.status().meaning?.embedding?.done ?? 0) === 0) await new Promise((r) => setTimeout(r, 20));
  const { done, total } = engine.status().meaning.embedding;
  process.stdout.write(JSON.stringify({ done, total }));
  engine.dispose();
})();
`;

function run(script: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: path.resolve(__dirname, '../../../..'),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('disposing an engine while the local model embeds', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('ends the process cleanly, run after run', async () => {
    const dir = tempDir('dispose-embedding');
    for (let d = 0; d < 60; d++)
      write(
        dir,
        `epics/e${d}.md`,
        `# Topic ${d}\n\n${Array.from({ length: 5 }, (_, s) => `## Part ${s}\n\nStep ${s} of topic ${d} checks the inputs, records what changed and reports the outcome.\n`).join('\n')}`,
      );
    // Two runs: before the fix, three runs in four aborted.
    for (let i = 0; i < 2; i++) {
      const result = await run(SCRIPT(dir, tempDir('dispose-embedding-cache')));
      assert.equal(result.signal, null, result.stderr);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /terminate called|FATAL ERROR/);
      const progress = JSON.parse(result.stdout) as { done: number; total: number };
      assert.ok(progress.done < progress.total, `disposed after the job ended (${progress.done} of ${progress.total})`);
    }
  });
});
