import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalUseEmbedder, USE_LITE_DIMENSION } from '../../../../server/src/engine/embeddings/localUseEmbedder';
import { isAbortError } from '../../../../server/src/engine/embeddings/abort';
import { dot } from '../../../../server/src/engine/embeddings/vectorMath';
import { sharedLocalEmbedder } from './sharedLocalEmbedder';

const INVOICE = 'invoice retries';
const DUNNING = 'dunning process for failed payments: re-attempt the charge on a collection schedule';
const TLS = 'how to rotate TLS certificates';
const WHO_OWNS = 'who owns billing-worker';
const OWNED = 'billing-worker is owned by the payments team';
const HELM = 'deploy the frontend with helm';

const bulkTexts = (n: number) => Array.from({ length: n }, (_, i) => `passage ${i}: the billing worker retries failed invoices on schedule ${i}`);

describe('engine/embeddings/localUseEmbedder', () => {
  it('embeds with the packaged model: related pairs closer than unrelated ones, 512 normalized dimensions', async () => {
    const embedder = sharedLocalEmbedder();
    assert.equal(embedder.dimension, 512);
    assert.equal(embedder.id, 'local:universal-sentence-encoder-lite@0.2.0');
    const [invoice, dunning, tls, whoOwns, owned, helm] = await embedder.embed([INVOICE, DUNNING, TLS, WHO_OWNS, OWNED, HELM]);
    for (const v of [invoice, dunning, tls, whoOwns, owned, helm]) {
      assert.equal(v.length, USE_LITE_DIMENSION);
      assert.ok(Math.abs(dot(v, v) - 1) < 1e-5, `norm^2 was ${dot(v, v)}`);
    }
    assert.ok(dot(invoice, dunning) > dot(invoice, tls), `dunning ${dot(invoice, dunning)} vs TLS ${dot(invoice, tls)}`);
    assert.ok(dot(whoOwns, owned) > dot(whoOwns, helm) + 0.3, `owned ${dot(whoOwns, owned)} vs helm ${dot(whoOwns, helm)}`);
    // A query is embedded by the same model: same text, same vector.
    const query = await embedder.embedQuery(INVOICE);
    assert.ok(dot(query, invoice) > 0.99999);
    // Blank text cannot break a batch.
    const [blank] = await embedder.embed(['   ']);
    assert.equal(blank.length, 512);
    assert.deepEqual(await embedder.embed([]), []);
  });

  it('reports progress per batch and cancels the rest, staying usable', async () => {
    const embedder = sharedLocalEmbedder(); // batch size 8
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

    await assert.rejects(embedder.embed(['x'], controller.signal), (err) => isAbortError(err));
    const [again] = await embedder.embed([INVOICE]);
    assert.ok(dot(again, vectors[0]) > 0.3);
    assert.equal(embedder.runningWorkers, 1);
  });

  it('serves a query before the bulk batches queued ahead of it', async () => {
    const embedder = new LocalUseEmbedder({ workers: 1, batchSize: 1 });
    try {
      let bulkDone = 0;
      let doneWhenQueryAnswered = -1;
      let query: Promise<void> | undefined;
      const bulk = embedder.embed(bulkTexts(12), undefined, (done) => {
        bulkDone = done;
        // After the first batch, 11 bulk batches are queued; the query joins behind them.
        query ??= embedder.embedQuery(WHO_OWNS).then(() => {
          doneWhenQueryAnswered = bulkDone;
        });
      });
      await bulk;
      await query;
      assert.equal(bulkDone, 12);
      assert.equal(doneWhenQueryAnswered, 1);
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
    const embedder = new LocalUseEmbedder({ workerScript: script, log: (m) => logs.push(m) });
    try {
      // A worker that dies before it is ready is restarted 3 times, then the embedder gives up.
      const fatal = /^Error: embeddings: the embedding worker crashed: no model here; gave up after 3 restarts$/;
      await assert.rejects(embedder.embed(['a']), fatal);
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
});
