import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { embedTextsCached } from '../../../../server/src/engine/embeddings/cachedEmbedding';
import type { Embedder, ProgressFn } from '../../../../server/src/engine/embeddings/embedder';
import { textDigest, VectorCache, vectorCacheFileName } from '../../../../server/src/engine/embeddings/vectorCache';
import { sharedLocalEmbedder } from './sharedLocalEmbedder';

/** Passes calls through to a real embedder and counts what it was asked to embed. */
class CountingEmbedder implements Embedder {
  calls = 0;
  texts: string[] = [];
  constructor(private readonly inner: Embedder) {}
  get id() {
    return this.inner.id;
  }
  get dimension() {
    return this.inner.dimension;
  }
  get maxInputTokens() {
    return this.inner.maxInputTokens;
  }
  get similarity() {
    return this.inner.similarity;
  }
  embed(texts: readonly string[], signal?: AbortSignal, onProgress?: ProgressFn) {
    this.calls++;
    this.texts.push(...texts);
    return this.inner.embed(texts, signal, onProgress);
  }
  embedQuery(text: string, signal?: AbortSignal) {
    return this.inner.embedQuery(text, signal);
  }
  async dispose() {}
}

const TEXTS = [
  'billing-worker retries failed invoices',
  'rotate TLS certificates before they expire',
  'billing-worker retries failed invoices', // a duplicate is embedded once
  'the payments team owns billing-worker',
  'deploy the frontend with helm',
  'dunning emails go to the billing contact',
];
const DISTINCT = 5;
const MODEL = 'test:model';

function vec(dim: number, seed: number): Float32Array {
  return Float32Array.from({ length: dim }, (_, i) => Math.sin(seed * 31 + i));
}
/** Header bytes for a model id (16 + id padded to 4) and bytes per one-vector record. */
const headerBytes = (id: string) => 16 + Math.ceil(Buffer.byteLength(id) / 4) * 4;
const recordBytes = (dim: number) => 40 + dim * 4;

