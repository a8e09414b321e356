/**
 * Sections by ordinal and the postings index over them, updated by diffing document sets.
 *
 * Ordinals are never reused between compactions: a changed document's sections are removed
 * (tombstoned in the postings) and its new sections appended. A document whose content, title
 * and properties are unchanged keeps its ordinals and postings; only its entry is repointed when
 * its entity attachments changed.
 *
 * Sharing between states: consecutive index states share the postings index and the maps
 * (ordinal by section id, documents, title and context terms), which `apply` mutates in place;
 * only the `sections` array is copied per state (a flat array, cheap to copy, that ranking walks
 * by ordinal). Copying the maps would cost O(sections) per pass, more than a one-file edit itself
 * at 100k sections. The rule that makes sharing safe:
 * - a pass applies its changes synchronously, just before the new state is returned (the indexer
 *   awaits nothing between `apply` and the return of its pass; indexer.ts `finish`);
 * - every query takes the engine's latest state synchronously after its own awaits and reads it
 *   without awaiting in between (engine.ts).
 * So no query ever sees a half-applied update. A state kept across an await (a background job)
 * may see a later pass's maps; such code must read `sections` and the entries in it, which are
 * never changed once built.
 */
import { SOURCE_KINDS, type Doc, type SourceKind } from '../model';
import type { SectionEntry } from '../indexState';
import { PostingsIndex } from '../lexical/postings';
import { PostingsBuilder } from '../lexical/postingsBuilder';
import { documentContextTerms, documentFields, pathInFolder, sectionFields, titleTerms } from './sectionTerms';
import { addSectionsInWorkers } from './termPool';

export interface SectionDiff {
  addedSections: number;
  removedSections: number;
  changedDocs: string[];
  removedDocs: string[];
}

/** When the ordinal space grows past this multiple of live sections, everything is renumbered. */
const RENUMBER_FACTOR = 2;

/** Fewer sections than this are counted on the answering thread: starting workers would cost more. */
const WORKER_MIN_SECTIONS = 2_000;

export class SectionStore {
  private entries: (SectionEntry | undefined)[] = [];
  private ordinals = new Map<string, number>();
  private docs = new Map<string, Doc>();
  private titles = new Map<string, ReadonlySet<string>>();
  private contexts = new Map<string, ReadonlySet<string>>();
  private live = 0;
  /** Documents by source kind, kept as documents come and go (the state's counts read it). */
  private kinds = emptyKindCounts();
  postings = new PostingsIndex();

  /**
   * `prefixedPaths`: the engine serves several folders, so every path starts with its folder's
   * name; sections are matched on the directories below the folder all the same (sectionTerms.ts).
   */
  constructor(private readonly options: { prefixedPaths?: boolean } = {}) {}

  private inFolder(doc: Doc): string {
    return pathInFolder(doc, this.options.prefixedPaths === true);
  }

  /**
   * The section table for a new state: a copy of the sections array; the maps and the postings
   * index are shared with the store and mutated by later passes (see the module comment).
   */
  snapshot(): {
    sections: (SectionEntry | undefined)[];
    ordinalById: ReadonlyMap<string, number>;
    docs: ReadonlyMap<string, Doc>;
    titleTerms: ReadonlyMap<string, ReadonlySet<string>>;
    contextTerms: ReadonlyMap<string, ReadonlySet<string>>;
  } {
    return {
      sections: this.entries.slice(),
      ordinalById: this.ordinals,
      docs: this.docs,
      titleTerms: this.titles,
      contextTerms: this.contexts,
    };
  }

  get sectionCount(): number {
    return this.live;
  }

  /** How many documents of each source kind the store holds: a copy, the state's to keep. */
  documentsByKind(): Record<SourceKind, number> {
    return { ...this.kinds };
  }

