/**
 * Builds a {@link PostingsIndex} base segment in bulk (a cold index of a whole workspace).
 *
 * Sections are appended as (ordinal, fields): each term with its packed field counts, and the
 * field lengths (fields.ts). The builder keeps a forward list of (term id, counts) per section in
 * growing `Uint32Array`s and each term's document frequency, then lays all postings out with one
 * counting sort: no per-term arrays, no sort of the postings themselves. A plain list of terms is
 * taken too, each occurrence counted as a body occurrence (tests, small indexes).
 *
 *   const builder = new PostingsBuilder();
 *   sections.forEach((s, ordinal) => builder.add(ordinal, sectionFields(s, doc)));
 *   const index = builder.build();
 */
import { packShortLengths, type SectionFields } from './fields';
import { internTerm, PostingsIndex, toSectionFields } from './postings';
import { bitsetWords, checkOrdinal, growBitset, setBit, testBit } from './segment';

export class PostingsBuilder {
  private readonly dict = new Map<string, number>();
  private readonly terms: string[] = [];
  /** Per term id: sections holding it. */
  private docFreq: Uint32Array = new Uint32Array(1024);
  /** Per term id: 1 + index of the last section that used it (0 = none yet). */
  private stamp: Uint32Array = new Uint32Array(1024);
  /** Term ids of every section, concatenated in the order sections were added. */
  private forward: Uint32Array = new Uint32Array(1 << 16);
  /** Packed field counts beside `forward`. */
  private forwardFreqs: Uint32Array = new Uint32Array(1 << 16);
  private forwardLength = 0;
  private bodyLengths: Uint32Array = new Uint32Array(1024);
  private shortLengths: Uint32Array = new Uint32Array(1024);
  private readonly sectionOrdinals: number[] = [];
  private readonly sectionEnds: number[] = [];
  private present: Uint32Array = new Uint32Array(0);
  private ascending = true;
  private ordinalBound = 0;
  private built = false;

  /** Sections added so far. */
  get sectionCount(): number {
    return this.sectionOrdinals.length;
  }

  /**
   * Adds section `ordinal` with its terms (duplicates allowed). Each ordinal may be added once;
   * ordinals may come in any order (ascending order skips a sort at build time).
   */
  add(ordinal: number, input: SectionFields | Iterable<string>): this {
    this.checkNew(ordinal);
    // Read the terms first, so a throwing iterable cannot leave half a section behind.
    const fields = toSectionFields(input);
    this.openSection(ordinal, fields.lengths.body, packShortLengths(fields.lengths));
    const section = this.sectionOrdinals.length + 1;
    for (const [term, packed] of fields.counts) this.addTerm(this.termId(term), packed, section);
    this.closeSection(ordinal);
    return this;
  }

  /**
   * The id of `term`, given it now when new. Ids go in order of first use, so a caller that
   * takes the ids of each section's terms in the order `add` would meet them, and adds the
   * sections in the same order with {@link addIds}, builds the index `add` would (termPool.ts).
   */
  termId(term: string): number {
    const id = internTerm(this.dict, this.terms, term);
    if (id >= this.stamp.length) this.growTermArrays();
    return id;
  }

  /**
   * Adds section `ordinal` as term ids from {@link termId} (`ids[from, to)`, each with its packed
   * field counts at the same index of `packed`), its body length and its packed short lengths
   * (fields.ts `packShortLengths`): a section whose terms were counted elsewhere.
   */
  addIds(
    ordinal: number,
    ids: ArrayLike<number>,
    packed: ArrayLike<number>,
    from: number,
    to: number,
    bodyLength: number,
    shortLengths: number,
  ): this {
    this.checkNew(ordinal);
    for (let k = from; k < to; k++)
      if (ids[k] >= this.terms.length) throw new Error(`PostingsBuilder: unknown term id ${ids[k]}`);
    this.openSection(ordinal, bodyLength, shortLengths);
    const section = this.sectionOrdinals.length + 1;
    for (let k = from; k < to; k++) this.addTerm(ids[k], packed[k], section);
    this.closeSection(ordinal);
    return this;
  }

  private checkNew(ordinal: number): void {
    if (this.built) throw new Error('PostingsBuilder: add after build');
    checkOrdinal(ordinal, 'PostingsBuilder');
    if (testBit(this.present, ordinal)) throw new Error(`PostingsBuilder: ordinal ${ordinal} was already added`);
  }

