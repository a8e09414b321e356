import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAbortError } from '../../../../server/src/engine/embeddings/abort';
import { LocalEmbedder } from '../../../../server/src/engine/embeddings/localEmbedder';

import { dot } from '../../../../server/src/engine/embeddings/vectorMath';
import { SHARED_EMBEDDER_KEYS, sharedLocalEmbedder } from './sharedLocalEmbedder';

const INVOICE = 'invoice retries';
const DUNNING = 'dunning process for failed payments: re-attempt the charge on a collection schedule';
const TLS = 'how to rotate TLS certificates';
const WHO_OWNS = 'who owns billing-worker';
const OWNED = 'billing-worker is owned by the payments team';
const HELM = 'deploy the frontend with helm';

const bulkTexts = (n: number) =>
  Array.from({ length: n }, (_, i) => `passage ${i}: the billing worker retries failed invoices on schedule ${i}`);

const isUnit = (v: Float32Array) => assert.ok(Math.abs(dot(v, v) - 1) < 1e-5, `norm^2 was ${dot(v, v)}`);

describe('engine/embeddings/localEmbedder', function () {
  // Loading a model in a worker takes seconds on a busy machine (mocha's default is 2 s).
  this.timeout(60_000);
  it('embeds with all-MiniLM-L6-v2 on ONNX Runtime by default: 384 unit dimensions, related pairs well above unrelated ones', async () => {
    const embedder = sharedLocalEmbedder();
    assert.equal(embedder.model, 'minilm');
    assert.equal(embedder.id, 'local:all-minilm-l6-v2+onnx-int8-g3@0.1.0');
    assert.equal(embedder.runtime, 'onnxruntime-node 1.30.0, int8, 1 x 1 threads');
    assert.equal(embedder.dimension, 384);
    assert.equal(embedder.maxInputTokens, 160);
    const vectors = await embedder.embed([INVOICE, DUNNING, TLS, WHO_OWNS, OWNED, HELM]);
    const [invoice, dunning, tls, whoOwns, owned, helm] = vectors;
    for (const v of vectors) {
      assert.equal(v.length, 384);
      isUnit(v);
    }
    assert.ok(dot(invoice, dunning) > 0.35, `dunning ${dot(invoice, dunning)}`);
    assert.ok(
      dot(invoice, dunning) > dot(invoice, tls) + 0.15,
      `dunning ${dot(invoice, dunning)} vs TLS ${dot(invoice, tls)}`,
    );
    assert.ok(
      dot(whoOwns, owned) > dot(whoOwns, helm) + 0.3,
      `owned ${dot(whoOwns, owned)} vs helm ${dot(whoOwns, helm)}`,
    );
    // A query goes through the same model: same text, nearly the same vector (int8 activations are
    // quantized per batch, so a text alone and in a batch of others differ in the third decimal).
    const query = await embedder.embedQuery(INVOICE);
    assert.equal(query.length, 384);
    assert.ok(dot(query, invoice) > 0.98, `query vs bulk ${dot(query, invoice)}`);
    // Blank text cannot break a batch.
    const [blank, spaces] = await embedder.embed(['', '   ']);
    isUnit(blank);
    assert.ok(dot(blank, spaces) > 0.99999);
    assert.deepEqual(await embedder.embed([]), []);
  });

  it('embeds with Universal Sentence Encoder lite when asked: 512 unit dimensions', async () => {
    const embedder = sharedLocalEmbedder('use-lite');
    assert.equal(embedder.model, 'use-lite');
    assert.equal(embedder.id, 'local:universal-sentence-encoder-lite@0.2.0');
    assert.equal(embedder.dimension, 512);
    assert.equal(embedder.maxInputTokens, 256);
    const vectors = await embedder.embed([INVOICE, DUNNING, TLS, WHO_OWNS, OWNED, HELM, '   ']);
    const [invoice, dunning, tls, whoOwns, owned, helm] = vectors;
    for (const v of vectors) {
      assert.equal(v.length, 512);
      isUnit(v);
    }
    assert.ok(
      dot(invoice, dunning) > dot(invoice, tls),
      `dunning ${dot(invoice, dunning)} vs TLS ${dot(invoice, tls)}`,
    );
    assert.ok(
      dot(whoOwns, owned) > dot(whoOwns, helm) + 0.3,
      `owned ${dot(whoOwns, owned)} vs helm ${dot(whoOwns, helm)}`,
    );
    assert.ok(dot(await embedder.embedQuery(INVOICE), invoice) > 0.99999);
  });

  for (const model of SHARED_EMBEDDER_KEYS) {
    // ONNX Runtime serves queries on a worker of their own, beside the bulk worker.
    const workers = model === 'minilm' ? 2 : 1;
    // The same text embedded again, in another batch: identical on the WASM engines, within int8 noise on ONNX Runtime.
    const same = model === 'minilm' ? 0.98 : 0.99999;
    describe(`the shared worker pool, running ${model}`, () => {
      it('reports progress per batch and cancels the rest, staying usable', async () => {
        const embedder = sharedLocalEmbedder(model); // batch size 8
        const seen: [number, number][] = [];
        const vectors = await embedder.embed(bulkTexts(20), undefined, (done, total) => seen.push([done, total]));
        assert.equal(vectors.length, 20);
        assert.deepEqual(seen, [
          [8, 20],
          [16, 20],
          [20, 20],
        ]);

        const controller = new AbortController();
        const progress: number[] = [];
        const cancelled = embedder.embed(bulkTexts(64), controller.signal, (done) => {
          progress.push(done);
          controller.abort();
        });
        await assert.rejects(cancelled, (err) => isAbortError(err));
        assert.deepEqual(progress, [8]);

        // Aborted while its batch is in the worker: the worker drops it, and the next call runs.
        const inFlight = new AbortController();
        const stopped = embedder.embed(bulkTexts(8), inFlight.signal, (done) => progress.push(done));
        inFlight.abort();
        await assert.rejects(stopped, (err) => isAbortError(err));
        await assert.rejects(embedder.embed(['x'], inFlight.signal), (err) => isAbortError(err));
        const [again] = await embedder.embed([bulkTexts(1)[0]]);
        assert.ok(dot(again, vectors[0]) > same, `again ${dot(again, vectors[0])}`);
        assert.deepEqual(progress, [8]);
        assert.equal(embedder.runningWorkers, workers);
      });

      it('answers a query before the bulk batch already running in the worker', async () => {
        const embedder = sharedLocalEmbedder(model); // one bulk worker, batch size 8
        await embedder.embed(['warm up']); // the worker is ready, so the bulk batch goes out at once
        await embedder.embedQuery('warm up'); // and so is the query worker, where there is one
        let bulkDone = 0;
        // Long texts (up to the model's input), so a batch of them takes many times a query's run.
        const long = bulkTexts(16).map((t) => `${t} `.repeat(12));
        const bulk = embedder.embed(long, undefined, (done) => (bulkDone = done));
        // Both bulk batches are taken (one in the worker, one queued); the query is sent alongside.
        const doneWhenQueryAnswered = await embedder.embedQuery(WHO_OWNS).then(() => bulkDone);
        await bulk;
        assert.equal(doneWhenQueryAnswered, 0);
        assert.equal(bulkDone, 16);
      });
    });
  }

  it('closes bulk workers left without bulk work and starts them again when work comes, keeping the query worker', async () => {
    const logs: string[] = [];
    const embedder = new LocalEmbedder({
      workers: 2,
      threads: 1,
      batchSize: 4,
      bulkIdleMs: 200,
      log: (m) => logs.push(m),
    });
    try {
      const first = await embedder.embed(bulkTexts(12));
      assert.equal(embedder.startedWorkers, 3); // two bulk workers and the query worker
      // Polled, not timed: the two bulk workers close once idle; the query worker stays.
      for (let i = 0; i < 600 && embedder.runningWorkers > 1; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(embedder.runningWorkers, 1);
      assert.equal(
        logs.filter((m) => m === 'embeddings: closed an idle bulk worker (200 ms without bulk work)').length,
        2,
      );
      // Closing is not a crash: no restart was logged and queries still run on the query worker.
      assert.equal(logs.filter((m) => /exited|crashed/.test(m)).length, 0);
      const query = await embedder.embedQuery(bulkTexts(1)[0]);
      assert.equal(embedder.startedWorkers, 3);
      assert.ok(dot(query, first[0]) > 0.98, `query vs bulk ${dot(query, first[0])}`);
      const again = await embedder.embed(bulkTexts(12));
      assert.equal(embedder.startedWorkers, 5);
      for (let i = 0; i < 12; i++) assert.ok(dot(again[i], first[i]) > 0.98, `text ${i}: ${dot(again[i], first[i])}`);
    } finally {
      await embedder.dispose();
    }
  });

  it('fails clearly when the worker cannot run, and rejects after dispose', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-worker-'));
    // A worker that prints, as TF.js may, then dies while loading.
    const script = path.join(dir, 'broken.ts');
    const workerConsole = path.resolve(__dirname, '../../../../server/src/engine/embeddings/workerConsole');
    fs.writeFileSync(
      script,
      `import { routeConsoleToParent } from ${JSON.stringify(workerConsole)};\n` +
        "routeConsoleToParent();\nconsole.log('loading the model');\nthrow new Error('no model here');\n",
    );
    const logs: string[] = [];
    const embedder = new LocalEmbedder({ workerScript: script, runtime: 'wasm', log: (m) => logs.push(m) });
    try {
      // A worker that dies before it is ready is restarted 3 times, then the embedder gives up.
      const fatal = /^Error: embeddings: the embedding worker crashed: no model here; gave up after 3 restarts$/;
      await assert.rejects(embedder.embed(['a']), fatal);
      assert.equal(logs.filter((m) => m === 'embeddings: started a bulk worker (1/1) for minilm on wasm').length, 4);
      assert.equal(logs.filter((m) => m === 'embeddings: the embedding worker crashed: no model here').length, 4);
      // What a worker prints goes to the log, never to this process's stdout.
      assert.equal(logs.filter((m) => m === 'embeddings worker: loading the model').length, 4);
      assert.equal(embedder.runningWorkers, 0);
      await assert.rejects(embedder.embedQuery('b'), fatal);
    } finally {
      await embedder.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await assert.rejects(embedder.embed(['a']), /the local embedder was disposed/);
  });

  it('refuses an unknown model by name', () => {
    assert.throws(() => new LocalEmbedder({ model: 'bge-small' as never }), {
      message: "embeddings: unknown local model 'bge-small' (expected minilm or use-lite)",
    });
  });
});
