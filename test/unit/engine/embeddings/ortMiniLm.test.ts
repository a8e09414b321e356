import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalEmbedder } from '../../../../server/src/engine/embeddings/localEmbedder';
import {
  buildMiniLmOnnx,
  checkBertConfig,
  quantizeColumns,
} from '../../../../server/src/engine/embeddings/miniLmOnnxGraph';
import {
  loadMiniLmTokenizer,
  miniLmFiles,
  MINILM_MAX_PIECES,
} from '../../../../server/src/engine/embeddings/ortMiniLmModel';
import { onnx } from 'onnx-proto';
import { readSafetensors, tensorToFloat32 } from '../../../../server/src/engine/embeddings/safetensors';
import { dot } from '../../../../server/src/engine/embeddings/vectorMath';
import { sharedLocalEmbedder } from './sharedLocalEmbedder';

/** Fixed texts of the kinds the index embeds: questions, doc lines, a catalog line, a long page. */
const TEXTS = [
  'invoice retries',
  'who owns billing-worker?',
  'Dunning runbook > Retry schedule\n\nA failed charge is retried after 1, 3 and 7 days; after the third failure the account is suspended and the customer is emailed.',
  'billing-worker is a Component of system payments, owned by group:team-payments, and depends on resource:invoices-db.',
  'How to rotate TLS certificates for the public ingress: renew with cert-manager, then roll the gateway pods.',
  'Deploy and rollback > Rolling back\n\nUse `helm rollback frontend <revision>`; check the release history first with `helm history frontend`.',
  Array.from(
    { length: 60 },
    (_, i) => `Step ${i}: the reconciler compares the desired state with the live objects and applies the difference.`,
  ).join(' '),
];

