/**
 * One store namespace held in memory: the index state the in-memory engine would hold for its
 * folder alone (every document and section, texts included, the postings index, the catalog and
 * its graph), built from the store's rows in bulk, never by analysing a text again, and kept in
 * line with the store write by write.
 *
 * - A full load lays the term blocks (already each term's ordinals, ascending, block after block)
 *   out as one postings base segment (lexical/segment.ts), as a snapshot restore does, and the
 *   sections at their store ordinals (removed sections leave holes, as in the engine's own index
 *   between compactions).
 * - A later write's load holds only what it changed: the documents written (their old sections
 *   leave the postings index, their new ones join its delta with the field counts the blocks
 *   carry) and the documents removed; the vectors catch up the same way (storedVectors.ts).
 * - Sharing between states: as in the engine (indexing/sectionStore.ts), consecutive states share
 *   the postings index and the maps, which `apply` changes in place, synchronously; only the
 *   sections array is copied per state. Every tool takes its state synchronously and reads it
 *   without awaiting in between, so no answer sees half a write.
 *
 * The ranker reads this state as it reads the in-memory engine's: no ordinal order decides a
 * score or a tie (ties fall to section ids), so store ordinals serve as the index's ordinals.
 */
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, SectionEntry } from '../indexState';
import { unpackLengths } from '../lexical/fields';
import { PostingsIndex } from '../lexical/postings';
import { bitsetWords, setBit, type BaseSegment } from '../lexical/segment';
import type { CatalogEntity, Doc, FileCommitInfo, Relation, Section } from '../model';
import type {
  LoadedBlock,
  LoadedVersion,
  LoadSink,
  NamespaceLoad,
  StoredMeaningRows,
  StoredWindowRow,
  VectorCatchUp,
} from './indexStore';
import type { CandidateSection, NamespaceSizes, StoredDoc, StoredWorkspaceInfo } from './rows';
import { StoredVectors } from './storedVectors';

/**
 * Receives one bulk read's term blocks and windows (IndexStore.loadNamespace's sink): a full read
 * lays the blocks out as they come and fills a fresh copy of the vectors; a later read keeps
 * them, to be applied at once with the rest of the write.
 */
export class LoadReceiver implements LoadSink {
  readonly segment: SegmentBuilder | undefined;
  readonly pending: LoadedBlock[] = [];
  received:
    | { meaning: StoredMeaningRows; catchUp: VectorCatchUp; fresh?: StoredVectors; pages: StoredWindowRow[][] }
    | undefined;

  constructor(full: boolean, expectedPostings = 0) {
    this.segment = full ? new SegmentBuilder(expectedPostings) : undefined;
  }

  blocks(page: LoadedBlock[]): void {
    if (this.segment) for (const b of page) this.segment.add(b);
    else for (const b of page) this.pending.push(b);
  }

  vectors(meaning: StoredMeaningRows, catchUp: VectorCatchUp): void {
    // A fresh copy is filled page by page: nothing answers from it until the load is applied.
    this.received = {
      meaning,
      catchUp,
      pages: [],
      ...(catchUp.removed === 'all' ? { fresh: new StoredVectors(meaning) } : {}),
    };
  }

  windows(page: StoredWindowRow[]): void {
    const v = this.received;
    if (!v) throw new Error('store: windows before the meaning they belong to');
    if (v.fresh) v.fresh.apply({ generation: 0, removed: [] }, [page], v.meaning);
    else v.pages.push(page);
  }
}

export class LoadedNamespace {
  private entries: (SectionEntry | undefined)[] = [];
  private ordinals = new Map<string, number>();
  private docs = new Map<string, Doc>();
  private titles = new Map<string, ReadonlySet<string>>();
  private contexts = new Map<string, ReadonlySet<string>>();
  private postings = new PostingsIndex();
  private catalog: { entities: readonly CatalogEntity[]; relations: readonly Relation[]; graph: ComponentGraph } = {
    entities: [],
    relations: [],
    graph: new ComponentGraph([], []),
  };
  private commits: ReadonlyMap<string, FileCommitInfo> = new Map();
  private info: StoredWorkspaceInfo | undefined;
  /** The namespace's vectors, in line with `generation`; undefined without vectors. */
  vectors: StoredVectors | undefined;
  /** The state answering now (replaced by each apply). */
  state: IndexState | undefined;
  generation = 0;
  epoch = 0;
  sizes: NamespaceSizes | undefined;

  constructor(readonly name: string) {}

  /** What this copy holds, for the next read of what changed since (IndexStore.loadNamespace). */
  version(): LoadedVersion | undefined {
    if (!this.state) return undefined;
    return {
      generation: this.generation,
      epoch: this.epoch,
      vectorGeneration: this.vectors?.generation ?? 0,
      vectorModel: this.vectors?.meaning.model ?? null,
    };
  }

