import * as assert from 'node:assert/strict';
import { Int8VectorStore } from '../../../../server/src/engine/vector/vectorStore';
import { clusteredVectors, floatCosine } from './syntheticVectors';

describe('engine/vector/vectorStore (int8 codes with a norm each)', () => {
  const DIM = 384;
  const vectors = clusteredVectors(500, DIM, 20, 0.3, 21);
  const queries = clusteredVectors(20, DIM, 20, 0.3, 4_321);

  it('keeps each vector within cosine 0.999 of its float32 original, and cosines within 0.005', () => {
    const store = new Int8VectorStore(DIM, 8);
    vectors.forEach((v, label) => store.append(label, v));
    assert.equal(store.count, 500);
    let worstSelf = 1;
    for (let slot = 0; slot < store.count; slot++)
      worstSelf = Math.min(worstSelf, floatCosine(store.vector(slot), vectors[slot]));
    assert.ok(worstSelf >= 0.999, `dequantized vs float32: worst cosine ${worstSelf}`);
    let worst = 0;
    for (const q of queries) {
      for (let slot = 0; slot < store.count; slot++)
        worst = Math.max(worst, Math.abs(store.similarity(slot, q) - floatCosine(q, vectors[slot])));
    }
    assert.ok(worst < 0.005, `int8 vs float32 cosine: worst error ${worst}`);
  });

  it('ranks the top 10 of a query as float32 does, up to neighbours closer than the rounding', () => {
    const store = new Int8VectorStore(DIM);
    vectors.forEach((v, label) => store.append(label, v));
    for (const q of queries) {
      const floatTop = vectors.map((v, i) => [i, floatCosine(q, v)] as const).sort((a, b) => b[1] - a[1]);
      const int8Top = vectors.map((_, i) => [i, store.similarity(i, q)] as const).sort((a, b) => b[1] - a[1]);
      const tenth = floatTop[9][1];
      // Every float top-10 member is in the int8 top 10 unless its cosine is within 0.01 of the 10th.
      const got = new Set(int8Top.slice(0, 10).map(([i]) => i));
      for (const [i, c] of floatTop.slice(0, 10))
        if (c - tenth > 0.01) assert.ok(got.has(i), `label ${i} (cosine ${c}) left the top 10`);
    }
  });

  it('round-trips through serialize, with liveness, and refuses a truncated buffer', () => {
    const store = new Int8VectorStore(DIM);
    vectors.slice(0, 40).forEach((v, label) => store.append(label * 3, v));
    store.setLive(5, false);
    const buf = Buffer.alloc(8 + store.serializedBytes());
    const end = store.serialize(buf, 8);
    assert.equal(end, buf.length);
    const { store: back } = Int8VectorStore.deserialize(buf, 8, DIM, 'test buffer');
    assert.equal(back.count, 40);
    assert.equal(back.liveCount, 39);
    assert.equal(back.live[5], 0);
    assert.equal(back.slotOf.get(39 * 3), 39);
    for (const q of queries.slice(0, 3))
      for (let slot = 0; slot < 40; slot++) assert.equal(back.similarity(slot, q), store.similarity(slot, q));
    assert.throws(
      () => Int8VectorStore.deserialize(buf.subarray(0, buf.length - 1), 8, DIM, 'test buffer'),
      /test buffer is truncated or damaged/,
    );
  });
});
