/**
 * Heap in use after a full collection, for tests that check what a structure keeps alive (a
 * slice pinning its whole source text): sizes in tens of megabytes against a few of noise.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

export function heapAfterGc(): number {
  if (!gc) {
    // The flag must be set before a context is made for `gc` to be defined in it.
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
