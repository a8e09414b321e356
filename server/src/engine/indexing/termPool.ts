/**
 * Counts the terms of a cold index's sections in worker threads (termWorker.ts) and adds them to
 * a postings builder on this thread, in section order, so the index is the one `add` would build
 * here: the same term ids, postings and answers.
 *
 * Documents go out in batches of whole documents, each worker holding two so it never waits for
 * the next; a reply is added as soon as every batch before it has been, and the worker that sent
 * it gets its next batch first, so the workers count while this thread adds. Each worker numbers
 * terms its own way (termWorker.ts); this thread maps its ids to the builder's as it meets them in
 * section order. Resolves false when a worker cannot start or fails: the builder is then half
 * filled and the caller counts on its own thread instead (sectionStore.ts), so a missing
 * `termWorker.js` or a host that forbids threads costs speed, never the index.
 */
import { Worker } from 'node:worker_threads';
import type { PostingsBuilder } from '../lexical/postingsBuilder';
import type { Doc } from '../model';
import { resolveWorkerEntry, workerLaunch } from '../workerEntry';
import type { TermDoc, TermReply, TermRequest } from './termWorker';

/** Sections per message, at least (whole documents): messaging costs little, work shares evenly. */
const BATCH_SECTIONS = 512;
/** Batches counted ahead of the one to add next, at most: bounds what waits in memory. */
const AHEAD = 8;

export interface TermPoolOptions {
  /** Worker threads to start (at least 1). */
  workers: number;
  /** Worker entry override (tests); by default `termWorker.js` beside the bundle or `.ts` beside this file. */
  script?: string;
}

/** One worker's ids on this thread: its terms by its id, and the builder's id for each once met. */
interface WorkerTerms {
  terms: string[];
  builderIds: Int32Array;
}

/**
 * Adds every section of `docs` to `builder` at ordinals 0, 1, 2... in order, its terms counted in
 * worker threads. `inFolder` gives a document's path below its folder (sectionTerms.ts). True
 * when done; false when the workers could not (then `builder` must be dropped).
 */
export function addSectionsInWorkers(
  docs: readonly Doc[],
  inFolder: (doc: Doc) => string,
  builder: PostingsBuilder,
  options: TermPoolOptions,
): Promise<boolean> {
  const bounds = batchBounds(docs);
  const batches = bounds.length - 1;
  // One batch is no work to share: the caller counts it on its own thread.
  if (batches < 2) return Promise.resolve(false);
  return new Promise((resolve) => {
    const workers: Worker[] = [];
    const locals: WorkerTerms[] = [];
    const owner: number[] = [];
    const inFlight: number[] = [];
    const waiting = new Map<number, TermReply>();
    let nextBatch = 0;
    let nextToAdd = 0;
    let ordinal = 0;
    let settled = false;
    const settle = (done: boolean): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      resolve(done);
    };
    const feed = (w: number): void => {
      while (inFlight[w] < 2 && nextBatch < batches && nextBatch - nextToAdd < AHEAD) {
        const id = nextBatch++;
        owner[id] = w;
        inFlight[w]++;
        const request: TermRequest = {
          id,
          docs: docs.slice(bounds[id], bounds[id + 1]).map((doc) => termDoc(doc, inFolder(doc))),
        };
        workers[w].postMessage(request);
      }
    };
    const addWaiting = (): void => {
      for (let reply = waiting.get(nextToAdd); reply !== undefined; reply = waiting.get(nextToAdd)) {
        waiting.delete(nextToAdd);
        ordinal = addReply(builder, locals[owner[nextToAdd]], reply, ordinal);
        nextToAdd++;
      }
    };
    try {
      const launch = options.script ? workerLaunch(options.script) : resolveWorkerEntry(__dirname, 'termWorker');
      const count = Math.max(1, Math.min(options.workers, batches));
      for (let w = 0; w < count; w++) {
        const worker = new Worker(launch.file, { execArgv: launch.execArgv });
        workers.push(worker);
        locals.push({ terms: [], builderIds: new Int32Array(0) });
        inFlight.push(0);
        worker.on('message', (reply: TermReply) => {
          if (settled) return;
          try {
            inFlight[w]--;
            waiting.set(reply.id, reply);
            // The worker gets its next batch before this thread adds: both then work at once.
            feed(w);
            addWaiting();
            for (let other = 0; other < workers.length; other++) feed(other);
            if (nextToAdd === batches) settle(true);
          } catch {
            settle(false);
          }
        });
        worker.on('error', () => settle(false));
        worker.on('exit', () => settle(false));
      }
      for (let w = 0; w < count; w++) feed(w);
    } catch {
      settle(false);
    }
  });
}

/** Adds one batch's sections, from `ordinal` on; the next ordinal. */
function addReply(builder: PostingsBuilder, local: WorkerTerms, reply: TermReply, ordinal: number): number {
  if (reply.firstNewId !== local.terms.length) throw new Error('termPool: a reply out of order');
  for (const term of reply.newTerms) local.terms.push(term);
  if (local.builderIds.length < local.terms.length) {
    const ids = new Int32Array(Math.max(local.terms.length, local.builderIds.length * 2)).fill(-1);
    ids.set(local.builderIds);
    local.builderIds = ids;
  }
  const { ids, packed, termCounts } = reply;
  let from = 0;
  for (let s = 0; s < termCounts.length; s++) {
    const to = from + termCounts[s];
    // The builder's ids, taken in the order `add` takes them: the section's terms in order.
    for (let k = from; k < to; k++) {
      let id = local.builderIds[ids[k]];
      if (id < 0) {
        id = builder.termId(local.terms[ids[k]]);
        local.builderIds[ids[k]] = id;
      }
      ids[k] = id;
    }
    builder.addIds(ordinal++, ids, packed, from, to, reply.bodyLengths[s], reply.shortLengths[s]);
    from = to;
  }
  return ordinal;
}

/** The first document of each batch, then `docs.length`: whole documents of BATCH_SECTIONS sections or more. */
function batchBounds(docs: readonly Doc[]): number[] {
  const bounds = [0];
  let sections = 0;
  for (let d = 0; d < docs.length; d++) {
    sections += docs[d].sections.length;
    if (sections >= BATCH_SECTIONS && d + 1 < docs.length) {
      bounds.push(d + 1);
      sections = 0;
    }
  }
  bounds.push(docs.length);
  return bounds;
}

/** What a worker is sent of a document: no ids, digests, entities or sections' other fields. */
function termDoc(doc: Doc, inFolder: string): TermDoc {
  return {
    title: doc.title,
    path: doc.path,
    format: doc.format,
    sourceKind: doc.sourceKind,
    ...(doc.library ? { library: { type: doc.library.type, tags: doc.library.tags } } : {}),
    inFolder,
    sections: doc.sections.map((s) => ({ headingPath: s.headingPath, text: s.text })),
  };
}
