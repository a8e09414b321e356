/**
 * Sections by ordinal and the postings index over them, updated by diffing document sets.
 *
 * Ordinals are never reused between compactions: a changed document's sections are removed
 * (tombstoned in the postings) and its new sections appended. A document whose content, title
 * and properties are unchanged keeps its ordinals and postings; only its entry is repointed when
 * its entity attachments changed.
 *
 * Concurrency: the postings index is shared by consecutive index states and mutated in place.
 * That is safe because `apply` runs synchronously and every query reads the latest state
 * synchronously after its own awaits, so no query ever sees a half-applied update.
 */
import type { Doc } from '../model';
import type { SectionEntry } from '../indexState';
import { PostingsIndex } from '../lexical/postings';
import { PostingsBuilder } from '../lexical/postingsBuilder';
import { documentContextTerms, sectionTerms, titleTerms } from './sectionTerms';

export interface SectionDiff {
  addedSections: number;
  removedSections: number;
  changedDocs: string[];
  removedDocs: string[];
}

/** When the ordinal space grows past this multiple of live sections, everything is renumbered. */
const RENUMBER_FACTOR = 2;

export class SectionStore {
  private entries: (SectionEntry | undefined)[] = [];
  private ordinals = new Map<string, number>();
  private docs = new Map<string, Doc>();
  private titles = new Map<string, ReadonlySet<string>>();
  private contexts = new Map<string, ReadonlySet<string>>();
  private live = 0;
  postings = new PostingsIndex();

  /** A snapshot of the section table (the postings index is shared, see the module comment). */
  snapshot(): {
    sections: (SectionEntry | undefined)[];
    ordinalById: Map<string, number>;
    docs: Map<string, Doc>;
    titleTerms: Map<string, ReadonlySet<string>>;
    contextTerms: Map<string, ReadonlySet<string>>;
  } {
    return {
      sections: this.entries.slice(),
      ordinalById: new Map(this.ordinals),
      docs: new Map(this.docs),
      titleTerms: new Map(this.titles),
      contextTerms: new Map(this.contexts),
    };
  }

  get sectionCount(): number {
    return this.live;
  }

  /** Makes the store hold exactly `docs`, touching only what changed. */
  apply(docs: readonly Doc[]): SectionDiff {
    const diff: SectionDiff = { addedSections: 0, removedSections: 0, changedDocs: [], removedDocs: [] };
    const incoming = new Map(docs.map((d) => [d.id, d]));
    for (const [id, old] of this.docs) {
      if (!incoming.has(id)) {
        this.removeDoc(old, diff);
        diff.removedDocs.push(id);
      }
    }
    const fresh: Doc[] = [];
    for (const doc of docs) {
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
    if (this.entries.length + countSections(fresh) > RENUMBER_FACTOR * Math.max(1024, this.live + countSections(fresh))) {
      this.rebuild([...this.docs.values(), ...fresh]);
      diff.addedSections += countSections(fresh);
      return diff;
    }
    for (const doc of fresh) this.addDoc(doc, diff);
    if (this.postings.needsCompaction()) this.postings.compact();
    return diff;
  }

  /** The ordinal of every section of every document, in document and section order (snapshots). */
  exportOrdinals(docs: readonly Doc[]): number[] {
    return docs.flatMap((doc) => doc.sections.map((s) => this.ordinals.get(s.id)!));
  }

  /**
   * Restores a store written to a snapshot: the same documents at the same ordinals over the saved
   * postings, without analysing any text again.
   */
  restore(docs: readonly Doc[], ordinals: readonly number[], postings: PostingsIndex): void {
    this.entries = [];
    this.ordinals = new Map();
    this.docs = new Map();
    this.titles = new Map();
    this.contexts = new Map();
    this.live = 0;
    let i = 0;
    for (const doc of docs) {
      this.docs.set(doc.id, doc);
      this.titles.set(doc.id, titleTerms(doc));
      this.contexts.set(doc.id, documentContextTerms(doc));
      for (const section of doc.sections) {
        const ordinal = ordinals[i++];
        this.entries[ordinal] = { ordinal, section, doc };
        this.ordinals.set(section.id, ordinal);
        this.live++;
      }
    }
    if (i !== ordinals.length) throw new Error(`SectionStore: snapshot holds ${ordinals.length} ordinals for ${i} sections`);
    this.postings = postings;
  }

  /** Replaces everything with `docs`, numbering sections from 0 and building postings in bulk. */
  rebuild(docs: readonly Doc[]): void {
    this.entries = [];
    this.ordinals = new Map();
    this.docs = new Map();
    this.titles = new Map();
    this.contexts = new Map();
    this.live = 0;
    const builder = new PostingsBuilder();
    for (const doc of docs) {
      this.docs.set(doc.id, doc);
      this.titles.set(doc.id, titleTerms(doc));
      const context = documentContextTerms(doc);
      this.contexts.set(doc.id, context);
      for (const section of doc.sections) {
        const ordinal = this.entries.length;
        this.entries.push({ ordinal, section, doc });
        this.ordinals.set(section.id, ordinal);
        builder.add(ordinal, sectionTerms(section, doc, context));
        this.live++;
      }
    }
    this.postings = builder.build();
  }

  private addDoc(doc: Doc, diff: SectionDiff): void {
    this.docs.set(doc.id, doc);
    this.titles.set(doc.id, titleTerms(doc));
    const context = documentContextTerms(doc);
    this.contexts.set(doc.id, context);
    for (const section of doc.sections) {
      const ordinal = this.entries.length;
      this.entries.push({ ordinal, section, doc });
      this.ordinals.set(section.id, ordinal);
      this.postings.add(ordinal, sectionTerms(section, doc, context));
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
    this.docs.delete(doc.id);
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
  return a.entityRefs.length === b.entityRefs.length && a.entityRefs.every((ref, i) => ref === b.entityRefs[i]) && a.docsRole === b.docsRole && a.folder === b.folder;
}

function countSections(docs: readonly Doc[]): number {
  let n = 0;
  for (const doc of docs) n += doc.sections.length;
  return n;
}