  /**
   * Makes the store hold exactly `docs` (unique ids), touching only what changed. When `docs`
   * holds the same ids at the same positions as the previous call's (every update pass that
   * adds and removes no document), only the positions holding another object are looked at.
   */
  apply(docs: readonly Doc[]): SectionDiff {
    const diff: SectionDiff = { addedSections: 0, removedSections: 0, changedDocs: [], removedDocs: [] };
    const replaced = this.replacedPositions(docs);
    if (replaced === null) {
      const incoming = new Map(docs.map((d) => [d.id, d]));
      for (const [id, old] of this.docs) {
        if (!incoming.has(id)) {
          this.removeDoc(old, diff);
          diff.removedDocs.push(id);
        }
      }
    }
    const fresh: Doc[] = [];
    for (const doc of replaced ?? docs) {
      const old = this.docs.get(doc.id);
      if (old === doc) continue;
      if (old && sameIndexedContent(old, doc)) {
        // Re-parsed but identical: keep the old object, so unchanged documents keep their identity.
        if (!sameAttachments(old, doc)) this.repoint(old, doc);
        continue;
      }
      if (old) this.removeDoc(old, diff);
      fresh.push(doc);
      diff.changedDocs.push(doc.id);
    }
    // Nothing left to keep (a first pass), or too many holes: number everything afresh, in bulk.
    if (
      this.live === 0 ||
      this.entries.length + countSections(fresh) > RENUMBER_FACTOR * Math.max(1024, this.live + countSections(fresh))
    ) {
      this.rebuild([...this.docs.values(), ...fresh]);
      diff.addedSections += countSections(fresh);
      this.lastInput = docs;
      return diff;
    }
    this.prepared = undefined;
    for (const doc of fresh) this.addDoc(doc, diff);
    if (this.postings.needsCompaction()) this.postings.compact();
    this.lastInput = docs;
    return diff;
  }

