/**
 * The assembled ONNX model, cached as a file in the cache folder so later starts read 59-90 MB
 * instead of converting 22 M weights again (about a second of JavaScript). The key names the
 * model, precision, weights package version and graph version; any other change gets a new file.
 * Written to a temporary file and renamed, so a reader never sees half a file; the query and bulk
 * workers of a first start may both build it, and the last rename wins (the files are equal).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** The bytes for `key`: read from `dir/<key>.onnx`, else built and written there (when `dir` is given). */
export function cachedModelBytes(
  dir: string | undefined,
  key: string,
  build: () => Uint8Array,
  log?: (message: string) => void,
): Uint8Array {
  if (!dir) return build();
  const file = path.join(dir, `${key.replace(/[^A-Za-z0-9.-]+/g, '-')}.onnx`);
  if (existsSync(file)) {
    try {
      return readFileSync(file);
    } catch (err) {
      log?.(`embeddings: could not read ${file} (${(err as Error).message}); building the model again`);
    }
  }
  const bytes = build();
  try {
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(temp, bytes);
    renameSync(temp, file);
  } catch (err) {
    log?.(`embeddings: could not cache the model in ${file} (${(err as Error).message})`);
  }
  return bytes;
}
