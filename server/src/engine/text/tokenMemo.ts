/**
 * Memo of analysed tokens, looked up by the token's characters where they lie in the text.
 *
 * The analysis hot path sees each distinct surface token thousands of times. A `Map<string, ...>`
 * would need `text.slice(start, end)` per token (an allocation) and then hash that fresh string;
 * this table hashes the characters in place (FNV-1a) and compares them against the stored key, so
 * a hit allocates nothing. Open addressing with linear probing, at most half full; when it fills
 * up it starts over empty (the working vocabulary refills it in one pass).
 */
export class TokenMemo<V> {
  private readonly mask: number;
  private readonly maxEntries: number;
  /** Entry index + 1 per slot; 0 is empty. */
  private readonly slots: Int32Array;
  /** Hash per slot, compared before any characters. */
  private readonly slotHashes: Uint32Array;
  private keys: string[] = [];
  private values: V[] = [];

  /**
   * @param capacityBits log2 of the slot count; holds up to half as many entries.
   *   Default 18 (262,144 slots, 131,072 entries, 2 MB of slots). Range 4..26.
   */
  constructor(capacityBits = 18) {
    if (!(capacityBits >= 4 && capacityBits <= 26)) throw new RangeError('TokenMemo: capacityBits must be in 4..26');
    const size = 1 << capacityBits;
    this.mask = size - 1;
    this.maxEntries = size >>> 1;
    this.slots = new Int32Array(size);
    this.slotHashes = new Uint32Array(size);
  }

  /** Entries held. */
  get size(): number {
    return this.keys.length;
  }

  /** FNV-1a over `text[start, end)` as UTF-16 code units. */
  static hash(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return h >>> 0;
  }

  /** The value stored for the characters `text[start, end)`, whose hash is `hash`. */
  get(text: string, start: number, end: number, hash: number): V | undefined {
    const length = end - start;
    let p = hash & this.mask;
    for (;;) {
      const entry = this.slots[p];
      if (entry === 0) return undefined;
      if (this.slotHashes[p] === hash) {
        const key = this.keys[entry - 1];
        if (key.length === length) {
          let i = 0;
          while (i < length && key.charCodeAt(i) === text.charCodeAt(start + i)) i++;
          if (i === length) return this.values[entry - 1];
        }
      }
      p = (p + 1) & this.mask;
    }
  }

  /** Stores `value` for `key` (whose hash is `hash`); the caller has checked it is absent. */
  set(key: string, hash: number, value: V): void {
    if (this.keys.length >= this.maxEntries) this.clear();
    let p = hash & this.mask;
    while (this.slots[p] !== 0) p = (p + 1) & this.mask;
    this.keys.push(key);
    this.values.push(value);
    this.slots[p] = this.keys.length;
    this.slotHashes[p] = hash;
  }

  clear(): void {
    this.slots.fill(0);
    this.keys = [];
    this.values = [];
  }
}