  /** Sections held. */
  get sectionCount(): number {
    return this.postings.sectionCount;
  }

  /**
   * Applies one load (synchronously): a full one replaces everything, a later one changes only
   * what it holds. Returns the documents it wrote and removed.
   */
  apply(load: NamespaceLoad, received: LoadReceiver): { written: number; removed: number } {
    if (load.full) return this.replace(load, received);
    let removed = 0;
    const present = new Set(load.docIds);
    for (const id of [...this.docs.keys()]) {
      if (!present.has(id)) {
        this.removeDoc(id);
        removed++;
      }
    }
    for (const { doc } of load.docs) if (this.docs.has(doc.id)) this.removeDoc(doc.id);
    // The blocks a write rewrote hold its new sections' postings (and their neighbours', unchanged).
    const fresh = new Map<number, { terms: string[]; packed: number[] }>();
    for (const { sections } of load.docs) for (const s of sections) fresh.set(s.ordinal, { terms: [], packed: [] });
    for (const block of received.pending) {
      for (let k = 0; k < block.ordinals.length; k++) {
        const fields = fresh.get(block.ordinals[k]);
        if (fields) {
          fields.terms.push(block.term);
          fields.packed.push(block.packed[k]);
        }
      }
    }
    for (const { doc, sections } of load.docs) {
      this.addDoc(doc, sections);
      for (const s of sections) {
        const f = fresh.get(s.ordinal)!;
        this.postings.add(s.ordinal, {
          counts: new Map(f.terms.map((t, i) => [t, f.packed[i]])),
          lengths: unpackLengths(s.bodyLength, s.shortLengths),
        });
      }
    }
    if (this.postings.needsCompaction()) this.postings.compact();
    this.applyCommon(load, received);
    return { written: load.docs.length, removed };
  }

  private replace(load: NamespaceLoad, received: LoadReceiver): { written: number; removed: number } {
    // New maps, not cleared ones: a state answering a question now keeps the ones it has.
    this.ordinals = new Map();
    this.docs = new Map();
    this.titles = new Map();
    this.contexts = new Map();
    let bound = 0;
    for (const { sections } of load.docs) for (const s of sections) if (s.ordinal >= bound) bound = s.ordinal + 1;
    // Sized up front: assigning far past an array's end can turn it into a slow dictionary.
    this.entries = new Array<SectionEntry | undefined>(bound).fill(undefined);
    const bodyLengths = new Uint32Array(bound);
    const shortLengths = new Uint32Array(bound);
    const present = new Uint32Array(bitsetWords(bound));
    for (const { doc, sections } of load.docs) {
      this.addDoc(doc, sections);
      for (const s of sections) {
        bodyLengths[s.ordinal] = s.bodyLength;
        shortLengths[s.ordinal] = s.shortLengths;
        setBit(present, s.ordinal);
      }
    }
    const sectionCount = this.ordinals.size;
    // A load asked as a catch-up comes back whole when the store renumbered: its blocks were kept in order.
    const segment = received.segment ?? SegmentBuilder.of(received.pending);
    this.postings = new PostingsIndex(
      segment.build({ bodyLengths, shortLengths, present, sectionCount, ordinalBound: bound }),
    );
    this.vectors = undefined;
    this.applyCommon(load, received);
    return { written: load.docs.length, removed: 0 };
  }

  /** What every load changes the same way: the catalog, commits, facts, vectors and the state. */
  private applyCommon(load: NamespaceLoad, received: LoadReceiver): void {
    if (load.catalog)
      this.catalog = {
        entities: load.catalog.entities,
        relations: load.catalog.relations,
        graph: new ComponentGraph(load.catalog.entities, load.catalog.relations),
      };
    this.commits = new Map(load.commits);
    this.info = load.info;
    const v = received.received;
    if (v) {
      if (v.fresh) {
        v.fresh.apply({ generation: v.catchUp.generation, removed: [] }, [], v.meaning);
        this.vectors = v.fresh;
      } else if (this.vectors) {
        this.vectors.apply(v.catchUp, v.pages, v.meaning);
      } else {
        const fresh = new StoredVectors(v.meaning);
        fresh.apply({ ...v.catchUp, removed: 'all' }, v.pages, v.meaning);
        this.vectors = fresh;
      }
    }
    this.generation = load.generation;
    this.epoch = load.epoch;
    this.sizes = load.sizes;
    this.state = this.buildState();
  }

