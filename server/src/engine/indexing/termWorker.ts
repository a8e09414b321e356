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
import { addOccurrence, packShortLengths, type Field } from '../lexical/fields';
import { countedLength, forEachTokenValue } from '../text/analyzer';
import { TokenMemo } from '../text/tokenMemo';
import {
  countSectionTerms,
  documentFields,
  type FieldSource,
  type SectionSource,
  type TermCounter,
} from './sectionTerms';

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

/**
 * A worker's dictionary: its term ids, in order of first use. A section's terms are counted by id
 * as they are met, into an array indexed by id that holds only the section's terms and is cleared
 * after it; each distinct token's ids are kept by its characters (`forEachTokenValue`), so a
 * token met again costs one lookup and no term is looked up by its string. (`sectionFields`
 * builds a map of the section's terms per section: a copy of the document's, a lookup and a
 * store per occurrence, and then each distinct term looked up again.) The ids are given in the
 * same order (a section's terms in order of first occurrence, its document's first), so the counts
 * are the ones `sectionFields` gives.
 */
export class LocalTerms implements TermCounter {
  private readonly ids = new Map<string, number>();
  /**
   * Each distinct token's term ids, by the token's characters: a number for a token of one term
   * (nearly every token: a word), -1 for none (a stop word), a list for an identifier's several.
   */
  private readonly tokenIds = new TokenMemo<number | number[]>();
  private readonly idsOfTerms = (terms: readonly string[]): number | number[] => {
    if (terms.length === 1) return this.idOf(terms[0]);
    if (terms.length === 0) return -1;
    const ids = terms.map((term) => this.idOf(term));
    if (countedLength(terms) < terms.length) this.endsWithJoinedWord.add(ids);
    return ids;
  };
  /** Id lists whose last id is the token's joined word, not counted in the length (analyzer.ts `countedLength`). */
  private readonly endsWithJoinedWord = new WeakSet<number[]>();
  /** Packed field counts by id, of the section being counted; zero otherwise. */
  private acc = new Uint32Array(1 << 16);
  /** The section's ids in order of first occurrence, its first `touchedCount` entries. */
  private touched = new Uint32Array(1024);
  private touchedCount = 0;
  /** Terms first met in the batch being counted. */
  private newTerms: string[] = [];

  get size(): number {
    return this.ids.size;
  }

  /** Counts the terms of a batch's sections, as termPool.ts reads them back. */
  count(request: TermRequest): TermReply {
    const firstNewId = this.ids.size;
    this.newTerms = [];
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
      const docIds: number[] = [];
      const docPacked: number[] = [];
      for (const [term, counts] of fields.counts) {
        docIds.push(this.idOf(term));
        docPacked.push(counts);
      }
      for (const section of doc.sections) {
        for (let k = 0; k < docIds.length; k++) this.seed(docIds[k], docPacked[k]);
        const lengths = countSectionTerms(section, doc, fields, this);
        const n = this.touchedCount;
        if (length + n > ids.length) {
          const size = Math.max(length + n, ids.length * 2);
          ids = grown(ids, size);
          packed = grown(packed, size);
        }
        const { acc, touched } = this;
        for (let k = 0; k < n; k++) {
          const id = touched[k];
          ids[length] = id;
          packed[length++] = acc[id];
          acc[id] = 0;
        }
        this.touchedCount = 0;
        termCounts[s] = n;
        bodyLengths[s] = lengths.body;
        shortLengths[s++] = packShortLengths(lengths);
      }
    }
    return {
      id: request.id,
      newTerms: this.newTerms,
      firstNewId,
      termCounts,
      ids: ids.slice(0, length),
      packed: packed.slice(0, length),
      bodyLengths,
      shortLengths,
    };
  }

  /** Every term of `text` counted in `field` (TermCounter); how many there were. */
  text(text: string, field: Field): number {
    let n = 0;
    forEachTokenValue(text, this.tokenIds, this.idsOfTerms, (termIds) => {
      if (typeof termIds === 'number') {
        if (termIds < 0) return;
        this.add(termIds, field);
        n++;
        return;
      }
      for (let k = 0; k < termIds.length; k++) this.add(termIds[k], field);
      n += this.endsWithJoinedWord.has(termIds) ? termIds.length - 1 : termIds.length;
    });
    return n;
  }

  /** One more occurrence of `term` in `field` (TermCounter). */
  term(term: string, field: Field): void {
    this.add(this.idOf(term), field);
  }

  /** The term's id, given now when the worker first meets it. */
  private idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(term, id);
      this.newTerms.push(term);
      if (id >= this.acc.length) this.acc = grown(this.acc, this.acc.length * 2);
    }
    return id;
  }

  /** One occurrence of term `id` in `field` of the section being counted. */
  private add(id: number, field: Field): void {
    const before = this.acc[id];
    if (before === 0) this.touch(id);
    this.acc[id] = addOccurrence(before, field);
  }

  /** A term of the section's document, first of the section's: its packed title and context counts. */
  private seed(id: number, packed: number): void {
    this.touch(id);
    this.acc[id] = packed;
  }

  /** Notes `id` as the section's next term. */
  private touch(id: number): void {
    if (this.touchedCount === this.touched.length) this.touched = grown(this.touched, this.touched.length * 2);
    this.touched[this.touchedCount++] = id;
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
