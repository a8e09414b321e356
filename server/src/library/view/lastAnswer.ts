/**
 * The last answer of a pure function of some lists of objects, given again while the lists hold
 * the same objects in the same order. A new index state after an edit keeps the same document,
 * section and entity objects for everything the edit left alone, and none of them is changed once
 * made: what the library builds from them alone (its pages' subjects, its near-duplicate pairs,
 * its name dictionary) is then the last state's, without building it again. One answer is kept,
 * the newest: a process serves one library at a time, and another library only builds anew, as
 * it would without this.
 */
export class LastAnswer<V> {
  private inputs: (readonly unknown[])[] | undefined;
  private value: V | undefined;

  /** The last value when `inputs` hold what they held then, item by item; else `make()`, kept. */
  get(inputs: readonly (readonly unknown[])[], make: () => V): V {
    if (this.inputs && sameLists(this.inputs, inputs)) return this.value as V;
    const value = make();
    this.inputs = inputs.map((list) => [...list]);
    this.value = value;
    return value;
  }
}

function sameLists(a: readonly (readonly unknown[])[], b: readonly (readonly unknown[])[]): boolean {
  return (
    a.length === b.length && a.every((list, i) => list.length === b[i].length && list.every((x, j) => x === b[i][j]))
  );
}
