/**
 * Sends whatever a worker thread prints to its parent as `{ type: 'log', message }` messages.
 *
 * By default a worker's stdout is piped into the parent's, and the LSP and MCP stdio hosts speak
 * their protocol there: one stray TF.js warning would corrupt it. The Worker option
 * `stdout: true` would capture it instead, but its stream keeps the parent's event loop alive
 * even after `worker.unref()` (checked on Node 20.20), so a CLI run would never exit.
 */
import { parentPort } from 'node:worker_threads';

export interface WorkerLog {
  type: 'log';
  message: string;
}

export function routeConsoleToParent(): void {
  const port = parentPort;
  if (!port) return;
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      for (const line of text.split('\n')) {
        if (line.trim()) port.postMessage({ type: 'log', message: line.trimEnd() } satisfies WorkerLog);
      }
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') done();
      return true;
    }) as typeof stream.write;
  }
}
