/**
 * A real OpenAI-compatible embeddings endpoint on 127.0.0.1 (`POST {base}/embeddings`) that
 * records every request it gets: the trust tests start one as the workspace's "attacker" and
 * assert that it hears nothing, and one as the user's own endpoint, which must be used.
 *
 * Vectors are 16 numbers derived from each input's characters: deterministic, distinct per text,
 * and enough for the engine to store and rank (these tests are about who is asked, not meaning).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbeddingsRequest {
  path: string;
  authorization: string | undefined;
  model: string;
  inputs: number;
}

export interface EmbeddingsServer {
  /** The base URL to configure (`http://127.0.0.1:PORT/v1`). */
  baseUrl: string;
  requests: EmbeddingsRequest[];
  close(): Promise<void>;
}

export async function startEmbeddingsServer(): Promise<EmbeddingsServer> {
  const requests: EmbeddingsRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      let payload: { model?: string; input?: string[] } = {};
      try {
        payload = JSON.parse(body) as typeof payload;
      } catch {
        // Recorded all the same: any request is what these tests look for.
      }
      const inputs = Array.isArray(payload.input) ? payload.input : [];
      requests.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        model: String(payload.model ?? ''),
        inputs: inputs.length,
      });
      const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model: payload.model }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function vectorOf(text: string): number[] {
  const vector = new Array<number>(16).fill(0);
  for (let i = 0; i < text.length; i++) vector[i % 16] += (text.charCodeAt(i) % 31) / 31;
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return vector.map((x) => x / norm);
}
