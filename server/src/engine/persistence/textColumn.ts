/**
 * Section texts as one binary column of a snapshot, instead of one JSON string each.
 *
 * At 100k sections the texts are ~85 MB of the snapshot's ~150 MB of JSON, and parsing them as
 * JSON strings (one heap string each, copied through the young generation) was the largest
 * single cost of a restart. Here they are written as UTF-8, concatenated, and read back as a few
 * large strings (one decode each, allocated once) that every section's text is a slice of: V8
 * keeps such a slice as a reference into the large string, so no text is copied on load. A
 * slice keeps its large string alive, so the column's memory is freed only when no section of
 * that chunk is left, never more than the texts took before.
 *
 *   u32 count | u32 chunkCount | chunkCount x (u32 sections, u32 bytes) |
 *   count x u32 text length (UTF-16 units) | the texts, UTF-8, chunk after chunk
 *
 * A chunk holds consecutive texts up to {@link MAX_CHUNK_CHARS} UTF-16 units (a longer text has
 * a chunk of its own), well under V8's longest string. A text that is not well-formed UTF-16 (a
 * lone surrogate, which UTF-8 cannot carry) is left empty in the column and returned by
 * `encodeTexts` in `irregular`, for the caller to write as JSON, so every text reads back exactly.
 */

/** UTF-16 units per decoded chunk at most: 64 Mi (V8's string limit is 2^29 - 24). */
export const MAX_CHUNK_CHARS = 2 ** 26;

export interface EncodedTexts {
  bytes: Uint8Array;
  /** Texts not well-formed UTF-16, by position: written elsewhere, empty in the column. */
  irregular: [number, string][];
}

/**
 * The column for `texts`, in order.
 * @param maxChunkChars UTF-16 units per chunk at most (default {@link MAX_CHUNK_CHARS}; a smaller
 * one only makes more chunks, for tests)
 */
export function encodeTexts(texts: readonly string[], maxChunkChars = MAX_CHUNK_CHARS): EncodedTexts {
  const irregular: [number, string][] = [];
  const lengths = new Uint32Array(texts.length);
  const byteLengths = new Float64Array(texts.length);
  const chunks: { sections: number; bytes: number }[] = [];
  let chunk = { sections: 0, bytes: 0 };
  let chunkChars = 0;
  let totalBytes = 0;
  texts.forEach((original, i) => {
    let text = original;
    if (!wellFormed(text)) {
      irregular.push([i, text]);
      text = '';
    }
    if (chunk.sections > 0 && chunkChars + text.length > maxChunkChars) {
      chunks.push(chunk);
      chunk = { sections: 0, bytes: 0 };
      chunkChars = 0;
    }
    lengths[i] = text.length;
    byteLengths[i] = Buffer.byteLength(text, 'utf8');
    chunk.sections++;
    chunk.bytes += byteLengths[i];
    chunkChars += text.length;
    totalBytes += byteLengths[i];
  });
  if (chunk.sections > 0) chunks.push(chunk);
  const head = 8 + chunks.length * 8 + texts.length * 4;
  const out = Buffer.allocUnsafe(head + totalBytes);
  out.writeUInt32LE(texts.length, 0);
  out.writeUInt32LE(chunks.length, 4);
  let at = 8;
  for (const c of chunks) {
    out.writeUInt32LE(c.sections, at);
    out.writeUInt32LE(c.bytes, at + 4);
    at += 8;
  }
  for (let i = 0; i < texts.length; i++, at += 4) out.writeUInt32LE(lengths[i], at);
  const irregularAt = new Set(irregular.map(([i]) => i));
  texts.forEach((text, i) => {
    if (irregularAt.has(i)) return;
    at += out.write(text, at, byteLengths[i], 'utf8');
  });
  return { bytes: out, irregular };
}

/**
 * The texts of a column written by `encodeTexts`, `irregular` put back at their positions.
 * @throws Error starting `snapshot texts:` when the column does not hang together
 */
export function decodeTexts(bytes: Uint8Array, irregular: readonly [number, string][] = []): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new Error(`snapshot texts: ${why}`);
  };
  if (buf.length < 8) fail('the column is shorter than its header');
  const count = buf.readUInt32LE(0);
  const chunkCount = buf.readUInt32LE(4);
  const head = 8 + chunkCount * 8 + count * 4;
  if (head > buf.length) fail('the column is truncated');
  const texts = new Array<string>(count);
  let lengthAt = 8 + chunkCount * 8;
  let textAt = head;
  let i = 0;
  for (let c = 0; c < chunkCount; c++) {
    const sections = buf.readUInt32LE(8 + c * 8);
    const byteLength = buf.readUInt32LE(12 + c * 8);
    if (i + sections > count || textAt + byteLength > buf.length) fail('a chunk runs past the column');
    const chunk = buf.toString('utf8', textAt, textAt + byteLength);
    textAt += byteLength;
    let at = 0;
    for (const end = i + sections; i < end; i++, lengthAt += 4) {
      const length = buf.readUInt32LE(lengthAt);
      texts[i] = chunk.slice(at, at + length);
      at += length;
    }
    if (at !== chunk.length) fail('text lengths do not add up to their chunk');
  }
  if (i !== count || textAt !== buf.length) fail('the chunks do not add up to the column');
  for (const [position, text] of irregular) {
    if (!(position >= 0 && position < count) || texts[position] !== '')
      fail(`irregular text at ${position} does not fit the column`);
    texts[position] = text;
  }
  return texts;
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` has no lone surrogate (String#isWellFormed, which older runtimes lack). */
function wellFormed(text: string): boolean {
  return !SURROGATE.test(text) || !LONE_SURROGATE.test(text);
}
