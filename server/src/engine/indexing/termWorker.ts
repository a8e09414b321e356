/**
 * Worker-thread entry that counts the terms of a cold index's sections (bundled to
 * `dist/termWorker.js`; the main-thread side is termPool.ts). Tokenising every section is the
 * largest part of a cold pass on the answering thread; here it runs the same code
 * (sectionTerms.ts over text/analyzer.ts, whose memo is this thread's own), and only numbers
 * come back.
 *
 * Terms go back as this worker's own ids: a term gets the next id the first time the worker
 * meets it, in the order the main thread's `sectionFields` would meet it, and each reply lists
 * the terms new in its batch. The main thread maps them to the postings builder's ids as it adds
 * the sections in order.
 *
 * Protocol:
 *   in:  TermRequest  { id, docs }      documents (what their fields are made of) with their sections
 *   out: TermReply    { id, newTerms, termCounts, ids, packed, bodyLengths, shortLengths }
 *        per section, in order: how many distinct terms it has (termCounts), then those terms'
 *        ids and packed field counts in `ids` and `packed` (concatenated), its body length and
 *        its packed short lengths (lexical/fields.ts). The arrays are transferred, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { packShortLengths } from '../lexical/fields';
import { documentFields, type FieldSource, type SectionSource, sectionFields } from './sectionTerms';

/** One document of a batch: its fields' sources, its path below its folder and its sections. */
export interface TermDoc extends FieldSource {
  inFolder: string;
  sections: SectionSource[];
}

export interface TermRequest {
  id: number;
  docs: TermDoc[];
}

export interface TermReply {
  id: number;
  /** Terms first met in this batch, in id order: the first is id `firstNewId`. */
  newTerms: string[];
  firstNewId: number;
  termCounts: Uint32Array;
  ids: Uint32Array;
  packed: Uint32Array;
  bodyLengths: Uint32Array;
  shortLengths: Uint32Array;
}

/** A worker's dictionary: its term ids, in order of first use. */
export class LocalTerms {
  private readonly ids = new Map<string, number>();

  get size(): number {
    return this.ids.size;
  }

  /** Counts the terms of a batch's sections, as termPool.ts reads them back. */
  count(request: TermRequest): TermReply {
    const firstNewId = this.ids.size;
    const newTerms: string[] = [];
    let sections = 0;
    for (const doc of request.docs) sections += doc.sections.length;
    const termCounts = new Uint32Array(sections);
    const bodyLengths = new Uint32Array(sections);
    const shortLengths = new Uint32Array(sections);
    let ids = new Uint32Array(sections * 64);
    let packed = new Uint32Array(sections * 64);
    let length = 0;
    let s = 0;
    for (const doc of request.docs) {
      const fields = documentFields(doc, doc.inFolder);
      for (const section of doc.sections) {
        const { counts, lengths } = sectionFields(section, doc, fields);
        if (length + counts.size > ids.length) {
          const size = Math.max(length + counts.size, ids.length * 2);
          ids = grown(ids, size);
          packed = grown(packed, size);
        }
        for (const [term, count] of counts) {
          let id = this.ids.get(term);
          if (id === undefined) {
            id = this.ids.size;
            this.ids.set(term, id);
            newTerms.push(term);
          }
          ids[length] = id;
          packed[length++] = count;
        }
        termCounts[s] = counts.size;
        bodyLengths[s] = lengths.body;
        shortLengths[s++] = packShortLengths(lengths);
      }
    }
    return {
      id: request.id,
      newTerms,
      firstNewId,
      termCounts,
      ids: ids.slice(0, length),
      packed: packed.slice(0, length),
      bodyLengths,
      shortLengths,
    };
  }
}

function grown(array: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(size);
  out.set(array);
  return out;
}

const port = parentPort;
if (port) {
  const terms = new LocalTerms();
  port.on('message', (request: TermRequest) => {
    const reply = terms.count(request);
    const arrays = [reply.termCounts, reply.ids, reply.packed, reply.bodyLengths, reply.shortLengths];
    // Plain ArrayBuffers (allocated here), moved to the main thread rather than copied.
    port.postMessage(
      reply,
      arrays.map((array) => array.buffer as ArrayBuffer),
    );
  });
}