describe('engine/embeddings/vectorCache', function () {
  // Loading a model in a worker takes seconds on a busy machine (mocha's default is 2 s).
  this.timeout(60_000);
  let dir: string;
  let logs: string[];
  const log = (m: string) => logs.push(m);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-vcache-'));
    logs = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a second run over the same texts embeds nothing and returns the same vectors', async () => {
    const first = new CountingEmbedder(sharedLocalEmbedder());
    const cache = VectorCache.open({ dir, modelId: first.id, dimension: first.dimension, log });
    const progress: number[] = [];
    const run1 = await embedTextsCached(first, TEXTS, { cache, onProgress: (d) => progress.push(d) });
    cache.close();
    assert.equal(run1.embedded, DISTINCT);
    assert.equal(run1.cached, 0);
    assert.deepEqual(first.texts.sort(), [...new Set(TEXTS)].sort());
    assert.deepEqual(progress, [0, 6]);
    assert.equal(fs.statSync(cache.file).size, headerBytes(first.id) + DISTINCT * recordBytes(first.dimension));

    const second = new CountingEmbedder(sharedLocalEmbedder());
    const reopened = VectorCache.open({ dir, modelId: second.id, dimension: second.dimension, log });
    assert.equal(reopened.size, DISTINCT);
    const run2 = await embedTextsCached(second, TEXTS, { cache: reopened });
    assert.equal(second.calls, 0);
    assert.equal(run2.embedded, 0);
    assert.equal(run2.cached, TEXTS.length);
    run2.vectors.forEach((v, i) => assert.deepEqual([...v], [...run1.vectors[i]]));
    assert.deepEqual(logs, []);
  });

  it('discards a corrupt file with a log line, then rebuilds it', async () => {
    const embedder = new CountingEmbedder(sharedLocalEmbedder());
    const cache = VectorCache.open({ dir, modelId: embedder.id, log });
    await embedTextsCached(embedder, TEXTS, { cache });
    cache.close();
    const bytes = fs.readFileSync(cache.file);
    const at = headerBytes(embedder.id) + recordBytes(embedder.dimension) + 40 + 100; // a float in the second record
    bytes[at] ^= 0xff;
    fs.writeFileSync(cache.file, bytes);

    const damaged = VectorCache.open({ dir, modelId: embedder.id, log });
    assert.equal(damaged.size, 0);
    assert.deepEqual(logs, [
      `vector cache: discarding ${cache.file}: it has a record whose checksum fails at byte ${headerBytes(embedder.id) + recordBytes(embedder.dimension)}`,
    ]);
    assert.equal(fs.existsSync(cache.file), false);

    const again = new CountingEmbedder(sharedLocalEmbedder());
    assert.equal((await embedTextsCached(again, TEXTS, { cache: damaged })).embedded, DISTINCT);
    damaged.close();
    assert.equal(VectorCache.open({ dir, modelId: embedder.id, log }).size, DISTINCT);
  });

  it('discards a file written for another model id or dimension', () => {
    const cache = VectorCache.open({ dir, modelId: MODEL, dimension: 4, log });
    cache.put(textDigest('a'), [vec(4, 1)]);
    cache.close();
    fs.copyFileSync(cache.file, path.join(dir, vectorCacheFileName('other:model')));

    const other = VectorCache.open({ dir, modelId: 'other:model', log });
    assert.equal(other.size, 0);
    assert.deepEqual(logs, [
      `vector cache: discarding ${other.file}: it was written by model '${MODEL}', not 'other:model'`,
    ]);

    const wider = VectorCache.open({ dir, modelId: MODEL, dimension: 8, log });
    assert.equal(wider.size, 0);
    assert.equal(logs[1], `vector cache: discarding ${cache.file}: it holds 4-dimension vectors, expected 8`);
  });

  it('discards a file that is not a cache or has another format version', () => {
    const file = path.join(dir, vectorCacheFileName(MODEL));
    fs.writeFileSync(file, 'hello, this is not a cache');
    assert.equal(VectorCache.open({ dir, modelId: MODEL, log }).size, 0);
    const header = Buffer.alloc(16);
    header.write('WSCV', 0, 'latin1');
    header.writeUInt32LE(99, 4);
    fs.writeFileSync(file, header);
    assert.equal(VectorCache.open({ dir, modelId: MODEL, log }).size, 0);
    assert.deepEqual(logs, [
      `vector cache: discarding ${file}: it is not a vector cache file`,
      `vector cache: discarding ${file}: it has format 99, expected 1`,
    ]);
  });

  it('keeps the complete records of a file torn mid-append', () => {
    const cache = VectorCache.open({ dir, modelId: MODEL, dimension: 4, log });
    cache.putMany([
      [textDigest('a'), [vec(4, 1)]],
      [textDigest('b'), [vec(4, 2), vec(4, 3)]],
    ]);
    cache.close();
    const whole = fs.statSync(cache.file).size;
    fs.appendFileSync(cache.file, Buffer.alloc(30, 7));

    const reopened = VectorCache.open({ dir, modelId: MODEL, log });
    assert.equal(reopened.size, 2);
    assert.deepEqual([...reopened.get(textDigest('b'))![1]], [...vec(4, 3)]);
    assert.deepEqual(logs, [`vector cache: ${cache.file} ends inside a record; dropping the last 30 bytes`]);
    assert.equal(fs.statSync(cache.file).size, whole);
    reopened.put(textDigest('c'), [vec(4, 4)]);
    reopened.close();
    assert.equal(VectorCache.open({ dir, modelId: MODEL, log }).size, 3);
  });

  it('compacts to the live digests atomically', () => {
    const cache = VectorCache.open({ dir, modelId: MODEL, dimension: 4, log });
    for (const [i, t] of ['a', 'b', 'c'].entries()) cache.put(textDigest(t), [vec(4, i)]);
    cache.put(textDigest('a'), [vec(4, 9)]); // supersedes the first record
    assert.equal(cache.staleRecords, 1);
    cache.compact(new Set([textDigest('a'), textDigest('c')]));
    assert.equal(cache.size, 2);
    assert.equal(cache.staleRecords, 0);
    assert.deepEqual(fs.readdirSync(dir), [path.basename(cache.file)]);
    assert.equal(fs.statSync(cache.file).size, headerBytes(MODEL) + 2 * recordBytes(4));
    cache.put(textDigest('d'), [vec(4, 5)]);
    cache.close();
    const back = VectorCache.open({ dir, modelId: MODEL, log });
    assert.equal(back.size, 3);
    assert.equal(back.has(textDigest('b')), false);
    assert.deepEqual([...back.get(textDigest('a'))![0]], [...vec(4, 9)]);
  });

  it('refuses vectors of another dimension and keys that are not digests', () => {
    const cache = VectorCache.open({ dir, modelId: MODEL, dimension: 4, log });
    assert.throws(
      () => cache.put(textDigest('a'), [vec(3, 1)]),
      /a 3-dimension vector cannot join a 4-dimension cache for test:model/,
    );
    assert.throws(() => cache.put('abc', [vec(4, 1)]), /'abc' is not a SHA-256 hex digest/);
    cache.close();
  });

  it('learns its dimension from the first vectors when none is given', () => {
    const cache = VectorCache.open({ dir, modelId: MODEL, log });
    assert.equal(cache.dimension, 0);
    cache.put(textDigest('a'), [vec(6, 1)]);
    assert.equal(cache.dimension, 6);
    cache.close();
    assert.equal(VectorCache.open({ dir, modelId: MODEL, log }).dimension, 6);
  });

  it('reads the file only at first use, and each record from the file when asked (fresh arrays)', () => {
    const cache = VectorCache.open({ dir, modelId: MODEL, dimension: 4, log });
    for (const [i, t] of ['a', 'b', 'c'].entries()) cache.put(textDigest(t), [vec(4, i), vec(4, i + 10)]);
    cache.close();
    // A damaged last record: nothing is said at open (not read yet), the tear is found at first use.
    fs.appendFileSync(cache.file, Buffer.alloc(7));
    const back = VectorCache.open({ dir, modelId: MODEL, log });
    assert.deepEqual(logs, []);
    assert.equal(back.has(textDigest('b')), true);
    assert.match(logs.join('\n'), /ends inside a record; dropping the last 7 bytes/);
    const one = back.get(textDigest('b'))!;
    assert.deepEqual(
      one.map((v) => [...v]),
      [[...vec(4, 1)], [...vec(4, 11)]],
    );
    one[0][0] = 99; // a caller's copy: the cache still answers with the stored vector
    assert.deepEqual([...back.get(textDigest('b'))![0]], [...vec(4, 1)]);
    // Appends after the compaction land at the offsets the map records.
    back.put(textDigest('d'), [vec(4, 7)]);
    assert.deepEqual([...back.get(textDigest('d'))![0]], [...vec(4, 7)]);
    assert.deepEqual([...back.get(textDigest('c'))![1]], [...vec(4, 12)]);
    back.close();
  });
});
