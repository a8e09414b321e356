/**
 * The opening every saved vector file shares (the exact index's file, the HNSW index's int8 store
 * beside hnswlib's own): 4 latin1 magic characters, a u32 format and a u32 dimension,
 * little-endian. A file's own fields follow at VECTOR_FILE_HEADER_BYTES.
 */
export const VECTOR_FILE_HEADER_BYTES = 12;

export function writeVectorFileHeader(buf: Buffer, magic: string, format: number, dimension: number): void {
  buf.write(magic, 0, 'latin1');
  buf.writeUInt32LE(format, 4);
  buf.writeUInt32LE(dimension, 8);
}

/**
 * Checks the opening of `file`'s bytes (at least `minBytes`, `what` naming the kind of file in
 * the error) and returns them 4-byte aligned, as the int8 store's typed arrays need, with the
 * dimension. Errors name the file: not this kind, another format, truncated or damaged.
 */
export function readVectorFileHeader(
  buf: Buffer,
  file: string,
  expected: { magic: string; format: number; what: string; minBytes: number },
): { buf: Buffer; dimension: number } {
  const aligned = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
  const bad = (why: string) => new Error(`vector index: ${file} ${why}`);
  if (aligned.length < expected.minBytes || aligned.toString('latin1', 0, 4) !== expected.magic)
    throw bad(`is not ${expected.what}`);
  const format = aligned.readUInt32LE(4);
  if (format !== expected.format) throw bad(`has format ${format}, expected ${expected.format}`);
  const dimension = aligned.readUInt32LE(8);
  if (dimension < 1) throw bad('is truncated or damaged');
  return { buf: aligned, dimension };
}
