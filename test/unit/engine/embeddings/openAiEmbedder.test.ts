import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAbortError } from '../../../../server/src/engine/embeddings/abort';
import { OpenAiEmbedder } from '../../../../server/src/engine/embeddings/openAiEmbedder';
import { dot } from '../../../../server/src/engine/embeddings/vectorMath';
import { sharedLocalEmbedder } from './sharedLocalEmbedder';
import { closedLoopbackPort } from '../../../helpers/closedPort';

interface Seen {
  url: string;
  authorization?: string;
  model: string;
  input: string[];
}

type Answer = (req: Seen, res: http.ServerResponse) => Promise<void> | void;

/**
 * A small OpenAI-compatible server on 127.0.0.1 whose default answer embeds with the local model,
 * scaled by 3 (servers need not normalize) and listed in reverse order (the `index` says which).
 */
async function startServer(answer?: Answer): Promise<{ baseUrl: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const local = sharedLocalEmbedder();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const parsed = JSON.parse(body) as { model: string; input: string[] };
      const entry: Seen = {
        url: req.url ?? '',
        authorization: req.headers.authorization,
        model: parsed.model,
        input: parsed.input,
      };
      seen.push(entry);
      if (answer) return answer(entry, res);
      const vectors = await local.embed(parsed.input);
      const data = vectors
        .map((v, index) => ({ object: 'embedding', index, embedding: [...v].map((x) => x * 3) }))
        .reverse();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model: parsed.model }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets would hold close() for seconds
      }),
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

