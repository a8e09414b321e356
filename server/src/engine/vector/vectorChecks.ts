/** Argument checks shared by the vector store and indexes. */

/** Labels are stored as uint32. */
export function checkLabel(label: number): void {
  if (!Number.isInteger(label) || label < 0 || label > 0xffffffff) {
    throw new RangeError(`vector index: label must be an integer in 0..4294967295 (got ${label})`);
  }
}

export function checkDimension(vector: ArrayLike<number>, dimension: number): void {
  if (vector.length !== dimension) {
    throw new RangeError(`vector index: expected a ${dimension}-dimension vector, got ${vector.length}`);
  }
}
