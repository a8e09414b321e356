/**
 * The snapshot's text column: every text reads back exactly (multi-byte, astral, empty, lone
 * surrogates carried beside the column), across chunk boundaries, and a damaged column is
 * refused with a reason instead of handing back shifted texts.
 */
import assert from 'node:assert/strict';
import { decodeTexts, encodeTexts } from '../../../../server/src/engine/persistence/textColumn';

const TEXTS = [
  '# Dunning\n\nA declined charge is attempted again on days 1, 3, 7 and 14.',
  '',
  'Café crème: résumé of the naïve façade',
  '日本語のテキスト、そして絵文字 🚀🧪 (astral, two UTF-16 units each)',
  'lone high \uD800 surrogate',
  'a',
  'lone low \uDC00 surrogate and a pair \uD83D\uDE00',
  'x'.repeat(40),
];

describe('snapshot text column', () => {
  it('reads back every text exactly, lone surrogates carried beside the column', () => {
    const { bytes, irregular } = encodeTexts(TEXTS);
    assert.deepEqual(
      irregular.map(([i]) => i),
      [4, 6],
    );
    assert.deepEqual(decodeTexts(bytes, irregular), TEXTS);
    assert.deepEqual(decodeTexts(encodeTexts([]).bytes), []);
  });

  it('splits into chunks at the limit, a text longer than a chunk on its own, and reads them back', () => {
    const { bytes, irregular } = encodeTexts(TEXTS, 30);
    const chunkCount = Buffer.from(bytes).readUInt32LE(4);
    // 30 units per chunk: the 70-unit first text and the 40-unit last one each fill a chunk.
    assert.ok(chunkCount >= 5, `${chunkCount} chunks`);
    assert.deepEqual(decodeTexts(bytes, irregular), TEXTS);
  });

  it('refuses a truncated or inconsistent column with the reason', () => {
    const { bytes, irregular } = encodeTexts(TEXTS, 30);
    assert.throws(() => decodeTexts(bytes.subarray(0, bytes.length - 3), irregular), /^Error: snapshot texts: /);
    assert.throws(() => decodeTexts(bytes.subarray(0, 6)), /snapshot texts: the column is shorter than its header/);
    const longer = Buffer.concat([bytes, Buffer.from('tail')]);
    assert.throws(() => decodeTexts(longer, irregular), /snapshot texts: the chunks do not add up to the column/);
    // One text's recorded length off by one: the texts would shift, so the chunk is refused.
    const shifted = Buffer.from(bytes);
    const chunkCount = shifted.readUInt32LE(4);
    const firstLength = 8 + chunkCount * 8;
    shifted.writeUInt32LE(shifted.readUInt32LE(firstLength) - 1, firstLength);
    assert.throws(() => decodeTexts(shifted, irregular), /snapshot texts: text lengths do not add up to their chunk/);
    assert.throws(
      () => decodeTexts(bytes, [[0, 'not empty in the column']]),
      /irregular text at 0 does not fit the column/,
    );
  });
});