  private buildState(): IndexState {
    const info = this.info!;
    return {
      folders: [info.folder],
      repos: info.repos,
      fileDigests: new Map(),
      commits: this.commits,
      docs: this.docs,
      sections: this.entries.slice(),
      sectionOrdinalById: this.ordinals,
      lexical: this.postings,
      titleTerms: this.titles,
      contextTerms: this.contexts,
      libraryFolders: info.libraryFolders,
      packs: info.packs,
      fieldLines: {},
      entities: this.catalog.entities,
      relations: this.catalog.relations,
      graph: this.catalog.graph,
      runHealth: new Map(info.runHealth),
      problems: info.problems,
      indexedAt: info.indexedAt,
      counts: info.counts,
    };
  }

  /** Holds `stored` with its sections at their store ordinals (postings are the caller's). */
  private addDoc(stored: StoredDoc, rows: readonly CandidateSection[]): void {
    const { sectionCount: _count, titleTerms, contextTerms, contentDigest: _digest, ...fields } = stored;
    const doc: Doc = { ...fields, sections: [] };
    for (const r of rows) {
      const section: Section = {
        id: r.id,
        docId: r.docId,
        headingPath: r.headingPath,
        level: r.level,
        startLine: r.startLine,
        endLine: r.endLine,
        text: r.text,
        ...(r.entityRefs ? { entityRefs: r.entityRefs } : {}),
      };
      doc.sections.push(section);
      if (r.ordinal >= this.entries.length) this.entries.length = r.ordinal + 1;
      this.entries[r.ordinal] = { ordinal: r.ordinal, section, doc };
      this.ordinals.set(section.id, r.ordinal);
    }
    this.docs.set(doc.id, doc);
    this.titles.set(doc.id, new Set(titleTerms));
    this.contexts.set(doc.id, new Set(contextTerms));
  }

  private removeDoc(id: string): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    for (const section of doc.sections) {
      const ordinal = this.ordinals.get(section.id);
      if (ordinal === undefined) continue;
      this.postings.remove(ordinal);
      this.entries[ordinal] = undefined;
      this.ordinals.delete(section.id);
    }
    this.docs.delete(id);
    this.titles.delete(id);
    this.contexts.delete(id);
  }
}

/**
 * A postings base segment laid out from term blocks as they arrive in (term, block) order: each
 * term's ordinals are then ascending already, and consecutive blocks of one term are appended.
 */
export class SegmentBuilder {
  private readonly terms: string[] = [];
  /** Where each term's postings start. */
  private readonly starts: number[] = [];
  private postings: Uint32Array;
  private freqs: Uint32Array;
  private length = 0;

  constructor(expected: number) {
    this.postings = new Uint32Array(Math.max(1024, expected));
    this.freqs = new Uint32Array(Math.max(1024, expected));
  }

  static of(blocks: readonly LoadedBlock[]): SegmentBuilder {
    const builder = new SegmentBuilder(blocks.reduce((n, b) => n + b.ordinals.length, 0));
    for (const b of blocks) builder.add(b);
    return builder;
  }

  add(block: LoadedBlock): void {
    if (this.terms[this.terms.length - 1] !== block.term) {
      this.terms.push(block.term);
      this.starts.push(this.length);
    }
    const n = block.ordinals.length;
    if (this.length + n > this.postings.length) {
      const size = Math.max(this.length + n, this.postings.length * 2);
      const postings = new Uint32Array(size);
      postings.set(this.postings.subarray(0, this.length));
      const freqs = new Uint32Array(size);
      freqs.set(this.freqs.subarray(0, this.length));
      this.postings = postings;
      this.freqs = freqs;
    }
    this.postings.set(block.ordinals, this.length);
    this.freqs.set(block.packed, this.length);
    this.length += n;
  }

  /** The segment over the sections' lengths; throws when a term's ordinals do not ascend or name a section not held. */
  build(
    sections: Pick<BaseSegment, 'bodyLengths' | 'shortLengths' | 'present' | 'sectionCount' | 'ordinalBound'>,
  ): BaseSegment {
    const offsets = new Uint32Array(this.terms.length + 1);
    offsets.set(this.starts);
    offsets[this.terms.length] = this.length;
    const postings = this.postings.length === this.length ? this.postings : this.postings.slice(0, this.length);
    const freqs = this.freqs.length === this.length ? this.freqs : this.freqs.slice(0, this.length);
    for (let t = 0; t < this.terms.length; t++) {
      let previous = -1;
      for (let k = offsets[t]; k < offsets[t + 1]; k++) {
        const o = postings[k];
        if (o <= previous || o >= sections.ordinalBound || ((sections.present[o >>> 5] >>> (o & 31)) & 1) === 0) {
          throw new Error(
            `store: the postings of "${this.terms[t]}" name section ${o}, which the namespace does not hold in order`,
          );
        }
        previous = o;
      }
    }
    return { terms: this.terms, offsets, postings, freqs, ...sections };
  }
}