describe('engine/embeddings/openAiEmbedder', function () {
  // Loading a model in a worker takes seconds on a busy machine (mocha's default is 2 s).
  this.timeout(60_000);
  it('embeds through an OpenAI-compatible endpoint: batches, bearer key, order, normalized vectors', async () => {
    const server = await startServer();
    try {
      const embedder = new OpenAiEmbedder({
        baseUrl: `${server.baseUrl}/`,
        model: 'all-minilm-l6-v2',
        apiKey: 'sk-test',
        batchSize: 2,
      });
      assert.equal(embedder.id, `openai:${server.baseUrl}#all-minilm-l6-v2`);
      assert.equal(embedder.dimension, 0);
      const texts = [
        'invoice retries',
        'dunning process for failed payments: re-attempt the charge on a collection schedule',
        'how to rotate TLS certificates',
        'who owns billing-worker',
        'billing-worker is owned by the payments team',
      ];
      const progress: [number, number][] = [];
      const vectors = await embedder.embed(texts, undefined, (d, t) => progress.push([d, t]));
      assert.equal(embedder.dimension, 384); // the default local model's, as the test server answers with it
      assert.deepEqual(progress, [
        [2, 5],
        [4, 5],
        [5, 5],
      ]);
      assert.deepEqual(
        server.seen.map((s) => [s.url, s.authorization, s.model, s.input.length]),
        [
          ['/v1/embeddings', 'Bearer sk-test', 'all-minilm-l6-v2', 2],
          ['/v1/embeddings', 'Bearer sk-test', 'all-minilm-l6-v2', 2],
          ['/v1/embeddings', 'Bearer sk-test', 'all-minilm-l6-v2', 1],
        ],
      );
      const local = await sharedLocalEmbedder().embed(texts);
      vectors.forEach((v, i) => {
        assert.ok(Math.abs(dot(v, v) - 1) < 1e-5);
        // The server embedded them in batches of 2, this call in one of 5: int8 activations are quantized per batch.
        assert.ok(dot(v, local[i]) > 0.98, `text ${i} came back out of order or changed`);
      });
      const query = await embedder.embedQuery('deploy the frontend with helm');
      assert.ok(dot(vectors[3], vectors[4]) > dot(vectors[3], query));
      assert.ok(dot(vectors[0], vectors[1]) > dot(vectors[0], vectors[2]));
      assert.equal(server.seen.at(-1)!.input[0], 'deploy the frontend with helm');
    } finally {
      await server.close();
    }
  });

  it('names the URL and status of a failed request', async () => {
    const server = await startServer((_req, res) => json(res, 500, { error: { message: 'model not loaded' } }));
    try {
      const embedder = new OpenAiEmbedder({ baseUrl: server.baseUrl, model: 'm' });
      await assert.rejects(
        embedder.embed(['a']),
        new RegExp(
          `^Error: embeddings: ${server.baseUrl}/embeddings answered HTTP 500 Internal Server Error: \\{"error":\\{"message":"model not loaded"\\}\\}$`,
        ),
      );
    } finally {
      await server.close();
    }
  });

  it('rejects bad JSON and malformed answers', async () => {
    const answers: Answer[] = [
      (_r, res) => json(res, 200, '<html>proxy login</html>'),
      (_r, res) => json(res, 200, { result: [] }),
      (_r, res) => json(res, 200, { data: [] }),
      (_r, res) => json(res, 200, { data: [{ index: 0, embedding: ['x'] }] }),
    ];
    let which = 0;
    const server = await startServer((req, res) => answers[which](req, res));
    try {
      const embedder = new OpenAiEmbedder({ baseUrl: server.baseUrl, model: 'm' });
      const url = `${server.baseUrl}/embeddings`;
      const expected = [
        `embeddings: ${url} answered with invalid JSON: <html>proxy login</html>`,
        `embeddings: ${url} answered without a 'data' array: {"result":[]}`,
        `embeddings: ${url} returned 0 embeddings for 1 inputs`,
        `embeddings: ${url} returned a non-numeric embedding at data[0]`,
      ];
      for (which = 0; which < answers.length; which++) {
        await assert.rejects(embedder.embedQuery('a'), { message: expected[which] });
      }
    } finally {
      await server.close();
    }
  });

  it('refuses a response whose dimension differs from the first one', async () => {
    let dim = 4;
    const server = await startServer((req, res) =>
      json(res, 200, {
        data: req.input.map((_, index) => ({ index, embedding: Array.from({ length: dim }, (_, i) => i + 1) })),
      }),
    );
    try {
      const embedder = new OpenAiEmbedder({ baseUrl: server.baseUrl, model: 'nomic-embed-text' });
      const [v] = await embedder.embed(['a']);
      assert.equal(embedder.dimension, 4);
      assert.deepEqual(
        [...v].map((x) => Math.round(x * 1000)),
        [183, 365, 548, 730],
      );
      dim = 3;
      await assert.rejects(embedder.embed(['b']), {
        message: `embeddings: ${server.baseUrl}/embeddings returned a 3-dimension embedding for model 'nomic-embed-text', but earlier responses had 4; was the model changed on the server?`,
      });
    } finally {
      await server.close();
    }
  });

  it('times out, cancels, and reports an unreachable server', async () => {
    const hanging: http.ServerResponse[] = [];
    const server = await startServer((_req, res) => void hanging.push(res));
    try {
      const slow = new OpenAiEmbedder({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 200 });
      await assert.rejects(slow.embedQuery('a'), {
        name: 'TimeoutError',
        message: `embeddings: ${server.baseUrl}/embeddings did not answer within 200 ms`,
      });

      const controller = new AbortController();
      const pending = new OpenAiEmbedder({ baseUrl: server.baseUrl, model: 'm' }).embed(['a', 'b'], controller.signal);
      while (server.seen.length < 2) await new Promise((r) => setTimeout(r, 10));
      controller.abort();
      await assert.rejects(pending, (err) => isAbortError(err));
    } finally {
      for (const res of hanging) res.destroy();
      await server.close();
    }
    // A port nothing listens on (and no pooled connection points at).
    const closedUrl = `http://127.0.0.1:${await closedLoopbackPort()}/v1`;
    const gone = new OpenAiEmbedder({ baseUrl: closedUrl, model: 'm' });
    await assert.rejects(
      gone.embedQuery('a'),
      new RegExp(`^Error: embeddings: could not reach ${closedUrl}/embeddings: fetch failed \\(.*ECONNREFUSED.*\\)$`),
    );
  });

  it('validates its settings', () => {
    assert.throws(
      () => new OpenAiEmbedder({ baseUrl: 'localhost:11434', model: 'm' }),
      /baseUrl must start with http:\/\/ or https:\/\/ \(got 'localhost:11434'\)/,
    );
    assert.throws(
      () => new OpenAiEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', model: ' ' }),
      /a model name is required/,
    );
  });
});
