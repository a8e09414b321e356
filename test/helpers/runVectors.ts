/**
 * The packaged model's vectors of one corpus, kept for the rest of the test run: the files that
 * rank the same corpus with the local model embed it once per run, not once per file. Embedding
 * is what costs (the rclone copies: about 40 s of CPU); those files test how the vectors rank,
 * which the very vectors read back from the engine's vector cache leave as they were (the cache
 * is how a restarted engine gets them too).
 *
 * Each engine gets a cache folder of its own, seeded with a copy of the vectors kept so far: the
 * vector cache is one append-only file per model that one process writes. The first file to have
 * embedded the corpus keeps its file (copied, then renamed into place: another file never reads
 * half of one). The run's folder is `$WSCTX_TEST_RUN_DIR` (.mocharc.cjs makes it for `npm test`,
 * so both workers share it); without it, this process's own. `$WSCTX_TEST_VECTORS` (a folder a
 * developer keeps between runs) is used as it is.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tempDir } from './tempWorkspace';

const RUN_DIR = process.env.WSCTX_TEST_RUN_DIR ?? ownRunDir();

function ownRunDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-test-run-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface CorpusVectorCache {
  /** The engine's cache folder (`cacheDir`). */
  dir: string;
  /** Keeps the vectors now in `dir` for the files that rank `corpus` after this one. */
  keep(): void;
}

/** A cache folder for an engine embedding `corpus`, holding whatever vectors of it the run has kept. */
export function corpusVectorCache(corpus: string): CorpusVectorCache {
  const own = process.env.WSCTX_TEST_VECTORS;
  if (own) return { dir: own, keep: () => undefined };
  const dir = tempDir('vectors');
  const kept = path.join(RUN_DIR, 'vectors', corpus);
  if (fs.existsSync(kept)) fs.cpSync(kept, path.join(dir, 'vectors'), { recursive: true });
  return {
    dir,
    keep: () => {
      if (fs.existsSync(kept)) return;
      const staging = `${kept}.${process.pid}.tmp`;
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      fs.cpSync(path.join(dir, 'vectors'), staging, { recursive: true });
      try {
        fs.renameSync(staging, kept);
      } catch {
        // Another file kept the same vectors first.
        fs.rmSync(staging, { recursive: true, force: true });
      }
    },
  };
}
