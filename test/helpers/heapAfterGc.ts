/**
 * Heap in use after a full collection, for tests that check what a structure keeps alive (a
 * slice pinning its whole source text): sizes in tens of megabytes against a few of noise.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;

export function heapAfterGc(): number {
  if (!gc) {
    // A file run by mocha without --expose-gc (npm test and test:file pass it): V8's flag set
    // late, which V8 allows for this one but not as a rule, so only as a fallback. The flag must
    // be set before a context is made for `gc` to be defined in it.
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Builds one product from each of `count` texts (`text(i)`), keeping every product and dropping
 * the texts, and returns the products with the heap they keep and the texts' total length: a
 * product that holds slices of its text keeps the whole text alive beside its own copy.
 */
export function heapKeptBy<T>(
  count: number,
  text: (i: number) => string,
  build: (text: string, i: number) => T,
): { products: T[]; kept: number; textBytes: number } {
  const before = heapAfterGc();
  let textBytes = 0;
  const products: T[] = [];
  for (let i = 0; i < count; i++) {
    const t = text(i);
    textBytes += t.length;
    products.push(build(t, i));
  }
  return { products, kept: heapAfterGc() - before, textBytes };
}
