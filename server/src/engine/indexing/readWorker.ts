/**
 * Worker-thread entry that reads workspace files for a full pass (bundled to `dist/readWorker.js`;
 * the main-thread side is readPool.ts). A cold pass reads every file: through the promise API
 * that is eight trips to the thread pool per file and their promises on the answering thread
 * (about 190 us a file), while here the same guarded read (readGuard.ts, the synchronous variant:
 * the same checks in the same order) runs as plain system calls off that thread, and the file's
 * digest is taken here too.
 *
 * The YAML files a producer would parse next are parsed here too (readParses.ts: catalog files,
 * sites' mkdocs.yml), beside the reads instead of on the answering thread after them.
 *
 * Protocol:
 *   workerData: { roots, maxBytes }   the real paths of the served folders, the size cap
 *   in:  { id, paths, parse }         absolute paths to read, in order; which of them to parse
 *                                     and how, by index in `paths` (readParses.ts `ParseAsk`)
 *   out: { id, results }              one WorkerRead per path, in the same order
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sha256Hex } from '../chunking/ids';
import { decodeText, readGuardedBytesSync, type GuardedText, type ReadScratch } from '../workspace/readGuard';
import { parseRead, type ParseAsk, type ReadParse } from './readParses';

export interface ReadWorkerData {
  roots: string[];
  maxBytes: number;
}

export interface ReadRequest {
  id: number;
  paths: string[];
  /** The files to parse once read: `at` is the index in `paths`. */
  parse: (ParseAsk & { at: number })[];
}

/**
 * A guarded read's text with its SHA-256 (fileTable.ts's digest) and the parses the request asked
 * for that apply (readParses.ts); or why it was refused.
 */
export type WorkerRead =
  | (GuardedText & { ok: true; digest: string; parsed?: ReadParse })
  | (GuardedText & { ok: false });

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
    const parsed: number[] = [];
    for (const ask of request.parse) {
      const read = results[ask.at];
      const parse = read.ok ? parseRead(read.text, ask) : undefined;
      if (parse && read.ok) {
        read.parsed = parse;
        parsed.push(ask.at);
      }
    }
    const reply: ReadReply = { id: request.id, results };
    try {
      port.postMessage(reply);
    } catch {
      // A parse that cannot be copied to the other thread (not seen: parses are plain data) must
      // not cost the reads: they go without their parses, which the load then makes itself.
      for (const at of parsed) delete (results[at] as { parsed?: ReadParse }).parsed;
      port.postMessage(reply);
    }
  });
}