  /**
   * The documents of `docs` that differ from the previous input at their position, when every
   * position keeps its document id (so no document was added or removed); else null.
   */
  private replacedPositions(docs: readonly Doc[]): Doc[] | null {
    const last = this.lastInput;
    if (!last || last.length !== docs.length || this.docs.size !== docs.length) return null;
    const replaced: Doc[] = [];
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      if (doc === last[i]) continue;
      if (doc.id !== last[i].id) return null;
      replaced.push(doc);
    }
    return replaced;
  }
  private lastInput: readonly Doc[] | undefined;

  /** The ordinal of every section of every document, in document and section order (snapshots). */
  exportOrdinals(docs: readonly Doc[]): number[] {
    return docs.flatMap((doc) => doc.sections.map((s) => this.ordinals.get(s.id)!));
  }

  /**
   * Restores a store written to a snapshot: the same documents at the same ordinals over the saved
   * postings, without analysing any text again when `terms` (each document's title and context
   * terms, in `docs` order) are given.
   */
  restore(
    docs: readonly Doc[],
    ordinals: readonly number[],
    postings: PostingsIndex,
    terms?: readonly { title: readonly string[]; context: readonly string[] }[],
  ): void {
    this.lastInput = undefined;
    // Sized up front: assigning far past an array's end can turn it into a slow dictionary.
    let size = 0;
    for (const ordinal of ordinals) if (ordinal >= size) size = ordinal + 1;
    this.entries = new Array<SectionEntry | undefined>(size).fill(undefined);
    this.ordinals = new Map();
    this.docs = new Map();
    this.titles = new Map();
    this.contexts = new Map();
    this.live = 0;
    this.kinds = emptyKindCounts();
    let i = 0;
    docs.forEach((doc, d) => {
      this.docs.set(doc.id, doc);
      this.kinds[doc.sourceKind]++;
      this.titles.set(doc.id, terms ? new Set(terms[d].title) : titleTerms(doc));
      this.contexts.set(doc.id, terms ? new Set(terms[d].context) : documentContextTerms(doc, this.inFolder(doc)));
      for (const section of doc.sections) {
        const ordinal = ordinals[i++];
        this.entries[ordinal] = { ordinal, section, doc };
        this.ordinals.set(section.id, ordinal);
        this.live++;
      }
    });
    if (i !== ordinals.length)
      throw new Error(`SectionStore: snapshot holds ${ordinals.length} ordinals for ${i} sections`);
    this.postings = postings;
  }

  /**
   * Before a pass's `apply(docs)`, with nothing else applied in between: when that apply will
   * number everything afresh because the store holds nothing yet (a cold index) and `docs` hold
   * many sections, counts their terms in `workers` worker threads now (termPool.ts), so `rebuild`
   * only builds the postings. True when it did. The index is the same either way; a worker that
   * cannot start, or `workers: 0`, leaves it all to `rebuild` on this thread. Never rejects.
   */
  async prepareRebuild(docs: readonly Doc[], options: { workers: number; script?: string }): Promise<boolean> {
    this.prepared = undefined;
    if (this.docs.size > 0 || options.workers <= 0 || countSections(docs) < WORKER_MIN_SECTIONS) return false;
    const builder = new PostingsBuilder();
    const done = await addSectionsInWorkers(docs, (doc) => this.inFolder(doc), builder, options);
    if (done) this.prepared = { docs, builder };
    return done;
  }
  private prepared: { docs: readonly Doc[]; builder: PostingsBuilder } | undefined;

  /** The builder `prepareRebuild` filled for exactly `docs` (the same objects in order), if any. */
  private takePrepared(docs: readonly Doc[]): PostingsBuilder | undefined {
    const prepared = this.prepared;
    this.prepared = undefined;
    if (!prepared || prepared.docs.length !== docs.length) return undefined;
    for (let i = 0; i < docs.length; i++) if (prepared.docs[i] !== docs[i]) return undefined;
    return prepared.builder;
  }

  /** Replaces everything with `docs`, numbering sections from 0 and building postings in bulk. */
  rebuild(docs: readonly Doc[]): void {
    const prepared = this.takePrepared(docs);
    this.lastInput = undefined;
    this.entries = [];
    this.ordinals = new Map();
    this.docs = new Map();
    this.titles = new Map();
    this.contexts = new Map();
    this.live = 0;
    this.kinds = emptyKindCounts();
    const builder = prepared ?? new PostingsBuilder();
    for (const doc of docs) {
      this.docs.set(doc.id, doc);
      this.kinds[doc.sourceKind]++;
      this.titles.set(doc.id, titleTerms(doc));
      this.contexts.set(doc.id, documentContextTerms(doc, this.inFolder(doc)));
      const fields = prepared ? undefined : documentFields(doc, this.inFolder(doc));
      for (const section of doc.sections) {
        const ordinal = this.entries.length;
        this.entries.push({ ordinal, section, doc });
        this.ordinals.set(section.id, ordinal);
        if (fields) builder.add(ordinal, sectionFields(section, doc, fields));
        this.live++;
      }
    }
    this.postings = builder.build();
  }

  private addDoc(doc: Doc, diff: SectionDiff): void {
    this.docs.set(doc.id, doc);
    this.kinds[doc.sourceKind]++;
    this.titles.set(doc.id, titleTerms(doc));
    this.contexts.set(doc.id, documentContextTerms(doc, this.inFolder(doc)));
    const fields = documentFields(doc, this.inFolder(doc));
    for (const section of doc.sections) {
      const ordinal = this.entries.length;
      this.entries.push({ ordinal, section, doc });
      this.ordinals.set(section.id, ordinal);
      this.postings.add(ordinal, sectionFields(section, doc, fields));
      this.live++;
      diff.addedSections++;
    }
  }

  private removeDoc(doc: Doc, diff: SectionDiff): void {
    for (const section of doc.sections) {
      const ordinal = this.ordinals.get(section.id);
      if (ordinal === undefined) continue;
      this.postings.remove(ordinal);
      this.entries[ordinal] = undefined;
      this.ordinals.delete(section.id);
      this.live--;
      diff.removedSections++;
    }
    if (this.docs.delete(doc.id)) this.kinds[doc.sourceKind]--;
    this.titles.delete(doc.id);
    this.contexts.delete(doc.id);
  }

  private repoint(old: Doc, doc: Doc): void {
    this.docs.set(doc.id, doc);
    for (let i = 0; i < doc.sections.length; i++) {
      const ordinal = this.ordinals.get(old.sections[i].id)!;
      this.entries[ordinal] = { ordinal, section: doc.sections[i], doc };
    }
  }
}

/** True when two versions of a document would index the same terms in the same sections. */
function sameIndexedContent(a: Doc, b: Doc): boolean {
  if (a.digest !== b.digest || a.title !== b.title || a.path !== b.path || a.sourceKind !== b.sourceKind) return false;
  if (a.sections.length !== b.sections.length) return false;
  for (let i = 0; i < a.sections.length; i++) if (a.sections[i].id !== b.sections[i].id) return false;
  return JSON.stringify(a.library ?? null) === JSON.stringify(b.library ?? null);
}

function sameAttachments(a: Doc, b: Doc): boolean {
  return (
    a.entityRefs.length === b.entityRefs.length &&
    a.entityRefs.every((ref, i) => ref === b.entityRefs[i]) &&
    a.docsRole === b.docsRole &&
    a.folder === b.folder
  );
}

function emptyKindCounts(): Record<SourceKind, number> {
  return Object.fromEntries(SOURCE_KINDS.map((kind) => [kind, 0])) as Record<SourceKind, number>;
}

function countSections(docs: readonly Doc[]): number {
  let n = 0;
  for (const doc of docs) n += doc.sections.length;
  return n;
}
