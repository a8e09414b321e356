/**
 * Worker-thread entry that reads workspace files for a full pass (bundled to `dist/readWorker.js`;
 * the main-thread side is readPool.ts). A cold pass reads every file: through the promise API
 * that is eight trips to the thread pool per file and their promises on the answering thread
 * (about 190 us a file), while here the same guarded read (readGuard.ts, the synchronous variant:
 * the same checks in the same order) runs as plain system calls off that thread, and the file's
 * digest is taken here too.
 *
 * Protocol:
 *   workerData: { roots, maxBytes }   the real paths of the served folders, the size cap
 *   in:  { id, paths }                absolute paths to read, in order
 *   out: { id, results }              one WorkerRead per path, in the same order
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sha256Hex } from '../chunking/ids';
import { decodeText, readGuardedBytesSync, type GuardedText, type ReadScratch } from '../workspace/readGuard';

export interface ReadWorkerData {
  roots: string[];
  maxBytes: number;
}

export interface ReadRequest {
  id: number;
  paths: string[];
}

/** A guarded read's text with its SHA-256 (fileTable.ts's digest), or why it was refused. */
export type WorkerRead = (GuardedText & { ok: true; digest: string }) | (GuardedText & { ok: false });

export interface ReadReply {
  id: number;
  results: WorkerRead[];
}

/**
 * Reads one file as the table would on the main thread: guarded, decoded, digested. The bytes go
 * through `scratch` (one buffer for every file of the worker): only the text is kept.
 */
export function readForTable(
  absPath: string,
  roots: readonly string[],
  maxBytes: number,
  scratch: ReadScratch,
): WorkerRead {
  const read = readGuardedBytesSync(absPath, roots, maxBytes, scratch);
  if (!read.ok) return read;
  const decoded = decodeText(read.bytes);
  return { ok: true, ...decoded, digest: sha256Hex(decoded.text) };
}

const port = parentPort;
if (port) {
  const { roots, maxBytes } = workerData as ReadWorkerData;
  const scratch: ReadScratch = { buffer: Buffer.allocUnsafe(0) };
  port.on('message', (request: ReadRequest) => {
    const results = request.paths.map((p) => readForTable(p, roots, maxBytes, scratch));
    const reply: ReadReply = { id: request.id, results };
    port.postMessage(reply);
  });
}