  private openSection(ordinal: number, bodyLength: number, shortLengths: number): void {
    this.present = growBitset(this.present, ordinal);
    setBit(this.present, ordinal);
    if (ordinal >= this.bodyLengths.length) {
      const size = Math.max(ordinal + 1, this.bodyLengths.length * 2);
      this.bodyLengths = grow(this.bodyLengths, size);
      this.shortLengths = grow(this.shortLengths, size);
    }
    this.bodyLengths[ordinal] = bodyLength;
    this.shortLengths[ordinal] = shortLengths;
  }

  /** One term of the open section (`section`: 1 + its index); a repeated term counts once. */
  private addTerm(id: number, packed: number, section: number): void {
    if (this.stamp[id] === section) return;
    this.stamp[id] = section;
    this.docFreq[id]++;
    if (this.forwardLength === this.forward.length) {
      this.forward = grow(this.forward, this.forwardLength * 2);
      this.forwardFreqs = grow(this.forwardFreqs, this.forwardLength * 2);
    }
    this.forwardFreqs[this.forwardLength] = packed;
    this.forward[this.forwardLength++] = id;
  }

  private closeSection(ordinal: number): void {
    const last = this.sectionOrdinals.length > 0 ? this.sectionOrdinals[this.sectionOrdinals.length - 1] : -1;
    if (ordinal < last) this.ascending = false;
    this.sectionOrdinals.push(ordinal);
    this.sectionEnds.push(this.forwardLength);
    if (ordinal >= this.ordinalBound) this.ordinalBound = ordinal + 1;
  }

  /** The finished index. The builder cannot be used afterwards. */
  build(): PostingsIndex {
    if (this.built) throw new Error('PostingsBuilder: build called twice');
    this.built = true;
    const termCount = this.terms.length;
    const offsets = new Uint32Array(termCount + 1);
    for (let id = 0; id < termCount; id++) offsets[id + 1] = offsets[id] + this.docFreq[id];
    const cursor = offsets.slice(0, termCount);
    const postings = new Uint32Array(this.forwardLength);
    const freqs = new Uint32Array(this.forwardLength);

    const sections = this.sectionOrdinals.length;
    let order: ArrayLike<number> | null = null;
    if (!this.ascending) {
      const idx = new Uint32Array(sections);
      for (let s = 0; s < sections; s++) idx[s] = s;
      const ords = this.sectionOrdinals;
      order = Array.from(idx).sort((a, b) => ords[a] - ords[b]);
    }
    for (let i = 0; i < sections; i++) {
      const s = order === null ? i : order[i];
      const ordinal = this.sectionOrdinals[s];
      const end = this.sectionEnds[s];
      for (let k = s === 0 ? 0 : this.sectionEnds[s - 1]; k < end; k++) {
        const at = cursor[this.forward[k]]++;
        postings[at] = ordinal;
        freqs[at] = this.forwardFreqs[k];
      }
    }
    // Release the transient arrays before the caller keeps the index.
    this.forward = new Uint32Array(0);
    this.forwardFreqs = new Uint32Array(0);
    this.docFreq = new Uint32Array(0);
    this.stamp = new Uint32Array(0);

    const present = this.present.slice(0, bitsetWords(this.ordinalBound));
    return new PostingsIndex({
      terms: this.terms,
      offsets,
      postings,
      freqs,
      bodyLengths: this.bodyLengths.slice(0, this.ordinalBound),
      shortLengths: this.shortLengths.slice(0, this.ordinalBound),
      present,
      sectionCount: sections,
      ordinalBound: this.ordinalBound,
    });
  }

  private growTermArrays(): void {
    this.docFreq = grow(this.docFreq, this.docFreq.length * 2);
    this.stamp = grow(this.stamp, this.stamp.length * 2);
  }
}

/** Builds an index from `(ordinal, terms)` pairs in one go. */
export function buildPostings(entries: Iterable<readonly [number, SectionFields | Iterable<string>]>): PostingsIndex {
  const builder = new PostingsBuilder();
  for (const [ordinal, terms] of entries) builder.add(ordinal, terms);
  return builder.build();
}

function grow(array: Uint32Array, size: number): Uint32Array {
  const grown = new Uint32Array(size);
  grown.set(array);
  return grown;
}
