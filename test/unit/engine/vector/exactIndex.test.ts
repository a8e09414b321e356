import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExactIndex } from '../../../../server/src/engine/vector/exactIndex';

function round(hits: { label: number; score: number }[]): [number, number][] {
  return hits.map((h) => [h.label, Math.round(h.score * 1000) / 1000]);
}

describe('engine/vector/exactIndex', () => {
  it("ranks by cosine, whatever the vectors' lengths", () => {
    const index = new ExactIndex(3, 1);
    index.add(10, [1, 0, 0]);
    index.add(11, [0, 5, 0]);
    index.add(12, [3, 3, 0]);
    index.add(13, [-2, 0, 0]);
    assert.equal(index.size, 4);
    // The float cosines are 0.995, 0.774 and 0.100; int8 codes of three components (the query's
    // too) keep them within 0.005.
    const hits = index.search([2, 0.2, 0], 3);
    assert.deepEqual(
      hits.map((h) => h.label),
      [10, 12, 11],
    );
    [0.995, 0.774, 0.1].forEach((want, i) =>
      assert.ok(Math.abs(hits[i].score - want) < 0.005, `${hits[i].score} vs ${want}`),
    );
    assert.deepEqual(
      round(index.search([1, 0, 0], 10)).map(([l]) => l),
      [10, 12, 11, 13],
    );
  });

  it('replaces the vector of a label added twice', () => {
    const index = new ExactIndex(2);
    index.add(1, [1, 0]);
    index.add(2, [0, 1]);
    index.add(1, [0, 1]);
    assert.equal(index.size, 2);
    assert.deepEqual(round(index.search([0, 1], 2)), [
      [1, 1],
      [2, 1],
    ]);
  });

  it('removes labels and keeps the others findable', () => {
    const index = new ExactIndex(2, 2);
    for (let label = 0; label < 6; label++) index.add(label, [Math.cos(label / 3), Math.sin(label / 3)]);
    assert.equal(index.remove(0), true);
    assert.equal(index.remove(0), false);
    assert.equal(index.remove(99), false);
    assert.equal(index.size, 5);
    assert.equal(index.has(0), false);
    assert.deepEqual(
      index.search([1, 0], 6).map((h) => h.label),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(
      index.search([1, 0], 6, (l) => l % 2 === 0).map((h) => h.label),
      [2, 4],
    );
  });

  it('saves and loads the same index', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-exact-'));
    try {
      const index = new ExactIndex(3);
      index.add(7, [1, 2, 3]);
      index.add(8, [3, 2, 1]);
      index.add(9, [0, 0, 1]);
      index.remove(8);
      const file = path.join(dir, 'exact.idx');
      index.save(file);
      const back = ExactIndex.load(file);
      assert.equal(back.size, 2);
      assert.deepEqual(round(back.search([0, 0, 1], 5)), round(index.search([0, 0, 1], 5)));
      // 0.802 in float32; int8 codes of [1, 2, 3] round it to 0.801.
      assert.deepEqual(round(back.search([0, 0, 1], 5)), [
        [9, 1],
        [7, 0.801],
      ]);
      fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 30));
      assert.throws(() => ExactIndex.load(file), /is truncated or damaged/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects bad labels and dimensions with clear errors', () => {
    const index = new ExactIndex(2);
    assert.throws(() => index.add(-1, [1, 0]), /label must be an integer in 0..4294967295 \(got -1\)/);
    assert.throws(() => index.add(1.5, [1, 0]), /got 1.5/);
    assert.throws(() => index.add(1, [1, 0, 0]), /expected a 2-dimension vector, got 3/);
    assert.deepEqual(index.search([1, 0], 5), []);
  });
});
