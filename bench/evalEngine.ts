/**
 * The engine an eval dataset is answered by: words only (embeddings off, the default), or hybrid
 * with the packaged local model (`--embeddings local`), in which case every section is embedded
 * before the first question, so each answer ranks with all of its vectors. Vectors are cached by
 * digest in a fixed folder under the system temp directory, so a second run only embeds what
 * changed; the embedding time reported is this run's. The index itself is built afresh every run,
 * in both modes: the engine would restore the snapshot it saved in that folder, whose postings
 * it keeps for unchanged files, so a change to what is indexed would be measured on the old
 * terms until the snapshot format is bumped.
 */
import { rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../server/src/engine/engine';
import { snapshotFileFor, vectorIndexFileFor } from '../server/src/engine/indexSnapshotFile';
import type { IndexState } from '../server/src/engine/indexState';
import type { SourceGlobs } from '../server/src/engine/workspace/globs';

export type EvalEmbeddings = 'off' | 'local';

export interface MeaningFigures {
  model: string | null;
  sectionsWithVectors: number;
  sections: number;
  /** Wall time spent embedding in this run (cached vectors cost nothing), ms. */
  embedMs: number;
  error: string | null;
}

export interface EvalEngine {
  engine: Engine;
  state: IndexState;
  indexMs: number;
  /** Present when embeddings were on. */
  meaning?: MeaningFigures;
}

/** Label of our system in the eval tables. */
export function ourSystemLabel(embeddings: EvalEmbeddings): string {
  return embeddings === 'off' ? 'workspace_context (words only)' : 'workspace_context (hybrid, local model)';
}

/**
 * An engine over `folders` (one, or several served side by side), its first pass done and, with
 * `local` embeddings, every section embedded. `globs` replaces default source globs field by field.
 */
export async function startEvalEngine(
  dataset: string,
  folders: { name: string; absPath: string } | readonly { name: string; absPath: string }[],
  embeddings: EvalEmbeddings,
  log: (m: string) => void,
  globs: Partial<SourceGlobs> = {},
): Promise<EvalEngine> {
  const served = Array.isArray(folders) ? [...folders] : [folders as { name: string; absPath: string }];
  const cacheDir = path.join(os.tmpdir(), 'wsctx-eval-cache', dataset);
  if (embeddings === 'local') {
    // The vectors stay (they are keyed by each text's digest); the index and its vector index go.
    const snapshot = snapshotFileFor(cacheDir, served);
    for (const file of [snapshot, vectorIndexFileFor(snapshot)]) rmSync(file, { force: true });
  }
  const engine = new Engine({
    folders: served,
    settings: { refreshAfterMs: 0, globs },
    ...(embeddings === 'local'
      ? { embeddings: { provider: 'local' as const }, cacheDir }
      : { embeddings: { provider: 'off' as const } }),
    log: (m) => {
      if (m.includes('[meaning]')) log(`${dataset}: ${m}`);
    },
  });
  const t = performance.now();
  const state = await engine.waitForIndex();
  const indexMs = performance.now() - t;
  if (embeddings === 'off') return { engine, state, indexMs };

  const started = performance.now();
  let last = started;
  const unsubscribe = engine.onDidChangeMeaning(() => {
    const progress = engine.status().meaning?.embedding;
    if (!progress || performance.now() - last < 10_000) return;
    last = performance.now();
    log(`${dataset}: embedding ${progress.done}/${progress.total} sections`);
  });
  await engine.waitForMeaning();
  unsubscribe();
  const status = engine.status().meaning;
  return {
    engine,
    state,
    indexMs,
    meaning: {
      model: status?.model ?? null,
      sectionsWithVectors: status?.sectionsWithVectors ?? 0,
      sections: state.counts.sections,
      embedMs: performance.now() - started,
      error: status?.lastError ?? null,
    },
  };
}