describe('engine/embeddings on ONNX Runtime (MiniLM)', function () {
  this.timeout(120_000);

  it('tokenizes as BERT uncased WordPiece: the reference ids, truncated to 256 pieces with [SEP] last', () => {
    const tokenizer = loadMiniLmTokenizer(miniLmFiles().tokenizer);
    // bert-base-uncased's vocabulary: [CLS] 101, [SEP] 102, "hello" 7592, "," 1010, "world" 2088, "!" 999.
    assert.deepEqual(tokenizer.encode('Hello, World!'), [101, 7592, 1010, 2088, 999, 102]);
    // Google's BERT README example: "John Johanson's house" -> john johan ##son ' s house.
    assert.deepEqual(tokenizer.encode("John Johanson's house"), [101, 2198, 13093, 3385, 1005, 1055, 2160, 102]);
    // Accents are stripped and case folded, as the uncased model was trained.
    assert.deepEqual(tokenizer.encode('Café'), tokenizer.encode('cafe'));
    assert.deepEqual(tokenizer.encode(''), [101, 102]);
    const long = tokenizer.encode('word '.repeat(1000));
    assert.equal(long.length, MINILM_MAX_PIECES);
    assert.deepEqual([long[0], long[1], long[254], long[255]], [101, 2773, 2773, 102]);
  });

  it('quantizes each weight column symmetrically to int8 with its own scale', () => {
    // 2 x 3, row-major: columns (1, -2), (0, 0), (0.5, 0.25).
    const { values, scales } = quantizeColumns(new Float32Array([1, 0, 0.5, -2, 0, 0.25]), 2, 3);
    assert.deepEqual(
      [...scales].map((s) => Math.round(s * 1e6) / 1e6),
      [Math.round((2 / 127) * 1e6) / 1e6, 1, Math.round((0.5 / 127) * 1e6) / 1e6],
    );
    assert.deepEqual([...values], [64, 0, 127, -127, 0, 64]);
  });

  it('reads the shipped safetensors and refuses a config it cannot build', () => {
    const files = miniLmFiles();
    const tensors = readSafetensors(fs.readFileSync(files.weights));
    const word = tensors.get('embeddings.word_embeddings.weight')!;
    assert.deepEqual([word.dtype, word.shape], ['F16', [30522, 384]]);
    const gamma = tensorToFloat32(tensors.get('embeddings.LayerNorm.weight')!);
    assert.equal(gamma.length, 384);
    assert.ok(gamma.every((x) => Number.isFinite(x) && Math.abs(x) < 10));
    assert.throws(() => readSafetensors(new Uint8Array(4), 'x.safetensors'), /x\.safetensors: too short/);
    const config = JSON.parse(fs.readFileSync(files.config, 'utf8'));
    assert.throws(() => checkBertConfig({ ...config, hidden_act: 'relu' }), /hidden_act 'relu', only 'gelu'/);
    assert.throws(
      () => checkBertConfig({ ...config, num_hidden_layers: 0 }),
      /num_hidden_layers must be a positive integer/,
    );
    assert.throws(() => buildMiniLmOnnx(new Uint8Array(16), config, 'int8'), /bad safetensors header length/);
  });

  it("writes the unpadded graph on ORT's fused kernels: ids in, 24 int8 products, one attention kernel per layer", () => {
    const files = miniLmFiles();
    const bytes = buildMiniLmOnnx(
      fs.readFileSync(files.weights),
      JSON.parse(fs.readFileSync(files.config, 'utf8')),
      'int8',
    );
    const graph = onnx.ModelProto.decode(bytes).graph!;
    // No attention mask: every run holds whole texts (ortMiniLmModel.ts runs one text at a time).
    assert.deepEqual(
      graph.input!.map((i) => i.name),
      ['input_ids'],
    );
    assert.deepEqual(
      graph.output!.map((o) => o.name),
      ['embedding'],
    );
    const count = (op: string) => graph.node!.filter((n) => n.opType === op).length;
    // Per layer: Q/K/V packed, attention output, two feed-forward products.
    assert.equal(count('DynamicQuantizeMatMul'), 6 * 4);
    assert.equal(count('MultiHeadAttention'), 6);
    assert.equal(count('Gelu'), 6);
    assert.ok(
      graph
        .node!.filter((n) => ['DynamicQuantizeMatMul', 'MultiHeadAttention', 'Gelu'].includes(n.opType!))
        .every((n) => n.domain === 'com.microsoft'),
    );
    const qkv = graph.initializer!.find((t) => t.name === 'encoder.layer.0.attention.self.qkv.weight_q')!;
    assert.deepEqual([qkv.dataType, qkv.dims!.map(Number)], [onnx.TensorProto.DataType.INT8, [384, 1152]]);
  });

  it('gives a text the same vector alone and in a batch of others (int8 scales belong to one text)', async () => {
    const embedder = sharedLocalEmbedder('minilm');
    const batch = await embedder.embed(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) {
      const alone = await embedder.embedQuery(TEXTS[i]);
      assert.ok(dot(alone, batch[i]) > 0.99999, `text ${i}: alone vs in the batch, cosine ${dot(alone, batch[i])}`);
    }
  });

  it('agrees with the WASM engine on fixed texts: int8 within cosine 0.98, fp32 within 0.999', async () => {
    const wasm = await sharedLocalEmbedder('minilm-wasm').embed(TEXTS);
    const int8 = await sharedLocalEmbedder('minilm').embed(TEXTS);
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-onnx-'));
    const fp32Embedder = new LocalEmbedder({ precision: 'fp32', workers: 1, threads: 1, modelCacheDir: cacheDir });
    try {
      const fp32 = await fp32Embedder.embed(TEXTS);
      for (let i = 0; i < TEXTS.length; i++) {
        assert.ok(dot(int8[i], wasm[i]) > 0.98, `text ${i}: int8 cosine ${dot(int8[i], wasm[i])}`);
        assert.ok(dot(fp32[i], wasm[i]) > 0.999, `text ${i}: fp32 cosine ${dot(fp32[i], wasm[i])}`);
      }
      // The assembled model was written to the cache folder, keyed by weights version and graph version.
      assert.deepEqual(
        fs.readdirSync(cacheDir).filter((f) => !f.endsWith('.tmp')),
        ['minilm-fp32-0.1.0-g3.onnx'],
      );
    } finally {
      await fp32Embedder.dispose();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
    // Meaning survives the engine change: the question is nearer the dunning runbook than the TLS page, as on WASM.
    assert.ok(dot(wasm[0], wasm[2]) > dot(wasm[0], wasm[4]));
    assert.ok(
      dot(int8[0], int8[2]) > dot(int8[0], int8[4]),
      `dunning ${dot(int8[0], int8[2])} vs TLS ${dot(int8[0], int8[4])}`,
    );
  });
});
