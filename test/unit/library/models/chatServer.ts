/**
 * A small OpenAI-compatible chat completions server for the provider tests: node:http on
 * 127.0.0.1, port 0, answering `POST /v1/chat/completions` with whatever the test's `answer`
 * function returns for the request body. Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequestRecord {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: string }[];
    max_tokens: number;
    temperature: number;
    response_format?: { type: string };
  };
}

export interface ChatReply {
  status?: number;
  /** The assistant message's content (wrapped in the OpenAI envelope). */
  content?: string;
  /** A raw body instead of the envelope. */
  raw?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface ChatServer {
  baseUrl: string;
  requests: ChatRequestRecord[];
  /** Requests answered so far, and requests whose client went away before the answer. */
  answered(): number;
  abandoned(): number;
  close(): Promise<void>;
}

export async function startChatServer(answer: (request: ChatRequestRecord) => ChatReply): Promise<ChatServer> {
  const requests: ChatRequestRecord[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let answered = 0;
  let abandoned = 0;
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString()));
    req.on('end', () => {
      const record: ChatRequestRecord = { path: req.url ?? '', headers: req.headers, body: JSON.parse(data || '{}') };
      requests.push(record);
      const reply = req.url === '/v1/chat/completions' ? answer(record) : { status: 404, raw: '{"error":"not found"}' };
      res.once('close', () => {
        if (!res.writableFinished) abandoned++;
      });
      const send = () => {
        if (res.destroyed) return;
        answered++;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(
          reply.raw ??
            JSON.stringify({
              id: 'chatcmpl-test',
              object: 'chat.completion',
              choices: [
                { index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' },
              ],
            }),
        );
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, reply.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answered: () => answered,
    abandoned: () => abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `[q1]`-style item ids in a judge prompt's user message, in order. */
export function judgeItemIds(request: ChatRequestRecord): string[] {
  const user = request.body.messages.find((m) => m.role === 'user')?.content ?? '';
  return [...user.matchAll(/^\[([a-z0-9]+)\] /gm)].map((m) => m[1]);
}
